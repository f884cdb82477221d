/** SNMPv2 error-status values (RFC 3416 section 3). */
export const ErrorStatus = {
  noError: 0,
  tooBig: 1,
  noSuchName: 2,
  badValue: 3,
  readOnly: 4,
  genErr: 5,
  noAccess: 6,
  wrongType: 7,
  wrongLength: 8,
  wrongEncoding: 9,
  wrongValue: 10,
  noCreation: 11,
  inconsistentValue: 12,
  resourceUnavailable: 13,
  commitFailed: 14,
  undoFailed: 15,
  authorizationError: 16,
  notWritable: 17,
  inconsistentName: 18,
} as const;

export type ErrorStatusName = Exclude<keyof typeof ErrorStatus, "noError">;
