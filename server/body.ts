/**
 * Reads a request body into one plain object, from JSON or from a form. Form values are
 * strings; they are turned into the types the operation's JSON schema asks for
 * (booleans, integers, arrays) before validation, so one schema serves both encodings
 * while JSON keeps its own types untouched.
 */
import type { IncomingMessage } from "node:http";
import { ApiError } from "../app/errors";

export type Body = Record<string, unknown> | undefined;

/**
 * How much of an oversized body is read and thrown away so the connection stays usable
 * for the client's next request (keep-alive); past this the answer closes the connection.
 */
export function drainLimit(limit: number): number {
  return Math.max(limit * 8, 8 * 1024 * 1024);
}

/**
 * The request body, at most `limit` bytes. A larger body is a 413, answered only after
 * the rest is read and discarded (up to drainLimit): breaking off the read would destroy
 * the socket, and with it the client's other requests on that keep-alive connection.
 */
export function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const tooLarge = (closing: boolean) =>
      new ApiError(
        413,
        "payload_too_large",
        `Request body is larger than ${limit} bytes`,
        closing ? { Connection: "close" } : {},
      );
    const done = (err: Error | null, body?: Buffer) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      if (err) reject(err);
      else resolve(body!);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > drainLimit(limit)) {
        // not worth reading further: answer now and let the connection close after it
        req.pause();
        done(tooLarge(true));
        return;
      }
      if (size > limit) over = true;
      if (!over) chunks.push(chunk);
    };
    const onEnd = () => done(over ? tooLarge(false) : null, Buffer.concat(chunks));
    const onError = (e: Error) =>
      done(new ApiError(400, "malformed_body", `The request body could not be read: ${e.message}`));
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > drainLimit(limit)) {
      done(tooLarge(true));
      return;
    }
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0].trim().toLowerCase();
}

/** Parses a raw body by Content-Type. Empty bodies give undefined. */
export function parseBody(raw: Buffer, contentType: string | undefined): { body: Body; form: boolean } {
  if (raw.length === 0) return { body: undefined, form: false };
  const type = mediaType(contentType);
  if (type === "application/json" || type.endsWith("+json")) {
    let value: unknown;
    try {
      value = JSON.parse(raw.toString("utf8"));
    } catch (e) {
      throw new ApiError(400, "malformed_body", `Malformed JSON body: ${(e as Error).message}`);
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new ApiError(400, "malformed_body", "The JSON body must be an object");
    }
    return { body: value as Record<string, unknown>, form: false };
  }
  if (type === "application/x-www-form-urlencoded") {
    const params = new URLSearchParams(raw.toString("utf8"));
    const out: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const all = params.getAll(key);
      out[key] = all.length > 1 ? all : all[0];
    }
    return { body: out, form: true };
  }
  if (!type)
    throw new ApiError(
      415,
      "unsupported_media_type",
      "A request body needs a Content-Type: application/json or application/x-www-form-urlencoded",
    );
  throw new ApiError(
    415,
    "unsupported_media_type",
    `Unsupported Content-Type '${type}': use application/json or application/x-www-form-urlencoded`,
  );
}

type Schema = {
  type?: string;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
};

function types(s: Schema | undefined): Set<string> {
  const out = new Set<string>();
  if (!s) return out;
  if (s.type) out.add(s.type);
  if (s.nullable) out.add("null");
  for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) for (const t of types(sub)) out.add(t);
  return out;
}

const TRUE = /^(true|on|yes|1)$/i;
const FALSE = /^(false|off|no|0)$/i;

function coerceScalar(v: string, allowed: Set<string>): unknown {
  if (allowed.has("string")) return v;
  if (allowed.has("boolean")) {
    if (TRUE.test(v)) return true;
    if (FALSE.test(v)) return false;
  }
  if ((allowed.has("integer") || allowed.has("number")) && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  if (allowed.has("null") && v === "") return null;
  return v;
}

/** Turns form strings into what the JSON schema of the body asks for. */
export function coerceForm(body: Record<string, unknown>, schema: Schema | undefined): Record<string, unknown> {
  const props = schema?.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    const prop = props[k];
    const allowed = types(prop);
    if (Array.isArray(v)) {
      const itemTypes = types(
        [...(prop?.anyOf ?? []), ...(prop?.oneOf ?? []), prop].find((s) => s?.type === "array")?.items,
      );
      out[k] = v.map((x) => coerceScalar(String(x), itemTypes));
    } else if (typeof v === "string" && allowed.size) {
      if (allowed.has("array") && !allowed.has("string")) {
        const itemTypes = types(prop?.items);
        out[k] = v === "" ? [] : v.split(",").map((x) => coerceScalar(x.trim(), itemTypes));
      } else {
        out[k] = coerceScalar(v, allowed);
      }
    } else {
      out[k] = v;
    }
  }
  return out;
}
