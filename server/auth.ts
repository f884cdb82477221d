/**
 * Who is calling: an API token (`Authorization: Token <key>` or `Bearer <key>`), else a
 * web UI session cookie (with a CSRF token on every unsafe method). Failures are 403
 * with reason and detail (access denied is always 403, never 401: docs/api-decisions.md section 2) and WWW-Authenticate: Token.
 */
import type { IncomingHttpHeaders } from "node:http";
import crypto from "node:crypto";
import { ApiError, type ErrorCode } from "../app/errors";
import type { Caller, Services } from "../handlers/context";
import * as msg from "../domain/messages";

export const SESSION_COOKIE = "sessionid";
export const CSRF_COOKIE = "csrftoken";
export const CSRF_HEADER = "x-csrftoken";
export const CSRF_FIELD = "csrfmiddlewaretoken";

const deny = (reason: string, code: ErrorCode) =>
  new ApiError(403, code, reason, { "WWW-Authenticate": "Token" }, true);

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export interface AuthInput {
  method: string;
  headers: IncomingHttpHeaders;
}

/** The caller, or null when the request carries no credentials at all. CSRF is checked apart (checkCsrf). */
export async function identify(s: Services, input: AuthInput): Promise<Caller | null> {
  const auth = input.headers.authorization;
  if (auth !== undefined) {
    const m = /^\s*(Token|Bearer)\s+(\S+)\s*$/i.exec(auth);
    if (!m) {
      if (/^\s*(Token|Bearer)\s*$/i.test(auth))
        throw deny("Invalid token header. No credentials provided.", "invalid_token");
      throw deny(msg.INVALID_TOKEN, "invalid_token");
    }
    // the token, its user, profile and groups in one query, every call (never from a cache)
    const hit = await s.repos.tokens.findWithUser(m[2].toLowerCase());
    if (!hit) throw deny(msg.INVALID_TOKEN, "invalid_token");
    const { token, user: found } = hit;
    if (token.expires && Date.parse(token.expires) <= Date.now()) throw deny(msg.TOKEN_EXPIRED, "token_expired");
    if (!found.is_active) throw deny(msg.USER_INACTIVE, "user_inactive");
    const user = await directoryChecked(s, found, input.method);
    await s.repos.tokens.touch(token);
    return { user, token, session: null };
  }
  const cookies = parseCookies(input.headers.cookie);
  const key = cookies[SESSION_COOKIE];
  if (!key) return null;
  const session = await s.repos.sessions.find(key);
  if (!session) return null;
  const found = await s.repos.users.get(session.user_id);
  if (!found || !found.is_active) return null;
  return { user: await directoryChecked(s, found, input.method), token: null, session };
}

/** A directory user's rights as the directory says now, when the last check is too old (app/directory/recheck.ts). */
function directoryChecked(s: Services, user: Caller["user"], method: string): Promise<Caller["user"]> {
  return s.directoryRights ? s.directoryRights.current(user, UNSAFE.has(method.toUpperCase())) : Promise.resolve(user);
}

/**
 * A web session's unsafe request must carry the session's CSRF token, in the
 * X-CSRFToken header or the form field of a browser form post.
 */
export function checkCsrf(
  caller: Caller | null,
  method: string,
  headers: IncomingHttpHeaders,
  csrfField: unknown,
): void {
  if (!caller?.session || !UNSAFE.has(method)) return;
  // the header when sent, else the form field; anything but one string is no token
  const header = headers[CSRF_HEADER];
  const given = header !== undefined ? header : csrfField;
  const sent = typeof given === "string" ? given : "";
  if (!sent || !safeEqual(sent, caller.session.csrf_token)) {
    throw new ApiError(403, "csrf_failed", "CSRF Failed: CSRF token missing or incorrect.", {}, true);
  }
}

export function requireCaller(caller: Caller | null): Caller {
  if (!caller) throw deny(msg.NOT_AUTHENTICATED, "not_authenticated");
  return caller;
}
