/**
 * The AOS-CX REST face of a lab switch: an HTTPS server on 127.0.0.1 (a self-signed
 * certificate made at start, as a switch out of the box) speaking the AOS-CX REST API over
 * the same VirtualSwitch the SNMP and SSH faces serve, so a change through one is seen
 * through the others at once.
 *
 *   GET  /rest                       the API versions offered (no login), `latest` among them
 *   POST <p>/login, <p>/logout       a session cookie per login (credentials as form body or
 *                                    query); a per-user and a per-switch session limit
 *                                    (6 and 48 by default, as AOS-CX from 10.06 on); over it
 *                                    the login is answered 401, as the guides document
 *   GET  <p>/system, /firmware, system/subsystems, system/interfaces[/{if}[/poe_interface |
 *        /lldp_neighbors]], system/interfaces/*\/lldp_neighbors (and poe_interface),
 *        system/vlans[/{id}[/macs]], system/vlans/*\/macs, system/vrfs/default/neighbors
 *                                    with depth, attributes and selector (resources.ts)
 *   PATCH, PUT of interfaces, poe_interface and VLANs; POST and DELETE of VLANs (writes.ts)
 *   PUT  <p>/fullconfigs/startup-config?from=<p>/fullconfigs/running-config   the save
 *
 * Faults for tests: silence (from now or after n answers), hanging requests that match a
 * pattern, refused writes, writes that change nothing, refused logins, a full session
 * table. Counters say how many sessions are open and were ever opened, and which requests
 * came, so a test can prove that every call logged out and how many requests a read took.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { startLabHttpsServer } from "../tls/https-face";
import type { HttpsTarget } from "../../model/targets";
import type { VirtualSwitch } from "../model";
import { AoscxTree, BadQuery, render, type RenderOptions, type ResourceNode, type Selector } from "./resources";
import { createVlan, deleteVlan, parseBody, writeInterface, WriteRefused, writePoe, writeVlan } from "./writes";

/** The versions an AOS-CX 10.16 switch lists under /rest (v1 is gone since 10.09). */
export const AOSCX_VERSIONS = [
  "v10.04",
  "v10.08",
  "v10.09",
  "v10.10",
  "v10.11",
  "v10.12",
  "v10.13",
  "v10.14",
  "v10.15",
  "v10.16",
] as const;

export interface LabAoscxFaceOptions {
  /** TCP port on 127.0.0.1; 0 or absent picks a free one */
  port?: number;
  /** default "admin" */
  username?: string;
  /** default "lab-rest-password" */
  password?: string;
  /** the API versions offered, oldest first; the last is `latest` (default AOSCX_VERSIONS) */
  versions?: readonly string[];
  /** sessions one user may hold (default 6, as AOS-CX from 10.06 on; 3 before) */
  sessionsPerUser?: number;
  /** sessions of all users together (default 48) */
  sessionsTotal?: number;
  /** an idle session ends after this (default 20 minutes) */
  idleTimeoutMs?: number;
  /** delay before each answer */
  latencyMs?: number;
}

const BODY_LIMIT = 1024 * 1024;
const HARD_TIMEOUT_MS = 8 * 3600 * 1000;

export class LabAoscxFaults {
  latencyMs: number;
  /** requests get no answer at all (the connection stays open) */
  silent = false;
  /** writes are answered as usual but change nothing */
  lieOnWrites = false;
  /** every login is refused as with wrong credentials */
  refuseLogins = false;
  /** every login is refused as over the session limit */
  sessionTableFull = false;
  private answersLeft: number | null = null;
  private writeRefusal: { status: number; message: string } | null = null;
  private readonly hangs: RegExp[] = [];

  constructor(private readonly defaultLatencyMs: number) {
    this.latencyMs = defaultLatencyMs;
  }

  /** answer n more requests, then none */
  silentAfter(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("silentAfter needs a count >= 0");
    this.answersLeft = n;
  }

  /** no answer to requests whose "METHOD /path" (no query) matches; the others are answered */
  hangRequests(match: RegExp): void {
    this.hangs.push(match);
  }

  /** answer every write (PUT, PATCH, POST, DELETE but login and logout) with this status and text */
  refuseWrites(message = "Write refused by the lab", status = 403): void {
    this.writeRefusal = { status, message };
  }

  get refusal(): { status: number; message: string } | null {
    return this.writeRefusal;
  }

