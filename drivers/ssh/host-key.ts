/**
 * Host key fingerprints and the failure of a key that is not the pinned one. The
 * fingerprint is OpenSSH's: SHA-256 over the public key blob, base64 without padding,
 * so an operator can compare it with `ssh-keygen -lf` on the device's key.
 */
import { createHash } from "node:crypto";
import { DeviceError } from "../../model/failures";

export function sha256Fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** Same key? Tolerates the padding some tools print and a missing "SHA256:" prefix. */
export function sameFingerprint(a: string, b: string): boolean {
  const norm = (f: string) => f.trim().replace(/^SHA256:/i, "").replace(/=+$/, "");
  return norm(a) === norm(b);
}

/**
 * The device presented another host key than the one pinned for it: someone may be in
 * the middle, or the device was replaced. Nothing was sent to it (not even the
 * password); an administrator has to accept the new key.
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
