/**
 * Host key fingerprints and the failure of a key that is not the pinned one. The
 * fingerprint is OpenSSH's: SHA-256 over the public key blob, base64 without padding,
 * so an operator can compare it with `ssh-keygen -lf` on the device's key.
 */
import { createHash } from "node:crypto";

export function sha256Fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash("sha256").update(keyBlob).digest("base64").replace(/=+$/, "")}`;
}

/** Same key? Tolerates the padding some tools print and a missing "SHA256:" prefix. */
export function sameFingerprint(a: string, b: string): boolean {
  const norm = (f: string) =>
    f
      .trim()
      .replace(/^SHA256:/i, "")
      .replace(/=+$/, "");
  return norm(a) === norm(b);
}

/**
 * The failure of another host key than the pinned one (model/failures.ts). Nothing was
 * sent to the device then, not even the password.
 */
export { HostKeyChanged } from "../../model/failures";
