/**
 * What operators see of a running service: structured JSON log lines (pino) on stdout,
 * one per request with its request id, and Prometheus metrics (prom-client) in a
 * registry of this process's own. The device service reports what each device use cost
 * (SNMP requests and round trips from the driver's counters), its failures by code and
 * the depth of each device's write queue; the HTTP shell reports each request; the audit
 * writer reports each row it could not write (an error line and a count, app/audit.ts).
 * What a request spent on devices is counted in its scope (AsyncLocalStorage), so its log
 * line can say it.
 *
 * Nothing here ever sees a request body, a header value other than X-Request-Id, or a
 * decrypted credential: log lines carry only the names given to them, and the redact
 * list below blanks the usual secret field names should one ever be passed by mistake.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import pino, { type DestinationStream, type Logger } from "pino";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { DeviceGateLimits } from "../drivers/device-gate";

export type { Logger } from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** field names that are never written out, wherever they appear one or two levels down */
const SECRET_FIELDS = [
  "password",
  "new_password",
  "token",
  "key",
  "authorization",
  "cookie",
  "community",
  "auth_key",
  "priv_key",
  "private_key",
  "enable_password",
  "enable_secret",
  "secret",
  "secretKey",
  "adminPassword",
];

/** A JSON logger: one object per line, ISO time, level as its name. */
export function createLogger(level: LogLevel, destination: DestinationStream = process.stdout): Logger {
  return pino(
    {
      level,
      base: { service: "switchdesk" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: SECRET_FIELDS.flatMap((f) => [f, `*.${f}`]), censor: "[redacted]" },
      // an error's name, message and stack only: its other fields (a driver's target, a query) stay out
      serializers: { err: (e: Error) => ({ type: e?.name, message: e?.message, stack: e?.stack }) },
    },
    destination,
  );
}

/** What one HTTP request cost on devices (the device service adds to the current request's scope). */
export interface RequestScope {
  id: string;
  deviceRequests: number;
  deviceRoundTrips: number;
  deviceErrors: number;
}

/** An incoming X-Request-Id is kept when it is a short plain token; anything else gets a fresh id. */
export function requestIdFrom(header: unknown): string {
  return typeof header === "string" && /^[A-Za-z0-9._:@+=/-]{1,128}$/.test(header) ? header : crypto.randomUUID();
}

/** the driver counters the device service reads after each use (SNMP drivers have them) */
export interface DeviceCounters {
  requests: number;
  roundTrips: number;
}

/** What the device service reports; Telemetry implements it (tests may pass their own). */
export interface DeviceObserver {
  deviceUsed(driver: string, counters: DeviceCounters | null): void;
  deviceFailed(code: string): void;
  queueDepth(deviceId: number, depth: number): void;
}

/** Which audit write failed (app/audit.ts): the label of switchdesk_audit_write_failures_total. */
export type AuditWriteKind = "refusal" | "pending" | "settle" | "admin" | "cut_off" | "leftovers" | "pin";

/** What the audit writer reports of a row it could not write; Telemetry implements it. */
export interface AuditObserver {
  /** `row`: what the row was about (action, outcome, code, switch), never its values */
  auditWriteFailed(kind: AuditWriteKind, err: unknown, row: Record<string, string | number | null>): void;
}

