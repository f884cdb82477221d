/**
 * The eAPI face of a lab switch: Arista's JSON-RPC over HTTPS on 127.0.0.1, speaking as
 * EOS's eAPI does so that Arista's own client libraries (pyeapi) work against it, over the
 * same VirtualSwitch the SNMP and SSH faces serve.
 *
 *   POST /command-api, HTTP Basic authentication on every request (401 otherwise), a
 *   JSON-RPC 2.0 body {"method": "runCmds", "params": {"version": 1 | "latest", "cmds":
 *   [...], "format": "json" | "text", "autoComplete"?}, "id"}; each command a string or
 *   {"cmd", "input"}. The answer has one result per command, or, when a command fails,
 *   an error {"code", "message": "CLI command i of n '<cmd>' failed: <kind>", "data":
 *   [results so far..., {"errors": [...]}]} and the commands after it are not run.
 *
 * Each face has a self-signed certificate of its own (its fingerprint is what a driver
 * pins). Faults: latency, no answer at all (hang), no answer after n more commands,
 * refused logins, commands refused with given words, writes answered but not applied.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { startLabHttpsServer } from "../tls/https-face";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpsTarget } from "../../model/targets";
import type { SwitchConfig } from "../config";
import type { VirtualSwitch } from "../model";
import { EosCommandError, EosSession, type Format } from "./commands";

export interface LabEapiFaceOptions {
  /** TCP port on 127.0.0.1; 0 or absent picks a free one */
  port?: number;
  /** default "admin" */
  username?: string;
  /** default "lab-eapi-password" */
  password?: string;
  /** what `enable` wants as input; default "" (the user is privileged: any enable works) */
  enableSecret?: string;
  /** delay before each answer */
  latencyMs?: number;
}

export interface LabEapiFaults {
  latencyMs: number;
  /** requests get no answer at all (the connection stays open) */
  hang: boolean;
  /** every request is answered 401, the right credentials too */
  refuseLogins: boolean;
  /** configuration commands are answered as usual but change nothing */
  lieOnWrite: boolean;
  /** run n more commands; a request that would go past them gets no answer, nor do later ones */
  silentAfter(n: number): void;
  /** commands matching (a RegExp, or a string the command starts with) fail with these words and change nothing */
  refuseCommands(match: RegExp | string, message?: string): void;
  reset(): void;
}

export interface LabEapiCounters {
  /** HTTP requests to /command-api, answered or not (refused logins too) */
  requests: number;
  /** requests refused with 401 */
  unauthorized: number;
  /** commands run */
  commands: number;
  /** the commands of each request, latest last (at most the last 1000 requests) */
  readonly log: string[][];
  reset(): void;
}

export interface LabEapiFace {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** SHA-256 fingerprint of this face's certificate, colon hex, as a driver reports it */
  fingerprint: string;
  /** PEM of the face's self-signed certificate (a CA for itself) */
  certificate: string;
  faults: LabEapiFaults;
  counters: LabEapiCounters;
  /** a target for the eAPI driver: short timeouts; `pin` pins this face's certificate */
  httpsTarget(opts?: { pin?: boolean }): HttpsTarget;
  stop(): Promise<void>;
}

/** the largest request body taken */
const MAX_BODY_BYTES = 1024 * 1024;
/** the most commands in one request */
const MAX_COMMANDS = 1000;

class Faults implements LabEapiFaults {
  latencyMs: number;
  hang = false;
  refuseLogins = false;
  lieOnWrite = false;
  commandsLeft: number | null = null;
  readonly refusals: Array<{ pattern: RegExp; message: string }> = [];

  constructor(private readonly defaultLatencyMs: number) {
    this.latencyMs = defaultLatencyMs;
  }

  silentAfter(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("silentAfter needs a count >= 0");
    this.commandsLeft = n;
  }

