/**
 * The scenarios of `npm run bench` that go through the HTTP API of a service started in
 * this process (bench/api-app.ts) against lab switches the bench starts, with the
 * latency injected by the lab per request. Every scenario returns one row of
 * latest.json; a refusal or a device error is counted by status and code, never thrown.
 */
import { startLabSwitch, type LabSwitch, type LabSwitchOptions } from "../lab";
import { BenchApp, type Answer, type RequestOptions } from "./api-app";
import { runLoadInWorker } from "./load-worker";
import { baselineAvailable, baselineRead } from "./baseline";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, msSince, summary } from "./stats";
import type { components } from "../generated/api";

type SwitchInfo = components["schemas"]["SwitchInfo"];
type Menu = components["schemas"]["Menu"];

export interface ScenarioOptions {
  /** latency the lab adds to every answer */
  latencyMs: number;
  /** measured calls per single-call scenario */
  runs: number;
  /** measured runs of the snmpbulkwalk baseline */
  baselineRuns: number;
  /** duration of load-64x32 */
  loadSeconds: number;
  /** where progress lines go (a function, not a method: passed on by itself) */
  log: (line: string) => void;
  /** where the service processes the bench starts write a CPU profile (node --cpu-prof), if anywhere */
  cpuProfDir?: string;
}

/** The lab agent's own processing time: its handleMessage timed around every request. */
function timeAgent(lab: LabSwitch): { take(): number } {
  const agent = lab.agent;
  const inner = agent.handleMessage.bind(agent);
  let spent = 0;
  agent.handleMessage = (msg, from) => {
    const start = process.hrtime.bigint();
    try {
      return inner(msg, from);
    } finally {
      spent += msSince(start);
    }
  };
  return {
    take() {
      const v = spent;
      spent = 0;
      return v;
    },
  };
}

/** answers counted by "status code" ("200", "503 device_busy"; status 0: no HTTP answer) */
export class Statuses {
  readonly counts: Record<string, number> = {};
  add(a: Pick<Answer, "status" | "code">): void {
    const key = a.status >= 200 && a.status < 300 ? String(a.status) : `${a.status} ${a.code}`.trim();
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
  get errors(): number {
    return Object.entries(this.counts).reduce((n, [k, v]) => (k.startsWith("2") ? n : n + v), 0);
  }
}

export interface Fixture {
  app: BenchApp;
  token: string;
  group: number;
}

export async function fixture(options: Parameters<typeof BenchApp.start>[0] = {}): Promise<Fixture> {
  const app = await BenchApp.start(options);
  const group = await app.addGroup("bench");
  const token = await app.createUser("bench-root", "pw-bench-root-1", { superuser: true });
  return { app, token, group };
}

async function withFixture<T>(fn: (f: Fixture) => Promise<T>): Promise<T> {
  const f = await fixture();
  try {
    return await fn(f);
  } finally {
    await f.app.close();
  }
}

async function withLab<T>(opts: LabSwitchOptions, fn: (lab: LabSwitch) => Promise<T>): Promise<T> {
  const lab = await startLabSwitch(opts);
  try {
    return await fn(lab);
  } finally {
    await lab.stop();
  }
}

/**
 * One call measured `runs` times after a warm-up (the first call probes the device and
 * stores the driver choice): wall time, requests at the device, round trips, lab time.
 */
async function measureCall(f: Fixture, lab: LabSwitch, runs: number, call: (i: number) => Promise<Answer>) {
  const agentTime = timeAgent(lab);
  const statuses = new Statuses();
  await call(-1);
  const ms: number[] = [];
  const requests: number[] = [];
  const roundTrips: number[] = [];
  const labMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    lab.counters.reset();
    f.app.takeDrivers();
    agentTime.take();
    const a = await call(i);
    statuses.add(a);
    ms.push(a.ms);
    requests.push(lab.counters.requests);
    roundTrips.push(f.app.takeDrivers().roundTrips);
    labMs.push(agentTime.take());
  }
  const s = summary(ms);
  return {
    median_ms: s.median,
    p95_ms: s.p95,
    requests: median(requests),
    round_trips: median(roundTrips),
    lab_ms: median(labMs),
    errors: statuses.errors,
    statuses: statuses.counts,
  };
}

