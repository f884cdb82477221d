/**
 * What the application layer offers the handlers and the shell, built by app/startup.ts
 * (buildServices) for one service: configuration, the store with its repositories, the
 * secret box, the login guard, the device service with this service's per-device gates
 * and write leases, the audit writer, the spec document, the log and the metrics. Nothing
 * of it is module state: two services in one process (tests, the bench) share nothing.
 */
import type { Config } from "./config";
import type { Store } from "../db/connect";
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { LoginGuard } from "./login";
import type { DeviceService } from "./devices";
import type { AuditWriter } from "./audit";
import type { Logger, Telemetry } from "./telemetry";
import type { DirectoryRights } from "./directory/recheck";
import type { DeviceGates } from "../drivers/device-gate";
import type { WriteLeases } from "./write-lease";
import type { UsageCounter } from "./usage-counter";

export type { Caller } from "./caller";

export interface Services {
  config: Config;
  store: Store;
  repos: Repos;
  secrets: SecretBox;
  loginGuard: LoginGuard;
  devices: DeviceService;
  /**
   * The per-device bound of this service (DEVICE_CONCURRENCY, or its share among the live
   * instances, and DEVICE_QUEUE_LIMIT): every driver the device service opens goes through it
   */
  gates: DeviceGates;
  /** writes to one device, one at a time across instances (DEVICE_LEASE_SECONDS, DEVICE_WRITE_WAIT_SECONDS) */
  leases: WriteLeases;
  /** this service's name among the instances on the database (presence rows, lease owners) */
  instance: string;
  audit: AuditWriter;
  /** the usage counters behind api/stats/, kept in memory and written at most once a second */
  usage: UsageCounter;
  version: string;
  startedAt: Date;
  /** the spec document (served at api/schema/ and used by the browsable pages) */
  spec: Record<string, unknown>;
  /** the JSON log (stdout) */
  log: Logger;
  /** request and device metrics (/metrics), request scopes for the log */
  telemetry: Telemetry;
  /** directory users' rights rechecked as their tokens and sessions are used; null without directory login */
  directoryRights: DirectoryRights | null;
}
