/**
 * Every answer the tests see is validated against the spec: JSON bodies of API paths
 * against the response schema of their operation and status (errors included), with
 * the contract's header rules (405 has Allow with OPTIONS; 403 from auth has
 * WWW-Authenticate). A mismatch throws, failing the test that made the call.
 */
import type { Contract } from "../../server/contract";
import { responseErrors } from "./response-validators";

export const seen = { checked: 0 };

export function checkResponse(
  contract: Contract,
  method: string,
  fullPath: string,
  res: { status: number; headers: Headers; body: unknown; text: string },
): void {
  const pathname = new URL(fullPath, "http://x").pathname;
  if (!pathname.startsWith("/api/")) return;
  const isJson = (res.headers.get("content-type") ?? "").includes("application/json");
  if (res.status === 301) {
    if (!res.headers.get("location")) throw new Error(`301 without Location for ${method} ${fullPath}`);
    return;
  }
  if (res.status >= 400 && !isJson)
    throw new Error(`${method} ${fullPath} answered ${res.status} without a JSON body: ${res.text.slice(0, 200)}`);
  const hit = contract.match(pathname);
  if (!hit) {
    if (res.status !== 404) throw new Error(`${method} ${fullPath}: path not in the spec but answered ${res.status}`);
    if (method.toUpperCase() !== "HEAD") assertError(res.body, method, fullPath);
    seen.checked++;
    return;
  }
  const m = method.toUpperCase();
  if (m === "OPTIONS") {
    if (res.status !== 200 || !res.headers.get("allow")?.includes("OPTIONS"))
      throw new Error(`OPTIONS ${fullPath}: bad answer`);
    // where the spec declares OPTIONS (the save path), the answer is what it declares
    const declared = hit.entry.methods.get("OPTIONS");
    const errors = declared ? responseErrors(declared.operationId!, res.status, res.body) : null;
    if (errors?.length)
      throw new Error(`OPTIONS ${fullPath}: response does not match the spec: ${JSON.stringify(errors.slice(0, 5))}`);
    return;
  }
  const op = hit.entry.methods.get(m === "HEAD" ? "GET" : m);
  if (!op) {
    if (res.status !== 405) throw new Error(`${method} ${fullPath}: method not in spec but answered ${res.status}`);
    if (!res.headers.get("allow")?.includes("OPTIONS"))
      throw new Error(`405 without Allow incl. OPTIONS for ${method} ${fullPath}`);
    // an answer to HEAD has no body to look at
    if (m !== "HEAD") assertError(res.body, method, fullPath);
    seen.checked++;
    return;
  }
  if (m === "HEAD" || !isJson) {
    if (res.status === 204 && res.text === "") return;
    if (m === "HEAD") return;
    if (res.status === 200 && (res.headers.get("content-type") ?? "").includes("text/html")) return; // browsable page
  }
  const declared = Object.keys(op.responses ?? {});
  if (!declared.includes(String(res.status)) && !declared.includes("default")) {
    throw new Error(
      `${method} ${fullPath}: status ${res.status} is not declared in the spec (declared: ${declared.join(", ")}); body ${res.text.slice(0, 300)}`,
    );
  }
  if (res.status === 204) return;
  const errors = responseErrors(op.operationId!, res.status, res.body);
  if (errors?.length) {
    throw new Error(
      `${method} ${fullPath} -> ${res.status}: response does not match the spec: ${JSON.stringify(errors.slice(0, 5))}\nbody: ${res.text.slice(0, 500)}`,
    );
  }
  if (res.status >= 400) assertError(res.body, method, fullPath);
  seen.checked++;
}

function assertError(body: unknown, method: string, p: string) {
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : null;
  if (!fields || typeof fields.reason !== "string" || typeof fields.code !== "string") {
    throw new Error(`${method} ${p}: error body lacks reason/code: ${JSON.stringify(body)}`);
  }
}
