/**
 * The HTTP shell. One way through: body -> spec match (404/405/OPTIONS/slash rules) ->
 * caller -> spec validation -> handler (by operationId) -> JSON. Errors of every layer
 * become the contract's {"reason", "code"} in one place (sendError).
 */
import express, { type NextFunction, type Request, type Response } from "express";
import type { Operation } from "openapi-backend";
import { ApiError, toApiError } from "../app/errors";
import { wasAudited } from "../app/audit";
import type { Caller, Ctx, Reply, Services } from "../handlers/context";
import { handlers } from "../handlers";
import { coerceForm, mediaType, parseBody, readRaw, type Body } from "./body";
import { allowedMethods, type Contract, type PathEntry } from "./contract";
import { checkCsrf, identify, requireCaller, CSRF_FIELD } from "./auth";
import { canAdminister } from "../domain/access";
import { declaredQuery, requestErrors, validationReason } from "./validation";
import { isWebPage, mountWeb, renderBrowsable, sendWebError, wantsHtml } from "./web";
import { baseUrlOf, clientIp } from "./request-info";
import { securityHeaders } from "./security-headers";
import { mountAssets } from "./assets";
import { observed, observeRequests, requestLog } from "./observe";
import { mountOps } from "./ops";
import type { Logger } from "../app/telemetry";
import { mountUi } from "./ui";
import { sameSitePath } from "../domain/urls";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Any error as the contract's answer: ours as they are, the rest a 500 that tells nothing internal. */
function answerFor(err: unknown, log?: Logger): ApiError {
  const e = toApiError(err);
  if (e) return e;
  // express's own errors (a body it could not read, a bad URL) carry a 4xx status
  const status =
    (err as { status?: unknown; statusCode?: unknown } | null)?.status ??
    (err as { statusCode?: unknown } | null)?.statusCode;
  if (status === 413) return new ApiError(413, "payload_too_large", "Request body is too large");
  if (status === 415) return new ApiError(415, "unsupported_media_type", "Unsupported Content-Type");
  if (typeof status === "number" && status >= 400 && status < 500)
    return new ApiError(400, "malformed_body", "The request could not be read");
  // never leak internals (or secrets) to the caller; the log has the stack
  if (log) log.error({ err }, "unhandled error");
  else console.error("unhandled error:", err);
  return new ApiError(500, "server_error", "Internal server error");
}

export function sendError(res: Response, err: unknown): void {
  sendAnswer(res, answerFor(err, requestLog(res)));
}

function sendAnswer(res: Response, e: ApiError): void {
  res.status(e.status);
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  sendJson(res, e.body());
}

/** the Content-Type of every JSON answer, as res.json writes it */
const JSON_TYPE = "application/json; charset=utf-8";

function sendReply(res: Response, reply: Reply): void {
  res.status(reply.status);
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.status === 204) res.end();
  else if (reply.json !== undefined) sendParts(res, reply.json);
  else if (reply.body === undefined) res.end();
  else sendJson(res, reply.body);
}

/**
 * A JSON body with the headers res.json would send, written as text: express's send()
 * copies a text of 1,000 characters or more into a Buffer first and checks freshness
 * (no ETag or Last-Modified is ever set here). No body for HEAD (Node drops it).
 */
function sendJson(res: Response, body: unknown): void {
  const text = JSON.stringify(body);
  res.setHeader("Content-Type", JSON_TYPE);
  res.setHeader("Content-Length", Buffer.byteLength(text, "utf8"));
  res.end(text, "utf8");
}

/**
 * A JSON body prepared as bytes, in parts: the headers res.json would send (Content-Type
 * with charset, Content-Length), then each part as it is, without joining them first (the
 * menu's kept groups are 600 kB for 200 groups of 10). No body for HEAD (Node drops it).
 */
function sendParts(res: Response, parts: readonly Buffer[]): void {
  res.setHeader("Content-Type", JSON_TYPE);
  res.setHeader(
    "Content-Length",
    parts.reduce((n, p) => n + p.length, 0),
  );
  // corked: the headers and every part leave in one write (end() uncorks)
  res.cork();
  for (const p of parts) res.write(p);
  res.end();
}

/** A member of a JSON value from the spec document, when it is an object that has it. */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

/** What the shell reads of an operation's parameters: name, place and schema type. */
function parametersOf(op: Operation): { name: string; in: unknown; type: unknown }[] {
  const list: unknown[] = op.parameters ?? [];
  return list.flatMap((p) => {
    const name = field(p, "name");
    return typeof name === "string" ? [{ name, in: field(p, "in"), type: field(field(p, "schema"), "type") }] : [];
  });
}

type BodySchema = Parameters<typeof coerceForm>[1];

/** The JSON schema of an operation's JSON body (its properties say how a form's fields are read). */
function jsonBodySchema(op: Operation): BodySchema {
  const schema = field(field(field(op.requestBody, "content"), "application/json"), "schema");
  return schema !== null && typeof schema === "object" ? schema : undefined;
}

