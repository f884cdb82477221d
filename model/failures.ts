/**
 * Typed device failures. Drivers throw them; the application maps each code to one HTTP
 * status (app/errors.ts); the spec's Error code enum lists the same codes.
 */

/** The contract's stable slugs of device failures. */
export type DeviceFailureCode =
  | "device_unreachable"
  | "device_refused"
  | "not_supported"
  | "device_mismatch"
  | "device_hostkey_changed"
  | "device_certificate_changed"
  | "device_outcome_unknown";

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

/**
 * A change was sent and then the device stopped answering (the SET itself, or reading it
 * back): it may or may not have been applied. Neither a success nor a plain failure.
 */
export class DeviceOutcomeUnknown extends DeviceError {
  constructor(message: string) {
    super("device_outcome_unknown", message);
  }
}

/** The driver or the device has no way to do this. */
export class NotSupported extends DeviceError {
  constructor(message: string) {
    super("not_supported", message);
  }
}

/**
 * The SSH device presented another host key than the one pinned for it: a replaced device,
 * or someone in between. Refused until an administrator accepts the new key.
 */
export class HostKeyChanged extends DeviceError {
  constructor(
    where: string,
    /** what the device presented now */
    readonly presented: string,
    /** what the caller had pinned */
    readonly pinned: string,
  ) {
    super(
      "device_hostkey_changed",
      `${where} presented a different SSH host key (${presented}) than the one accepted (${pinned}); an administrator must accept the new key`,
    );
  }
}

/**
 * The HTTPS device presented another TLS certificate than the one pinned for it: a
 * replaced device, a renewed certificate, or someone in between. Nothing was sent, not
 * even the login; refused until an administrator accepts the new certificate.
 */
export class CertificateChanged extends DeviceError {
  constructor(
    where: string,
    /** what the device presented now */
    readonly presented: string,
    /** what the caller had pinned */
    readonly pinned: string,
  ) {
    super(
      "device_certificate_changed",
      `${where} presented a different TLS certificate (${presented}) than the one accepted (${pinned}); an administrator must accept the new certificate`,
    );
  }
}

/**
 * The driver was chosen for another device: it answers with another sysObjectID than the
 * one the choice was stored for (the hardware was replaced). Not a failure of the device:
 * the application chooses again and repeats the call.
 */
export class DriverChoiceStale extends Error {
  constructor(readonly observedSysObjectId: string) {
    super(`the device answers with sysObjectID ${observedSysObjectId}, not the one its driver was chosen for`);
    this.name = "DriverChoiceStale";
  }
}

/**
 * The per-device wait queue is full (drivers/device-gate.ts): nothing was sent to the
 * device. Not a device failure: the API answers 503 device_busy with Retry-After.
 */
export class DeviceBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`the device's wait queue is full; try again in ${retryAfterSeconds} s`);
    this.name = "DeviceBusy";
  }
}
