import type { Request } from "express";

/** scheme://host of a request, for absolute URLs (forwarded headers only behind a trusted proxy) */
export function baseUrlOf(req: Request, trustProxy: boolean): string {
  const proto = trustProxy ? String(req.headers["x-forwarded-proto"] ?? req.protocol).split(",")[0].trim() : req.protocol;
  const host = (trustProxy && req.headers["x-forwarded-host"]) || req.headers.host || "localhost";
  return `${proto}://${host}`;
}

export function clientIp(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = String(req.headers["x-forwarded-for"] ?? "").split(",")[0].trim();
    if (fwd) return fwd;
  }
  return (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
}
