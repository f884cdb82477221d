/**
 * Benchmark: learning a device with the generic driver's read plans versus the way the
 * OpenL2M does it (OpenL2M's generic SNMP driver: every column walked on its own,
 * one after another, GETBULK with max-repetitions 10), against the same lab switches
 * with injected latency per request. Prints requests, critical-path round trips and
 * wall time of both, and the ratios.
 *
 * Run: main() (bench/run.ts), or `node dist/bench/snmp-learn.js` after a build.
 */
import { startLabSwitch, type LabSwitch } from "../lab";
import { SnmpDriver } from "../drivers/snmp/driver";
import { genericFamily } from "../drivers/families/generic";
import type { NetSnmpSession } from "../drivers/snmp/net-snmp-api";
import { openNetSnmpSession } from "../drivers/snmp/security";
import type { LearnScope } from "../model/device";
import type { SnmpTarget } from "../model/targets";
import { baselineBasicWalks, baselineDetailsWalks } from "./openl2m-walks";

const LATENCY_MS = 5;
const SIZES = [24, 48, 384];
const BASELINE_MAX_REPETITIONS = 10;

function getOnce(session: NetSnmpSession, oid: string): Promise<void> {
  return new Promise((resolve, reject) => session.get([oid], (error) => (error ? reject(error) : resolve())));
}

/** One column after another, GETBULK with a fixed max-repetitions, like ezsnmp's bulk_walk. */
function walk(session: NetSnmpSession, oid: string): Promise<void> {
  return new Promise((resolve, reject) => {
    session.subtree(
      oid,
      BASELINE_MAX_REPETITIONS,
      () => undefined,
      (error) => (error ? reject(error) : resolve()),
    );
  });
}

async function baselineLearn(target: SnmpTarget, scope: LearnScope): Promise<void> {
  const session = openNetSnmpSession(target);
  try {
    await getOnce(session, "1.3.6.1.2.1.1.2.0"); // the probe of sysObjectID
    const walks = scope === "details" ? [...baselineBasicWalks, ...baselineDetailsWalks] : baselineBasicWalks;
    for (const oid of walks) await walk(session, oid);
  } finally {
    session.close();
  }
}

interface Measurement {
  requests: number;
  roundTrips: number;
  ms: number;
}

async function measureDriver(lab: LabSwitch, scope: LearnScope): Promise<Measurement> {
  const driver = new SnmpDriver(genericFamily, lab.snmpTarget());
  lab.counters.reset();
  const start = process.hrtime.bigint();
  try {
    await driver.learn(scope);
  } finally {
    await driver.close();
  }
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { requests: lab.counters.requests, roundTrips: driver.counters.roundTrips, ms };
}

async function measureBaseline(lab: LabSwitch, scope: LearnScope): Promise<Measurement> {
  lab.counters.reset();
  const start = process.hrtime.bigint();
  await baselineLearn(lab.snmpTarget(), scope);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  // strictly sequential: every request is a round trip on the critical path
  return { requests: lab.counters.requests, roundTrips: lab.counters.requests, ms };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);

/** Median time of a few runs (requests and round trips are the same every run). */
async function median(runs: number, measure: () => Promise<Measurement>): Promise<Measurement> {
  const results: Measurement[] = [];
  for (let i = 0; i < runs; i++) results.push(await measure());
  results.sort((a, b) => a.ms - b.ms);
  return results[Math.floor(results.length / 2)];
}

export async function main(): Promise<void> {
  console.log(
    `SNMP learn: read plans vs one-column-at-a-time walks (max-repetitions ${BASELINE_MAX_REPETITIONS}), ${LATENCY_MS} ms latency per request`,
  );
  console.log(
    [
      "ports".padEnd(6),
      "scope".padEnd(8),
      pad("plan req", 9),
      pad("plan rtt", 9),
      pad("plan ms", 9),
      pad("ref req", 8),
      pad("ref rtt", 8),
      pad("ref ms", 8),
      pad("req x", 7),
      pad("rtt x", 7),
      pad("time x", 7),
    ].join(" "),
  );
  for (const ports of SIZES) {
    const lab = await startLabSwitch({ profile: "generic", ports, poePorts: "all", latencyMs: LATENCY_MS, seed: 1 });
    try {
      // warm-up: first-run costs (JIT, the agent's index) are nobody's round trips
      await measureDriver(lab, "details");
      await measureBaseline(lab, "basic");
      for (const scope of ["basic", "details"] as const) {
        const plan = await median(3, () => measureDriver(lab, scope));
        const ref = await median(3, () => measureBaseline(lab, scope));
        console.log(
          [
            String(ports).padEnd(6),
            scope.padEnd(8),
            pad(plan.requests, 9),
            pad(plan.roundTrips, 9),
            pad(plan.ms.toFixed(0), 9),
            pad(ref.requests, 8),
            pad(ref.roundTrips, 8),
            pad(ref.ms.toFixed(0), 8),
            pad((ref.requests / plan.requests).toFixed(1), 7),
            pad((ref.roundTrips / plan.roundTrips).toFixed(1), 7),
            pad((ref.ms / plan.ms).toFixed(1), 7),
          ].join(" "),
        );
      }
    } finally {
      await lab.stop();
    }
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
