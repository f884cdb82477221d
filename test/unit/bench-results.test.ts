/**
 * bench/results/latest.json, the committed figures of `npm run bench`: the shape runs are
 * compared by, every scenario of README "Performance" in it, and the README's Performance
 * table generated from it (a new run updates both; a hand edit of either fails here).
 */
import fs from "node:fs";
import path from "node:path";
import {
  markdownTable,
  readmeBlock,
  scenarioRow,
  shapeProblems,
  withReadmeBlock,
  type BenchResults,
} from "../../bench/results";

const root = path.resolve(__dirname, "../..");
const latest: BenchResults = JSON.parse(fs.readFileSync(path.join(root, "bench/results/latest.json"), "utf8"));

const issueScenarios = [
  "basic-8",
  "basic-24",
  "basic-48",
  "basic-96",
  "basic-192",
  "basic-384",
  "details-48",
  "write-vlan-48",
  "write-state-48",
  "write-poe-48",
  "write-description-48",
  "batch-24",
  "singles-24",
  "load-64x32",
  "load-64x32-1-instance",
  "load-64x32-3-instances",
  "burst-200x1",
  "menu-200x10",
  "find-mac-32",
  "startup",
  "startup-npm-start",
  // the drivers' v2c client beside net-snmp, in CPU per pass (bench/snmp-client.ts)
  "snmp-client-48",
  "api-aoscx-basic-48",
  "api-netconf-basic-48",
  "api-eapi-basic-48",
  "api-aoscx-burst-200",
  "chassis-junos_ex4600mp",
  "chassis-ios_4506e",
  "snmpd-basic",
  "snmpd-details",
];

/** rows a run leaves out where it cannot make a network namespace (not root, no snmpd): both or neither */
const realAgentRows = ["snmpd-basic", "snmpd-details"];

test("the API driver rows compare each driver with the same switch over SNMP, and the burst leaves no session open", () => {
  const byName = new Map(latest.scenarios.map((s) => [s.name, s]));
  for (const kind of ["aoscx", "netconf", "eapi"]) {
    const s = byName.get(`api-${kind}-basic-48`)!;
    for (const k of ["requests", "round_trips", "median_ms", "baseline_ms", "baseline_requests", "ratio"] as const)
      expect(typeof s[k]).toBe("number");
    expect(s.ratio).toBeCloseTo(s.median_ms! / s.baseline_ms!, 2);
    expect(s.errors).toBe(0);
  }
  expect(byName.get("api-eapi-basic-48")!.requests).toBe(1);
  const burst = byName.get("api-aoscx-burst-200")!;
  expect([burst.errors, burst.sessions_left]).toEqual([0, 0]);
  for (const name of ["chassis-junos_ex4600mp", "chassis-ios_4506e"]) {
    const s = byName.get(name)!;
    expect(typeof s.floor_ms).toBe("number");
    expect(s.ratio).toBeCloseTo(s.median_ms! / s.floor_ms!, 2);
  }
});

test("the real-agent rows (snmpd in a namespace) compare each view with snmpbulkwalk of its columns through the same 5 ms", () => {
  const byName = new Map(latest.scenarios.map((s) => [s.name, s]));
  for (const name of realAgentRows.filter((n) => byName.has(n))) {
    const s = byName.get(name)!;
    expect(s.latency_ms).toBe(5);
    for (const k of [
      "ports",
      "requests",
      "round_trips",
      "median_ms",
      "floor_ms",
      "baseline_requests",
      "ratio",
    ] as const)
      expect(typeof s[k]).toBe("number");
    expect(s.ratio).toBeCloseTo(s.median_ms! / s.floor_ms!, 2);
    // the engine asks several columns per request; the floor walks each column alone
    expect(s.requests!).toBeLessThan(s.baseline_requests!);
  }
});

