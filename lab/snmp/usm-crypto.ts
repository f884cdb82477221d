/**
 * USM cryptography (RFC 3414, RFC 7860, RFC 3826): password-to-key with localisation to
 * an engine ID, truncated HMAC for authentication, AES in CFB mode for privacy.
 * AES-256 keys longer than the auth hash are extended the way the Blumenthal draft
 * (and net-snmp's "AES-256") does: append H(key so far) until long enough. With SHA-256
 * or SHA-512 the localised key is already long enough, so every variant agrees.
 */
import crypto from "node:crypto";

export type AuthProtocol = "MD5" | "SHA" | "SHA-224" | "SHA-256" | "SHA-384" | "SHA-512";
export type PrivProtocol = "AES" | "AES-192" | "AES-256";

const AUTH: Record<AuthProtocol, { hash: string; macLength: number }> = {
  MD5: { hash: "md5", macLength: 12 },
  SHA: { hash: "sha1", macLength: 12 },
  "SHA-224": { hash: "sha224", macLength: 16 },
  "SHA-256": { hash: "sha256", macLength: 24 },
  "SHA-384": { hash: "sha384", macLength: 32 },
  "SHA-512": { hash: "sha512", macLength: 48 },
};

const PRIV: Record<PrivProtocol, { cipher: string; keyLength: number }> = {
  AES: { cipher: "aes-128-cfb", keyLength: 16 },
  "AES-192": { cipher: "aes-192-cfb", keyLength: 24 },
  "AES-256": { cipher: "aes-256-cfb", keyLength: 32 },
};

export function macLength(proto: AuthProtocol): number {
  return AUTH[proto].macLength;
}

/** RFC 3414 A.2: hash 1 MiB of the repeated password, then H(Ku | engineID | Ku). */
export function localizedKey(proto: AuthProtocol, password: string, engineId: Buffer): Buffer {
  if (password.length === 0) throw new Error("empty USM password");
  const { hash } = AUTH[proto];
  const ku = crypto.createHash(hash).update(Buffer.alloc(1048576, password)).digest();
  return crypto.createHash(hash).update(ku).update(engineId).update(ku).digest();
}

export function privacyKey(priv: PrivProtocol, auth: AuthProtocol, password: string, engineId: Buffer): Buffer {
  let key = localizedKey(auth, password, engineId);
  const need = PRIV[priv].keyLength;
  while (key.length < need) key = Buffer.concat([key, crypto.createHash(AUTH[auth].hash).update(key).digest()]);
  return key.subarray(0, need);
}

/** the authentication parameters of a whole message whose own parameter field is zeroed */
export function messageMac(proto: AuthProtocol, key: Buffer, wholeMessage: Buffer): Buffer {
  const { hash, macLength: len } = AUTH[proto];
  return crypto.createHmac(hash, key).update(wholeMessage).digest().subarray(0, len);
}

function aesIv(boots: number, time: number, salt: Buffer): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(boots >>> 0, 0);
  iv.writeUInt32BE(time >>> 0, 4);
  salt.copy(iv, 8, 0, 8);
  return iv;
}

export function aesEncrypt(
  priv: PrivProtocol,
  key: Buffer,
  boots: number,
  time: number,
  salt: Buffer,
  data: Buffer,
): Buffer {
  const c = crypto.createCipheriv(PRIV[priv].cipher, key, aesIv(boots, time, salt));
  return Buffer.concat([c.update(data), c.final()]);
}

export function aesDecrypt(
  priv: PrivProtocol,
  key: Buffer,
  boots: number,
  time: number,
  salt: Buffer,
  data: Buffer,
): Buffer {
  const d = crypto.createDecipheriv(PRIV[priv].cipher, key, aesIv(boots, time, salt));
  return Buffer.concat([d.update(data), d.final()]);
}
