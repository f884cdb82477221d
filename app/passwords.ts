/**
 * argon2id for every stored password (the hash string is what the API shows), and the
 * policy a local account's new password must meet.
 */
import argon2 from "argon2";
import { ApiError } from "./errors";
import * as msg from "../domain/messages";

type HashOptions = { type: typeof argon2.argon2id; memoryCost?: number; timeCost?: number; parallelism?: number };

/**
 * The costs of a new hash: argon2id at the library's defaults (64 MiB, three passes, four
 * lanes), about a quarter of a second of CPU here. A test process (NODE_ENV=test, set by
 * Jest, and SWITCHDESK_TEST_FAST_HASH=1, set by the test set-up) uses the smallest costs
 * argon2id allows, so the thousands of logins of the suite do not spend minutes hashing;
 * a hash records its costs, so verifying works whichever made it.
 */
export function hashOptions(env: NodeJS.ProcessEnv = process.env): HashOptions {
  if (env.NODE_ENV === "test" && env.SWITCHDESK_TEST_FAST_HASH === "1") {
    return { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 };
  }
  return { type: argon2.argon2id };
}

export const hashPassword = (plain: string): Promise<string> => argon2.hash(plain, hashOptions());

let dummy: Promise<string> | null = null;

/** Constant work whether or not the user exists, so timing does not reveal usernames. */
export async function verifyPassword(hash: string | null, plain: string): Promise<boolean> {
  if (!hash) {
    dummy ??= hashPassword("switchdesk-no-such-user");
    await argon2.verify(await dummy, plain).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/**
 * The password policy of local accounts (PASSWORD_MIN_LENGTH): at least `minLength`
 * characters, counted as Unicode code points. Directory passwords are the directory's
 * business and never come through here.
 */
export function checkPasswordPolicy(plain: string, minLength: number): void {
  if ([...plain].length < minLength) throw new ApiError(400, "invalid_password", msg.passwordTooShort(minLength));
}
