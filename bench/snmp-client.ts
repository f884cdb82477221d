/**
 * Benchmark row snmp-client-48: the CPU the drivers' v2c client (drivers/snmp/v2c-client.ts)
 * spends on the GETBULKs of a basic view of a 48-port switch, against net-snmp's session
 * (what v2c went through before, and what SNMPv3 still uses) on the same requests, in the
 * same run. The lab switch answers from a child process, so the process measured holds
 * only the client: its CPU (user + system) per pass is the figure, and the ratio is the
 * v2c client's over net-snmp's. Passes of the two alternate in rounds, so a machine whose
 * speed drifts moves both.
 */
import { fork } from "node:child_process";
import path from "node:path";
import { ifTable, ifXTable, poe, qbridge } from "../mib/oids";
import { netSnmp, type PduSession, type Varbind } from "../drivers/snmp/net-snmp-api";
import { V2cSession } from "../drivers/snmp/v2c-client";
import { scenarioRow, type ScenarioResult } from "./results";
import type { ScenarioOptions } from "./scenarios";
import { median } from "./stats";

const PORTS = 48;
/** the columns a basic view reads, each as one GETBULK with rows for every port and a few more */
const COLUMNS = [
  [ifTable.ifDescr, ifTable.ifType, ifTable.ifAdminStatus, ifTable.ifOperStatus, ifTable.ifSpeed],
  [ifXTable.ifName, ifXTable.ifAlias, ifXTable.ifHighSpeed],
  [qbridge.dot1qPvid],
  [poe.pethPsePortAdminEnable, poe.pethPsePortDetectionStatus],
];
const ROWS = 64;
const PASSES = 300;
const ROUNDS = 3;

/** A 48-port lab switch in a child process (bench/lab-process.ts); resolves to its port. */
function startLabProcess(): Promise<{ port: number; stop: () => void }> {
  const child = fork(path.join(__dirname, "lab-process.js"), [String(PORTS)], { stdio: "inherit" });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`lab process ended (${code})`)));
    child.once("message", (port) => resolve({ port: Number(port), stop: () => child.kill() }));
  });
}

function bulk(session: PduSession, oids: string[]): Promise<number> {
  return new Promise((resolve, reject) =>
    session.getBulk(oids, 0, ROWS, (error, columns: Varbind[][]) =>
      error ? reject(error) : resolve(columns.reduce((n, c) => n + c.length, 0)),
    ),
  );
}

/** CPU ms per pass (all column groups at once, as a view sends them) of `passes` passes, and values per pass. */
async function measure(open: () => PduSession, passes: number): Promise<{ cpuMs: number; values: number }> {
  const session = open();
  try {
    let values = 0;
    const before = process.cpuUsage();
    for (let i = 0; i < passes; i++) {
      const counts = await Promise.all(COLUMNS.map((oids) => bulk(session, oids)));
      values = counts.reduce((a, b) => a + b, 0);
    }
    const used = process.cpuUsage(before);
    return { cpuMs: (used.user + used.system) / 1000 / passes, values };
  } finally {
    session.close();
  }
}

export async function snmpClientScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const lab = await startLabProcess();
  const options = { port: lab.port, timeout: 5000, retries: 0 };
  const ours = () => new V2cSession("127.0.0.1", "public", options);
  const theirs = () => netSnmp.createSession("127.0.0.1", "public", { ...options, version: netSnmp.Version2c });
  try {
    // warm both up (JIT) before anything is counted
    await measure(ours, 50);
    await measure(theirs, 50);
    const a: number[] = [];
    const b: number[] = [];
    let values = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const x = await measure(ours, PASSES);
      a.push(x.cpuMs);
      values = x.values;
      b.push((await measure(theirs, PASSES)).cpuMs);
    }
    const row = scenarioRow("snmp-client-48", {
      requests: COLUMNS.length,
      median_ms: median(a),
      baseline_ms: median(b),
      ratio: median(a) / median(b),
    });
    o.log(
      `  ${COLUMNS.length} GETBULKs, ${values} values per pass; CPU ms per pass (median of ${ROUNDS} rounds of ${PASSES}):` +
        ` v2c client ${median(a).toFixed(3)}, net-snmp ${median(b).toFixed(3)}, ratio ${(median(a) / median(b)).toFixed(2)}`,
    );
    return row;
  } finally {
    lab.stop();
  }
}
