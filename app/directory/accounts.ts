/**
 * The local account of a directory login: created on the first login, brought up to date
 * on every login (names, e-mail, the rights the directory manages; see mapping.ts).
 *
 * A "directory-managed" user is one whose profile has a last_ldap_dn: it has logged in
 * through the directory at least once. A user created here gets an unusable local
 * password ("!" followed by random text, which no password matches), so it can only log
 * in through the directory until an administrator gives it a password.
 */
import crypto from "node:crypto";
import type { InventoryRepo } from "../../db/inventory";
import { DuplicateUsername, LastSuperuser, type User, type UserRepo } from "../../db/users";
import type { DirectoryConfig } from "./config";
import { planAccount, type AccountPlan, type DirectoryPerson } from "./mapping";

export const isDirectoryManaged = (u: User): boolean => u.profile.last_ldap_dn !== "";

/** A stored password that no password can match (Django's unusable-password convention). */
export const unusablePassword = (): string => "!" + crypto.randomBytes(24).toString("base64url");
export const isUsablePassword = (hash: string): boolean => hash !== "" && !hash.startsWith("!");

export interface AccountStore {
  users: UserRepo;
  inventory: Pick<InventoryRepo, "groupIdsByName">;
  /** a warning without secrets (console.warn by default) */
  warn?: (line: string) => void;
}

async function apply(store: AccountStore, existing: User, plan: AccountPlan): Promise<User> {
  try {
    return (await store.users.update(existing.id, plan.fields, plan.profile, plan.switchgroups))!;
  } catch (e) {
    if (!(e instanceof LastSuperuser)) throw e;
    // the directory would demote the last active superuser: keep that one right
    (store.warn ?? console.warn)(
      `directory login: '${existing.username}' left its superuser group but is the last active superuser here; it stays superuser`,
    );
    const { is_superuser: _kept, ...rest } = plan.fields;
    return (await store.users.update(existing.id, rest, plan.profile, plan.switchgroups))!;
  }
}

/**
 * Creates or updates the local user for an accepted directory login and returns it, or
 * null when the local account is deactivated (an administrator's decision wins).
 */
export async function syncDirectoryUser(store: AccountStore, cfg: DirectoryConfig, username: string, person: DirectoryPerson): Promise<User | null> {
  const names = [...new Set(cfg.groups.deviceGroups.map((m) => m.group))];
  const ids = await store.inventory.groupIdsByName(names);
  let existing = (await store.users.findByLdapDn(person.dn)) ?? (await store.users.findByUsername(username));
  if (existing && !existing.is_active) return null;

  let user: User;
  if (existing) {
    const plan = planAccount(cfg.groups, person, { ...existing, ...existing.profile }, ids);
    warnMissing(store, plan);
    user = await apply(store, existing, plan);
  } else {
    const plan = planAccount(cfg.groups, person, null, ids);
    warnMissing(store, plan);
    try {
      user = await store.users.create({ username, password: unusablePassword(), ...plan.fields }, plan.profile, plan.switchgroups);
    } catch (e) {
      // the same person logging in twice at once: the other request created it
      if (!(e instanceof DuplicateUsername)) throw e;
      existing = await store.users.findByUsername(username);
      if (!existing) throw e;
      if (!existing.is_active) return null;
      user = await apply(store, existing, planAccount(cfg.groups, person, { ...existing, ...existing.profile }, ids));
    }
  }
  await store.users.recordDirectoryLogin(user.id, person.dn);
  return store.users.get(user.id);
}

function warnMissing(store: AccountStore, plan: AccountPlan): void {
  if (plan.missingGroups.length) {
    (store.warn ?? console.warn)(
      `directory login: LDAP_GROUP_DEVICE_GROUPS names switch groups that do not exist: ${plan.missingGroups.join(", ")}`,
    );
  }
}
