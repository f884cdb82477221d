/**
 * The one error type of the application and the handlers. Its JSON is the contract's
 * failure body: {"reason": text for people, "code": stable slug for programs}. Codes are
 * the spec's own enum (generated/api.ts), so a code the spec does not list does not
 * compile. Device failures get their HTTP status here, in one map.
 */
import type { ErrorCode } from "../domain/result";
import { DeviceError, type DeviceFailureCode } from "../model/failures";
import * as msg from "../domain/messages";
import { DatabaseUnavailable } from "../db/errors";

export type { ErrorCode } from "../domain/result";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly reason: string,
    readonly headers: Record<string, string> = {},
    /** DRF-style `detail` (same text) for authentication failures */
    readonly withDetail = false,
  ) {
    super(reason);
  }

  body(): Record<string, string> {
    return this.withDetail
      ? { reason: this.reason, code: this.code, detail: this.reason }
      : { reason: this.reason, code: this.code };
  }
}

export const badRequest = (reason: string, code: ErrorCode = "invalid_parameter") => new ApiError(400, code, reason);
export const forbidden = (reason: string, code: ErrorCode = "access_denied") => new ApiError(403, code, reason);
export const notFound = (reason: string, code: ErrorCode = "not_found") => new ApiError(404, code, reason);

/** A domain verdict (Failure or Denial) as the error to throw. */
export function refusal(problem: { status: number; code: ErrorCode; reason: string }): ApiError {
  return new ApiError(problem.status, problem.code, problem.reason);
}

/**
 * HTTP status of each device failure: still a 4xx, as the API promises for any failed call;
 * 424 (Failed Dependency) says the request was fine and the device failed it.
 */
const DEVICE_FAILURE_STATUS: Record<DeviceFailureCode, number> = {
  device_unreachable: 424,
  device_refused: 424,
  device_mismatch: 424,
  not_supported: 400,
  device_hostkey_changed: 424,
  device_certificate_changed: 424,
  device_outcome_unknown: 424,
};

/** A device failure as the contract's answer, naming the device (when known) and what failed. */
export function deviceFailure(e: DeviceError, device?: { name: string }): ApiError {
  const status = DEVICE_FAILURE_STATUS[e.code];
  if (!device) return new ApiError(status, e.code, e.message);
  switch (e.code) {
    case "device_unreachable":
      return new ApiError(status, e.code, msg.deviceUnreachable(device.name, e.message));
    case "device_refused":
      return new ApiError(status, e.code, msg.deviceRefused(device.name, e.message));
    case "device_mismatch":
      return new ApiError(status, e.code, msg.deviceMismatch(device.name, e.message));
    case "device_outcome_unknown":
      return new ApiError(status, e.code, msg.outcomeUnknown(device.name, "the change"));
    case "not_supported":
    case "device_hostkey_changed":
    case "device_certificate_changed":
      return new ApiError(status, e.code, e.message);
  }
}

/** seconds a client is asked to wait after database_unavailable */
export const DATABASE_RETRY_SECONDS = 5;

/** database_unavailable: 503 with Retry-After, never a 500 (the request itself was fine) */
export function databaseUnavailable(): ApiError {
  return new ApiError(503, "database_unavailable", msg.databaseUnavailable(DATABASE_RETRY_SECONDS), {
    "Retry-After": String(DATABASE_RETRY_SECONDS),
  });
}

/**
 * Any error as the answer to send: ours as they are, device failures mapped, a database
 * that cannot be used 503 database_unavailable; null for the rest (a 500).
 */
export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof DeviceError) return deviceFailure(err);
  // only the store's own errors (db/connect.ts): a device's or directory's ECONNREFUSED is not the database's
  if (err instanceof DatabaseUnavailable) return databaseUnavailable();
  return null;
}
