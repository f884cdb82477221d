/**
 * Typed device failures. Drivers throw them; the application maps each code to one HTTP
 * status (app/errors.ts); the spec's Error code enum lists the same codes.
 */

/** The contract's stable slugs of device failures. */
export type DeviceFailureCode = "device_unreachable" | "device_refused" | "not_supported" | "device_mismatch" | "device_hostkey_changed";

/** Base of every device failure; `code` is the contract's stable slug. */
export class DeviceError extends Error {
  constructor(
    readonly code: DeviceFailureCode,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** No answer (timeout, wrong v3 keys, port closed), also in the middle of a walk. */
export class DeviceUnreachable extends DeviceError {
  constructor(message: string) {
    super("device_unreachable", message);
  }
}

/** The device answered a write with an error (noAccess, notWritable, wrongValue...). */
export class DeviceRefused extends DeviceError {
  constructor(message: string) {
    super("device_refused", message);
  }
}

/** The device accepted a write but reading it back shows another value. */
export class DeviceMismatch extends DeviceError {
  constructor(message: string) {
    super("device_mismatch", message);
  }
}

/** The driver or the device has no way to do this. */
export class NotSupported extends DeviceError {
  constructor(message: string) {
    super("not_supported", message);
  }
}

