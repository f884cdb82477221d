/**
 * An SNMP agent's floor for a view, shared by the rows that compare a view with it
 * (chassis-*, snmpd-*): the columns the engine read for the device, as it learned them,
 * and Debian's snmpbulkwalk of each of them, all started at once. Also how the bench stops
 * an agent process it started.
 */
import { type ChildProcess, execFile } from "node:child_process";
import { deviceSizeKey, requestSizes } from "../drivers/snmp/request-size";
import { SNMPBULKWALK } from "./baseline";
import { msSince } from "./stats";

export interface ColumnWalk {
  column: string;
  /** max-repetitions: the rows of one of the engine's requests, and one more (the column's end) */
  rows: number;
}

/** The columns the engine read from 127.0.0.1:port with this community since the last reset. */
export function learnedWalks(port: number, community: string): ColumnWalk[] {
  const memory = requestSizes.forDevice(
    deviceSizeKey({ host: "127.0.0.1", port, version: "2c", community, timeout_ms: 0, retries: 0 }),
  );
  const columns = new Map<string, number>();
  for (const read of memory.reads()) {
    // a read's key is its columns; the engine asks their rows and one more, at most what the agent allowed
    const perRequest = read.values ?? 64;
    for (const column of read.read.split(" "))
      columns.set(column, Math.max(1, Math.min(perRequest, (read.rows ?? perRequest) + 1)));
  }
  return [...columns].map(([column, rows]) => ({ column, rows }));
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, _o, stderr) =>
      error ? reject(new Error(`${tool} ${args.join(" ")}: ${stderr || error.message}`)) : resolve(),
    );
  });
}

/** snmpbulkwalk of every column at once against 127.0.0.1:port; the milliseconds until the last ends. */
export async function bulkWalksMs(port: number, community: string, walks: ColumnWalk[]): Promise<number> {
  const start = process.hrtime.bigint();
  await Promise.all(
    walks.map((w) =>
      run(SNMPBULKWALK, [
        "-v2c",
        "-c",
        community,
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

/** SIGTERM, then SIGKILL when the process has not exited within graceMs; resolves when it is gone. */
export async function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  let timer: NodeJS.Timeout | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, graceMs);
  });
  child.kill("SIGTERM");
  await exited;
  clearTimeout(timer);
}
