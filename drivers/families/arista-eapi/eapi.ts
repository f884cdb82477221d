/**
 * One eAPI call: a JSON-RPC 2.0 `runCmds` request POSTed to /command-api over the HTTPS
 * transport (drivers/https/client.ts, certificate checked or pinned on every new
 * connection), with HTTP Basic authentication, and its answer checked:
 *
 *   - one result per command, in order, or an `error` whose `data` holds the results up
 *     to the failing command and that command's own `errors` (EOS runs nothing after
 *     it): DeviceRefused in EOS's words (EapiCommandError, which says which command);
 *   - 401: the login was refused (DeviceUnreachable, as a refused SSH login);
 *   - another status, a body that is not the JSON-RPC answer to this request, or no
 *     answer at all: DeviceUnreachable, except for a request that carried a change
 *     whose answer was lost after it was sent: DeviceOutcomeUnknown (it may have been
 *     applied).
 *
 * Commands are given as strings and serialised with JSON.stringify, so any character a
 * value holds is escaped for JSON; what may reach a command line at all is checked
 * before (commands.ts).
 */
import { DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable } from "../../../model/failures";
import type { HttpsTarget } from "../../../model/targets";
import type { RequestCounters } from "../../request-counters";
import { HttpsClient } from "../../https/client";

export type EapiFormat = "json" | "text";

/** A command EOS refused: its position in the request, its eAPI code and EOS's own words. */
export class EapiCommandError extends DeviceRefused {
  constructor(
    message: string,
    /** 0-based position of the failing command in the request */
    readonly index: number,
    readonly command: string,
    readonly eapiCode: number,
    /** the failing command's `errors`, as EOS gives them */
    readonly errors: readonly string[],
  ) {
    super(message);
  }
}

export interface EapiClientOptions {
  name?: string;
  onCertificate?: (fingerprint: string) => void;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** a text cut for a message: one line, at most 200 characters */
function brief(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/** True when a transport failure happened after the request may have reached the device. */
function mayHaveArrived(error: DeviceUnreachable): boolean {
  // HttpsClient names the request in a timeout of an answer ("... to POST /command-api within"),
  // and a connection that broke in the middle with its code
  return / to POST |ECONNRESET|EPIPE|socket hang up/.test(error.message);
}

export class EapiClient {
  readonly where: string;
  private readonly http: HttpsClient;

  /** requests and round trips sent through this client */
  get counters(): RequestCounters {
    return this.http.counters;
  }
  private readonly auth: string;
  private nextId = 1;
  /** requests sent (each one runCmds call) */
  requests = 0;

  constructor(
    private readonly target: HttpsTarget,
    options: EapiClientOptions = {},
  ) {
    this.http = new HttpsClient(target, { name: options.name, onCertificate: options.onCertificate });
    this.where = this.http.where;
    this.auth = `Basic ${Buffer.from(`${target.username}:${target.password}`, "utf8").toString("base64")}`;
  }

  /** the fingerprint of the certificate the device presented ("" before the first request) */
  get presented(): string {
    return this.http.presented;
  }

  /**
   * Runs `cmds` in one request and returns one result per command. `change`: the
   * request configures the device (a lost answer is then DeviceOutcomeUnknown).
   */
  async run(cmds: readonly string[], opts: { format?: EapiFormat; change?: boolean } = {}): Promise<unknown[]> {
    const id = `switchdesk-${this.nextId++}`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      method: "runCmds",
      params: { version: 1, cmds, format: opts.format ?? "json" },
      id,
    });
    this.requests++;
    let answer;
    try {
      answer = await this.http.request({
        method: "POST",
        path: "/command-api",
        headers: { "content-type": "application/json-rpc", accept: "application/json", authorization: this.auth },
        body,
      });
    } catch (e) {
      if (opts.change && e instanceof DeviceUnreachable && mayHaveArrived(e))
        throw new DeviceOutcomeUnknown(
          `${e.message}; the change (${cmds.filter((c) => !/^(enable|configure|end)$/.test(c)).join("; ")}) was sent and may or may not have been applied`,
        );
      throw e;
    }
    if (answer.status === 401)
      throw new DeviceUnreachable(
        `${this.where} refused the eAPI login of user '${this.target.username}' (HTTP 401: ${brief(answer.text()) || "Unauthorized"})`,
      );
    if (answer.status !== 200)
      throw new DeviceUnreachable(
        `${this.where} answered its eAPI request with HTTP ${answer.status}${answer.text().trim() ? `: ${brief(answer.text())}` : ""}`,
      );
    let decoded: Json;
    try {
      decoded = JSON.parse(answer.text()) as Json;
    } catch {
      throw new DeviceUnreachable(`${this.where} answered its eAPI request with something other than JSON`);
    }
    if (!isRecord(decoded) || decoded.id !== id)
      throw new DeviceUnreachable(
        `${this.where} answered with something other than the JSON-RPC answer to its request`,
      );
    if (isRecord(decoded.error)) throw this.refusal(decoded.error, cmds);
    const result = decoded.result;
    if (!Array.isArray(result) || result.length !== cmds.length)
      throw new DeviceUnreachable(
        `${this.where} answered ${cmds.length} eAPI commands with ${Array.isArray(result) ? result.length : "no"} results`,
      );
    return result;
  }

  private refusal(error: Record<string, unknown>, cmds: readonly string[]): EapiCommandError {
    const code = typeof error.code === "number" ? error.code : 0;
    const message = typeof error.message === "string" ? error.message : "(no message)";
    const data = Array.isArray(error.data) ? error.data : [];
    const last: unknown = data[data.length - 1];
    const errors =
      isRecord(last) && Array.isArray(last.errors) ? last.errors.filter((x): x is string => typeof x === "string") : [];
    // the failing command is the last one EOS answered (data holds the results up to it)
    const index = data.length > 0 ? data.length - 1 : 0;
    const command = cmds[index] ?? "";
    const words = errors.length > 0 ? ` [${errors.join("; ")}]` : "";
    return new EapiCommandError(
      `${this.where} refused '${brief(command)}': Error [${code}]: ${brief(message)}${words}`,
      index,
      command,
      code,
      errors,
    );
  }

  close(): void {
    this.http.close();
  }
}
