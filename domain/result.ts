/**
 * Outcome shapes of the domain rules. A failure carries everything a handler needs to
 * answer (HTTP status, the contract's stable code, the human text), so no handler spells
 * a status, a code or a text of its own.
 */

import type { components } from "../generated/api";

/** The stable slugs of the spec's Error schema: the one list of error codes. */
export type ErrorCode = components["schemas"]["Error"]["code"];

export interface Failure {
  ok: false;
  status: 400 | 403 | 404 | 409;
  code: ErrorCode;
  reason: string;
}

export interface Success<T> {
  ok: true;
  value: T;
}

export type Result<T> = Success<T> | Failure;

/** A permission refusal: always 403. */
export interface Denial {
  status: 403;
  code: "access_denied" | "token_read_only" | "forbidden" | "vlan_not_allowed";
  reason: string;
}

export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

export function failure(status: Failure["status"], code: ErrorCode, reason: string): Failure {
  return { ok: false, status, code, reason };
}

export function denial(reason: string, code: Denial["code"] = "access_denied"): Denial {
  return { status: 403, code, reason };
}
