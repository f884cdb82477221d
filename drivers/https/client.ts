/**
 * The HTTPS transport of the API drivers (AOS-CX REST, Arista eAPI). One client serves one
 * API call: its connections are opened when first needed, kept alive between the call's
 * requests and closed with the client.
 *
 * Trust, as for SSH host keys: switches present self-signed certificates, so without a CA
 * the certificate is pinned by its SHA-256 fingerprint. Every new connection is checked
 * when its TLS handshake ends and before the first byte of a request is written: a
 * certificate other than the pinned one is CertificateChanged, so not even the login
 * reaches a device that is not the one accepted. With no pin yet, the certificate is
 * reported (onCertificate) for the caller to pin. With a CA, the certificate and the
 * device's name are verified by TLS as a browser would, and nothing is pinned.
 *
 * No answer, a refused port or a broken connection is DeviceUnreachable; answers are
 * bounded in size and time.
 */
import type { IncomingHttpHeaders } from "node:http";
import { Agent, request as httpsRequest, type RequestOptions } from "node:https";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from "node:tls";
import { CertificateChanged, DeviceUnreachable } from "../../model/failures";
import type { HttpsTarget } from "../../model/targets";
import { RequestCounters } from "../request-counters";

export type { HttpsTarget } from "../../model/targets";

/** The largest answer read (a full AOS-CX interface table of a stack is a few MiB). */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpsRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** path and query, starting with "/" */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** this request's bound instead of the target's request_timeout_ms */
  timeoutMs?: number;
}

export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the body as UTF-8 */
  text(): string;
}

/** "AB:CD:..." and "abcd..." and "SHA256:AB:CD..." name the same fingerprint. */
export function sameCertificate(a: string, b: string): boolean {
  const norm = (f: string) =>
    f
      .trim()
      .replace(/^SHA-?256[:=]?\s*/i, "")
      .replace(/:/g, "")
      .toUpperCase();
  return norm(a) === norm(b);
}

/** "name (https://host:port)" or "https://host:port": how errors name the device. */
export function describeHttpsTarget(target: Pick<HttpsTarget, "host" | "port">, name?: string): string {
  const host = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  const address = `https://${host}:${target.port}`;
  return name ? `${name} (${address})` : address;
}

export interface HttpsClientOptions {
  /** the device's inventory name, for messages */
  name?: string;
  /** where the requests and round trips are counted (the driver's own, read by the service) */
  counters?: RequestCounters;
  /** called once with the fingerprint the device presented, when nothing was pinned and no CA set */
  onCertificate?: (fingerprint: string) => void;
}

type CreateCallback = (error: Error | null, socket: Duplex) => void;

/**
 * An agent whose connections are only handed to a request once their certificate passed
 * the check (node's Agent waits for createConnection's callback when it returns nothing).
 */
class CheckingAgent extends Agent {
  constructor(
    private readonly open: () => TLSSocket,
    private readonly check: (socket: TLSSocket, callback: CreateCallback) => void,
  ) {
    super({ keepAlive: true, maxSockets: 4 });
  }

  override createConnection(_options: RequestOptions, callback?: CreateCallback): undefined {
    const socket = this.open();
    if (callback) this.check(socket, callback);
    else socket.destroy(new Error("the HTTPS agent needs a connection callback"));
    return undefined;
  }
}

export class HttpsClient {
  readonly where: string;
  /** the fingerprint of the certificate the device presented ("" before the first connection) */
  presented = "";
  readonly counters: RequestCounters;
  private readonly agent: CheckingAgent;
  private closed = false;

  constructor(
    readonly target: HttpsTarget,
    private readonly options: HttpsClientOptions = {},
  ) {
    this.where = describeHttpsTarget(target, options.name);
    this.counters = options.counters ?? new RequestCounters();
    this.agent = new CheckingAgent(
      () => tlsConnect(this.tlsOptions()),
      (socket, callback) => this.checkSocket(socket, callback),
    );
  }