async function baseline(lab: LabSwitch, o: ScenarioOptions, scope: "basic" | "details") {
  if (!baselineAvailable()) {
    o.log("  baseline skipped: /usr/bin/snmpbulkwalk is not installed (Debian package snmp)");
    return { baseline_ms: undefined, baseline_requests: undefined };
  }
  await baselineRead(lab, scope);
  const runs: { ms: number; requests: number }[] = [];
  for (let i = 0; i < o.baselineRuns; i++) runs.push(await baselineRead(lab, scope));
  return { baseline_ms: median(runs.map((r) => r.ms)), baseline_requests: median(runs.map((r) => r.requests)) };
}

function labOptions(ports: number, o: ScenarioOptions, extra: LabSwitchOptions = {}): LabSwitchOptions {
  return { profile: "generic", ports, poePorts: "all", latencyMs: o.latencyMs, seed: 1, ...extra };
}

/** GET basic (or details) of one switch, against the snmpbulkwalk baseline on the same lab switch. */
export async function readScenario(
  name: string,
  ports: number,
  scope: "basic" | "details",
  o: ScenarioOptions,
  extra: LabSwitchOptions = {},
): Promise<ScenarioResult> {
  return withFixture((f) =>
    withLab(labOptions(ports, o, extra), async (lab) => {
      const id = await f.app.addDevice(`${name}-switch`, [f.group], lab);
      const url = `/api/switches/${f.group}/${id}/${scope === "details" ? "details/" : ""}`;
      const api = await measureCall(f, lab, o.runs, () => f.app.request("GET", url, { token: f.token }));
      const ref = await baseline(lab, o, scope);
      const ratio = ref.baseline_ms === undefined ? undefined : api.median_ms / ref.baseline_ms;
      return scenarioRow(name, { ports, latency_ms: o.latencyMs, ...api, ...ref, ratio });
    }),
  );
}

export type WriteKind = "vlan" | "state" | "poe" | "description";

/** One interface write, alternating between two values so that no call is refused as the same value. */
export async function writeScenario(kind: WriteKind, o: ScenarioOptions): Promise<ScenarioResult> {
  const ports = 48;
  return withFixture((f) =>
    withLab(labOptions(ports, o), async (lab) => {
      const id = await f.app.addDevice(`write-${kind}-switch`, [f.group], lab);
      const base = `/api/switches/${f.group}/${id}`;
      const view = await f.app.request("GET", `${base}/`, { token: f.token });
      if (view.status !== 200)
        throw new Error(`basic view of the write lab: ${view.status} ${JSON.stringify(view.body)}`);
      // a 200 of the basic view is the spec's SwitchInfo
      const info = view.body as SwitchInfo;
      // an access port that is manageable and has PoE, not the uplink
      const port = info.interfaces.find(
        (i) =>
          i.manageable &&
          i.mode === "Access" &&
          i.poe &&
          i.vlan !== undefined &&
          String(i.name).startsWith("GigabitEthernet"),
      );
      if (!port) throw new Error("the write lab has no manageable access port with PoE");
      const vlans = Object.keys(info.vlans).map(Number);
      const other = [10, 30, 1].find((v) => v !== port.vlan && vlans.includes(v)) ?? 1;
      const values: Record<WriteKind, [string, unknown, unknown]> = {
        vlan: ["vlan", other, port.vlan],
        state: ["state", port.state === "Enabled" ? "off" : "on", port.state === "Enabled" ? "on" : "off"],
        poe: ["poe_state", "off", "on"],
        description: ["description", "bench one", "bench two"],
      };
      const [field, a, b] = values[kind];
      const url = `${base}/interface/${port.id}/${field}/`;
      // the warm-up call (i = -1) writes b (it may be the value the port has: refused as
      // the same value, not counted), so every measured call changes the port
      const call = (i: number) =>
        f.app.request("POST", url, { token: f.token, json: { [field]: i % 2 === 0 ? a : b } });
      const api = await measureCall(f, lab, o.runs, call);
      return scenarioRow(`write-${kind}-48`, { ports, latency_ms: o.latencyMs, ...api });
    }),
  );
}

/** Memory of this process (app and labs together), sampled until stopped. */
function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const t = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  return {
    stop() {
      clearInterval(t);
      return Math.max(peak, process.memoryUsage().rss) / 2 ** 20;
    },
  };
}

/** A load run's figures: answers by status, every answer's time, and how long it ran. */
export interface LoadRun {
  statuses: Statuses;
  latencies: number[];
  seconds: number;
}

