/**
 * A real agent as a bench subject: Debian's snmpd (package snmpd) in a network namespace
 * of the bench's own (bench/netns.ts), its interfaces a few dozen veth links, reached
 * through a UDP relay on 127.0.0.1 that holds every answer back 5 ms (bench/delay-relay.ts;
 * the machine's kernel may have no netem qdisc). The switch is added through the service
 * like any other (driver "auto": snmpd's sysObjectID is net-snmp's, and it has IF-MIB but
 * no Q-BRIDGE, so the view is the generic driver's). The basic and the details view
 * through the API are measured against the agent's floor: Debian's snmpbulkwalk of exactly
 * the columns the view read, with the max-repetitions the engine learned, all walks
 * started at once through the same relay (the same 5 ms). Rows snmpd-basic and
 * snmpd-details: median_ms, floor_ms, ratio (view / floor), requests (datagrams the relay
 * passed for one view), round_trips (the driver's counters) and baseline_requests (the
 * floor's datagrams; its round trips, the most requests of one walk, are printed). Where the namespace cannot be made (not root, no ip, no snmpd or
 * snmpbulkwalk) there are no rows and the reason is printed.
 */
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { resetRequestSizes } from "../drivers/snmp/request-size";
import { SnmpSession } from "../drivers/snmp/session";
import type { components } from "../generated/api";
import { bulkWalksMs, learnedWalks, stopChild, type ColumnWalk } from "./agent-floor";
import { SNMPBULKWALK } from "./baseline";
import { startDelayRelay, type DelayRelay } from "./delay-relay";
import { namespaceUnavailable, startNamespace, type BenchNamespace } from "./netns";
import { scenarioRow, type ScenarioResult } from "./results";
import { fixture, type Fixture } from "./scenarios";
import { median, summary } from "./stats";

export const SNMPD = "/usr/sbin/snmpd";
const COMMUNITY = "bench-snmpd";
/** veth pairs inside the namespace: 48 links, with lo and the joining end 50 rows of ifTable */
const PAIRS = 24;
const FLOOR_RUNS = 3;

type SwitchInfo = components["schemas"]["SwitchInfo"];

interface RunningSnmpd {
  stop(): Promise<void>;
}

/** snmpd in the namespace, on its end of the joining pair, answering only the root end. */
async function startSnmpd(ns: BenchNamespace, dir: string): Promise<RunningSnmpd> {
  const conf = path.join(dir, "snmpd.conf");
  fs.writeFileSync(
    conf,
    [
      `agentaddress udp:${ns.address}:161`,
      `rocommunity ${COMMUNITY} ${ns.rootAddress}`,
      // no AgentX master, so no subagents; no line per request in the log
      "master no",
      "dontLogTCPWrappersConnects yes",
      "",
    ].join("\n"),
  );
  // -C: no configuration but this file; -f -Lo: foreground, log to stdout. Its persistent
  // state goes to the temporary folder, and it loads no MIB files (it needs none to answer).
  const agent: ChildProcess = ns.spawn(
    SNMPD,
    ["-f", "-Lo", "-C", "-c", conf, "-p", path.join(dir, "snmpd.pid"), "-M", dir, "-m", ""],
    { ...process.env, SNMP_PERSISTENT_DIR: path.join(dir, "state"), MIBS: "", MIBDIRS: dir },
  );
  let log = "";
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-4000));
  agent.stdout?.on("data", keep);
  agent.stderr?.on("data", keep);
  const stop = () => stopChild(agent);
  const probe = new SnmpSession(
    { host: ns.address, port: 161, version: "2c", community: COMMUNITY, timeout_ms: 300, retries: 0 },
    { sizeMemory: null },
  );
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      if (agent.exitCode !== null) break;
      try {
        await probe.get(["1.3.6.1.2.1.1.2.0"]);
        return { stop };
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    probe.close();
  }
  await stop();
  throw new Error(`snmpd did not answer in the namespace:\n${log.trim()}`);
}

/** The agent's floor through the relay: one snmpbulkwalk per column, all at once; ms and datagrams. */
async function floor(relay: DelayRelay, walks: ColumnWalk[]) {
  relay.reset();
  const ms = await bulkWalksMs(relay.port, COMMUNITY, walks);
  // the walks run side by side, each on a socket of its own: its requests are its round trips
  const roundTrips = Math.max(0, ...relay.traffic.bySocket.values());
  return { ms, requests: relay.traffic.requests, roundTrips };
}

