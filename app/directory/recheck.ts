/**
 * Rights that follow the directory while tokens and sessions are used. When a
 * directory-managed user calls and the directory last confirmed its rights longer ago
 * than LDAP_RECHECK_SECONDS, its entry and groups are read again with the service account
 * and applied (as a directory login would) before the call goes on, so a right removed in
 * the directory is gone from that call on. Parallel calls of one user share one recheck.
 *
 * When the directory cannot be asked, the last known rights hold for
 * LDAP_RECHECK_GRACE_SECONDS after the last successful check; past that the user's writes
 * are refused with 503 directory_unavailable (reads go on with the last known rights).
 * An entry that is gone from the directory ends the user's calls (403 User inactive).
 * Without a service account (direct-bind mode) rights are checked at login only.
 */
import type { Repos } from "../../db/repos";
import type { User } from "../../db/users";
import { ApiError } from "../errors";
import * as msg from "../../domain/messages";
import type { DirectoryConfig } from "./config";
import { DirectoryUnavailable, readPerson } from "./client";
import { applyPerson, isDirectoryManaged } from "./accounts";
import { logOutage } from "./login";

type Recheck = { kind: "fresh"; user: User } | { kind: "gone" } | { kind: "unavailable" };

export interface RecheckLog {
  warn(line: string): void;
  info(line: string): void;
}

/** what a user may do, in one line for the log */
function rights(u: User): string {
  const flags = [
    u.is_superuser && "superuser",
    u.is_staff && "staff",
    u.profile.read_only && "read-only",
    u.profile.vlan_edit && "vlan-edit",
  ].filter(Boolean);
  return `${flags.length ? flags.join(", ") : "no flags"}; groups [${u.switchgroups.join(", ")}]`;
}

export class DirectoryRights {
  /** the recheck under way per user id */
  private readonly running = new Map<number, Promise<Recheck>>();

  constructor(
    private readonly cfg: DirectoryConfig,
    private readonly repos: Pick<Repos, "users" | "inventory">,
    private readonly log: RecheckLog,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The user as its call may proceed: unchanged when its rights are fresh enough (or it
   * is not a directory user), else as the directory says now. Throws 403 user_inactive
   * for an entry that is gone, 503 directory_unavailable for a write past the grace.
   */
  async current(user: User, write: boolean): Promise<User> {
    if (this.cfg.bind.kind !== "search" || !isDirectoryManaged(user)) return user;
    const checked = Date.parse(user.profile.last_ldap_check ?? user.profile.last_ldap_login ?? "") || 0;
    if (this.now() - checked < this.cfg.recheckMs) return user;

    let pending = this.running.get(user.id);
    if (!pending) {
      pending = this.recheck(user).finally(() => this.running.delete(user.id));
      this.running.set(user.id, pending);
    }
    const r = await pending;
    if (r.kind === "fresh") return r.user;
    if (r.kind === "gone")
      throw new ApiError(403, "user_inactive", msg.USER_INACTIVE, { "WWW-Authenticate": "Token" }, true);
    if (write && this.now() - checked > this.cfg.recheckGraceMs)
      throw new ApiError(503, "directory_unavailable", msg.DIRECTORY_UNAVAILABLE);
    return user;
  }

  private async recheck(user: User): Promise<Recheck> {
    const dn = user.profile.last_ldap_dn;
    let person;
    try {
      person = await readPerson(this.cfg, dn, user.username);
    } catch (e) {
      if (!(e instanceof DirectoryUnavailable)) throw e;
      logOutage(
        this.cfg,
        e,
        (l) => this.log.warn(l),
        "directory users keep their last known rights for LDAP_RECHECK_GRACE_SECONDS, then their writes get 503 directory_unavailable",
      );
      return { kind: "unavailable" };
    }
    if (!person) {
      this.log.warn(
        `directory recheck: the entry ${dn} of '${user.username}' (id ${user.id}) is gone from the directory; its calls are refused (User inactive)`,
      );
      return { kind: "gone" };
    }
    const warn = (l: string) => this.log.warn(l);
    const updated = await applyPerson(
      { users: this.repos.users, inventory: this.repos.inventory, warn },
      this.cfg,
      user,
      person,
    );
    await this.repos.users.recordDirectoryCheck(user.id);
    const before = rights(user);
    const after = rights(updated);
    if (before !== after)
      this.log.info(
        `directory recheck: the rights of '${user.username}' (id ${user.id}) changed from ${before} to ${after}`,
      );
    return { kind: "fresh", user: (await this.repos.users.get(user.id)) ?? updated };
  }
}
