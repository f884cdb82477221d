/**
 * A family's driver opened straight on snmpsimd serving a recording (as the registry
 * would open it), learning the basic and the details view: how many requests and round
 * trips each took, how many went unanswered or came back tooBig, and how long. Replay
 * tests print the line and require that no request went unanswered.
 */
import type { DriverEntry } from "../../drivers/entry";
import type { SnmpDriver } from "../../drivers/snmp/driver";
import type { ReplayContext } from "./replay";

export async function learnCounts(ctx: ReplayContext, entry: DriverEntry, name: string): Promise<string> {
  const line: string[] = [];
  for (const scope of ["basic", "details"] as const) {
    const d = entry.open(
      { connector: 0, snmp: ctx.sim.target(name, { timeout_ms: 2000, retries: 1 }) },
      { name },
    ) as SnmpDriver;
    const started = Date.now();
    try {
      const snap = await d.learn(scope);
      expect(snap.interfaces.length).toBe(ctx.device(name).facts.interfaces.size);
      const c = d.counters;
      line.push(
        `${scope}: ${c.requests} requests, ${c.roundTrips} round trips, ${c.timeouts} unanswered, ${c.tooBig} tooBig, ${Date.now() - started} ms`,
      );
      expect(c.timeouts).toBe(0);
    } finally {
      await d.close();
    }
  }
  return `${name} driver ${entry.name}: ${line.join("; ")}`;
}
