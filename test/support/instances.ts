/**
 * Several switchdesk processes on one database for the scale-out tests (the same starter
 * as the bench's, bench/instances.ts), and a small HTTP client for them.
 */
import type { JsonBody } from "./harness";

export { built, settledShares, startInstance, stopAll, type Instance, type Started } from "../../bench/instances";

export interface Answer {
  status: number;
  /** the parsed JSON, or the text when it is not JSON */
  body: JsonBody;
  headers: Headers;
}

export async function call(
  base: string,
  method: string,
  url: string,
  token: string | null,
  json?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Token ${token}`;
  if (json !== undefined) headers["content-type"] = "application/json";
  const r = await fetch(base + url, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await r.text();
  let body: JsonBody = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: kept as text for the failure message */
  }
  return { status: r.status, body, headers: r.headers };
}

export async function tokenFor(base: string, username: string, password: string): Promise<string> {
  const r = await call(base, "POST", "/api/users/token/", null, { username, password });
  if (r.status !== 200) throw new Error(`token for ${username}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.token;
}
