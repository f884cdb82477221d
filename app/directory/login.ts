/**
 * A login when directory login is configured: which of the directory and the local
 * password decides (LDAP_PRECEDENCE), and what a directory outage means.
 *
 * A local account (a usable local password and no directory login, not linked by an
 * administrator: accounts.ts isLocalOnly) answers to its local password only, under
 * either precedence. A directory login with its name is refused (the audit row and the
 * log say why) and changes nothing: an entry of the same name in the directory neither
 * locks it nor takes it over. The first superuser is such an account.
 *
 * precedence "directory" (the default):
 *   1. The directory is asked first. If it accepts, the local account is created or
 *      updated from it (accounts.ts) and the login succeeds.
 *   2. If it rejects a name it does not know (search mode: no entry; direct-bind mode: any
 *      refused bind), the local password is tried, but only for a linked account that
 *      has not logged in through the directory yet (an empty last_ldap_dn). If the
 *      directory knows the name and rejects the password, that is final.
 *   3. If it cannot be reached, such an account may still log in with its local
 *      password; otherwise the answer is 503 directory_unavailable.
 * precedence "local":
 *   1. An account with a usable local password that matches logs in without asking the
 *      directory (directory-managed accounts too, if an administrator gave them one; their
 *      rights are then rechecked as for any directory user).
 *   2. Otherwise the directory decides as above; when it cannot be reached: 503.
 *
 * An empty password, and a name outside the username rules (domain/usernames.ts), are
 * refused before the directory is asked. What counts towards the failed
 * login throttle: every rejection, and an outage only when a local password was checked
 * and was wrong (an outage alone says nothing about the password).
 */
import type { Repos } from "../../db/repos";
import type { User } from "../../db/users";
import { verifyPassword } from "../passwords";
import type { DirectoryConfig } from "./config";
import { authenticate, DirectoryUnavailable } from "./client";
import { isDirectoryManaged, isLocalOnly, isUsablePassword, syncDirectoryUser } from "./accounts";
import { isValidUsername, USERNAME_RULE } from "../../domain/usernames";

export type DirectoryLoginResult =
  | { outcome: "accepted"; user: User }
  /** why: for the audit row and the log only, never for the client */
  | { outcome: "rejected"; count: true; why: string }
  | { outcome: "unavailable"; count: boolean; why: string };

/** Last outage line and when, so a dead directory under load logs once per interval. */
let lastOutageLog = { line: "", at: 0 };
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** Where the directory's lines go: the service's JSON log, else stderr (CLI use). */
export interface WarnSink {
  log?: { warn(line: string): void; info?(line: string): void };
}

const warner = (s: WarnSink) => (line: string) => (s.log ? s.log.warn(line) : console.warn(line));

export function logOutage(
  cfg: DirectoryConfig,
  e: DirectoryUnavailable,
  warn: (line: string) => void,
  answer: string,
): void {
  const line = `directory login: ${cfg.url} could not be used (${e.why}); ${answer}`;
  const now = Date.now();
  if (line === lastOutageLog.line && now - lastOutageLog.at < OUTAGE_LOG_INTERVAL_MS) return;
  lastOutageLog = { line, at: now };
  warn(line);
}

/**
 * A login when directory login is on. `username` is already in its login form
 * (domain/usernames.ts loginName). `admit` runs on an existing account before the
 * directory's rights are applied to it; what it throws ends the login with nothing changed.
 */
export async function loginThroughDirectory(
  s: { repos: Pick<Repos, "users" | "inventory"> } & WarnSink,
  cfg: DirectoryConfig,
  username: string,
  password: string,
  admit?: (existing: User) => Promise<void>,
): Promise<DirectoryLoginResult> {
  if (password === "") return { outcome: "rejected", count: true, why: "empty password (the directory was not asked)" };
  const warn = warner(s);
  const local = await s.repos.users.findByUsername(username);
  const localOnly = !!local && isLocalOnly(local);
  const localEligible =
    !!local &&
    isUsablePassword(local.password) &&
    (localOnly || cfg.precedence === "local" || !isDirectoryManaged(local));
  const tryLocal = async (): Promise<User | null> => {
    if (!local || !localEligible) return null;
    return (await verifyPassword(local.password, password)) && local.is_active ? local : null;
  };

  // a local account answers to its own password only, whatever the precedence
  let localTried = false;
  if (localOnly || cfg.precedence === "local") {
    localTried = true;
    const user = await tryLocal();
    if (user) return { outcome: "accepted", user };
  }
  if (!isValidUsername(username)) {
    return {
      outcome: "rejected",
      count: true,
      why: `not a valid username (${USERNAME_RULE}); the directory was not asked`,
    };
  }

  let verdict;
  try {
    verdict = await authenticate(cfg, username, password);
  } catch (e) {
    if (!(e instanceof DirectoryUnavailable)) throw e;
    logOutage(cfg, e, warn, "answering 503 directory_unavailable to directory logins");
    if (!localTried) {
      const user = await tryLocal();
      if (user) return { outcome: "accepted", user };
    }
    return { outcome: "unavailable", count: localEligible, why: `the directory could not be used: ${e.why}` };
  }

  if (verdict.kind === "accepted") {
    const store = { users: s.repos.users, inventory: s.repos.inventory, warn };
    const r = await syncDirectoryUser(store, cfg, username, verdict.person, admit);
    const dn = verdict.person.dn;
    switch (r.kind) {
      case "synced":
        if (r.tookOver)
          warn(
            `directory login: the local account '${r.user.username}' (id ${r.user.id}), linked by an administrator, is now managed by the directory entry ${dn}`,
          );
        return { outcome: "accepted", user: r.user };
      case "inactive":
        return {
          outcome: "rejected",
          count: true,
          why: `the directory accepted the password of ${dn}, but the account '${r.user.username}' is deactivated here`,
        };
      case "local": {
        const why = `the directory accepted the password of ${dn}, but '${r.user.username}' (id ${r.user.id}) is a local account not linked to the directory: not converted (an administrator can set its profile's ldap_linked)`;
        warn(`directory login refused: ${why}`);
        return { outcome: "rejected", count: true, why };
      }
      case "bad_name": {
        const why = `the directory accepted the password of ${dn}, but its name '${r.name}' is not a valid username here (${USERNAME_RULE})`;
        warn(`directory login refused: ${why}`);
        return { outcome: "rejected", count: true, why };
      }
    }
  }
  if (!localTried && cfg.precedence === "directory" && !verdict.known) {
    const user = await tryLocal();
    if (user) return { outcome: "accepted", user };
  }
  return {
    outcome: "rejected",
    count: true,
    why: localTried ? `wrong local password; the directory: ${verdict.why}` : `the directory: ${verdict.why}`,
  };
}
