/**
 * Device secrets (communities, v3 keys, passwords) are stored encrypted with AES-256-GCM.
 * The key comes from SWITCHDESK_SECRET_KEY, or from a key file created once with mode 0600.
 * Stored form: "v1:<iv b64>:<tag b64>:<ciphertext b64>".
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * scrypt's cost for the key: Node's default (N = 2^14, about a tenth of a second here) in
 * production; a test process that asks for cheap hashes (NODE_ENV=test and
 * SWITCHDESK_TEST_FAST_HASH=1, as for passwords: app/passwords.ts) uses N = 2^10, so the
 * suite's hundreds of service starts do not each spend it. Processes a test starts inherit
 * its environment, so they derive the same key.
 */
export function keyCost(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === "test" && env.SWITCHDESK_TEST_FAST_HASH === "1" ? 1024 : 16384;
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string, cost = keyCost()) {
    // a stable 32-byte key from any secret text; the salt only separates this use
    this.key = crypto.scryptSync(secret, "switchdesk-device-secrets", 32, { N: cost });
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
  }

  /** plaintexts by stored form (a stored form always opens to the same text): no crypto per call */
  private readonly opened = new Map<string, string>();

  decrypt(stored: string): string {
    const known = this.opened.get(stored);
    if (known !== undefined) return known;
    const plain = this.open(stored);
    // bounded: a few thousand profiles' secrets at most; past that start again
    if (this.opened.size >= 4096) this.opened.clear();
    this.opened.set(stored, plain);
    return plain;
  }

  private open(stored: string): string {
    const [v, iv, tag, body] = stored.split(":");
    if (v !== "v1" || !iv || !tag || body === undefined) throw new Error("stored secret has an unknown format");
    const decipher = crypto.createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
  }
}

/** The text the key check value holds, encrypted with the database's key. */
export const KEY_CHECK_TEXT = "switchdesk secret key check v1";

/**
 * The secret text: the environment's, else the key file's. A missing file is made (mode
 * 0600, in a 0700 folder) only when `create` allows it; otherwise the answer is null.
 */
export function loadSecret(
  envValue: string | undefined,
  keyFile: string,
  opts: { create: boolean } = { create: true },
): string | null {
  if (envValue && envValue.length > 0) return envValue;
  try {
    return fs.readFileSync(keyFile, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  if (!opts.create) return null;
  fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
  const fresh = crypto.randomBytes(32).toString("hex");
  fs.writeFileSync(keyFile, fresh + "\n", { mode: 0o600, flag: "wx" });
  return fresh;
}
