/**
 * Field checks shared by the inventory admin API and the YAML import. They collect every
 * problem instead of stopping at the first: the import reports all of a file's errors at
 * once, the API answers the first. Values come as JSON types (the server has already
 * turned form strings into the schema's booleans and integers).
 */
import { badRequest, type ApiError } from "../errors";
import { TEXT_FAULT_WORDS, invalidParameterValue, missingParameter } from "../../domain/messages";
import { textFault } from "../../domain/request-values";

export interface Issue {
  field: string;
  /**
   * "missing": a required field is absent or empty; "invalid": present but wrong;
   * "reason": wrong, with a text of the contract's own that the API answers as it is
   */
  kind: "missing" | "invalid" | "reason";
  message: string;
}

export class Issues {
  readonly list: Issue[] = [];

  missing(field: string, message = "required"): void {
    this.list.push({ field, kind: "missing", message });
  }

  invalid(field: string, message: string): void {
    this.list.push({ field, kind: "invalid", message });
  }

  /** a problem the API answers with exactly this text */
  reason(field: string, message: string): void {
    this.list.push({ field, kind: "reason", message });
  }

  /** did this field get a problem already (so later checks on it stay quiet) */
  has(field: string): boolean {
    return this.list.some((i) => i.field === field);
  }
}

/** The API's answer for an issue, in the contract's wording. */
export function issueToApiError(i: Issue): ApiError {
  if (i.kind === "reason") return badRequest(i.message);
  if (i.kind === "missing") {
    const why = i.message === "required" ? "" : ` (${i.message})`;
    return badRequest(`${missingParameter(i.field)}${why}`, "missing_parameter");
  }
  return badRequest(invalidParameterValue(i.field, i.message));
}

export function throwFirst(issues: Issues): void {
  if (issues.list.length) throw issueToApiError(issues.list[0]);
}

type Input = Record<string, unknown>;

/**
 * a string field; undefined when absent (or on a problem, which is recorded). The text
 * check is the one of port descriptions (textFault); tabs and line breaks pass only where
 * a field is free text over several lines.
 */
export function text(
  input: Input,
  field: string,
  issues: Issues,
  opts: { max: number; multiline?: boolean },
): string | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v !== "string") return void issues.invalid(field, "expected a string");
  if (v.length > opts.max) return void issues.invalid(field, `longer than ${opts.max} characters`);
  const fault = textFault(v, { lines: opts.multiline });
  if (fault) return void issues.invalid(field, TEXT_FAULT_WORDS[fault]);
  return v;
}

/** the object's name: surrounding blanks dropped, never empty; required when creating */
export function name(input: Input, issues: Issues, creating: boolean): string | undefined {
  if (input.name === undefined || input.name === null) {
    if (creating) issues.missing("name");
    return undefined;
  }
  const v = text(input, "name", issues, { max: 150 });
  if (v === undefined) return undefined;
  const trimmed = v.trim();
  if (trimmed === "") return void issues.missing("name");
  return trimmed;
}

export function flag(input: Input, field: string, issues: Issues): number | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (v === true || v === 1) return 1;
  if (v === false || v === 0) return 0;
  return void issues.invalid(field, "expected true or false");
}

export function integer(input: Input, field: string, issues: Issues, min: number, max: number): number | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
    return void issues.invalid(field, `expected an integer from ${min} to ${max}`);
  return v;
}

export function choice<T extends string | number>(
  input: Input,
  field: string,
  issues: Issues,
  allowed: readonly T[],
): T | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (!allowed.includes(v as T))
    return void issues.invalid(field, `expected one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`);
  return v as T;
}

/** a choice where "" or null means none */
export function optionalChoice(
  input: Input,
  field: string,
  issues: Issues,
  allowed: readonly string[],
): string | null | undefined {
  const v = input[field];
  if (v === "" || v === null) return null;
  return choice(input, field, issues, allowed);
}

/**
 * A write-only secret: the plain text to store, null to clear it ("" or null), undefined
 * when not given. Never echoed in messages.
 */
export function secret(
  input: Input,
  field: string,
  issues: Issues,
  opts: { max: number; multiline?: boolean },
): string | null | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (v === null || v === "") return null;
  return text(input, field, issues, opts) ?? undefined;
}

/** VLAN ids as a JSON array or a "10,20" string; each 1..4094 */
export function vlanList(input: Input, field: string, issues: Issues): number[] | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  const parts = Array.isArray(v) ? v : typeof v === "string" ? (v.trim() === "" ? [] : v.split(",")) : null;
  if (!parts) return void issues.invalid(field, "expected a list of VLAN ids");
  const out: number[] = [];
  for (const p of parts) {
    const s = String(p).trim();
    const n = /^\d{1,4}$/.test(s) ? Number(s) : NaN;
    if (!(n >= 1 && n <= 4094)) return void issues.invalid(field, `'${s}' is not a VLAN id (1 to 4094)`);
    out.push(n);
  }
  return [...new Set(out)].sort((a, b) => a - b);
}

/** Only the keys that were given: undefined values are dropped (partial updates). */
export function given<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}
