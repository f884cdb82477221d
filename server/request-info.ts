import type { Request } from "express";

/** a host[:port] as sent in X-Forwarded-Host / Host: names, IPv4 or [IPv6], nothing else */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * scheme://host of this service for absolute URLs: BASE_URL when configured; behind a
 * trusted proxy its X-Forwarded-Proto/-Host; else the address and port the request came
 * in on. Never the Host header of an arbitrary client, so a forged Host cannot make the
 * answers point elsewhere.
 */
export function baseUrlOf(req: Request, config: { trustProxy: boolean; baseUrl: string | null }): string {
  if (config.baseUrl) return config.baseUrl;
  if (config.trustProxy) {
    const proto = String(req.headers["x-forwarded-proto"] ?? req.protocol).split(",")[0].trim().toLowerCase();
    const host = String(req.headers["x-forwarded-host"] ?? req.headers.host ?? "").split(",")[0].trim();
    if ((proto === "http" || proto === "https") && HOST.test(host)) return `${proto}://${host}`;
  }
  return `${req.protocol}://${localHost(req)}`;
}

function localHost(req: Request): string {
  const addr = (req.socket.localAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
  const port = req.socket.localPort;
  const host = addr.includes(":") ? `[${addr}]` : addr;
  return port ? `${host}:${port}` : host;
}

export function clientIp(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = String(req.headers["x-forwarded-for"] ?? "").split(",")[0].trim();
    if (fwd) return fwd;
  }
  return (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
}
