/**
 * For operators, outside api/ and without authentication: GET /healthz (the process
 * answers and the database does) and GET /metrics (Prometheus text format), the latter
 * only for the client addresses METRICS_ALLOW names (loopback by default).
 * docs/api-decisions.md says why it is an address list and not a token.
 */
import type { Express } from "express";
import { sql } from "kysely";
import type { Services } from "../app/services";
import { ApiError } from "../app/errors";
import { clientIp } from "./request-info";
import { addressMatcher } from "../domain/addresses";

/** a database that has not answered `SELECT 1` within this is unreachable for the probe */
const HEALTH_DB_TIMEOUT_MS = 2000;

async function databaseAnswers(s: Services): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), HEALTH_DB_TIMEOUT_MS)));
  try {
    return await Promise.race([
      sql`select 1`.execute(s.store.db).then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** METRICS_ALLOW as a matcher of client addresses */
export function metricsAccess(allow: string[] | "all"): (address: string) => boolean {
  return allow === "all" ? () => true : addressMatcher(allow);
}

export function mountOps(app: Express, s: Services): void {
  app.get("/healthz", async (_req, res) => {
    const ok = await databaseAnswers(s);
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? "ok" : "unavailable", database: ok ? "ok" : "unreachable", version: s.version });
  });

  const mayScrape = metricsAccess(s.config.metricsAllow);
  app.get("/metrics", async (req, res) => {
    const ip = clientIp(req, s.config);
    if (!mayScrape(ip)) {
      const e = new ApiError(403, "forbidden", `Metrics are not served to ${ip || "this address"} (METRICS_ALLOW)`);
      res.status(e.status).json(e.body());
      return;
    }
    const { contentType, text } = await s.telemetry.exposition();
    res.status(200).type(contentType).send(text);
  });
}