  /** verified by the CA when one is set; otherwise checked against the pin (checkSocket) */
  private tlsOptions(): ConnectionOptions {
    const { host, port, ca } = this.target;
    return {
      host,
      port,
      ca,
      rejectUnauthorized: Boolean(ca),
      servername: isIP(host) ? undefined : host,
      ALPNProtocols: ["http/1.1"],
    };
  }

  private checkSocket(socket: TLSSocket, callback: CreateCallback): void {
    let done = false;
    const finish = (error: Error | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.off("error", onError);
      if (error) {
        socket.destroy();
        callback(error, socket);
      } else callback(null, socket);
    };
    const onError = (e: Error) => finish(this.connectFailure(e));
    const timer = setTimeout(
      () =>
        finish(new DeviceUnreachable(`No HTTPS answer from ${this.where} within ${this.target.connect_timeout_ms} ms`)),
      this.target.connect_timeout_ms,
    );
    socket.once("error", onError);
    socket.once("secureConnect", () => {
      const fingerprint = socket.getPeerCertificate().fingerprint256 ?? "";
      this.presented = fingerprint;
      const pinned = this.target.certificate_fingerprint;
      if (!this.target.ca) {
        if (pinned && !sameCertificate(pinned, fingerprint)) {
          finish(new CertificateChanged(this.where, fingerprint, pinned));
          return;
        }
        if (!pinned) this.options.onCertificate?.(fingerprint);
      }
      finish(null);
    });
  }

  private connectFailure(e: Error & { code?: string }): Error {
    if (e instanceof CertificateChanged || e instanceof DeviceUnreachable) return e;
    const code = e.code ?? "";
    if (/CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS_CERT_ALTNAME/.test(code))
      return new DeviceUnreachable(
        `The TLS certificate of ${this.where} is not trusted by the configured CA (${code || e.message})`,
      );
    return new DeviceUnreachable(`No HTTPS connection to ${this.where} (${code || e.message})`);
  }

  /** One request; any HTTP status is an answer (the driver decides what it means). */
  request(req: HttpsRequest): Promise<HttpsAnswer> {
    if (this.closed) return Promise.reject(new Error("the HTTPS client is closed"));
    const timeoutMs = req.timeoutMs ?? this.target.request_timeout_ms;
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const headers: Record<string, string> = { ...req.headers };
    if (body) headers["content-length"] = String(body.length);
    const options: RequestOptions = {
      host: this.target.host,
      port: this.target.port,
      method: req.method,
      path: req.path,
      headers,
      agent: this.agent,
    };
    const ended = this.counters.begin();
    return new Promise<HttpsAnswer>((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        ended();
        clearTimeout(timer);
        outgoing.destroy();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          fail(
            new DeviceUnreachable(
              `No HTTPS answer from ${this.where} to ${req.method} ${pathOnly(req.path)} within ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      const outgoing = httpsRequest(options, (incoming) => {
        const chunks: Buffer[] = [];
        let size = 0;
        incoming.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            incoming.destroy();
            fail(
              new DeviceUnreachable(`The answer of ${this.where} to ${req.method} ${pathOnly(req.path)} is too large`),
            );
          } else chunks.push(chunk);
        });
        incoming.on("error", (e) => fail(this.connectFailure(e)));
        incoming.on("end", () => {
          if (settled) return;
          settled = true;
          ended();
          clearTimeout(timer);
          const all = Buffer.concat(chunks, size);
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: all,
            text: () => all.toString("utf8"),
          });
        });
      });
      outgoing.on("error", (e) => fail(this.connectFailure(e)));
      outgoing.end(body);
    });
  }

  /** Closes every connection of this client; later requests fail. */
  close(): void {
    this.closed = true;
    this.agent.destroy();
  }
}

/** the path without its query (queries may carry names, never secrets; kept short in messages) */
function pathOnly(path: string): string {
  const q = path.indexOf("?");
  return q < 0 ? path : path.slice(0, q);
}
