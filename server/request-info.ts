/**
 * What a request says about its client and about this service's own address: the client's
 * address, whether it came over https, and the scheme and host for absolute URLs. The
 * X-Forwarded-* headers count only when the socket's peer is one of TRUSTED_PROXIES
 * (domain/addresses.ts has the rules); everything here goes through one matcher of them.
 */
import type { Request } from "express";
import { addressMatcher, clientAddress, nearestForwarded, plainAddress } from "../domain/addresses";

/** a host[:port] as sent in X-Forwarded-Host / Host: names, IPv4 or [IPv6], nothing else */
const HOST =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

export interface ProxySettings {
  trustedProxies: readonly string[];
}

/** one matcher per configured list, built on first use */
const matchers = new WeakMap<readonly string[], (address: string) => boolean>();

function trusts(config: ProxySettings): (address: string) => boolean {
  let m = matchers.get(config.trustedProxies);
  if (!m) {
    m = addressMatcher(config.trustedProxies);
    matchers.set(config.trustedProxies, m);
  }
  return m;
}

function peerOf(req: Request): string {
  return plainAddress(req.socket.remoteAddress ?? "");
}

/** the socket's peer is a trusted proxy: its forwarded headers count */
function fromTrustedProxy(req: Request, config: ProxySettings): boolean {
  return trusts(config)(peerOf(req));
}

/** The client's address: the socket's peer, or behind trusted proxies the hop before them. */
export function clientIp(req: Request, config: ProxySettings): string {
  const fwd = req.headers["x-forwarded-for"];
  return clientAddress(peerOf(req), Array.isArray(fwd) ? fwd.join(",") : fwd, trusts(config));
}

/** the scheme the client used: a trusted proxy's X-Forwarded-Proto, else this socket's */
function forwardedProto(req: Request, config: ProxySettings): string | null {
  if (!fromTrustedProxy(req, config)) return null;
  const proto = nearestForwarded(req.headers["x-forwarded-proto"])?.toLowerCase();
  return proto === "http" || proto === "https" ? proto : null;
}

/** The request reached a proxy of ours (or this service) over https. */
export function cameOverHttps(req: Request, config: ProxySettings): boolean {
  return (forwardedProto(req, config) ?? req.protocol) === "https";
}

/**
 * scheme://host of this service for absolute URLs: BASE_URL when configured; behind a
 * trusted proxy its X-Forwarded-Proto/-Host; else the address and port the request came
 * in on. Never the Host header of an arbitrary client, so a forged Host cannot make the
 * answers point elsewhere.
 */
export function baseUrlOf(req: Request, config: ProxySettings & { baseUrl: string | null }): string {
  if (config.baseUrl) return config.baseUrl;
  if (fromTrustedProxy(req, config)) {
    const proto = forwardedProto(req, config) ?? req.protocol;
    const host = nearestForwarded(req.headers["x-forwarded-host"]) ?? String(req.headers.host ?? "").trim();
    if (HOST.test(host)) return `${proto}://${host}`;
  }
  return `${req.protocol}://${localHost(req)}`;
}

function localHost(req: Request): string {
  const addr = plainAddress(req.socket.localAddress ?? "127.0.0.1");
  const port = req.socket.localPort;
  const host = addr.includes(":") ? `[${addr}]` : addr;
  return port ? `${host}:${port}` : host;
}
