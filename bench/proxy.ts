/**
 * A small round-robin HTTP proxy for the bench's scale-out scenario: each request goes to
 * the next instance in turn over kept-alive connections, as a load balancer without sticky
 * sessions would send it. An instance that does not answer gives the client a 502.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Proxy {
  url: string;
  /** requests sent to each backend, in the order given */
  sent: number[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<Proxy> {
  if (backends.length === 0) throw new Error("a proxy needs at least one backend");
  const targets = backends.map((b) => new URL(b));
  // idle connections are closed after 4 s, before the instances' own 5 s keep-alive
  // timeout, so that a request is never sent on a connection the instance is closing
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });
  const sent = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const i = next;
    next = (next + 1) % targets.length;
    sent[i]++;
    const t = targets[i];
    const body: Buffer[] = [];
    req.on("data", (d: Buffer) => body.push(d));
    req.on("end", () => forward(1));
    // a read on a kept-alive connection the instance closed just as it was reused: sent
    // again once, on a new connection, as load balancers retry idempotent requests
    const idempotent = req.method === "GET" || req.method === "HEAD";
    const forward = (tries: number) => {
      const upstream = http.request(
        {
          host: t.hostname,
          port: t.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: t.host },
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (e: NodeJS.ErrnoException) => {
        if (tries > 0 && idempotent && upstream.reusedSocket && e.code === "ECONNRESET" && !res.headersSent)
          return forward(tries - 1);
        if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            reason: `the proxy's backend ${t.host} did not answer (${e.code ?? e.message})`,
            code: "bad_gateway",
          }),
        );
      });
      upstream.end(Buffer.concat(body));
    };
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
