/**
 * Security headers, set in one place for every answer (API JSON, web pages, errors):
 * a Content-Security-Policy the pages work under (their script and style are files of
 * this site, nothing inline, no other origin), no MIME sniffing, no framing, no
 * referrer to other sites, and no caching of anything but the static assets.
 */
import type { NextFunction, Request, Response } from "express";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export const ASSETS_PREFIX = "/assets/";

export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  // answers carry per-user data (and tokens); only the static assets may be kept
  res.setHeader("Cache-Control", req.path.startsWith(ASSETS_PREFIX) ? "public, max-age=3600" : "no-store");
  next();
}
