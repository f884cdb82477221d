/**
 * What the application layer offers the handlers and the shell, built once per process
 * by app/startup.ts: configuration, the store with its repositories, the secret box, the
 * login guard, the device service, the spec document, the log and the metrics.
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

export type { Caller } from "./caller";

export interface Services {
  config: Config;
  store: Store;
  repos: Repos;
  secrets: SecretBox;
  loginGuard: LoginGuard;
  devices: DeviceService;
  audit: AuditWriter;
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