/** The switches of a load run as the API knows them. */
export interface LoadTarget {
  group: number;
  ids: number[];
  labs: LabSwitch[];
  token: string;
}

/**
 * The load-64x32 mix for `seconds`: `clients` clients over the target's switches, each
 * looping: basic reads, a details read every tenth call, a description write every fifth
 * (each client writes its own port, with a text of its own; `label` tells runs on the same
 * switches apart, so that no write repeats the text a port already has). `request` sends one call.
 */
export async function runLoad(
  request: (method: string, p: string, opts: RequestOptions) => Promise<Answer>,
  t: LoadTarget,
  clients: number,
  seconds: number,
  label = "",
): Promise<LoadRun> {
  const statuses = new Statuses();
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const end = Date.now() + seconds * 1000;
  const switches = t.ids.length;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const s = c % switches;
      const base = `/api/switches/${t.group}/${t.ids[s]}`;
      const ifIndex = t.labs[s].model.ethernetPorts[1 + Math.floor(c / switches)].ifIndex;
      for (let n = 0; Date.now() < end; n++) {
        const a =
          n % 5 === 1
            ? await request("POST", `${base}/interface/${ifIndex}/description/`, {
                token: t.token,
                json: { description: `load${label} ${c} ${n}` },
              })
            : await request("GET", n % 10 === 0 ? `${base}/details/` : `${base}/`, { token: t.token });
        statuses.add(a);
        latencies.push(a.ms);
      }
    }),
  );
  return { statuses, latencies, seconds: msSince(start) / 1000 };
}

/** `count` lab switches of 48 ports for a load run (seeds 1.., names load-1..), started together. */
export async function startLoadLabs(o: ScenarioOptions, count: number): Promise<LabSwitch[]> {
  const labs: LabSwitch[] = [];
  try {
    for (let i = 0; i < count; i++)
      labs.push(await startLabSwitch(labOptions(LOAD_PORTS, o, { seed: i + 1, name: `load-${i + 1}` })));
    return labs;
  } catch (e) {
    await Promise.all(labs.map((l) => l.stop()));
    throw e;
  }
}

/** The switches in the bench service's inventory, each read once so that its driver choice is stored. */
export async function addLoadDevices(f: Fixture, labs: LabSwitch[]): Promise<LoadTarget> {
  const ids: number[] = [];
  for (const [i, lab] of labs.entries()) ids.push(await f.app.addDevice(`load-${i + 1}`, [f.group], lab));
  for (const id of ids) await f.app.request("GET", `/api/switches/${f.group}/${id}/`, { token: f.token });
  return { group: f.group, ids, labs, token: f.token };
}

const LOAD_PORTS = 48;

/** load-64x32: the load mix (runLoad) through the service in this process, on SQLite. */
export async function loadScenario(o: ScenarioOptions, clients = 64, switches = 32): Promise<ScenarioResult> {
  return withFixture(async (f) => {
    const labs = await startLoadLabs(o, switches);
    try {
      const target = await addLoadDevices(f, labs);
      for (const lab of labs) lab.counters.reset();
      f.app.takeDrivers();
      const rss = rssSampler();
      const run = await runLoad((m, p, opts) => f.app.request(m, p, opts), target, clients, o.loadSeconds);
      const peak = rss.stop();
      const s = summary(run.latencies);
      return scenarioRow(`load-${clients}x${switches}`, {
        ports: LOAD_PORTS,
        latency_ms: o.latencyMs,
        requests: labs.reduce((n, l) => n + l.counters.requests, 0),
        errors: run.statuses.errors,
        statuses: run.statuses.counts,
        rps: run.latencies.length / run.seconds,
        p50_ms: s.median,
        p99_ms: s.p99,
        peak_rss_mb: peak,
        max_in_flight: Math.max(...labs.map((l) => l.counters.maxInFlight)),
        learns: f.app.takeDrivers().learns,
      });
    } finally {
      await Promise.all(labs.map((l) => l.stop()));
    }
  });
}

