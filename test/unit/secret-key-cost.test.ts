/**
 * The device-secret key's scrypt cost: Node's default in production, so every database
 * encrypted before keeps opening; the cheap cost only in a test process that asks for it
 * (test/support/env-common.js), as for password hashes.
 */
import crypto from "node:crypto";
import { keyCost, SecretBox } from "../../db/secrets";

/** what db/secrets.ts's stored form opens to with `key` (AES-256-GCM, "v1:iv:tag:body") */
function openWith(key: Buffer, stored: string): string {
  const [, iv, tag, body] = stored.split(":");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}

describe("the device-secret key's cost", () => {
  it("is scrypt's default in production, whatever else the environment says", () => {
    for (const env of [{}, { NODE_ENV: "production" }, { SWITCHDESK_TEST_FAST_HASH: "1" }, { NODE_ENV: "test" }])
      expect(keyCost(env)).toBe(16384);
    expect(keyCost({ NODE_ENV: "test", SWITCHDESK_TEST_FAST_HASH: "1" })).toBe(1024);
  });

  it("a production box's secrets open with the key scrypt's defaults give (databases made before keep working)", () => {
    const stored = new SecretBox("a secret key text", keyCost({})).encrypt("community-1");
    const defaultKey = crypto.scryptSync("a secret key text", "switchdesk-device-secrets", 32);
    expect(openWith(defaultKey, stored)).toBe("community-1");
  });

  it("a test process's box uses the cheap key, and the two keys differ", () => {
    expect(keyCost()).toBe(1024);
    const cheap = new SecretBox("a secret key text");
    const stored = cheap.encrypt("community-2");
    expect(cheap.decrypt(stored)).toBe("community-2");
    const defaultKey = crypto.scryptSync("a secret key text", "switchdesk-device-secrets", 32);
    expect(() => openWith(defaultKey, stored)).toThrow();
  });
});
