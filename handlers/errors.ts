/**
 * The one error type handlers throw. Its JSON is the contract's failure body:
 * {"reason": text for people, "code": stable slug for programs}.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly reason: string,
    readonly headers: Record<string, string> = {},
    /** DRF-style `detail` (same text) for authentication failures */
    readonly withDetail = false,
  ) {
    super(reason);
  }

  body(): Record<string, string> {
    return this.withDetail ? { reason: this.reason, code: this.code, detail: this.reason } : { reason: this.reason, code: this.code };
  }
}

export const badRequest = (reason: string, code = "invalid_parameter") => new ApiError(400, code, reason);
export const forbidden = (reason: string, code = "access_denied") => new ApiError(403, code, reason);
export const notFound = (reason: string, code = "not_found") => new ApiError(404, code, reason);
