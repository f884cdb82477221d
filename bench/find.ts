/**
 * find-mac-32: "where is it plugged in" (GET api/switches/find/) over 32 lab switches of
 * 24 ports, each answering with the bench's latency: the time to answer, the devices
 * searched (drivers opened) and the SNMP requests the switches received for one search.
 * The baseline, in the same run against the same switches, is what a person does without
 * it: open each switch's details view (its MAC table) one after another. The search runs
 * with the service's default settings (FIND_CONCURRENCY, FIND_DEADLINE_MS).
 */
import { startLabSwitch, type LabSwitch } from "../lab";
import { formatMac } from "../lab/hardware";
import { fixture, Statuses, type ScenarioOptions } from "./scenarios";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, summary } from "./stats";
import type { components } from "../generated/api";

type FindResult = components["schemas"]["FindResult"];

const SWITCHES = 32;
const PORTS = 24;

export async function findScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const f = await fixture();
  const labs: LabSwitch[] = [];
  try {
    for (let i = 0; i < SWITCHES; i++)
      labs.push(
        await startLabSwitch({
          profile: "generic",
          ports: PORTS,
          latencyMs: o.latencyMs,
          seed: 100 + i,
          name: `find-${i}`,
        }),
      );
    const ids: number[] = [];
    for (const [i, lab] of labs.entries()) ids.push(await f.app.addDevice(`find-switch-${i + 1}`, [f.group], lab));
    // a host on an access port of a switch in the middle of the list
    const target = labs[SWITCHES / 2];
    const uplink = target.model.port(PORTS).bridgePort;
    const host = target.model.fdb.find((e) => e.bridgePort !== uplink);
    if (!host) throw new Error("the target lab switch learned no host on an access port");
    const url = `/api/switches/find/?address=${encodeURIComponent(formatMac(host.mac))}`;
    const requestsNow = () => labs.reduce((n, l) => n + l.counters.requests, 0);
    const resetCounters = () => labs.forEach((l) => l.counters.reset());

    // warm-up: every switch probed once (the driver choice is stored)
    const warm = await f.app.request("GET", url, { token: f.token });
    const found = warm.body as FindResult;
    if (warm.status !== 200 || !found.matches.some((m) => m.switch_id === ids[SWITCHES / 2] && m.port === "edge"))
      throw new Error(`find did not find the host on its edge port: ${warm.status} ${JSON.stringify(warm.body)}`);

    const statuses = new Statuses();
    const ms: number[] = [];
    const requests: number[] = [];
    const searched: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      resetCounters();
      f.app.takeDrivers();
      const a = await f.app.request("GET", url, { token: f.token });
      statuses.add(a);
      ms.push(a.ms);
      requests.push(requestsNow());
      searched.push(f.app.takeDrivers().learns);
      const answer = a.body as FindResult;
      if (a.status === 200 && answer.not_answered.length > 0)
        o.log(`  run ${i}: ${answer.not_answered.length} switches did not answer (${answer.not_answered[0].code})`);
    }

    // the baseline: each switch's details view, one after another
    const baselineMs: number[] = [];
    const baselineRequests: number[] = [];
    for (let run = 0; run < o.baselineRuns; run++) {
      resetCounters();
      const start = Date.now();
      for (const id of ids) {
        const a = await f.app.request("GET", `/api/switches/${f.group}/${id}/details/`, { token: f.token });
        if (a.status !== 200) throw new Error(`details of switch ${id}: ${a.status} ${JSON.stringify(a.body)}`);
      }
      baselineMs.push(Date.now() - start);
      baselineRequests.push(requestsNow());
    }
    const s = summary(ms);
    const baseline = median(baselineMs);
    o.log(`  devices searched per call: ${median(searched)}; baseline (one after another): ${baseline} ms`);
    return scenarioRow(`find-mac-${SWITCHES}`, {
      ports: PORTS,
      latency_ms: o.latencyMs,
      requests: median(requests),
      median_ms: s.median,
      p95_ms: s.p95,
      baseline_ms: baseline,
      baseline_requests: median(baselineRequests),
      ratio: s.median / baseline,
      learns: median(searched),
      errors: statuses.errors,
      statuses: statuses.counts,
    });
  } finally {
    await Promise.all(labs.map((l) => l.stop()));
    await f.app.close();
  }
}
