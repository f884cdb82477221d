/**
 * The baseline of the basic scenarios: Debian's snmpbulkwalk (package snmp) reading the
 * columns OpenL2M reads, one walk after another at snmpbulkwalk's default
 * max-repetitions (10), after one snmpget of sysObjectID (OpenL2M's probe). Each walk is
 * one run of the tool, as a shell loop over the columns would be.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import type { LabSwitch } from "../lab";
import { baselineBasicWalks, baselineDetailsWalks } from "./openl2m-walks";
import { msSince } from "./stats";

export const SNMPBULKWALK = "/usr/bin/snmpbulkwalk";
const SNMPGET = "/usr/bin/snmpget";

export function baselineAvailable(): boolean {
  return fs.existsSync(SNMPBULKWALK) && fs.existsSync(SNMPGET);
}

function run(tool: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`${tool} ${args.join(" ")}: ${stderr || error.message}`));
      else resolve();
    });
  });
}

/** One read of the device OpenL2M's way; its wall time and the requests the lab counted. */
export async function baselineRead(
  lab: LabSwitch,
  scope: "basic" | "details" = "basic",
): Promise<{ ms: number; requests: number }> {
  const agent = `127.0.0.1:${lab.port}`;
  const common = ["-v2c", "-c", lab.options.community, "-On", "-t", "2", "-r", "1"];
  const walks = scope === "details" ? [...baselineBasicWalks, ...baselineDetailsWalks] : baselineBasicWalks;
  const before = lab.counters.requests;
  const start = process.hrtime.bigint();
  await run(SNMPGET, [...common, agent, "1.3.6.1.2.1.1.2.0"]);
  for (const column of walks) await run(SNMPBULKWALK, [...common, agent, column]);
  return { ms: msSince(start), requests: lab.counters.requests - before };
}
