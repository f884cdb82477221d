/**
 * The bench's HTTP client: one timed API call, an error answer returned, never thrown. It
 * has no import of the service, so that a load worker thread (load-worker.ts) can use it
 * without loading the service's modules.
 */
export interface Answer {
  status: number;
  /** the error code of a refusal ("device_busy"), empty on success */
  code: string;
  /** the parsed JSON, or the text when it is not JSON (null: no answer) */
  body: unknown;
  ms: number;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
}

/** The `code` of an error answer's body, empty when it has none. */
function errorCode(body: unknown): string {
  return typeof body === "object" && body !== null && "code" in body && typeof body.code === "string" ? body.code : "";
}

/** One API call to the service at `baseUrl`, timed; an error answer is returned, never thrown. */
export async function httpRequest(
  baseUrl: string,
  method: string,
  p: string,
  opts: RequestOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.token) headers.authorization = `Token ${opts.token}`;
  if (opts.json !== undefined) headers["content-type"] = "application/json";
  const start = process.hrtime.bigint();
  try {
    const res = await fetch(baseUrl + p, {
      method,
      headers,
      body: opts.json === undefined ? undefined : JSON.stringify(opts.json),
    });
    const text = await res.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    const code = res.status >= 400 ? errorCode(body) : "";
    return { status: res.status, code, body, ms };
  } catch (e) {
    // no HTTP answer at all (connection refused or reset): counted as status 0
    return { status: 0, code: (e as Error).message, body: null, ms: Number(process.hrtime.bigint() - start) / 1e6 };
  }
}