  refuseCommands(match: RegExp | string, message = "Command rejected by the lab"): void {
    const pattern =
      typeof match === "string" ? new RegExp(`^${match.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i") : match;
    this.refusals.push({ pattern, message });
  }

  refusal(command: string): string | null {
    return this.refusals.find((r) => r.pattern.test(command.trim()))?.message ?? null;
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.hang = false;
    this.refuseLogins = false;
    this.lieOnWrite = false;
    this.commandsLeft = null;
    this.refusals.length = 0;
  }
}

class Counters implements LabEapiCounters {
  requests = 0;
  unauthorized = 0;
  commands = 0;
  readonly log: string[][] = [];

  record(cmds: string[]): void {
    this.commands += cmds.length;
    this.log.push(cmds);
    if (this.log.length > 1000) this.log.shift();
  }

  reset(): void {
    this.requests = 0;
    this.unauthorized = 0;
    this.commands = 0;
    this.log.length = 0;
  }
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

interface Command {
  cmd: string;
  input?: string;
}

type RpcAnswer = { jsonrpc: "2.0"; id: unknown } & (
  { result: unknown[] } | { error: { code: number; message: string; data?: unknown[] } }
);

const rpcError = (id: unknown, code: number, message: string): RpcAnswer => ({
  jsonrpc: "2.0",
  id,
  error: { code, message },
});

/** The request's commands, or a JSON-RPC error for a body that is not a runCmds request. */
function parseRequest(
  body: unknown,
): { id: unknown; cmds: Command[]; format: Format; autoComplete: boolean } | RpcAnswer {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return rpcError(null, -32600, "Invalid request");
  const req = body as Record<string, unknown>;
  const id = req.id ?? null;
  if (req.jsonrpc !== "2.0") return rpcError(id, -32600, 'Invalid request: jsonrpc must be "2.0"');
  if (req.method !== "runCmds") return rpcError(id, -32601, `Method not found: ${String(req.method)}`);
  const params = req.params as Record<string, unknown> | undefined;
  if (typeof params !== "object" || params === null) return rpcError(id, -32602, "Invalid params: params missing");
  if (params.version !== 1 && params.version !== "latest")
    return rpcError(id, -32602, 'Invalid params: version must be 1 or "latest"');
  const format = params.format ?? "json";
  if (format !== "json" && format !== "text")
    return rpcError(id, -32602, "Invalid params: format must be json or text");
  if (!Array.isArray(params.cmds) || params.cmds.length > MAX_COMMANDS)
    return rpcError(id, -32602, `Invalid params: cmds must be a list of at most ${MAX_COMMANDS} commands`);
  const cmds: Command[] = [];
  for (const c of params.cmds as unknown[]) {
    if (typeof c === "string") cmds.push({ cmd: c });
    else if (typeof c === "object" && c !== null && typeof (c as Command).cmd === "string") {
      const input = (c as Command).input;
      cmds.push({ cmd: (c as Command).cmd, input: typeof input === "string" ? input : undefined });
    } else return rpcError(id, -32602, "Invalid params: each command is a string or {cmd, input}");
  }
  return { id, cmds, format, autoComplete: params.autoComplete === true };
}

/** Starts the eAPI face of `lab` (a started lab switch, or just its model) on 127.0.0.1. */
export async function startLabEapiFace(
  lab: { model: VirtualSwitch } | VirtualSwitch,
  options: LabEapiFaceOptions = {},
): Promise<LabEapiFace> {
  const model = "model" in lab ? lab.model : lab;
  const username = options.username ?? "admin";
  const password = options.password ?? "lab-eapi-password";
  const enableSecret = options.enableSecret ?? "";
  const faults = new Faults(options.latencyMs ?? 0);
  const counters = new Counters();

  const authorised = (header: string | undefined): boolean => {
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
    if (!m) return false;
    const text = Buffer.from(m[1], "base64").toString("utf8");
    const colon = text.indexOf(":");
    if (colon < 0) return false;
    // both compared, so a wrong user name takes as long as a wrong password
    const userOk = sameSecret(text.slice(0, colon), username);
    const passOk = sameSecret(text.slice(colon + 1), password);
    return userOk && passOk;
  };

  /** Runs the commands of one request as one session; stops at the first that fails. */
  const runCommands = (id: unknown, cmds: Command[], format: Format, autoComplete: boolean): RpcAnswer => {
    const session = new EosSession({
      model,
      autoComplete,
      enableSecret,
      change: (edit: (cfg: SwitchConfig) => void) => {
        if (!faults.lieOnWrite) model.update(edit);
      },
      save: () => {
        if (!faults.lieOnWrite) model.save();
      },
    });
    const results: unknown[] = [];
    for (let n = 0; n < cmds.length; n++) {
      const { cmd, input } = cmds[n];
      try {
        const refusal = session.isWrite(cmd) ? faults.refusal(cmd) : null;
        if (refusal !== null) throw new EosCommandError(1000, "could not run command", [refusal]);
        results.push(session.run(cmd, format, input));
      } catch (e) {
        if (!(e instanceof EosCommandError)) throw e;
        // the message names the command, never its input (an enable secret)
        return {
          jsonrpc: "2.0",
          id,
          error: {
            code: e.code,
            message: `CLI command ${n + 1} of ${cmds.length} '${cmd}' failed: ${e.kind}`,
            data: [...results, { errors: e.errors }],
          },
        };
      }
    }
    return { jsonrpc: "2.0", id, result: results };
  };

  const send = (res: ServerResponse, status: number, body: string, type = "application/json") => {
    const answer = () => {
      if (res.destroyed) return;
      res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    };
    if (faults.latencyMs > 0) setTimeout(answer, faults.latencyMs);
    else answer();
  };

  const handle = (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== "/command-api") return send(res, 404, "Not found\n", "text/plain");
    counters.requests++;
    if (req.method !== "POST") {
      res.setHeader("Allow", "POST");
      return send(res, 405, "Method not allowed\n", "text/plain");
    }
    if (faults.refuseLogins || !authorised(req.headers.authorization)) {
      counters.unauthorized++;
      res.setHeader("WWW-Authenticate", 'Basic realm="eAPI"');
      return send(res, 401, "Unable to authenticate user: Bad username/password combination\n", "text/plain");
    }
    if (faults.hang) return; // never answered
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return send(res, 200, JSON.stringify(rpcError(null, -32700, "Parse error")));
    }
    const parsed = parseRequest(body);
    if ("jsonrpc" in parsed) return send(res, 200, JSON.stringify(parsed));
    if (faults.commandsLeft !== null) {
      if (parsed.cmds.length > faults.commandsLeft) {
        faults.commandsLeft = 0;
        return; // the device went silent during this request
      }
      faults.commandsLeft -= parsed.cmds.length;
    }
    counters.record(parsed.cmds.map((c) => c.cmd));
    send(res, 200, JSON.stringify(runCommands(parsed.id, parsed.cmds, parsed.format, parsed.autoComplete)));
  };

  const https = await startLabHttpsServer(
    model.system.sysName,
    (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) tooLarge = true;
        else chunks.push(chunk);
      });
      req.on("end", () => {
        if (tooLarge) return send(res, 413, "Request too large\n", "text/plain");
        try {
          handle(req, res, Buffer.concat(chunks));
        } catch (e) {
          send(res, 500, `${e instanceof Error ? e.message : String(e)}\n`, "text/plain");
        }
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
    certificate: https.certificate.cert,
    faults,
    counters,
    httpsTarget: (o = {}) => https.httpsTarget(username, password, o.pin),
    stop: () => https.stop(),
  };
}