test("latest.json has the shape runs are compared by, with every scenario of the issue", () => {
  expect(shapeProblems(latest)).toEqual([]);
  const names = latest.scenarios.map((s) => s.name);
  const realAgent = realAgentRows.every((n) => names.includes(n));
  expect(names).toEqual(issueScenarios.filter((n) => realAgent || !realAgentRows.includes(n)));
  const byName = new Map(latest.scenarios.map((s) => [s.name, s]));
  for (const n of [8, 24, 48, 96, 192, 384]) {
    const s = byName.get(`basic-${n}`)!;
    expect(s).toMatchObject({ ports: n, latency_ms: 5 });
    for (const k of [
      "requests",
      "round_trips",
      "median_ms",
      "p95_ms",
      "baseline_ms",
      "ratio",
      "errors",
      "lab_ms",
    ] as const)
      expect(typeof s[k]).toBe("number");
    expect(s.ratio).toBeCloseTo(s.median_ms! / s.baseline_ms!, 2);
  }
  for (const name of ["load-64x32", "burst-200x1", "menu-200x10"]) {
    const s = byName.get(name)!;
    for (const k of ["rps", "p50_ms", "p99_ms", "peak_rss_mb", "errors"] as const) expect(typeof s[k]).toBe("number");
  }
  expect(typeof byName.get("load-64x32")!.max_in_flight).toBe("number");
  // the scale-out rows: one and three instances behind the proxy, the ratios on the second
  const one = byName.get("load-64x32-1-instance")!;
  const three = byName.get("load-64x32-3-instances")!;
  expect([one.instances, three.instances]).toEqual([1, 3]);
  for (const s of [one, three]) {
    for (const k of [
      "rps",
      "p99_ms",
      "cpu_ms_per_call",
      "db_writes_per_call",
      "db_reads_per_call",
      "db_reads_per_read_call",
      "db_writes_per_read_call",
      "max_in_flight",
    ] as const)
      expect(typeof s[k]).toBe("number");
    expect(s.errors).toBe(0);
    // the per-device bound (4) holds over the instances together
    expect(s.max_in_flight).toBeLessThanOrEqual(4);
  }
  expect(three.rps_ratio).toBeCloseTo(three.rps! / one.rps!, 2);
  expect(three.p99_ratio).toBeCloseTo(three.p99_ms! / one.p99_ms!, 2);
  expect(one.rps_ratio).toBeNull();
  expect(typeof byName.get("startup")!.first_answer_ms).toBe("number");
  expect(typeof byName.get("startup-npm-start")!.first_answer_ms).toBe("number");
  expect(byName.get("menu-200x10")!.max_in_flight).toBeNull();
  // the v2c client's CPU per pass against net-snmp's, measured in the same run
  const client = byName.get("snmp-client-48")!;
  for (const k of ["median_ms", "baseline_ms", "ratio"] as const) expect(typeof client[k]).toBe("number");
  expect(client.ratio).toBeGreaterThan(0);
});

test("the README's Performance table is the one generated from latest.json", () => {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  // on a mismatch: run `npm run bench` (it rewrites both), or commit them together
  expect(readme).toContain(readmeBlock(latest));
  expect(withReadmeBlock(readme, latest)).toBe(readme);
});

test("a row lacking a field, or with text where a figure belongs, is reported", () => {
  const row = scenarioRow("basic-48", { ports: 48, median_ms: 14.24, ratio: 0.02231 });
  expect(row).toMatchObject({ ports: 48, median_ms: 14.2, ratio: 0.022, rps: null, first_answer_ms: null });
  const good = { machine: "m", when: "2026-01-01T00:00:00.000Z", scenarios: [row] };
  expect(shapeProblems(good)).toEqual([]);
  const { rps: _gone, ...lacking } = row;
  expect(shapeProblems({ ...good, scenarios: [lacking] })).toEqual(["scenarios[0] (basic-48) has no rps"]);
  expect(shapeProblems({ ...good, scenarios: [{ ...row, median_ms: "14" }] })).toEqual([
    "scenarios[0] (basic-48): median_ms is neither a number nor null",
  ]);
  expect(shapeProblems({ ...good, when: "yesterday" })).toEqual(["when is not an ISO time"]);
});

test("the table shows failed answers by status and code, and leaves what does not apply empty", () => {
  const burst = scenarioRow("burst-200x1", { errors: 7, statuses: { "200": 393, "503 device_busy": 7 }, rps: 120 });
  const table = markdownTable({ machine: "m", when: "w", scenarios: [burst] });
  const [heading, , line] = table.split("\n");
  expect(heading.startsWith("| scenario | requests |")).toBe(true);
  expect(line).toContain("| 7 (503 device_busy: 7) |");
  expect(line).toContain("| 120 |");
  expect(line.split("|").filter((c) => c.trim() === "").length).toBeGreaterThan(5);
});