/** burst-200x1: 200 basic reads of one switch sent at once (twice; figures of both bursts together). */
export async function burstScenario(o: ScenarioOptions, readers = 200, bursts = 2): Promise<ScenarioResult> {
  const ports = 48;
  return withFixture((f) =>
    withLab(labOptions(ports, o), async (lab) => {
      const id = await f.app.addDevice("burst-switch", [f.group], lab);
      const url = `/api/switches/${f.group}/${id}/`;
      await f.app.request("GET", url, { token: f.token });
      lab.counters.reset();
      f.app.takeDrivers();
      const statuses = new Statuses();
      const latencies: number[] = [];
      const walls: number[] = [];
      const rss = rssSampler();
      for (let b = 0; b < bursts; b++) {
        const start = process.hrtime.bigint();
        const answers = await Promise.all(
          Array.from({ length: readers }, () => f.app.request("GET", url, { token: f.token })),
        );
        walls.push(msSince(start));
        for (const a of answers) {
          statuses.add(a);
          latencies.push(a.ms);
        }
      }
      const s = summary(latencies);
      const wall = walls.reduce((x, y) => x + y, 0);
      return scenarioRow(`burst-${readers}x1`, {
        ports,
        latency_ms: o.latencyMs,
        requests: lab.counters.requests / bursts,
        median_ms: median(walls),
        errors: statuses.errors,
        statuses: statuses.counts,
        rps: (readers * bursts) / (wall / 1000),
        p50_ms: s.median,
        p99_ms: s.p99,
        peak_rss_mb: rss.stop(),
        max_in_flight: lab.counters.maxInFlight,
        learns: f.app.takeDrivers().learns / bursts,
      });
    }),
  );
}

/** menu-200x10: the menu of a user in 200 groups of 10 devices each (the devices need not answer). */
export async function menuScenario(
  o: ScenarioOptions,
  groups = 200,
  perGroup = 10,
  concurrency = 8,
  calls = 1000,
  warmup = 200,
): Promise<ScenarioResult> {
  return withFixture(async (f) => {
    const ids: number[] = [];
    for (let g = 0; g < groups; g++) {
      const gid = await f.app.addGroup(`menu-${g + 1}`);
      ids.push(gid);
      for (let d = 0; d < perGroup; d++) await f.app.addDevice(`menu-${g + 1}-${d + 1}`, [gid]);
    }
    const token = await f.app.createUser("menu-user", "pw-menu-user-1", { groups: ids });
    // the first call reads the inventory and keeps the menu (its time is first_answer_ms)
    const first = await f.app.request("GET", "/api/switches/", { token });
    const menu = Object.values(first.status === 200 ? (first.body as Menu).groups : {});
    o.log(
      `  menu: first answer ${first.status} in ${first.ms.toFixed(1)} ms, ${menu.length} groups, ${menu.reduce((n, g) => n + Object.keys(g.members).length, 0)} devices`,
    );
    // The calls come from a worker thread (bench/load-worker.ts), `concurrency` at a time,
    // the answers read and not parsed: the client's event loop, JIT and garbage collection
    // are not the service's. First a warm-up at the same concurrency, not measured: in a
    // process just started the first calls run before V8 has compiled the path (100 to
    // 230 ms here against 20 to 40 afterwards). The same warm-up runs for any commit this
    // scenario measures. p99 is read from 1,000 calls (the tenth slowest).
    const rss = rssSampler();
    const [{ answers: cold }, { answers: measured, ms: measuredMs }] = await runLoadInWorker({
      baseUrl: f.app.url,
      method: "GET",
      path: "/api/switches/",
      token,
      concurrency,
      phases: [warmup, calls],
    });
    const coldStatuses = new Statuses();
    for (const a of cold) coldStatuses.add(a);
    const coldMs = cold.map((a) => a.ms);
    o.log(
      `  menu: warm-up of ${warmup} calls (${coldStatuses.errors} errors), median ${summary(coldMs).median.toFixed(1)} ms, slowest ${Math.max(...coldMs).toFixed(1)} ms`,
    );
    const statuses = new Statuses();
    for (const a of measured) statuses.add(a);
    const latencies = measured.map((a) => a.ms);
    const seconds = measuredMs / 1000;
    const s = summary(latencies);
    return scenarioRow(`menu-${groups}x${perGroup}`, {
      median_ms: s.median,
      p95_ms: s.p95,
      errors: coldStatuses.errors + statuses.errors,
      statuses: statuses.counts,
      rps: latencies.length / seconds,
      p50_ms: s.median,
      p99_ms: s.p99,
      peak_rss_mb: rss.stop(),
      first_answer_ms: first.ms,
    });
  });
}
