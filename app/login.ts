/**
 * Checking a username and password, shared by the token endpoint and the web login:
 * throttled per username and per client address (the counts live in the database, see
 * domain/throttle.ts for the rules), constant work for unknown users, inactive users
 * refused like bad passwords.
 */
import { ApiError } from "./errors";
import type { Repos } from "../db/repos";
import type { Config } from "./config";
import type { User } from "../db/users";
import type { LoginFailureRepo } from "../db/login-failures";
import { verifyPassword } from "./passwords";
import * as msg from "../domain/messages";
import { retryAfterText, throttleKeys, throttleVerdict, userKey, type ThrottleSettings, type ThrottleVerdict } from "../domain/throttle";
import { loginThroughDirectory } from "./directory/login";
import { markAudited, type AuditWriter } from "./audit";
import { LOGIN_ACTION, outcomeOfCode } from "../domain/audit-actions";
import { loginName } from "../domain/usernames";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How often old failures are swept from the table, at most. */
const SWEEP_INTERVAL_MS = 60_000;

export class LoginGuard {
  private lastSweep = 0;

  constructor(
    private readonly failures: LoginFailureRepo,
    private readonly settings: ThrottleSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async verdict(username: string, address: string): Promise<ThrottleVerdict> {
    const keys = throttleKeys(username, address, this.settings.maxFailures);
    const t = this.now();
    const recent = await this.failures.recent(keys.map((k) => k.key), t - this.settings.windowMs);
    return throttleVerdict(keys, recent, this.settings, t);
  }

  async failed(username: string, address: string): Promise<void> {
    const t = this.now();
    await this.failures.add(throttleKeys(username, address, this.settings.maxFailures).map((k) => k.key), t);
    if (t - this.lastSweep >= SWEEP_INTERVAL_MS) {
      this.lastSweep = t;
      await this.failures.sweep(t - this.settings.windowMs);
    }
  }

  /** A good login forgets the username's failures only (never the address's). */
  async succeeded(username: string): Promise<void> {
    await this.failures.clear(userKey(username));
  }

  /** An administrator unlocks an account; true when it had failures counted. */
  async unlock(username: string): Promise<boolean> {
    return (await this.failures.clear(userKey(username))) > 0;
  }
}

export function lockedOut(retryAfter: number): ApiError {
  return new ApiError(429, "rate_limited", `Too many failed login attempts; try again in ${retryAfterText(retryAfter)}.`, {
    "Retry-After": String(retryAfter),
  });
}

/** What a login needs: the guard, the users (and groups, for directory logins), the directory's settings, the log. */
export interface LoginDeps {
  loginGuard: LoginGuard;
  config: Pick<Config, "directory">;
  repos: Pick<Repos, "users" | "inventory">;
  audit: Pick<AuditWriter, "refusal">;
  /** the JSON log (directory warnings); stderr without it */
  log?: { warn(line: string): void };
}

/** What the audit row says about a refused login beyond the answer's text (never shown to the client). */
const refusalDetail = new WeakMap<object, string>();

/**
 * A username and password checked, for the token endpoint and the web page alike; a
 * failed or throttled login is an audit row (the username tried, the address, why).
 * The typed name is brought to its login form first (domain/usernames.ts): one throttle
 * key and one account per person however the name was typed. `admit` runs on an
 * existing directory account before the directory's rights are applied (the token limit).
 */
export async function checkLogin(
  s: LoginDeps,
  typed: string,
  password: string,
  ip: string,
  via: "token" | "web",
  admit?: (existing: User) => Promise<void>,
): Promise<User> {
  const username = loginName(typed);
  try {
    return await verifyLogin(s, username, password, ip, admit);
  } catch (e) {
    const code = e instanceof ApiError ? e.code : "server_error";
    const reason = e instanceof ApiError ? e.reason : "Internal server error";
    const detail = e instanceof ApiError ? refusalDetail.get(e) : undefined;
    await s.audit
      .refusal({ caller: null, ip, username }, { action: LOGIN_ACTION, new_value: via, outcome: outcomeOfCode(code), code, message: detail ? `${reason} (${detail})` : reason })
      .catch(() => undefined);
    throw markAudited(e);
  }
}

async function verifyLogin(s: LoginDeps, username: string, password: string, ip: string, admit?: (existing: User) => Promise<void>): Promise<User> {
  const verdict = await s.loginGuard.verdict(username, ip);
  if (!verdict.allowed) throw lockedOut(verdict.retryAfter);
  if (verdict.delayMs) await sleep(verdict.delayMs);
  if (s.config.directory) {
    // directory login (app/directory/login.ts decides between directory and local password)
    const r = await loginThroughDirectory(s, s.config.directory, username, password, admit);
    if (r.outcome !== "accepted") {
      if (r.count) await s.loginGuard.failed(username, ip);
      const e =
        r.outcome === "unavailable"
          ? new ApiError(503, "directory_unavailable", msg.DIRECTORY_UNAVAILABLE)
          : new ApiError(400, "invalid_credentials", msg.LOGIN_FAILED);
      refusalDetail.set(e, r.why);
      throw e;
    }
    await s.loginGuard.succeeded(username);
    await s.repos.users.touchLogin(r.user.id);
    return r.user;
  }
  const user = await s.repos.users.findByUsername(username);
  const good = await verifyPassword(user?.password ?? null, password);
  if (!user || !good || !user.is_active) {
    await s.loginGuard.failed(username, ip);
    throw new ApiError(400, "invalid_credentials", msg.LOGIN_FAILED);
  }
  await s.loginGuard.succeeded(username);
  await s.repos.users.touchLogin(user.id);
  return user;
}
