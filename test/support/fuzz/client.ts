/**
 * Sends the fuzzer's requests over one keep-alive agent and judges each answer: no
 * status >= 500, the connection survives the answer, every error is JSON with `reason`
 * and `code` (a browser without a session is sent to the login page instead), and the
 * answer matches the spec (test/support/contract-check.ts).
 */
import http from "node:http";
import type { Contract } from "../../../server/contract";
import { checkResponse } from "../contract-check";
import type { FuzzRequest, Param } from "./requests";

/** the ids the fuzzer may use, and those it must never change or delete */
export interface World {
  port: number;
  labGroup: number;
  /** lab switches of one model (same interfaces and VLANs), so device calls do not queue behind one */
  labSwitches: number[];
  labSwitchName: string;
  ifIndexes: number[];
  superuser: string;
  readOnly: string;
  session: { cookie: string; csrf: string };
  /** ids per resource (users, snmpprofiles, credentials, switchgroups, switches, tokens) */
  pools: Record<string, number[]>;
  /** ids only read, never written: the fuzzer's own callers and the lab's inventory */
  protected: Record<string, Set<number>>;
}

export interface Finding {
  kind: "server-error" | "dropped" | "no-reason" | "contract";
  detail: string;
  request: string;
  status?: number;
  /** the error code of the answer, if it had one */
  code?: string;
  bodyBytes: number;
  /** the body size of the request sent before on the same connection (a reset may be its doing) */
  previousBodyBytes: number;
}

export interface Sent {
  request: string;
  method: string;
  path: string;
  status: number;
  /** the reason of an error answer */
  reason?: string;
  bodyBytes: number;
  findings: Finding[];
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS", "TRACE"]);
const NOWHERE = 987654321;

function resourceOf(template: string): string {
  if (template.startsWith("/api/users/tokens/")) return "tokens";
  return /^\/api\/admin\/([a-z]+)\//.exec(template)?.[1] ?? "";
}

function pickFrom(ids: number[], pick: number): number {
  return ids.length ? ids[pick % ids.length] : NOWHERE;
}

/** the id a parameter stands for: writes and deletes never reach a protected id */
function idFor(w: World, req: FuzzRequest, name: string, pick: number): number {
  const template = req.op.template;
  switch (name) {
    case "group":
      return pickFrom([w.labGroup, ...(w.pools.switchgroups ?? [])], pick);
    case "switch":
      // only the lab's switches: no device traffic may leave this machine's lab
      return pickFrom(w.labSwitches, pick);
    case "interface":
      return pickFrom(w.ifIndexes, pick);
  }
  const resource = resourceOf(template);
  if (/\/(redetect|accept_hostkey|accept_certificate)\/$/.test(template))
    return pick % 3 ? pickFrom(w.labSwitches, pick) : NOWHERE;
  const pool = w.pools[resource] ?? [];
  if (SAFE.has(req.method)) return pickFrom([...(w.protected[resource] ?? []), ...pool], pick);
  const free = pool.filter((id) => !w.protected[resource]?.has(id));
  return pick % 7 === 0 ? NOWHERE : pickFrom(free, pick);
}

function render(w: World, req: FuzzRequest, name: string, p: Param): string {
  if ("literal" in p) return p.literal;
  if (name === "text") return encodeURIComponent(p.pick % 2 ? w.labSwitchName : w.labSwitchName.toUpperCase());
  const id = String(idFor(w, req, name, p.pick));
  if (p.style === "zeros") return `000${id}`;
  if (p.style === "percent") return [...id].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
  return id;
}

export function pathOf(w: World, req: FuzzRequest): string {
  let path = req.op.template.replace(/\{([^}]+)\}/g, (_m, name: string) => render(w, req, name, req.params[name]));
  if (req.tail === "no-slash") path = path.slice(0, -1);
  else if (req.tail === "double-slash") path = `${path}/`;
  else if (req.tail === "dot-segment") path = `${path}..%2F`;
  return path + req.query;
}

