/**
 * What the application layer offers the handlers and the shell, built once per process
 * by app/startup.ts: configuration, the store with its repositories, the secret box, the
 * login guard, the device service, and the spec document.
 */
import type { Config } from "./config";
import type { Store } from "../db/connect";
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { LoginGuard } from "./login";
import type { DeviceService } from "./devices";
import type { AuditWriter } from "./audit";

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
}
