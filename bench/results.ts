/**
 * bench/results/latest.json: its shape (one row per scenario, every field present, null
 * where it does not apply, so runs compare field by field), the table printed and put
 * into the README, and the README's table kept equal to the file.
 */
import os from "node:os";

export interface ScenarioResult {
  name: string;
  ports: number | null;
  latency_ms: number | null;
  /** SNMP requests the device received for one call (lab counters) */
  requests: number | null;
  /** round trips on the critical path of one call (the driver session's counters) */
  round_trips: number | null;
  median_ms: number | null;
  p95_ms: number | null;
  /** the same information read OpenL2M's way (snmpbulkwalk, one column after another) */
  baseline_ms: number | null;
  /** the requests of that baseline (snmpd rows: of the floor's walks) */
  baseline_requests: number | null;
  /** median_ms / baseline_ms (chassis and snmpd rows: median_ms / floor_ms) */
  ratio: number | null;
  /** the agent's floor: snmpbulkwalk of the view's columns, all at once (chassis and snmpd rows) */
  floor_ms: number | null;
  /** answers that were not a success */
  errors: number | null;
  /** answers by status and code, e.g. {"200": 195, "503 device_busy": 5} */
  statuses: Record<string, number> | null;
  /** the lab agent's own processing time for one call (decode, tables, encode; no latency) */
  lab_ms: number | null;
  rps: number | null;
  p50_ms: number | null;
  p99_ms: number | null;
  peak_rss_mb: number | null;
  /** the most SNMP requests in flight at one device at once (lab counters.maxInFlight) */
  max_in_flight: number | null;
  /** device learns (drivers opened) the scenario caused */
  learns: number | null;
  first_answer_ms: number | null;
  /** service processes behind the bench's round-robin proxy (scale-out rows) */
  instances: number | null;
  /** CPU time the service processes spent per answered call (user + system) */
  cpu_ms_per_call: number | null;
  /** database statements per call that change rows (INSERT, UPDATE, DELETE), all instances */
  db_writes_per_call: number | null;
  /** database SELECTs per call, all instances */
  db_reads_per_call: number | null;
  /** database SELECTs per basic read (a phase of basic reads only, after the mix), all instances */
  db_reads_per_read_call: number | null;
  /** database statements that change rows per basic read (the same phase), all instances */
  db_writes_per_read_call: number | null;
  /** rps / rps of the one-instance row of the same run */
  rps_ratio: number | null;
  /** p99_ms / p99_ms of the one-instance row of the same run */
  p99_ratio: number | null;
  /** login sessions still open on the switch when the scenario ended (AOS-CX REST) */
  sessions_left: number | null;
}

export interface BenchResults {
  machine: string;
  when: string;
  scenarios: ScenarioResult[];
}

export const RESULT_FIELDS: readonly (keyof ScenarioResult)[] = [
  "name",
  "ports",
  "latency_ms",
  "requests",
  "round_trips",
  "median_ms",
  "p95_ms",
  "baseline_ms",
  "baseline_requests",
  "ratio",
  "floor_ms",
  "errors",
  "statuses",
  "lab_ms",
  "rps",
  "p50_ms",
  "p99_ms",
  "peak_rss_mb",
  "max_in_flight",
  "learns",
  "first_answer_ms",
  "instances",
  "cpu_ms_per_call",
  "db_writes_per_call",
  "db_reads_per_call",
  "db_reads_per_read_call",
  "db_writes_per_read_call",
  "rps_ratio",
  "p99_ratio",
  "sessions_left",
];

/** A scenario row: the given fields (rounded to 0.1, ratios to 0.001), every other field null. */
export function scenarioRow(name: string, fields: Partial<Omit<ScenarioResult, "name">>): ScenarioResult {
  // filled below in the order of RESULT_FIELDS (the order of latest.json)
  const row = { name } as ScenarioResult;
  for (const key of RESULT_FIELDS) {
    if (key === "name") continue;
    if (key === "statuses") {
      row.statuses = fields.statuses ?? null;
      continue;
    }
    const v = fields[key];
    row[key] = v === undefined || v === null || !Number.isFinite(v) ? null : round(key, v);
  }
  return row;
}

function round(key: keyof ScenarioResult, v: number): number {
  if (key === "ratio" || key === "rps_ratio" || key === "p99_ratio") return Math.round(v * 1000) / 1000;
  return Math.round(v * 10) / 10;
}

/** What the results were measured on: CPU model, cores, memory, Node. */
export function describeMachine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  return `${model}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${os.platform()}`;
}