function describe(entry: PathEntry) {
  // OPTIONS (declared on the save path) describes the others, not itself
  const ops = [...entry.methods.entries()].filter(([m]) => m !== "OPTIONS");
  const first = ops[0]?.[1];
  return {
    name: first?.summary ?? entry.template,
    description: first?.description ?? "",
    path: entry.template,
    methods: allowedMethods(entry),
    parameters: Object.fromEntries(
      ops.map(([m, op]) => [m, { path: entry.names, body: Object.keys(jsonBodySchema(op)?.properties ?? {}) }]),
    ),
  };
}

/** path params: integer ids must be positive integers, else the path does not exist */
function typedParams(op: Operation, raw: Record<string, string>): Record<string, unknown> | null {
  const out: Record<string, unknown> = { ...raw };
  for (const p of parametersOf(op)) {
    if (p.in !== "path") continue;
    if (p.type === "integer") {
      if (!/^\d{1,9}$/.test(raw[p.name] ?? "")) return null;
      out[p.name] = Number(raw[p.name]);
    }
  }
  return out;
}

/** Operations under api/admin/ (tagged "admin" in the spec): superusers only. */
function isAdminOperation(op: Operation): boolean {
  return (op.tags ?? []).includes("admin");
}

export function createApp(services: Services, contract: Contract): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // X-Forwarded-* are read by request-info.ts alone (TRUSTED_PROXIES), never by express
  app.set("trust proxy", false);
  app.set("etag", false);
  app.use(observeRequests(services));
  app.use(securityHeaders);
  mountOps(app, services);
  mountAssets(app);
  mountWeb(app, services);
  mountUi(app, services);

  app.use(async (req: Request, res: Response) => {
    const seen: Seen = { caller: null };
    try {
      await handleApi(req, res, services, contract, seen);
    } catch (err) {
      // one answer for the error (an unexpected one logged once), for the audit row and the client
      const answer = answerFor(err, requestLog(res));
      await auditRefusal(services, req, seen, err, answer);
      sendAnswer(res, answer);
    }
  });
  // errors the web pages' middleware passed on: a page for a page, JSON for the API
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return void res.end();
    if (isWebPage(req)) sendWebError(res, answerFor(err, requestLog(res)));
    else sendError(res, err);
  });
  return app;
}

/** The body of an operation that takes none: nothing, or only the CSRF field of a form. */
async function ignoredBody(req: Request, res: Response, limit: number): Promise<Body> {
  let raw: Buffer;
  try {
    raw = await readRaw(req, limit);
  } catch (e) {
    // too large to matter: the rest is not read, so the connection ends after the answer
    if (e instanceof ApiError && e.headers.Connection === "close") res.setHeader("Connection", "close");
    return undefined;
  }
  if (mediaType(req.headers["content-type"]) !== "application/x-www-form-urlencoded" || raw.length === 0)
    return undefined;
  const csrf = new URLSearchParams(raw.toString("utf8")).get(CSRF_FIELD);
  return csrf === null ? undefined : { [CSRF_FIELD]: csrf };
}

/** What the shell learned of a request before it failed, for the audit row of a refusal. */
interface Seen {
  caller: Caller | null;
  operationId?: string;
  params?: Record<string, unknown>;
  body?: Body;
}

/**
 * A write of a known caller refused by the shell or a handler (permission, validation,
 * conflict) is an audit row: who, from where, the operation, the path's ids and the names
 * of the fields sent (never their values: passwords and keys travel in these bodies).
 * Device writes and logins write their own rows; anonymous requests are not written (a
 * flood of them must not fill the log; they are refused before anything else). `e` is the
 * answer the client gets; a row that cannot be written does not change it (app/audit.ts).
 */
