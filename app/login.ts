/**
 * Checking a username and password, shared by the token endpoint and the web login:
 * throttled per username and client address together, per address and per username (the
 * counts live in the database, see domain/throttle.ts for the rules), each attempt
 * counted before its password is checked; constant work for unknown users, inactive users
 * refused like bad passwords.
 */
import { ApiError } from "./errors";
import type { Repos } from "../db/repos";
import type { Config } from "./config";
import type { User } from "../db/users";
import type { LoginFailureRepo } from "../db/login-failures";
import { verifyPassword } from "./passwords";
import * as msg from "../domain/messages";
import { addressKey, retryAfterText, throttleVerdict, userKey, type ThrottleSettings } from "../domain/throttle";
import { loginThroughDirectory } from "./directory/login";
import { markAudited, type AuditWriter } from "./audit";
import { LOGIN_ACTION } from "../domain/audit-actions";
import { loginName } from "../domain/usernames";
import { Counter, type Registry } from "prom-client";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How often old attempts are swept from the table, at most. */
const SWEEP_INTERVAL_MS = 60_000;

/** An attempt that holds its place in the counts until it is settled one way. */
export interface LoginAttempt {
  /** ms to wait before checking the password */
  delayMs: number;
  /** the password was wrong: the attempt stays counted */
  failed(): Promise<void>;
  /** the password was right: this username's failures from this address are forgotten */
  succeeded(): Promise<void>;
  /** nothing was decided about the password (an outage): the attempt does not count */
  release(): Promise<void>;
}

export class LoginGuard {
  private lastSweep = 0;
  private readonly checks: Counter<"result"> | null;

  constructor(
    private readonly failures: LoginFailureRepo,
    private readonly settings: ThrottleSettings,
    private readonly now: () => number = Date.now,
    /** where the count of checked and refused attempts is shown (/metrics) */
    registry?: Registry,
  ) {
    this.checks = registry
      ? new Counter({
          name: "switchdesk_login_attempts_total",
          help: "Login attempts: checked (a password was verified) or throttled (refused with 429 before any check)",
          labelNames: ["result"],
          registers: [registry],
        })
      : null;
  }

  /**
   * Takes the attempt's place in the counts before anything is checked; a throttled
   * attempt is refused here (429) and takes no place.
   */
  async reserve(username: string, address: string): Promise<LoginAttempt> {
    const user = userKey(username);
    const addr = addressKey(address);
    const t = this.now();
    const { verdict, id } = await this.failures.reserve(user, addr, t, t - this.settings.windowMs, (times) =>
      throttleVerdict(times, this.settings, t),
    );
    if (!verdict.allowed || id === null) {
      this.checks?.inc({ result: "throttled" });
      throw lockedOut(verdict.retryAfter);
    }
    let settled = false;
    const once = async (fn: () => Promise<unknown>) => {
      if (settled) return;
      settled = true;
      await fn();
    };
    return {
      delayMs: verdict.delayMs,
      failed: () => once(() => this.failures.failed(id).then(() => this.sweepNow(t))),
      succeeded: () => once(() => this.failures.remove(id).then(() => this.failures.forget(user, addr))),
      release: () => once(() => this.failures.remove(id)),
    };
  }

  /** A password is being checked (counted for /metrics). */
  checking(): void {
    this.checks?.inc({ result: "checked" });
  }

  private async sweepNow(t: number): Promise<void> {
    if (t - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = t;
    await this.failures.sweep(t - this.settings.windowMs);
  }

  /** An administrator unlocks an account (from every address); true when it had failures counted. */
  async unlock(username: string): Promise<boolean> {
    return (await this.failures.forget(userKey(username))) > 0;
  }
}

export function lockedOut(retryAfter: number): ApiError {
  return new ApiError(
    429,
    "rate_limited",
    `Too many failed login attempts; try again in ${retryAfterText(retryAfter)}.`,
    {
      "Retry-After": String(retryAfter),
    },
  );
}

/** What a login needs: the guard, the users (and groups, for directory logins), the directory's settings, the log. */
export interface LoginDeps {
  loginGuard: LoginGuard;
  config: Pick<Config, "directory">;
  repos: Pick<Repos, "users" | "inventory">;
  audit: Pick<AuditWriter, "failure">;
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
    await s.audit.failure(
      { caller: null, ip, username },
      { action: LOGIN_ACTION, new_value: via, code, message: detail ? `${reason} (${detail})` : reason },
    );
    throw markAudited(e);
  }
}

async function verifyLogin(
  s: LoginDeps,
  username: string,
  password: string,
  ip: string,
  admit?: (existing: User) => Promise<void>,
): Promise<User> {
  const attempt = await s.loginGuard.reserve(username, ip);
  try {
    if (attempt.delayMs) await sleep(attempt.delayMs);
    s.loginGuard.checking();
    if (s.config.directory) {
      // directory login (app/directory/login.ts decides between directory and local password)
      const r = await loginThroughDirectory(s, s.config.directory, username, password, admit);
      if (r.outcome !== "accepted") {
        await (r.count ? attempt.failed() : attempt.release());
        const e =
          r.outcome === "unavailable"
            ? new ApiError(503, "directory_unavailable", msg.DIRECTORY_UNAVAILABLE)
            : new ApiError(400, "invalid_credentials", msg.LOGIN_FAILED);
        refusalDetail.set(e, r.why);
        throw e;
      }
      await attempt.succeeded();
      await s.repos.users.touchLogin(r.user.id);
      return r.user;
    }
    const user = await s.repos.users.findByUsername(username);
    const good = await verifyPassword(user?.password ?? null, password);
    if (!user || !good || !user.is_active) {
      await attempt.failed();
      throw new ApiError(400, "invalid_credentials", msg.LOGIN_FAILED);
    }
    await attempt.succeeded();
    await s.repos.users.touchLogin(user.id);
    return user;
  } finally {
    // an unexpected error before the attempt was settled: it keeps its place (it may have
    // been a guess) and leaves the count with the window; a count that cannot be kept is said
    await attempt.failed().catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      (s.log ?? { warn: (line: string) => console.warn(line) }).warn(`a login attempt could not be counted: ${why}`);
    });
  }
}
