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
import { execFile, spawn, type ChildProcess } from "node:child_process";
import dgram from "node:dgram";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../app/paths";
import { deviceSizeKey, requestSizes, resetRequestSizes } from "../drivers/snmp/request-size";
import { SNMPBULKWALK } from "./baseline";
import { fixture } from "./scenarios";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, msSince } from "./stats";

const SNMPSIMD = "/usr/bin/snmpsimd";
export const CHASSIS_RECORDINGS = ["junos_ex4600mp", "ios_4506e"] as const;

function recordingFile(name: string): string | null {
  const dir = process.env.SWITCHDESK_FIXTURES ?? path.resolve(projectRoot(), "../shared/fixtures");
  const file = path.join(dir, "snmprec", `${name}.snmprec`);
  return fs.existsSync(file) ? file : null;
}

async function freePort(): Promise<number> {
  const s = dgram.createSocket("udp4");
  await new Promise<void>((r) => s.bind(0, "127.0.0.1", r));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, _o, stderr) =>
      error ? reject(new Error(`${tool} ${args.join(" ")}: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** snmpsimd serving one recording under the community `name`; resolves when it answers */
async function startAgent(name: string, file: string): Promise<{ port: number; stop(): Promise<void> }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-chassis-"));
  for (const d of ["data", "cache"]) fs.mkdirSync(path.join(tmp, d));
  fs.symlinkSync(file, path.join(tmp, "data", `${name}.snmprec`));
  // snmpsimd drops to an unprivileged user when started as root
  fs.chmodSync(tmp, 0o755);
  fs.chmodSync(path.join(tmp, "data"), 0o755);
  fs.chmodSync(path.join(tmp, "cache"), 0o777);
  const port = await freePort();
  const args = [`--data-dir=${tmp}/data`, `--cache-dir=${tmp}/cache`, `--agent-udpv4-endpoint=127.0.0.1:${port}`];
  if (process.getuid?.() === 0) args.push("--process-user=nobody", "--process-group=nogroup");
  const child: ChildProcess = spawn(SNMPSIMD, args, { stdio: "ignore" });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  for (let attempt = 0; attempt < 100 && child.exitCode === null; attempt++) {
    try {
      await run("/usr/bin/snmpget", [
        "-v2c",
        "-c",
        name,
        "-t",
        "0.3",
        "-r",
        "0",
        `127.0.0.1:${port}`,
        "1.3.6.1.2.1.1.2.0",
      ]);
      return { port, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop();
  throw new Error(`snmpsimd did not answer for ${name}`);
}

/** The agent's floor: one snmpbulkwalk per column the view read, all at once. */
async function floorMs(port: number, name: string, walks: Array<{ column: string; rows: number }>): Promise<number> {
  const start = process.hrtime.bigint();
  await Promise.all(
    walks.map((w) =>
      run(SNMPBULKWALK, [
        "-v2c",
        "-c",
        name,
        "-On",
        "-t",
        "2",
        "-r",
        "1",
        `-Cr${w.rows}`,
        `127.0.0.1:${port}`,
        w.column,
      ]),
    ),
  );
  return msSince(start);
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
    const agent = await startAgent(name, file);
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
      // the columns the view read, as the engine learned them (a read's key is its columns)
      const memory = requestSizes.forDevice(
        deviceSizeKey({
          host: "127.0.0.1",
          port: agent.port,
          version: "2c",
          community: name,
          timeout_ms: 0,
          retries: 0,
        }),
      );
      const columns = new Map<string, number>();
      for (const read of memory.reads()) {
        const perRequest = read.values ?? 64;
        for (const column of read.read.split(" "))
          columns.set(column, Math.max(1, Math.min(perRequest, (read.rows ?? perRequest) + 1)));
      }
      const walks = [...columns].map(([column, r]) => ({ column, rows: r }));
      const floors: number[] = [];
      for (let i = 0; i < 3; i++) floors.push(await floorMs(agent.port, name, walks));
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
