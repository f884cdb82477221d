/**
 * The HTTP shell. One way through: body -> spec match (404/405/OPTIONS/slash rules) ->
 * caller -> spec validation -> handler (by operationId) -> JSON. Errors of every layer
 * become the contract's {"reason", "code"} in one place (sendError).
 */
import express, { type Request, type Response } from "express";
import type { Operation } from "openapi-backend";
import { ApiError, toApiError } from "../app/errors";
import type { Caller, Ctx, Reply, Services } from "../handlers/context";
import { handlers } from "../handlers";
import { coerceForm, mediaType, parseBody, readRaw, type Body } from "./body";
import { allowedMethods, type Contract, type PathEntry } from "./contract";
import { checkCsrf, identify, requireCaller, CSRF_FIELD } from "./auth";
import { canAdminister } from "../domain/access";
import { declaredQuery, validationReason } from "./validation";
import { mountWeb, renderBrowsable, wantsHtml } from "./web";
import { baseUrlOf, clientIp } from "./request-info";

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function sendError(res: Response, err: unknown): void {
  let e = toApiError(err);
  if (!e) {
    // never leak internals (or secrets) to the caller; the log has the stack
    console.error("unhandled error:", err);
    e = new ApiError(500, "server_error", "Internal server error");
  }
  res.status(e.status);
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res.json(e.body());
}

function sendReply(res: Response, reply: Reply): void {
  res.status(reply.status);
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.status === 204 || reply.body === undefined) res.end();
  else res.json(reply.body);
}

function describe(entry: PathEntry) {
  const ops = [...entry.methods.entries()];
  const first = ops[0]?.[1] as any;
  return {
    name: first?.summary ?? entry.template,
    description: first?.description ?? "",
    path: entry.template,
    methods: allowedMethods(entry),
    parameters: Object.fromEntries(
      ops.map(([m, op]: [string, any]) => {
        const schema = op.requestBody?.content?.["application/json"]?.schema;
        return [m, { path: entry.names, body: Object.keys(schema?.properties ?? {}) }];
      }),
    ),
  };
}

/** path params: integer ids must be positive integers, else the path does not exist */
function typedParams(op: Operation, raw: Record<string, string>): Record<string, unknown> | null {
  const out: Record<string, unknown> = { ...raw };
  for (const p of (op.parameters ?? []) as any[]) {
    if (p.in !== "path") continue;
    if (p.schema?.type === "integer") {
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
  app.set("trust proxy", services.config.trustProxy);
  app.set("etag", false);
  mountWeb(app, services);

  app.use(async (req: Request, res: Response) => {
    try {
      await handleApi(req, res, services, contract);
    } catch (err) {
      sendError(res, err);
    }
  });
  return app;
}

async function handleApi(req: Request, res: Response, s: Services, contract: Contract): Promise<void> {
  const url = new URL(req.originalUrl, "http://x");
  const pathname = url.pathname;
  const method = req.method.toUpperCase();

  if (!pathname.endsWith("/")) {
    const slashed = `${pathname}/`;
    if (method === "GET" || method === "HEAD") {
      res.redirect(301, slashed + url.search);
      return;
    }
    throw new ApiError(404, "not_found", `Not found: ${pathname} (paths end with a slash: ${slashed})`);
  }
  const hit = contract.match(pathname);
  if (!hit) throw new ApiError(404, "not_found", `Not found: ${pathname}`);
  const { entry } = hit;
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
  const params = typedParams(op, hit.params);
  if (!params) throw new ApiError(404, "not_found", `Not found: ${pathname}`);

  // who is calling, and for api/admin/ whether they may at all, before the body is read
  const open = Array.isArray(op.security) && op.security.length === 0;
  let caller: Caller | null = null;
  if (!open) caller = requireCaller(await identify(s, { method, headers: req.headers }));
  if (caller && isAdminOperation(op)) {
    const refused = canAdminister(caller, method !== "GET" && method !== "HEAD");
    if (refused) throw new ApiError(refused.status, refused.code, refused.reason);
  }

  let body: Body = undefined;
  let form = false;
  if (BODY_METHODS.has(method)) {
    const raw = await readRaw(req, s.config.maxBodyBytes);
    ({ body, form } = parseBody(raw, req.headers["content-type"]));
  }
  const csrfField = body?.[CSRF_FIELD];
  if (body && CSRF_FIELD in body) delete body[CSRF_FIELD];
  checkCsrf(caller, method, req.headers, csrfField);

  const jsonSchema = (op.requestBody as any)?.content?.["application/json"]?.schema;
  if (body && form) body = coerceForm(body, jsonSchema);
  const query = declaredQuery(op, url.searchParams);
  const validation = contract.api.validateRequest(
    {
      method: method === "HEAD" ? "get" : method.toLowerCase(),
      path: pathname,
      query,
      headers: { ...(req.headers as Record<string, string>), "content-type": body ? "application/json" : mediaType(req.headers["content-type"]) },
      body,
    },
    op,
  );
  if (!validation.valid) {
    const v = validationReason(op, validation.errors ?? []);
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
    baseUrl: baseUrlOf(req, s.config.trustProxy),
    ip: clientIp(req, s.config.trustProxy),
  };
  let reply: Reply;
  try {
    reply = await handler(ctx);
  } finally {
    // usage counters behind api/stats/: one call by this user (on this switch, if any), failed ones too
    if (caller) await s.repos.usage.record(caller.user.id, typeof params.switch === "number" ? params.switch : null);
  }
  if (caller && method === "GET" && caller.session && wantsHtml(req)) {
    res.status(reply.status).type("html").send(renderBrowsable(contract, ctx, pathname, reply));
    return;
  }
  sendReply(res, reply);
}

function coerceQuery(op: Operation, query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...query };
  for (const p of (op.parameters ?? []) as any[]) {
    if (p.in === "query" && p.schema?.type === "integer" && query[p.name] !== undefined) out[p.name] = Number(query[p.name]);
  }
  return out;
}