/** One view measured: a warm-up that learns, then `runs` calls; then the floor of what it read. */
async function measureView(
  f: Fixture,
  relay: DelayRelay,
  url: string,
  name: string,
  o: { runs: number; latencyMs: number; log: (l: string) => void },
): Promise<ScenarioResult> {
  // what this view reads, alone: the memory of the other view's reads is forgotten
  resetRequestSizes();
  const first = await f.app.request("GET", url, { token: f.token });
  if (first.status !== 200) throw new Error(`${name}: HTTP ${first.status} ${JSON.stringify(first.body)}`);
  const info = first.body as SwitchInfo;
  const times: number[] = [];
  const requests: number[] = [];
  const roundTrips: number[] = [];
  const counted: number[] = [];
  for (let i = 0; i < o.runs; i++) {
    relay.reset();
    f.app.takeDrivers();
    const a = await f.app.request("GET", url, { token: f.token });
    if (a.status !== 200) throw new Error(`${name}: HTTP ${a.status} ${JSON.stringify(a.body)}`);
    times.push(a.ms);
    requests.push(relay.traffic.requests);
    const drivers = f.app.takeDrivers();
    roundTrips.push(drivers.roundTrips);
    counted.push(drivers.requests);
  }
  const walks = learnedWalks(relay.port, COMMUNITY);
  if (walks.length === 0) throw new Error(`${name}: the engine learned no column reads`);
  await floor(relay, walks); // warm-up, as the view had
  const floors: Array<{ ms: number; requests: number; roundTrips: number }> = [];
  for (let i = 0; i < FLOOR_RUNS; i++) floors.push(await floor(relay, walks));
  const s = summary(times);
  const floorMs = median(floors.map((x) => x.ms));
  o.log(
    `${name}: driver ${info.switch.driver}, ${info.interfaces.length} interfaces, first view ${first.ms.toFixed(0)} ms, ` +
      `${median(requests)} requests at the relay (${median(counted)} counted by the driver); floor: ` +
      `${walks.length} walks, ${median(floors.map((x) => x.roundTrips))} round trips ` +
      `(${walks.map((w) => `${w.column} -Cr${w.rows}`).join(", ")})`,
  );
  return scenarioRow(name, {
    ports: info.interfaces.length,
    latency_ms: o.latencyMs,
    requests: median(requests),
    round_trips: median(roundTrips),
    median_ms: s.median,
    p95_ms: s.p95,
    floor_ms: floorMs,
    baseline_requests: median(floors.map((x) => x.requests)),
    ratio: s.median / floorMs,
  });
}

export async function snmpdScenarios(o: {
  runs: number;
  latencyMs: number;
  log: (l: string) => void;
}): Promise<ScenarioResult[]> {
  const why = namespaceUnavailable([SNMPD, SNMPBULKWALK]);
  if (why) {
    o.log(`snmpd-basic, snmpd-details: left out, ${why}`);
    return [];
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-snmpd-"));
  let ns: BenchNamespace | null = null;
  let agent: RunningSnmpd | null = null;
  let relay: DelayRelay | null = null;
  let f: Fixture | null = null;
  try {
    ns = startNamespace(PAIRS);
    agent = await startSnmpd(ns, dir);
    relay = await startDelayRelay({ host: ns.address, port: 161, delayMs: o.latencyMs });
    f = await fixture();
    const id = await f.app.addSnmpDevice("snmpd", [f.group], relay.port, COMMUNITY);
    const base = `/api/switches/${f.group}/${id}/`;
    return [
      await measureView(f, relay, base, "snmpd-basic", o),
      await measureView(f, relay, `${base}details/`, "snmpd-details", o),
    ];
  } catch (e) {
    // a real agent on this machine is not the bench's to guarantee: say why, give no rows
    o.log(`snmpd-basic, snmpd-details: left out, ${(e as Error).message}`);
    return [];
  } finally {
    await f?.app.close().catch(() => undefined);
    await relay?.stop();
    await agent?.stop();
    ns?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
