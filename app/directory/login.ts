/**
 * A login when directory login is configured: which of the directory and the local
 * password decides (LDAP_PRECEDENCE), and what a directory outage means.
 *
 * precedence "directory" (the default):
 *   1. The directory is asked first. If it accepts, the local account is created or
 *      updated from it (accounts.ts) and the login succeeds.
 *   2. If it rejects a name it does not know (search mode: no entry; direct-bind mode: any
 *      refused bind), the local password is tried, but only for a local-only account
 *      (not directory-managed, i.e. an empty last_ldap_dn). If the directory knows the
 *      name and rejects the password, that is final.
 *   3. If it cannot be reached, a local-only account may still log in with its local
 *      password; otherwise the answer is 503 directory_unavailable.
 * precedence "local":
 *   1. An account with a usable local password that matches logs in without asking the
 *      directory (directory-managed accounts too, if an administrator gave them one; their
 *      rights are then refreshed at their next directory login).
 *   2. Otherwise the directory decides as above; when it cannot be reached: 503.
 *
 * An empty password is refused before anything is asked. What counts towards the failed
 * login throttle: every rejection, and an outage only when a local password was checked
 * and was wrong (an outage alone says nothing about the password).
 */
import type { Repos } from "../../db/repos";
import type { User } from "../../db/users";
import { verifyPassword } from "../passwords";
import type { DirectoryConfig } from "./config";
import { authenticate, DirectoryUnavailable } from "./client";
import { isDirectoryManaged, isUsablePassword, syncDirectoryUser } from "./accounts";

export type DirectoryLoginResult =
  | { outcome: "accepted"; user: User }
  | { outcome: "rejected"; count: true }
  | { outcome: "unavailable"; count: boolean };

/** Last outage line and when, so a dead directory under load logs once per interval. */
let lastOutageLog = { line: "", at: 0 };
const OUTAGE_LOG_INTERVAL_MS = 10_000;

/** Where the directory's warnings go: the service's JSON log, else stderr (CLI use). */
export interface WarnSink {
  log?: { warn(line: string): void };
}

const warner = (s: WarnSink) => (line: string) => (s.log ? s.log.warn(line) : console.warn(line));

function logOutage(cfg: DirectoryConfig, e: DirectoryUnavailable, warn: (line: string) => void): void {
  const line = `directory login: ${cfg.url} could not be used (${e.why}); answering 503 directory_unavailable to directory logins`;
  const now = Date.now();
  if (line === lastOutageLog.line && now - lastOutageLog.at < OUTAGE_LOG_INTERVAL_MS) return;
  lastOutageLog = { line, at: now };
  warn(line);
}

export async function loginThroughDirectory(
  s: { repos: Pick<Repos, "users" | "inventory"> } & WarnSink,
  cfg: DirectoryConfig,
  username: string,
  password: string,
): Promise<DirectoryLoginResult> {
  if (password === "") return { outcome: "rejected", count: true };
  const local = await s.repos.users.findByUsername(username);
  const localEligible = !!local && isUsablePassword(local.password) && (cfg.precedence === "local" || !isDirectoryManaged(local));
  const tryLocal = async (): Promise<User | null> => {
    if (!local || !localEligible) return null;
    return (await verifyPassword(local.password, password)) && local.is_active ? local : null;
  };

  if (cfg.precedence === "local") {
    const user = await tryLocal();
    if (user) return { outcome: "accepted", user };
  }

  let verdict;
  try {
    verdict = await authenticate(cfg, username, password);
  } catch (e) {
    if (!(e instanceof DirectoryUnavailable)) throw e;
    logOutage(cfg, e, warner(s));
    if (cfg.precedence === "directory") {
      const user = await tryLocal();
      if (user) return { outcome: "accepted", user };
    }
    return { outcome: "unavailable", count: localEligible };
  }

  if (verdict.kind === "accepted") {
    const user = await syncDirectoryUser({ users: s.repos.users, inventory: s.repos.inventory, warn: warner(s) }, cfg, username, verdict.person);
    return user ? { outcome: "accepted", user } : { outcome: "rejected", count: true };
  }
  if (cfg.precedence === "directory" && !verdict.known) {
    const user = await tryLocal();
    if (user) return { outcome: "accepted", user };
  }
  return { outcome: "rejected", count: true };
}