function formText(value: Record<string, unknown>): string {
  const f = new URLSearchParams();
  for (const [k, v] of Object.entries(value)) {
    for (const x of Array.isArray(v) ? v : [v])
      f.append(k, x === null ? "" : typeof x === "object" ? JSON.stringify(x) : String(x));
  }
  return f.toString();
}

function build(w: World, req: FuzzRequest, path: string): { headers: Record<string, string>; body: Buffer | null } {
  const headers: Record<string, string> = {};
  if (req.accept !== null) headers.accept = req.accept;
  switch (req.auth) {
    case "bad-token":
      headers.authorization = `Token ${"0123456789abcdef".repeat(3).slice(0, 40)}`;
      break;
    case "malformed-auth":
      headers.authorization = [
        "Token",
        "Bearer a b",
        "Basic cm9vdDpwdw==",
        "Token \u00ff\u00fe",
        "Token " + "f".repeat(5000),
      ][path.length % 5];
      break;
    case "superuser":
      headers.authorization = `Token ${w.superuser}`;
      break;
    case "read-only":
      headers.authorization = `Bearer ${w.readOnly}`;
      break;
    case "session":
    case "session-form-csrf":
    case "session-no-csrf":
    case "session-bad-csrf":
      headers.cookie = `sessionid=${w.session.cookie}; csrftoken=${w.session.csrf}`;
      if (req.auth === "session") headers["x-csrftoken"] = w.session.csrf;
      if (req.auth === "session-bad-csrf") headers["x-csrftoken"] = "0".repeat(64);
      break;
  }
  const withCsrf = (v: unknown) =>
    req.auth === "session-form-csrf" && v && typeof v === "object" && !Array.isArray(v)
      ? { ...v, csrfmiddlewaretoken: w.session.csrf }
      : v;
  if (req.method === "HEAD" || req.method === "TRACE") return { headers, body: null };
  const b = req.body;
  let text: string | null = null;
  if (b.kind === "json") {
    text = JSON.stringify(withCsrf(b.value)) ?? "null";
    headers["content-type"] = b.contentType ?? "application/json";
  } else if (b.kind === "form") {
    text = formText(withCsrf(b.value) as Record<string, unknown>);
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (b.kind === "raw") {
    text = b.text;
    if (b.contentType !== undefined) headers["content-type"] = b.contentType;
  }
  if (text === null) return { headers, body: null };
  const body = Buffer.from(text, "utf8");
  // Node's client sends a GET or DELETE body without any length unless told
  headers["content-length"] = String(body.length);
  return { headers, body };
}

/** a short description of a request, enough to send it again by hand */
function describeRequest(method: string, path: string, headers: Record<string, string>, body: Buffer | null): string {
  const shown = Object.entries(headers)
    .map(
      ([k, v]) => `${k}: ${k === "authorization" || k === "cookie" || k === "x-csrftoken" ? v.slice(0, 12) + "…" : v}`,
    )
    .join("; ");
  const text = body ? body.toString("utf8") : "";
  return `${method} ${path.length > 200 ? path.slice(0, 200) + "…" : path} [${shown}] body(${body?.length ?? 0} bytes): ${text.length > 200 ? text.slice(0, 200) + "…" : text}`;
}

/** what was last sent on each keep-alive connection */
const lastSent = new WeakMap<object, { bytes: number; what: string; at: number }>();

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  socketDestroyed: boolean;
}

function send(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer | null,
  previous: { bytes: number; what: string; at: number },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const r = http.request({ agent, host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const socket = res.socket;
        // a server that ends the connection after its answer has destroyed it by now
        setImmediate(() =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            socketDestroyed: !!socket?.destroyed,
          }),
        );
      });
    });
    r.on("socket", (socket) => {
      Object.assign(previous, lastSent.get(socket) ?? { bytes: 0, what: "", at: 0 });
      lastSent.set(socket, { bytes: body?.length ?? 0, what: `${method} ${path.slice(0, 120)}`, at: Date.now() });
    });
    r.on("error", reject);
    r.end(body ?? undefined);
  });
}