/** The problems of a parsed latest.json (empty: it has the shape above). */
export function shapeProblems(data: unknown): string[] {
  const problems: string[] = [];
  if (!data || typeof data !== "object") return ["not an object"];
  const d = data as Record<string, unknown>;
  if (typeof d.machine !== "string" || d.machine === "") problems.push("machine is not a text");
  if (typeof d.when !== "string" || Number.isNaN(Date.parse(d.when))) problems.push("when is not an ISO time");
  const scenarios: unknown = d.scenarios;
  if (!Array.isArray(scenarios) || scenarios.length === 0) return [...problems, "scenarios is not a list of rows"];
  for (const [i, s] of (scenarios as unknown[]).entries()) {
    const row = s && typeof s === "object" ? (s as Record<string, unknown>) : null;
    const where = `scenarios[${i}] (${String(row?.name)})`;
    if (!row) {
      problems.push(`${where} is not an object`);
      continue;
    }
    const keys = Object.keys(row);
    for (const k of RESULT_FIELDS) if (!keys.includes(k)) problems.push(`${where} has no ${k}`);
    for (const k of keys)
      if (!RESULT_FIELDS.includes(k as keyof ScenarioResult)) problems.push(`${where} has an unknown field ${k}`);
    for (const k of RESULT_FIELDS.filter((f) => keys.includes(f))) {
      const v = row[k];
      if (k === "name") {
        if (typeof v !== "string" || v === "") problems.push(`${where}: name is not a text`);
      } else if (k === "statuses") {
        if (v !== null && (typeof v !== "object" || Object.values(v).some((n) => typeof n !== "number")))
          problems.push(`${where}: statuses is not counts or null`);
      } else if (v !== null && typeof v !== "number") {
        problems.push(`${where}: ${k} is neither a number nor null`);
      }
    }
  }
  return problems;
}

/** The columns of the table (a field, its heading). */
const TABLE: [Exclude<keyof ScenarioResult, "statuses">, string][] = [
  ["name", "scenario"],
  ["requests", "requests"],
  ["round_trips", "round trips"],
  ["median_ms", "median ms"],
  ["p95_ms", "p95 ms"],
  ["lab_ms", "lab ms"],
  ["baseline_ms", "baseline ms"],
  ["ratio", "ratio"],
  ["rps", "req/s"],
  ["p50_ms", "p50 ms"],
  ["p99_ms", "p99 ms"],
  ["errors", "errors"],
  ["max_in_flight", "max in flight"],
  ["peak_rss_mb", "peak RSS MB"],
  ["first_answer_ms", "first answer ms"],
  ["instances", "instances"],
  ["cpu_ms_per_call", "CPU ms/call"],
  ["db_writes_per_call", "DB writes/call"],
];

function cell(s: ScenarioResult, key: Exclude<keyof ScenarioResult, "statuses">): string {
  const v = s[key];
  if (v === null) return "";
  if (key === "errors" && typeof v === "number" && v > 0 && s.statuses) {
    const failed = Object.entries(s.statuses).filter(([k]) => !k.startsWith("2"));
    return `${v} (${failed.map(([k, n]) => `${k}: ${n}`).join(", ")})`;
  }
  return String(v);
}

/** The results as a Markdown table (also readable in a terminal). */
export function markdownTable(results: BenchResults): string {
  const lines = [
    `| ${TABLE.map(([, h]) => h).join(" | ")} |`,
    `|${TABLE.map(([k]) => (k === "name" ? "---" : "---:")).join("|")}|`,
  ];
  for (const s of results.scenarios) lines.push(`| ${TABLE.map(([k]) => cell(s, k)).join(" | ")} |`);
  return lines.join("\n");
}

export const README_BEGIN = "<!-- bench:begin (generated from bench/results/latest.json by npm run bench) -->";
export const README_END = "<!-- bench:end -->";

/** The README's generated part: where and when, then the table. */
export function readmeBlock(results: BenchResults): string {
  return [README_BEGIN, `Measured ${results.when} on ${results.machine}.`, "", markdownTable(results), README_END].join(
    "\n",
  );
}

/** The README with its generated part replaced (throws when the markers are missing). */
export function withReadmeBlock(readme: string, results: BenchResults): string {
  const begin = readme.indexOf(README_BEGIN);
  const end = readme.indexOf(README_END);
  if (begin < 0 || end < begin) throw new Error("README.md has no bench:begin/bench:end markers");
  return readme.slice(0, begin) + readmeBlock(results) + readme.slice(end + README_END.length);
}
