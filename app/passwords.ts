/** argon2id for every stored password; the hash string is what the API shows. */
import argon2 from "argon2";

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
