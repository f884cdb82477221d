/**
 * argon2id for every stored password (the hash string is what the API shows), and the
 * policy a local account's new password must meet.
 */
import argon2 from "argon2";
import { ApiError } from "./errors";
import * as msg from "../domain/messages";

export const hashPassword = (plain: string): Promise<string> => argon2.hash(plain, { type: argon2.argon2id });

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
