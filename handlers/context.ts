/**
 * What every handler receives and returns. Handlers are plain async functions keyed by
 * operationId: parse -> policy -> action -> respond. They never touch HTTP objects.
 */
import type { Caller, Services } from "../app/services";
import type { Actor } from "../app/audit";

export type { Caller, Services } from "../app/services";

export interface Ctx {
  services: Services;
  operationId: string;
  caller: Caller | null;
  params: Record<string, any>;
  query: Record<string, any>;
  body: Record<string, unknown>;
  /** scheme://host of this request, for absolute URLs in answers */
  baseUrl: string;
  /** client address (behind TRUSTED_PROXIES: the hop before them in X-Forwarded-For) */
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

/** who is calling and from where, for the audit log */
export function actorOf(ctx: Ctx): Actor {
  return { caller: callerOf(ctx), ip: ctx.ip };
}
