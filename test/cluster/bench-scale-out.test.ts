/**
 * The bench's scale-out scenario (README "Scale-out", `npm run bench`) run for two seconds
 * per instance count: one instance and then three behind the round-robin proxy answer the
 * load mix with no error, the proxy spreads the calls evenly, the switches never see more
 * than the per-device bound in flight, and the database counters give figures per call.
 * The full-length figures come from `npm run bench`; this keeps the scenario working.
 */
import { describeDb } from "../support/db";
import { built } from "../support/instances";
import { scaleOutScenario } from "../../bench/scale-out";

describeDb("the bench's load run on one and three instances", () => {
  it("answers the load mix through one and three instances behind the proxy, within the per-device bound", async () => {
    if (!built) throw new Error("the service is not built: run `npm run build` (npm ci does it)");
    const lines: string[] = [];
    const rows = await scaleOutScenario({
      latencyMs: 5,
      runs: 1,
      baselineRuns: 1,
      loadSeconds: 2,
      log: (l) => lines.push(l),
    });
    console.log([...lines, ...rows.map((r) => JSON.stringify(r))].join("\n"));
    expect(rows.map((r) => [r.name, r.instances])).toEqual([
      ["load-64x32-1-instance", 1],
      ["load-64x32-3-instances", 3],
    ]);
    for (const r of rows) {
      expect(r.errors).toBe(0);
      expect(r.rps).toBeGreaterThan(0);
      expect(r.max_in_flight).toBeGreaterThanOrEqual(1);
      expect(r.max_in_flight).toBeLessThanOrEqual(4);
      // every call reads the token and its user: at least one SELECT per call; writes count usage
      expect(r.db_reads_per_call).toBeGreaterThanOrEqual(1);
      expect(r.db_writes_per_call).toBeGreaterThan(0);
      expect(r.cpu_ms_per_call).toBeGreaterThan(0);
    }
    expect(rows[1].rps_ratio).toBeCloseTo(rows[1].rps! / rows[0].rps!, 2);
    // round robin: the three instances got the same number of calls, give or take one
    const spread = /calls per instance (\d+), (\d+), (\d+);/.exec(lines.find((l) => l.includes("3 instance(s)")) ?? "");
    expect(spread).not.toBeNull();
    const sent = spread!.slice(1).map(Number);
    expect(Math.max(...sent) - Math.min(...sent)).toBeLessThanOrEqual(1);
  }, 120_000);
});