  /** whether this request is answered */
  answers(line: string): boolean {
    if (this.silent || this.hangs.some((h) => h.test(line))) return false;
    if (this.answersLeft !== null) {
      if (this.answersLeft <= 0) return false;
      this.answersLeft--;
    }
    return true;
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.silent = false;
    this.lieOnWrites = false;
    this.refuseLogins = false;
    this.sessionTableFull = false;
    this.answersLeft = null;
    this.writeRefusal = null;
    this.hangs.length = 0;
  }
}

export class LabAoscxCounters {
  /** every request received, answered or not */
  requests = 0;
  /** "METHOD /path" of each request (no query), latest last (at most the last 2000) */
  readonly log: string[] = [];
  logins = 0;
  loginsRefused = 0;
  logouts = 0;

  record(line: string): void {
    this.requests++;
    this.log.push(line);
    if (this.log.length > 2000) this.log.shift();
  }

  reset(): void {
    this.requests = 0;
    this.log.length = 0;
    this.logins = 0;
    this.loginsRefused = 0;
    this.logouts = 0;
  }
}

interface Session {
  user: string;
  openedAt: number;
  lastUsed: number;
  csrf: string | null;
}

export interface LabAoscxFace {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** SHA-256 of the certificate, colon hex, as the HTTPS driver reports it */
  fingerprint: string;
  versions: readonly string[];
  faults: LabAoscxFaults;
  counters: LabAoscxCounters;
  /** sessions open now */
  openSessions(): number;
  /** sessions opened since the face started */
  sessionsOpened(): number;
  /** `https-server session close all` */
  closeAllSessions(): void;
  /** a target for the AOS-CX driver; `pin` pins this face's certificate */
  httpsTarget(opts?: { pin?: boolean }): HttpsTarget;
  stop(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) {
        reject(new WriteRefused(413, "Request body too large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function text(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(message);
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function renderOptions(query: URLSearchParams): RenderOptions {
  const depthText = query.get("depth");
  const depth = depthText === null ? 1 : Number(depthText);
  if (!/^\d+$/.test(depthText ?? "1") || depth < 0 || depth > 6) throw new BadQuery("depth must be 0 to 6");
  const selector = query.get("selector");
  if (selector !== null && !["configuration", "status", "statistics", "writable"].includes(selector))
    throw new BadQuery("selector must be configuration, status, statistics or writable");
  const attributes = query.get("attributes");
  return {
    depth: Math.max(depth, 1),
    ...(attributes ? { attributes: attributes.split(",").filter((a) => a !== "") } : {}),
    ...(selector ? { selector: selector as Selector } : {}),
  };
}

/** Starts the AOS-CX REST face of `lab` (a started lab switch, or just its model) on 127.0.0.1. */
export async function startLabAoscxFace(
  lab: { model: VirtualSwitch } | VirtualSwitch,
  options: LabAoscxFaceOptions = {},
): Promise<LabAoscxFace> {
  const model = "model" in lab ? lab.model : lab;
  const username = options.username ?? "admin";
  const password = options.password ?? "lab-rest-password";
  const versions = [...(options.versions ?? AOSCX_VERSIONS)];
  if (versions.length === 0) throw new RangeError("the face must offer at least one API version");
  const perUser = options.sessionsPerUser ?? 6;
  const total = options.sessionsTotal ?? 48;
  const idleMs = options.idleTimeoutMs ?? 20 * 60 * 1000;
  const faults = new LabAoscxFaults(options.latencyMs ?? 0);
  const counters = new LabAoscxCounters();
  const sessions = new Map<string, Session>();
  let opened = 0;

  const expire = () => {
    const now = Date.now();
    for (const [id, s] of sessions)
      if (now - s.lastUsed > idleMs || now - s.openedAt > HARD_TIMEOUT_MS) sessions.delete(id);
  };

  const versionList = () => {
    const entry = (v: string) => ({ version: v, prefix: `/rest/${v}`, doc: `/api/${v}` });
    const out: Record<string, unknown> = { latest: entry(versions[versions.length - 1]) };
    for (const v of versions) out[v] = entry(v);
    return out;
  };

  async function login(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const body = await readBody(req);
    const form = new URLSearchParams(body);
    const user = query.get("username") ?? form.get("username") ?? "";
    const secret = query.get("password") ?? form.get("password") ?? "";
    expire();
    if (faults.refuseLogins || user !== username || !sameSecret(secret, password)) {
      counters.loginsRefused++;
      return text(res, 401, "Login failed: invalid username or password");
    }
    const mine = [...sessions.values()].filter((s) => s.user === user).length;
    if (faults.sessionTableFull || mine >= perUser || sessions.size >= total) {
      counters.loginsRefused++;
      return text(
        res,
        401,
        `Login failed: session limit reached (user ${user} has ${mine} of ${perUser} sessions open, the switch ${sessions.size} of ${total}); log out of a session or wait for it to time out`,
      );
    }
    const id = randomBytes(24).toString("base64url");
    const csrf =
      String(req.headers["x-use-csrf-token"]).toLowerCase() === "true" ? randomBytes(16).toString("hex") : null;
    const now = Date.now();
    sessions.set(id, { user, openedAt: now, lastUsed: now, csrf });
    opened++;
    counters.logins++;
    res.setHeader("set-cookie", `id=${id}; Path=/; Secure; HttpOnly`);
    if (csrf) res.setHeader("x-csrf-token", csrf);
    res.writeHead(200);
    res.end();
  }

  /** the caller's session, or null (answered 401) */
  function session(req: IncomingMessage): { id: string; s: Session } | null {
    expire();
    const id = cookieOf(req, "id");
    const s = id ? sessions.get(id) : undefined;
    if (!id || !s) return null;
    s.lastUsed = Date.now();
    return { id, s };
  }

  function get(tree: AoscxTree, seg: string[], query: URLSearchParams): unknown {
    const o = renderOptions(query);
    const notFound = () => {
      throw new WriteRefused(404, "Object not found");
    };
    const node = (n: ResourceNode | null): unknown => (n ? render(n, o) : notFound());
    const [a, b, c, d, e] = seg;
    if (seg.length === 1 && a === "firmware") return node(tree.firmware());
    if (a === "fullconfigs" && b === "running-config" && seg.length === 2)
      return { System: { hostname: model.system.sysName } };
    if (a !== "system") return notFound();
    if (seg.length === 1) return node(tree.system());
    if (b === "subsystems" && seg.length === 2) return node(tree.subsystems());
    if (b === "interfaces") {
      if (seg.length === 2) return node(tree.interfaces());
      if (c === "*" && seg.length === 4 && (d === "lldp_neighbors" || d === "poe_interface")) {
        const out: Record<string, unknown> = {};
        for (const i of model.interfaces) {
          const n = d === "lldp_neighbors" ? tree.lldpNeighbors(i.name) : tree.poe(i.name);
          if (n) out[i.name] = render(n, o);
        }
        return out;
      }
      if (seg.length === 3) return node(tree.interface(c));
      if (seg.length === 4 && d === "poe_interface") return node(tree.poe(c));
      if (seg.length === 4 && d === "lldp_neighbors") return node(tree.lldpNeighbors(c));
      return notFound();
    }
    if (b === "vlans") {
      if (seg.length === 2) return node(tree.vlans());
      if (c === "*" && seg.length === 4 && d === "macs") {
        const out: Record<string, unknown> = {};
        for (const id of model.vlanIds()) out[String(id)] = render(tree.macs(id)!, o);
        return out;
      }
      const id = /^\d+$/.test(c) ? Number(c) : NaN;
      if (seg.length === 3) return node(tree.vlan(id));
      if (seg.length === 4 && d === "macs") return node(tree.macs(id));
      if (seg.length === 4 && d === "static_macs" && model.vlan(id)) return {};
      return notFound();
    }
    if (b === "vrfs") {
      if (seg.length === 2) return node(tree.vrfs());
      if (seg.length === 3) return node(tree.vrf(c));
      if (seg.length === 4 && d === "neighbors") return node(tree.neighbors(c));
      return notFound();
    }
    void e;
    return notFound();
  }

  /** a write; the status to answer */
  async function write(
    req: IncomingMessage,
    prefix: string,
    method: string,
    seg: string[],
    query: URLSearchParams,
  ): Promise<number> {
    const body = method === "DELETE" ? "" : await readBody(req);
    const refusal = faults.refusal;
    if (refusal) throw new WriteRefused(refusal.status, refusal.message);
    const lie = faults.lieOnWrites;
    const put = method === "PUT";
    const [a, b, c, d] = seg;
    const missing = () => new WriteRefused(404, "Object not found");
    if (a === "fullconfigs" && seg.length === 2 && method === "PUT") {
      if (b !== "startup-config") throw missing();
      const from = query.get("from") ?? "";
      if (from !== `${prefix}/fullconfigs/running-config`)
        throw new WriteRefused(400, `Cannot copy from '${from}' to the startup configuration`);
      if (!lie) model.save();
      return 200;
    }
    if (a === "system" && b === "interfaces" && (seg.length === 3 || (seg.length === 4 && d === "poe_interface"))) {
      const i = model.interfaces.find((x) => x.name === c);
      if (!i || (d && !i.poe)) throw missing();
      if (method !== "PUT" && method !== "PATCH") throw new WriteRefused(405, "Method not allowed");
      if (d) writePoe(model, i, parseBody(body), put, lie);
      else writeInterface(model, i, parseBody(body), put, lie);
      return put ? 200 : 204;
    }
    if (a === "system" && b === "vlans" && seg.length === 2 && method === "POST") {
      createVlan(model, parseBody(body), lie);
      return 201;
    }
    if (a === "system" && b === "vlans" && seg.length === 3) {
      const id = /^\d+$/.test(c) ? Number(c) : NaN;
      if (!model.vlan(id)) throw missing();
      if (method === "DELETE") {
        deleteVlan(model, id, lie);
        return 204;
      }
      if (method !== "PUT" && method !== "PATCH") throw new WriteRefused(405, "Method not allowed");
      writeVlan(model, id, parseBody(body), put, lie);
      return put ? 200 : 204;
    }
    throw new WriteRefused(method === "POST" || method === "DELETE" ? 405 : 404, "Object not found");
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "https://lab.invalid");
    const rawPath = (req.url ?? "/").split("?")[0];
    const line = `${method} ${rawPath}`;
    counters.record(line);
    if (!faults.answers(line)) return; // no answer: the client's timeout decides
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (rawPath === "/rest" || rawPath === "/rest/") {
      return method === "GET" ? json(res, 200, versionList()) : text(res, 405, "Method not allowed");
    }
    const m = /^\/rest\/(v[0-9.]+)(\/.*)?$/.exec(rawPath);
    if (!m || !versions.includes(m[1])) return text(res, 404, "Unknown API version or resource");
    const prefix = `/rest/${m[1]}`;
    let seg: string[];
    try {
      seg = (m[2] ?? "")
        .split("/")
        .filter((s) => s !== "")
        .map((s) => decodeURIComponent(s));
    } catch {
      return text(res, 400, "Malformed URI");
    }
    if (seg.length === 1 && seg[0] === "login") {
      return method === "POST" ? login(req, res, url.searchParams) : text(res, 405, "Method not allowed");
    }
    const who = session(req);
    if (!who) return text(res, 401, "Unauthorized: no active session (login first)");
    if (seg.length === 1 && seg[0] === "logout") {
      if (method !== "POST") return text(res, 405, "Method not allowed");
      sessions.delete(who.id);
      counters.logouts++;
      res.writeHead(200);
      res.end();
      return;
    }
    try {
      if (method === "GET") return json(res, 200, get(new AoscxTree(model, prefix), seg, url.searchParams));
      if (!["PUT", "PATCH", "POST", "DELETE"].includes(method)) return text(res, 405, "Method not allowed");
      if (who.s.csrf && req.headers["x-csrf-token"] !== who.s.csrf)
        return text(res, 401, "Unauthorized: missing or wrong x-csrf-token");
      const status = await write(req, prefix, method, seg, url.searchParams);
      res.writeHead(status);
      res.end();
    } catch (e) {
      if (e instanceof WriteRefused) return text(res, e.status, e.message);
      if (e instanceof BadQuery) return text(res, 400, e.message);
      return text(res, 500, "Internal server error");
    }
  }

  const https = await startLabHttpsServer(
    model.system.sysName,
    (req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) text(res, 500, "Internal server error");
      });
    },
    options.port,
  );
  const port = https.port;

  return {
    host: "127.0.0.1",
    port,
    username,
    password,
    fingerprint: https.certificate.fingerprint,
    versions,
    faults,
    counters,
    openSessions: () => {
      expire();
      return sessions.size;
    },
    sessionsOpened: () => opened,
    closeAllSessions: () => sessions.clear(),
    httpsTarget: (o = {}) => https.httpsTarget(username, password, o.pin),
    stop: () => https.stop(),
  };
}
