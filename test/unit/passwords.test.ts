/**
 * Stored passwords: argon2id at the library's default costs in production; the smallest
 * costs only in a test process that asks for them (see test/support/env-common.js).
 */
import argon2 from "argon2";
import { hashOptions, hashPassword, verifyPassword } from "../../app/passwords";

/** [memory KiB, passes, lanes] of an argon2id hash string, whatever the order of its fields */
function costsOf(hash: string): number[] | undefined {
  const params = /^\$argon2id\$v=19\$([^$]+)\$/.exec(hash)?.[1];
  if (!params) return undefined;
  const p = Object.fromEntries(params.split(",").map((kv) => kv.split("=")));
  return [Number(p.m), Number(p.t), Number(p.p)];
}

describe("password hashes", () => {
  it("a production process hashes with argon2id at 64 MiB, three passes and four lanes", async () => {
    for (const env of [
      {},
      { NODE_ENV: "production" },
      { SWITCHDESK_TEST_FAST_HASH: "1" },
      { NODE_ENV: "development", SWITCHDESK_TEST_FAST_HASH: "1" },
    ]) {
      const hash = await argon2.hash("correct horse battery", hashOptions(env));
      expect(costsOf(hash)).toEqual([65536, 3, 4]);
    }
  });

  it("only a test process that asks for it gets the cheap costs", () => {
    expect(hashOptions({ NODE_ENV: "test" })).toEqual({ type: argon2.argon2id });
    expect(hashOptions({ NODE_ENV: "test", SWITCHDESK_TEST_FAST_HASH: "1" })).toMatchObject({
      type: argon2.argon2id,
      timeCost: 1,
    });
  });

  it("this suite's hashes are cheap argon2id ones and verify like any other", async () => {
    const hash = await hashPassword("s3cret-passphrase");
    expect(costsOf(hash)).toEqual([1024, 1, 1]);
    expect(await verifyPassword(hash, "s3cret-passphrase")).toBe(true);
    expect(await verifyPassword(hash, "s3cret-passphrasE")).toBe(false);
    const strong = await argon2.hash("s3cret-passphrase", hashOptions({}));
    expect(await verifyPassword(strong, "s3cret-passphrase")).toBe(true);
    expect(await verifyPassword(null, "anything")).toBe(false);
  });
});
