/**
 * npm run bench: every scenario (README "Performance") against lab switches the bench starts
 * (5 ms latency per request, injected by the lab), a table of the figures, and
 * bench/results/latest.json (bench/results.ts has its shape) with the README's table
 * regenerated from it. Then the two older benches, each printing its own figures:
 *  - lab-agent: the lab agent's own processing of a 1,000-value GetBulk vs net-snmp's agent
 *  - snmp-learn: learning a switch with read plans vs OpenL2M's one-column-at-a-time walks
 *
 * load-64x32-instances needs MariaDB (bench/scale-out.ts says where it looks) and the
 * built service; without a server it prints why and gives no rows.
 *
 * Options (after `npm run bench --`):
 *   --only=a,b     only the scenarios whose names start with these (then nothing is written
 *                  unless --out is given)
 *   --duration=S   seconds of load-64x32 (default 30)
 *   --runs=N       measured calls per single-call scenario (default 15)
 *   --out=FILE     write the results here instead of bench/results/latest.json
 *   --cpu-prof=DIR the service processes of load-64x32-instances write a CPU profile there
 *                  (node --cpu-prof; open it in Chrome's DevTools or summarize it)
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../app/paths";
import { main as labAgent } from "./lab-agent";
import { main as snmpLearn } from "./snmp-learn";
import { describeMachine, markdownTable, withReadmeBlock, type BenchResults, type ScenarioResult } from "./results";
import {
  burstScenario,
  loadScenario,
  menuScenario,
  readScenario,
  writeScenario,
  type ScenarioOptions,
} from "./scenarios";
import { scaleOutScenario } from "./scale-out";
import { apiDriverScenarios } from "./api-drivers";
import { batchScenario } from "./batch";
import { startupScenarios } from "./startup";
import { chassisScenarios } from "./chassis";
import { snmpdScenarios } from "./snmpd";

interface Args {
  only: string[] | null;
  duration: number;
  runs: number;
  out: string | null;
  cpuProfDir: string | null;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: null, duration: 30, runs: 15, out: null, cpuProfDir: null };
  for (const a of argv) {
    const [key, value = ""] = a.replace(/^--/, "").split("=", 2);
    const positive = () => {
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`--${key} needs a positive number, got "${value}"`);
      return n;
    };
    if (key === "only") args.only = value.split(",").filter(Boolean);
    else if (key === "duration") args.duration = positive();
    else if (key === "runs") args.runs = Math.round(positive());
    else if (key === "out") args.out = path.resolve(value);
    else if (key === "cpu-prof") args.cpuProfDir = path.resolve(value);
    else throw new Error(`unknown option ${a} (--only=a,b --duration=S --runs=N --out=FILE --cpu-prof=DIR)`);
  }
  return args;
}

const BASIC_SIZES = [8, 24, 48, 96, 192, 384];

function scenarioList(o: ScenarioOptions): [string, () => Promise<ScenarioResult | ScenarioResult[] | void>][] {
  return [
    ...BASIC_SIZES.map(
      (n) => [`basic-${n}`, () => readScenario(`basic-${n}`, n, "basic", o)] as [string, () => Promise<ScenarioResult>],
    ),
    ["details-48", () => readScenario("details-48", 48, "details", o, { macEntries: 2000, lldpNeighbours: 48 })],
    ["write-vlan-48", () => writeScenario("vlan", o)],
    ["write-state-48", () => writeScenario("state", o)],
    ["write-poe-48", () => writeScenario("poe", o)],
    ["write-description-48", () => writeScenario("description", o)],
    ["batch-24", () => batchScenario(o)],
    ["load-64x32", () => loadScenario(o)],
    ["load-64x32-instances", () => scaleOutScenario(o)],
    ["burst-200x1", () => burstScenario(o)],
    ["menu-200x10", () => menuScenario(o)],
    ["find-mac-32", () => import("./find").then((m) => m.findScenario(o))],
    ["startup", () => startupScenarios(3, o.log)],
    ["lab-agent", async () => void (await labAgent())],
    ["snmp-learn", () => snmpLearn()],
    ["snmp-client-48", () => import("./snmp-client").then((m) => m.snmpClientScenario(o))],
    ["api-drivers", () => apiDriverScenarios(o)],
    ["chassis", () => chassisScenarios(o)],
    ["snmpd", () => snmpdScenarios(o)],
  ];
}

async function run(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const o: ScenarioOptions = {
    latencyMs: 5,
    runs: args.runs,
    baselineRuns: 3,
    loadSeconds: args.duration,
    log: (l) => console.log(l),
    cpuProfDir: args.cpuProfDir ?? undefined,
  };
  const wanted = scenarioList(o).filter(([name]) => !args.only || args.only.some((p) => name.startsWith(p)));
  if (wanted.length === 0) throw new Error(`no scenario starts with ${args.only?.join(", ")}`);
  const results: BenchResults = { machine: describeMachine(), when: new Date().toISOString(), scenarios: [] };
  const started = Date.now();
  for (const [name, scenario] of wanted) {
    const t0 = Date.now();
    console.log(`== ${name} ==`);
    const rows = await scenario();
    for (const row of rows === undefined ? [] : Array.isArray(rows) ? rows : [rows]) {
      results.scenarios.push(row);
      console.log(`  ${JSON.stringify(row, (_k, v: unknown) => (v === null ? undefined : v))}`);
    }
    console.log(`  (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log(`\n${markdownTable(results)}\n\nwhole bench: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (results.scenarios.length === 0) return;
  const full = !args.only;
  const out = args.out ?? (full ? path.join(projectRoot(), "bench", "results", "latest.json") : null);
  if (!out) return;
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(results, null, 2) + "\n");
  console.log(`written: ${path.relative(process.cwd(), out)}`);
  if (full && !args.out) {
    const readme = path.join(projectRoot(), "README.md");
    fs.writeFileSync(readme, withReadmeBlock(fs.readFileSync(readme, "utf8"), results));
    console.log("README.md: Performance table updated");
  }
}

run().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