/** seconds; device calls make the slow end long */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class Telemetry implements DeviceObserver, AuditObserver {
  readonly registry = new Registry();
  private readonly requests: Counter<"operation" | "method" | "status">;
  private readonly latency: Histogram<"operation" | "method">;
  private readonly inFlight: Gauge;
  private readonly deviceUses: Counter<"driver">;
  private readonly deviceRequests: Counter<"driver">;
  private readonly deviceErrors: Counter<"code">;
  private readonly queue: Gauge<"switch">;
  private readonly auditFailures: Counter<"kind">;
  /**
   * The request scopes of this service (one store per service, so a second service in the
   * process neither sees nor ends them). Before Node 24 a store in use hooks every promise
   * the process creates, until close() disables it.
   */
  private readonly scopes = new AsyncLocalStorage<RequestScope>();

  constructor(
    readonly log: Logger,
    /** the service's per-device limits (its device gates'), shown as switchdesk_device_concurrency */
    gates: { readonly limits: DeviceGateLimits },
  ) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: "switchdesk_http_requests_total",
      help: "HTTP requests answered, by operation (the spec's operationId, or the page's route) and status",
      labelNames: ["operation", "method", "status"],
      registers,
    });
    this.latency = new Histogram({
      name: "switchdesk_http_request_duration_seconds",
      help: "Time from receiving a request to the end of its answer, by operation",
      labelNames: ["operation", "method"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.inFlight = new Gauge({
      name: "switchdesk_http_requests_in_flight",
      help: "HTTP requests being answered now",
      registers,
    });
    this.deviceUses = new Counter({
      name: "switchdesk_device_sessions_total",
      help: "Times a device was opened for a read or a write, by driver",
      labelNames: ["driver"],
      registers,
    });
    this.deviceRequests = new Counter({
      name: "switchdesk_device_requests_total",
      help: "Requests sent to devices (SNMP PDUs), by driver",
      labelNames: ["driver"],
      registers,
    });
    this.deviceErrors = new Counter({
      name: "switchdesk_device_errors_total",
      help: "Device failures answered to callers, by code (device_unreachable, device_refused, ...)",
      labelNames: ["code"],
      registers,
    });
    new Gauge({
      name: "switchdesk_device_concurrency",
      help: "Requests this instance lets be in flight to one device: its share of DEVICE_CONCURRENCY among the live instances",
      registers,
      collect() {
        this.set(gates.limits.concurrency);
      },
    });
    this.queue = new Gauge({
      name: "switchdesk_device_queue_depth",
      help: "Writes to one device running or waiting for it, by switch id",
      labelNames: ["switch"],
      registers,
    });
    this.auditFailures = new Counter({
      name: "switchdesk_audit_write_failures_total",
      help: "Audit rows that could not be written (the database refused or was lost), by kind: refusal, pending, settle, admin, cut_off, leftovers, pin",
      labelNames: ["kind"],
      registers,
    });
  }

  /** Process metrics (CPU, memory, event loop, handles): for the served process only. */
  collectProcessMetrics(): void {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Runs one request's handling in its own scope. */
  inScope<T>(scope: RequestScope, fn: () => T): T {
    return this.scopes.run(scope, fn);
  }

  /** the scope of the request being handled, if any */
  scope(): RequestScope | undefined {
    return this.scopes.getStore();
  }

  requestStarted(): void {
    this.inFlight.inc();
  }

  requestDone(operation: string, method: string, status: number, seconds: number): void {
    this.inFlight.dec();
    this.requests.inc({ operation, method, status: String(status) });
    this.latency.observe({ operation, method }, seconds);
  }

  deviceUsed(driver: string, counters: DeviceCounters | null): void {
    this.deviceUses.inc({ driver });
    if (counters) this.deviceRequests.inc({ driver }, counters.requests);
    const scope = this.scopes.getStore();
    if (scope && counters) {
      scope.deviceRequests += counters.requests;
      scope.deviceRoundTrips += counters.roundTrips;
    }
  }

  deviceFailed(code: string): void {
    this.deviceErrors.inc({ code });
    const scope = this.scopes.getStore();
    if (scope) scope.deviceErrors++;
  }

  queueDepth(deviceId: number, depth: number): void {
    this.queue.set({ switch: String(deviceId) }, depth);
  }

  /**
   * An audit row that could not be written: an error line (what the row was about, the
   * database's error; never the row's values) and a count by kind.
   */
  auditWriteFailed(kind: AuditWriteKind, err: unknown, row: Record<string, string | number | null>): void {
    this.auditFailures.inc({ kind });
    this.log.error({ err, audit: { kind, ...row } }, "an audit row could not be written");
  }

  /** Ends the request scopes: the service answers no more requests. */
  close(): void {
    this.scopes.disable();
  }

  /** The metrics in Prometheus text format, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
