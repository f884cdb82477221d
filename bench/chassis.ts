/**
 * Big chassis on snmpsimd: the basic view of a large recording through the API against
 * the agent's floor, Debian's snmpbulkwalk of exactly the columns the view read (the
 * engine's learned reads), with the max-repetitions the engine learned, all walks started
 * at once, measured in the same run. snmpsimd spends its own few milliseconds on every
 * request whatever the concurrency, so the floor is what this agent allows. Rows:
 * chassis-<recording> with median_ms, floor_ms and ratio. Needs snmpsimd, snmpbulkwalk
 * and the recordings (SWITCHDESK_FIXTURES, or ../shared/fixtures beside the project);
 * without them no row, and the reason is printed.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../app/paths";
import { resetRequestSizes } from "../drivers/snmp/request-size";
import { bulkWalksMs, learnedWalks } from "./agent-floor";
import { SNMPBULKWALK } from "./baseline";
import { SNMPSIMD, startSnmpsimd } from "./snmpsimd";
import { fixture } from "./scenarios";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, msSince } from "./stats";

export const CHASSIS_RECORDINGS = ["junos_ex4600mp", "ios_4506e"] as const;

function recordingFile(name: string): string | null {
  const dir = process.env.SWITCHDESK_FIXTURES ?? path.resolve(projectRoot(), "../shared/fixtures");
  const file = path.join(dir, "snmprec", `${name}.snmprec`);
  return fs.existsSync(file) ? file : null;
}

export async function chassisScenarios(o: { runs: number; log: (l: string) => void }): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const name of CHASSIS_RECORDINGS) {
    const file = recordingFile(name);
    const missing = !fs.existsSync(SNMPSIMD)
      ? SNMPSIMD
      : !fs.existsSync(SNMPBULKWALK)
        ? SNMPBULKWALK
        : !file
          ? `the recording ${name}.snmprec (SWITCHDESK_FIXTURES or ../shared/fixtures)`
          : null;
    if (missing || !file) {
      o.log(`chassis-${name}: left out, no ${missing}`);
      continue;
    }
    const agent = await startSnmpsimd({ recordings: { [name]: file } });
    const f = await fixture();
    try {
      resetRequestSizes();
      const id = await f.app.addSnmpDevice(name, [f.group], agent.port, name);
      const url = `/api/switches/${f.group}/${id}/`;
      const cold = process.hrtime.bigint();
      const first = await f.app.request("GET", url, { token: f.token });
      const coldMs = msSince(cold);
      if (first.status !== 200) throw new Error(`chassis-${name}: HTTP ${first.status}`);
      const times: number[] = [];
      for (let i = 0; i < o.runs; i++) {
        const t = process.hrtime.bigint();
        const r = await f.app.request("GET", url, { token: f.token });
        if (r.status !== 200) throw new Error(`chassis-${name}: HTTP ${r.status}`);
        times.push(msSince(t));
      }
      // the columns the view read, as the engine learned them
      const walks = learnedWalks(agent.port, name);
      const floors: number[] = [];
      for (let i = 0; i < 3; i++) floors.push(await bulkWalksMs(agent.port, name, walks));
      const row = scenarioRow(`chassis-${name}`, {
        median_ms: median(times),
        floor_ms: median(floors),
        ratio: median(times) / median(floors),
      });
      o.log(`chassis-${name}: first view ${coldMs.toFixed(0)} ms; ${walks.length} columns in the floor`);
      rows.push(row);
    } finally {
      await f.app.close();
      await agent.stop();
    }
  }
  return rows;
}
