/** Small parsers for admin bodies: lists of ids, booleans from JSON or forms. */
import { badRequest } from "../errors";
import { TEXT_FAULT_WORDS, invalidParameterValue } from "../../domain/messages";
import { textFault } from "../../domain/request-values";

/** "1,2,3", [1, 2, 3] or ["1", "2"] -> [1, 2, 3]; anything else is a 400 naming the field */
export function idList(value: unknown, field: string): number[] {
  const parts = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.trim() === ""
        ? []
        : value.split(",")
      : null;
  if (!parts) throw badRequest(`Invalid value for parameter '${field}': expected a list of ids`);
  return parts.map((p) => {
    const s = String(p).trim();
    if (!/^\d{1,9}$/.test(s)) throw badRequest(`Invalid value for parameter '${field}': '${s}' is not an id`);
    return Number(s);
  });
}

export function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw badRequest(`Invalid value for parameter '${field}': expected a string`);
  if (v.length > max) throw badRequest(`Invalid value for parameter '${field}': longer than ${max} characters`);
  refuseFaultyText(field, v);
  return v;
}

/** The check of every free text (domain/request-values.ts textFault): a 400 naming the field. */
export function refuseFaultyText(field: string, value: string, opts: { lines?: boolean } = {}): void {
  const fault = textFault(value, opts);
  if (fault) throw badRequest(invalidParameterValue(field, TEXT_FAULT_WORDS[fault]));
}

export function optionalBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined) return undefined;
  if (typeof v === "boolean") return v;
  if (v === 0 || v === 1) return v === 1;
  throw badRequest(`Invalid value for parameter '${field}': expected true or false`);
}
