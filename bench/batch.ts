/**
 * The batch bench (issue 20): 24 port changes on one 48-port lab switch, sent as one port
 * batch (POST .../batch/) against the same 24 changes as 24 single calls, on the same
 * switch with the bench's latency. Two rows: `batch-24` (one call: its wall time, the
 * device requests and critical-path round trips it cost; `baseline_ms` and
 * `baseline_requests` are the singles', `ratio` batch / singles) and `singles-24` (the 24
 * calls one after another: their wall time, requests and round trips added up).
 *
 * The 24 changes are a helpdesk's mix on 24 access ports: 8 VLAN moves, 8 descriptions,
 * 8 admin states, alternating between two values per run so that nothing is the same
 * value. A batch reads the device once before its writes (Driver.learnInterfaces: one read
 * plan for the 24 ports, the interface tables walked as a learn walks them) and once after
 * (the same for the touched ports, compared with what each item meant), and sends each
 * change without the read-back a single call makes; its VLAN moves build on the Q-BRIDGE
 * bitmaps the one read gave, kept current by the setters (app/port-batch.ts). So at the
 * device it costs a learn, the 24 SETs and a read: at 5 ms, 38 requests and 28 round trips
 * against the singles' 168 and 96.
 */
import { startLabSwitch } from "../lab";
import { fixture, Statuses, type ScenarioOptions } from "./scenarios";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, summary } from "./stats";
import type { components } from "../generated/api";

type SwitchInfo = components["schemas"]["SwitchInfo"];

const ITEMS = 24;

export async function batchScenario(o: ScenarioOptions): Promise<ScenarioResult[]> {
  const f = await fixture();
  const lab = await startLabSwitch({ profile: "generic", ports: 48, poePorts: "all", latencyMs: o.latencyMs, seed: 1 });
  try {
    const id = await f.app.addDevice("batch-switch", [f.group], lab);
    const base = `/api/switches/${f.group}/${id}`;
    const view = await f.app.request("GET", `${base}/`, { token: f.token });
    if (view.status !== 200)
      throw new Error(`basic view of the batch lab: ${view.status} ${JSON.stringify(view.body)}`);
    const info = view.body as SwitchInfo;
    const ports = info.interfaces
      .filter((i) => i.manageable && i.mode === "Access" && String(i.name).startsWith("GigabitEthernet"))
      .slice(0, ITEMS);
    if (ports.length < ITEMS)
      throw new Error(`the batch lab has ${ports.length} manageable access ports, not ${ITEMS}`);
    const vlans = Object.keys(info.vlans).map(Number);
    const [va, vb] = [10, 30, 20, 1].filter((v) => vlans.includes(v));
    /** run r's 24 changes: VLAN, description, state in turn, each port its own, values alternating by run */
    const items = (r: number) =>
      ports.map((p, k) => {
        const even = r % 2 === 0;
        if (k % 3 === 0) return { interface: p.id, vlan: even ? va : vb };
        if (k % 3 === 1) return { interface: p.id, description: even ? `bench batch ${k}` : `bench batch ${k}b` };
        return { interface: p.id, state: even ? "off" : "on" };
      });
    // the ports start where run -1 leaves them (the warm-up below), so every measured change is one
    const singleUrl = (item: Record<string, unknown>) => {
      const field = Object.keys(item).find((k) => k !== "interface")!;
      const path = field === "vlan" ? "vlan" : field === "description" ? "description" : "state";
      return [`${base}/interface/${String(item.interface)}/${path}/`, { [field]: item[field] }] as const;
    };

    const batchRuns = { ms: [] as number[], requests: [] as number[], roundTrips: [] as number[] };
    const singleRuns = { ms: [] as number[], requests: [] as number[], roundTrips: [] as number[] };
    const batchStatuses = new Statuses();
    const singleStatuses = new Statuses();
    const notDone: string[] = [];
    // warm-up: the driver choice is stored, the ports get run 1's values
    await f.app.request("POST", `${base}/batch/`, { token: f.token, json: { items: items(1) } });
    for (let r = 0; r < o.runs; r++) {
      // a batch (values of run 2r), then the singles (values of run 2r+1): each changes every port
      lab.counters.reset();
      f.app.takeDrivers();
      const a = await f.app.request("POST", `${base}/batch/`, { token: f.token, json: { items: items(2 * r) } });
      batchStatuses.add(a);
      const body = a.body as { items?: Array<{ result: string; reason?: string }> };
      for (const i of body.items ?? []) if (i.result !== "done") notDone.push(i.reason ?? i.result);
      batchRuns.ms.push(a.ms);
      batchRuns.requests.push(lab.counters.requests);
      batchRuns.roundTrips.push(f.app.takeDrivers().roundTrips);

      lab.counters.reset();
      let ms = 0;
      for (const item of items(2 * r + 1)) {
        const [url, json] = singleUrl(item);
        const s = await f.app.request("POST", url, { token: f.token, json });
        singleStatuses.add(s);
        ms += s.ms;
      }
      singleRuns.ms.push(ms);
      singleRuns.requests.push(lab.counters.requests);
      singleRuns.roundTrips.push(f.app.takeDrivers().roundTrips);
    }
    if (notDone.length) o.log(`  batch items not done: ${[...new Set(notDone)].slice(0, 3).join("; ")}`);
    const b = summary(batchRuns.ms);
    const s = summary(singleRuns.ms);
    const common = { ports: 48, latency_ms: o.latencyMs };
    o.log(
      `  ${ITEMS} changes: batch ${b.median} ms, ${median(batchRuns.requests)} requests, ${median(batchRuns.roundTrips)} round trips; ` +
        `singles ${s.median} ms, ${median(singleRuns.requests)} requests, ${median(singleRuns.roundTrips)} round trips (1 HTTP call vs ${ITEMS})`,
    );
    return [
      scenarioRow(`batch-${ITEMS}`, {
        ...common,
        requests: median(batchRuns.requests),
        round_trips: median(batchRuns.roundTrips),
        median_ms: b.median,
        p95_ms: b.p95,
        baseline_ms: s.median,
        baseline_requests: median(singleRuns.requests),
        ratio: b.median / s.median,
        errors: batchStatuses.errors + notDone.length,
        statuses: batchStatuses.counts,
      }),
      scenarioRow(`singles-${ITEMS}`, {
        ...common,
        requests: median(singleRuns.requests),
        round_trips: median(singleRuns.roundTrips),
        median_ms: s.median,
        p95_ms: s.p95,
        errors: singleStatuses.errors,
        statuses: singleStatuses.counts,
      }),
    ];
  } finally {
    await f.app.close();
    await lab.stop();
  }
}
