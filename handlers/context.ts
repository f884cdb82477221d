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
  /**
   * Path and query parameters as the server hands them over, checked against the spec:
   * the ones the spec declares integers are numbers, the others strings. Read them with
   * pathId/pathText/queryInt/queryText below.
   */
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** scheme://host of this request, for absolute URLs in answers */
  baseUrl: string;
  /** client address (behind TRUSTED_PROXIES: the hop before them in X-Forwarded-For) */
  ip: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** the JSON body as UTF-8 bytes already, in parts sent one after another (in place of `body`) */
  json?: readonly Buffer[];
  headers?: Record<string, string>;
}

export type Handler = (ctx: Ctx) => Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
/** 200 with a JSON body written beforehand (the menu, app/menu-cache.ts) */
export const okJson = (json: readonly Buffer[]): Reply => ({ status: 200, json });
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

/** A parameter that is not what the spec declares: the server let through what it should not have. */
function misfit(ctx: Ctx, where: string, name: string, expected: string): Error {
  return new Error(`operation ${ctx.operationId}: ${where} parameter '${name}' is not ${expected}`);
}

/** a path parameter the spec declares an integer (an id) */
export function pathId(ctx: Ctx, name: string): number {
  const v = ctx.params[name];
  if (typeof v !== "number") throw misfit(ctx, "path", name, "an integer");
  return v;
}

/** a path parameter the spec declares a string */
export function pathText(ctx: Ctx, name: string): string {
  const v = ctx.params[name];
  if (typeof v !== "string") throw misfit(ctx, "path", name, "a string");
  return v;
}

/** an optional path parameter the spec declares a string (undefined when the route has none) */
export function pathTextOrNone(ctx: Ctx, name: string): string | undefined {
  return ctx.params[name] === undefined ? undefined : pathText(ctx, name);
}

/** an optional query parameter the spec declares an integer */
export function queryInt(ctx: Ctx, name: string): number | undefined {
  const v = ctx.query[name];
  if (v !== undefined && typeof v !== "number") throw misfit(ctx, "query", name, "an integer");
  return v;
}

/** an optional query parameter the spec declares a string */
export function queryText(ctx: Ctx, name: string): string | undefined {
  const v = ctx.query[name];
  if (v !== undefined && typeof v !== "string") throw misfit(ctx, "query", name, "a string");
  return v;
}

/** an optional query parameter the spec declares one of `allowed` (an enum) */
export function queryChoice<T extends string>(ctx: Ctx, name: string, allowed: readonly T[]): T | undefined {
  const v = queryText(ctx, name);
  if (v === undefined || isOneOf(v, allowed)) return v;
  throw misfit(ctx, "query", name, `one of ${allowed.join(", ")}`);
}

function isOneOf<T extends string>(v: string, allowed: readonly T[]): v is T {
  return allowed.some((a) => a === v);
}
