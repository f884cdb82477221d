/**
 * One log line and the metrics of every HTTP request. The request id is the caller's
 * X-Request-Id when that is a short plain token, else a fresh one; it is echoed in the
 * answer's X-Request-Id header and names the request's log lines. The line says the
 * method, the spec's path template and operationId (never the raw URL: it may hold
 * search text), status, duration, the caller's username, and what the request cost on
 * devices. Bodies and header values are never logged.
 */
import type { NextFunction, Request, Response } from "express";
import type { Services } from "../app/services";
import { requestIdFrom, type Logger, type RequestScope } from "../app/telemetry";

/** What the API shell knows about a request once it has matched it (res.locals.observed). */
export interface Observed {
  /** the spec's path template */
  path?: string;
  operationId?: string;
  user?: string;
}

/** routes answered outside the API whose requests are logged at debug level only (scrapes, probes, files) */
const QUIET = /^\/(healthz|metrics)$|^\/assets\//;

export function observed(res: Response): Observed {
  return ((res.locals.observed as Observed | undefined) ??= {});
}

/** the request's child logger (carries its id) */
export function requestLog(res: Response): Logger | undefined {
  return res.locals.log as Logger | undefined;
}

/** the path of the express route that answered (express types req.route as any) */
function routePath(route: unknown): string | undefined {
  if (typeof route !== "object" || route === null || !("path" in route)) return undefined;
  return typeof route.path === "string" ? route.path : undefined;
}

export function observeRequests(s: Services) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const id = requestIdFrom(req.headers["x-request-id"]);
    res.setHeader("X-Request-Id", id);
    res.locals.log = s.log.child({ reqId: id });
    const scope: RequestScope = { id, deviceRequests: 0, deviceRoundTrips: 0, deviceErrors: 0 };
    s.telemetry.requestStarted();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const o = observed(res);
      // express's route (web pages, files, /healthz) when the API shell did not match one
      const path = o.path ?? routePath(req.route) ?? null;
      const aborted = !res.writableFinished;
      s.telemetry.requestDone(o.operationId ?? path ?? "unmatched", req.method, res.statusCode, ms / 1000);
      const line = {
        reqId: id,
        method: req.method,
        path,
        operationId: o.operationId ?? null,
        status: res.statusCode,
        durationMs: Math.round(ms * 10) / 10,
        user: o.user ?? null,
        deviceRequests: scope.deviceRequests,
        deviceRoundTrips: scope.deviceRoundTrips,
        ...(scope.deviceErrors ? { deviceErrors: scope.deviceErrors } : {}),
        ...(aborted ? { aborted: true } : {}),
      };
      const level = res.statusCode >= 500 ? "error" : path && QUIET.test(path) ? "debug" : "info";
      s.log[level](line, aborted ? "request aborted by the client" : "request");
    };
    res.once("finish", done);
    res.once("close", done);
    s.telemetry.inScope(scope, () => next());
  };
}