async function auditRefusal(s: Services, req: Request, seen: Seen, err: unknown, e: ApiError): Promise<void> {
  if (!seen.caller || req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS" || wasAudited(err))
    return;
  const ids = Object.entries(seen.params ?? {}).map(([k, v]) => `${k}=${String(v)}`);
  const fields = Object.keys(seen.body ?? {}).sort();
  const asked = [
    `${req.method} ${new URL(req.originalUrl, "http://x").pathname}`,
    ...(ids.length ? [ids.join(" ")] : []),
    ...(fields.length ? [`fields: ${fields.join(", ")}`] : []),
  ];
  const switchId = typeof seen.params?.switch === "number" ? seen.params.switch : null;
  await s.audit.failure(
    { caller: seen.caller, ip: clientIp(req, s.config) },
    {
      action: `request:${seen.operationId ?? "unknown"}`,
      switch: switchId === null ? null : { id: switchId, name: "" },
      new_value: asked.join("; "),
      code: e.code,
      message: e.reason,
    },
  );
}

async function handleApi(req: Request, res: Response, s: Services, contract: Contract, seen: Seen): Promise<void> {
  // the request target as a path of this site: "//host/x" is a path here, never a host
  const url = new URL(`http://x${req.originalUrl.startsWith("/") ? "" : "/"}${req.originalUrl}`);
  const pathname = url.pathname;
  const method = req.method.toUpperCase();

  if (!pathname.endsWith("/")) {
    // the raw path, as sent: a path that is not a normal one of this site ("//host/x",
    // "/\\host", "/./", "%2F%2F") names nothing here and is never redirected (section 1)
    const raw = req.originalUrl;
    const rawPath = raw.split("?")[0];
    const slashed = sameSitePath(`${rawPath}/`);
    if (!slashed || rawPath.includes("#")) throw new ApiError(404, "not_found", `Not found: ${rawPath}`);
    if (method === "GET" || method === "HEAD") {
      res.redirect(301, slashed + raw.slice(rawPath.length));
      return;
    }
    throw new ApiError(404, "not_found", `Not found: ${pathname} (paths end with a slash: ${slashed})`);
  }
  const hit = contract.match(pathname);
  if (!hit) throw new ApiError(404, "not_found", `Not found: ${pathname}`);
  const { entry } = hit;
  observed(res).path = entry.template;
  const allow = allowedMethods(entry).join(", ");
  if (method === "OPTIONS") {
    res.setHeader("Allow", allow);
    res.status(200).json(describe(entry));
    return;
  }
  const op = entry.methods.get(method === "HEAD" ? "GET" : method);
  if (!op) {
    res.setHeader("Allow", allow);
    throw new ApiError(405, "method_not_allowed", `Method "${method}" not allowed.`, { Allow: allow });
  }
  observed(res).operationId = op.operationId;
  const params = typedParams(op, hit.params);
  if (!params) throw new ApiError(404, "not_found", `Not found: ${pathname}`);
  seen.operationId = op.operationId;
  seen.params = params;

  // who is calling, and for api/admin/ whether they may at all, before the body is read
  const open = Array.isArray(op.security) && op.security.length === 0;
  let caller: Caller | null = null;
  if (!open) caller = requireCaller(await identify(s, { method, headers: req.headers }));
  seen.caller = caller;
  if (caller) observed(res).user = caller.user.username;
  if (caller && isAdminOperation(op)) {
    const refused = canAdminister(caller, method !== "GET" && method !== "HEAD");
    if (refused) throw new ApiError(refused.status, refused.code, refused.reason);
  }

  let body: Body = undefined;
  let form = false;
  if (BODY_METHODS.has(method) && op.requestBody) {
    const raw = await readRaw(req, s.config.maxBodyBytes);
    ({ body, form } = parseBody(raw, req.headers["content-type"]));
    seen.body = body;
  } else if (BODY_METHODS.has(method)) {
    // an operation that takes no body ignores one (read and thrown away, so the connection
    // stays usable); only a form's CSRF field counts, for pages that post plain forms
    body = await ignoredBody(req, res, s.config.maxBodyBytes);
  }
  const csrfField = body?.[CSRF_FIELD];
  if (body && CSRF_FIELD in body) delete body[CSRF_FIELD];
  checkCsrf(caller, method, req.headers, csrfField);

  if (body && form) body = coerceForm(body, jsonBodySchema(op));
  const query = declaredQuery(op, url.searchParams);
  const errors = requestErrors(contract.api, op, {
    path: hit.params,
    query,
    headers: req.headers,
    contentType: body ? "application/json" : mediaType(req.headers["content-type"]),
    body,
  });
  if (errors.length) {
    const v = validationReason(op, errors);
    throw new ApiError(v.status, v.code, v.reason);
  }
  const handler = handlers[op.operationId!];
  if (!handler) throw new ApiError(501, "not_supported", `Operation ${op.operationId} is not implemented yet`);
  const ctx: Ctx = {
    services: s,
    operationId: op.operationId!,
    caller,
    params,
    query: coerceQuery(op, query),
    body: body ?? {},
    baseUrl: baseUrlOf(req, s.config),
    ip: clientIp(req, s.config),
  };
  let reply: Reply;
  try {
    reply = await handler(ctx);
  } finally {
    // usage counters behind api/stats/: one call by this user (on this switch, if any), failed ones too;
    // counted in memory and written at most once a second (app/usage-counter.ts)
    if (caller) s.usage.count(caller.user.id, typeof params.switch === "number" ? params.switch : null);
  }
  if (caller && method === "GET" && caller.session && wantsHtml(req)) {
    res
      .status(reply.status)
      .type("html")
      .send(renderBrowsable(contract, ctx, pathname, reply));
    return;
  }
  sendReply(res, reply);
}

function coerceQuery(op: Operation, query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  for (const p of parametersOf(op)) {
    if (p.in === "query" && p.type === "integer" && query[p.name] !== undefined) out[p.name] = Number(query[p.name]);
  }
  return out;
}