function toHeaders(h: http.IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h))
    for (const x of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, x);
  return out;
}

/** sends one request, learns new ids from its answer, and says what was wrong with the answer */
export async function sendAndJudge(agent: http.Agent, contract: Contract, w: World, req: FuzzRequest): Promise<Sent> {
  const path = pathOf(w, req);
  const { headers, body } = build(w, req, path);
  const request = describeRequest(req.method, path, headers, body);
  const bodyBytes = body?.length ?? 0;
  const findings: Finding[] = [];
  const previous = { bytes: 0, what: "", at: 0 };
  const find = (kind: Finding["kind"], detail: string, status?: number) =>
    findings.push({ kind, detail, request, status, bodyBytes, previousBodyBytes: previous.bytes });
  let answer: RawAnswer;
  try {
    answer = await send(agent, w.port, req.method, path, headers, body, previous);
  } catch (e) {
    find(
      "dropped",
      `no answer: ${(e as Error).message}${previous.what ? ` (the connection carried ${previous.what} with ${previous.bytes} bytes ${Date.now() - previous.at} ms before)` : ""}`,
    );
    return { request, method: req.method, path, status: 0, bodyBytes, findings };
  }
  const { status, text } = answer;
  if (status >= 500) find("server-error", `${status}: ${text.slice(0, 300)}`, status);
  if (answer.socketDestroyed || /close/i.test(String(answer.headers.connection ?? "")))
    find("dropped", `connection closed after a ${status}`, status);
  const type = String(answer.headers["content-type"] ?? "");
  const isJson = type.includes("application/json");
  let parsed: unknown = text;
  if (isJson && req.method !== "HEAD") {
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      find("contract", `${status} says JSON but is not: ${text.slice(0, 200)}`, status);
    }
  }
  const loginRedirect =
    status === 302 &&
    String(answer.headers.location ?? "").startsWith("/login/?next=") &&
    /text\/html/.test(req.accept ?? "");
  if (
    status >= 400 &&
    req.method !== "HEAD" &&
    path.startsWith("/api/") &&
    !(isJson && typeof fieldOf(parsed, "reason") === "string" && typeof fieldOf(parsed, "code") === "string")
  ) {
    find("no-reason", `${status} without JSON reason and code: ${type} ${text.slice(0, 200)}`, status);
  } else if (!loginRedirect && status < 500 && findings.length === 0) {
    try {
      checkResponse(contract, req.method, path, { status, headers: toHeaders(answer.headers), body: parsed, text });
    } catch (e) {
      find("contract", (e as Error).message.slice(0, 600), status);
    }
  }
  const code = fieldOf(parsed, "code");
  const reason = fieldOf(parsed, "reason");
  for (const f of findings) if (typeof code === "string") f.code = code;
  learn(w, req, status, parsed);
  return {
    request,
    method: req.method,
    path,
    status,
    reason: typeof reason === "string" ? reason : undefined,
    bodyBytes,
    findings,
  };
}

/** ids of what the fuzzer created (or listed) become targets of later requests */
function learn(w: World, req: FuzzRequest, status: number, body: unknown): void {
  if (status !== 200 && status !== 201) return;
  const resource = resourceOf(req.op.template);
  if (!resource) return;
  const pool = (w.pools[resource] ??= []);
  const add = (id: unknown) => {
    if (typeof id === "number" && !pool.includes(id) && pool.length < 200) pool.push(id);
  };
  if (req.method === "POST" && req.op.params.length === 0) add(fieldOf(body, "id"));
  if (resource === "tokens" && req.method === "GET" && Array.isArray(body))
    for (const t of body as unknown[]) add(fieldOf(t, "id"));
}

/** A field of a parsed JSON object; undefined when the body is not an object. */
function fieldOf(body: unknown, name: string): unknown {
  return body && typeof body === "object" ? (body as Record<string, unknown>)[name] : undefined;
}
