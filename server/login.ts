/**
 * Checking a username and password, shared by the token endpoint and the web login:
 * throttled per username and per client address, constant work for unknown users,
 * inactive users refused like bad passwords.
 */
import { ApiError } from "../handlers/errors";
import type { Services } from "../handlers/context";
import type { User } from "../db/users";
import { verifyPassword } from "./passwords";
import * as msg from "../domain/messages";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function checkLogin(s: Services, username: string, password: string, ip: string): Promise<User> {
  const keys = [`user:${username.toLowerCase()}`, `ip:${ip}`];
  const verdict = s.throttle.check(keys);
  if (!verdict.allowed) {
    throw new ApiError(
      429,
      "rate_limited",
      `Too many failed login attempts; try again in ${verdict.retryAfter} seconds.`,
      { "Retry-After": String(verdict.retryAfter) },
    );
  }
  if (verdict.delayMs) await sleep(verdict.delayMs);
  const user = await s.repos.users.findByUsername(username);
  const good = await verifyPassword(user?.password ?? null, password);
  if (!user || !good || !user.is_active) {
    s.throttle.fail(keys);
    throw new ApiError(400, "invalid_credentials", msg.LOGIN_FAILED);
  }
  s.throttle.succeed(keys);
  await s.repos.users.touchLogin(user.id);
  return user;
}
