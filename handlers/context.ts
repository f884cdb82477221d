/**
 * What every handler receives and returns. Handlers are plain async functions keyed by
 * operationId: parse -> policy -> action -> respond. They never touch HTTP objects.
 */
import type { Config } from "../server/config";
import type { Store } from "../db/connect";
import type { User } from "../db/users";
import type { TokenRecord, SessionRecord } from "../db/tokens";
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { LoginGuard } from "../server/login";
import type { DeviceService } from "./device-service";

export interface Caller {
  user: User;
  /** null when the caller uses a web UI session */
  token: TokenRecord | null;
  session: SessionRecord | null;
}

export interface Services {
  config: Config;
  store: Store;
  repos: Repos;
  secrets: SecretBox;
  loginGuard: LoginGuard;
  devices: DeviceService;
  version: string;
  startedAt: Date;
  /** the spec document (served at api/schema/ and used by the browsable pages) */
  spec: Record<string, unknown>;
}

export interface Ctx {
  services: Services;
  operationId: string;
  caller: Caller | null;
  params: Record<string, any>;
  query: Record<string, any>;
  body: Record<string, unknown>;
  /** scheme://host of this request, for absolute URLs in answers */
  baseUrl: string;
  /** client address (X-Forwarded-For only when TRUST_PROXY is set) */
  ip: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });

/** the caller of an authenticated operation (the server guarantees one) */
export function callerOf(ctx: Ctx): Caller {
  if (!ctx.caller) throw new Error(`operation ${ctx.operationId} ran without a caller`);
  return ctx.caller;
}
