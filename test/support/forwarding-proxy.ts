/**
 * A small HTTP reverse proxy for tests, forwarding the way HAProxy's `option forwardfor`
 * does: the request goes on unchanged but for one more X-Forwarded-For header line with
 * the address of the peer it came from (so the client's own entries stay in front), and
 * optionally more header lines it adds the same way (HAProxy's `http-request add-header`,
 * e.g. X-Forwarded-Proto behind TLS): a value the client sent stays in front of them.
 * Each proxy listens on a loopback address of its own and connects onwards from one, so
 * the service sees a peer it can tell apart (Linux routes all of 127.0.0.0/8 locally).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonBody } from "./harness";

export interface ForwardingProxy {
  host: string;
  port: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** the loopback address it listens on */
  listen: string;
  /** where it forwards to */
  target: { host: string; port: number };
  /** the address it connects onwards from */
  from: string;
  /** header lines it adds after the client's */
  add?: Record<string, string>;
}

export async function startForwardingProxy(opts: ProxyOptions): Promise<ForwardingProxy> {
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const headers: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i];
      if (name.toLowerCase() !== "connection") headers.push([name, req.rawHeaders[i + 1]]);
    }
    headers.push(["X-Forwarded-For", (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "")]);
    for (const [k, v] of Object.entries(opts.add ?? {})) headers.push([k, v]);
    const onward = http.request(
      {
        host: opts.target.host,
        port: opts.target.port,
        localAddress: opts.from,
        method: req.method,
        path: req.url,
        headers: headers.flat(),
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    onward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(onward);
  });
  await new Promise<void>((resolve) => server.listen(0, opts.listen, resolve));
  return {
    host: opts.listen,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ClientAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** the parsed JSON, null when the text is not JSON */
  body: JsonBody;
}

/** one request from the loopback address `from` to `to`, with the headers given as they are */
export function requestFrom(
  from: string,
  to: { host: string; port: number },
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<ClientAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: to.host,
        port: to.port,
        localAddress: from,
        method,
        path,
        headers: { connection: "close", ...headers },
        agent: false,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          let parsed: JsonBody = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: null
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
