/**
 * Debian's snmpsimd (package snmpsim) serving recordings of real switches on 127.0.0.1,
 * for the bench's chassis rows and the tests: the recordings are linked into a temporary
 * data folder (never copied), and the agent is ready when it answers sysObjectID.0.
 */
import { type ChildProcess, spawn } from "node:child_process";
import dgram from "node:dgram";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SnmpSession } from "../drivers/snmp/session";
import { stopChild } from "./agent-floor";

export const SNMPSIMD = "/usr/bin/snmpsimd";

/** a UDP port on 127.0.0.1 free a moment ago */
export async function freeUdpPort(): Promise<number> {
  const socket = dgram.createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface SnmpsimdOptions {
  /** community -> recording file (.snmprec); the first one is asked when waiting for the agent */
  recordings: Record<string, string>;
  /** more snmpsimd arguments (v3 users, --max-varbinds...) */
  args?: string[];
  /**
   * A folder of recording indexes kept between starts (writable by every user: snmpsimd
   * drops its privileges). snmpsimd names an index by its recording's real path and builds
   * it again only when the recording is newer, so a start finds the indexes another start
   * built. Default: a new folder per start, removed at stop. Two agents must not build the
   * same index at once: fill the folder first, with one agent serving them all (as the
   * tests' global set-up does).
   */
  cacheDir?: string;
  /**
   * No log (--logging-method=null). snmpsimd otherwise writes every request's and answer's
   * values to stdout: about 0.5 MB for one walk of a 2960-X's ifTable, and a third of its
   * time per request. The bench leaves it on, as its figures were measured.
   */
  quiet?: boolean;
}

export interface RunningSnmpsimd {
  port: number;
  /** the agent's process id */
  pid: number;
  stop(): Promise<void>;
}

export async function startSnmpsimd(options: SnmpsimdOptions): Promise<RunningSnmpsimd> {
  const communities = Object.keys(options.recordings);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-snmpsim-"));
  const data = path.join(tmp, "data");
  const cache = options.cacheDir ?? path.join(tmp, "cache");
  fs.mkdirSync(data);
  if (!options.cacheDir) fs.mkdirSync(cache);
  for (const name of communities)
    fs.symlinkSync(path.resolve(options.recordings[name]), path.join(data, `${name}.snmprec`));
  // snmpsimd drops to an unprivileged user when started as root; it must read and write these
  fs.chmodSync(tmp, 0o755);
  fs.chmodSync(data, 0o755);
  if (!options.cacheDir) fs.chmodSync(cache, 0o777);
  const port = await freeUdpPort();
  const args = [
    `--data-dir=${data}`,
    `--cache-dir=${cache}`,
    `--agent-udpv4-endpoint=127.0.0.1:${port}`,
    ...(options.args ?? []),
    ...(options.quiet ? ["--logging-method=null"] : []),
  ];
  if (process.getuid?.() === 0) args.push("--process-user=nobody", "--process-group=nogroup");
  const agent: ChildProcess = spawn(SNMPSIMD, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  // the last of what it printed, for the error when it does not come up
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-16_384));
  agent.stdout?.on("data", keep);
  agent.stderr?.on("data", keep);
  const stop = async () => {
    await stopChild(agent);
    fs.rmSync(tmp, { recursive: true, force: true });
  };

  // ready when it answers; indexing the recordings takes a second or two
  const probe = new SnmpSession(
    { host: "127.0.0.1", port, version: "2c", community: communities[0], timeout_ms: 300, retries: 0 },
    { sizeMemory: null },
  );
  try {
    for (let attempt = 0; attempt < 60; attempt++) {
      if (agent.exitCode !== null) break;
      try {
        await probe.get(["1.3.6.1.2.1.1.2.0"]);
        return { port, pid: agent.pid ?? 0, stop };
      } catch {
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    probe.close();
  }
  await stop();
  throw new Error(`snmpsimd did not come up:\n${log}`);
}
