/**
 * The local account of a directory login: created on the first login, brought up to date
 * on every login (names, e-mail, the rights the directory manages; see mapping.ts).
 *
 * A "directory-managed" user is one whose profile has a last_ldap_dn: it has logged in
 * through the directory at least once. A local account (a local password, no directory
 * login) is never taken over by a directory login unless an administrator linked it
 * (profile ldap_linked). A user created here gets an unusable local
 * password ("!" followed by random text, which no password matches), so it can only log
 * in through the directory until an administrator gives it a password.
 */
import crypto from "node:crypto";
import type { InventoryRepo } from "../../db/inventory";
import { DuplicateUsername, LastSuperuser, type User, type UserRepo } from "../../db/users";
import type { DirectoryConfig } from "./config";
import { planAccount, type AccountPlan, type DirectoryPerson } from "./mapping";
import { isValidUsername, loginName } from "../../domain/usernames";

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
 * A local account: no directory login yet and not linked by an administrator. A directory
 * login never takes it over, whatever LDAP_PRECEDENCE says; only its local password opens it.
 */
export const isLocalOnly = (u: User): boolean =>
  !isDirectoryManaged(u) && !u.profile.ldap_linked && isUsablePassword(u.password);

/**
 * The username stored for a directory person: the entry's own name (its username attribute,
 * the value that matches what was typed, else the first), in NFKC without surrounding
 * spaces; null when that is not a valid username here.
 */
export function storedUsername(person: DirectoryPerson, typed: string): string | null {
  const key = loginName(typed);
  const own = person.names.find((n) => loginName(n) === key) ?? person.names[0] ?? typed;
  const name = own.normalize("NFKC").trim();
  return isValidUsername(name) ? name : null;
}

export type SyncResult =
  | { kind: "synced"; user: User; tookOver: boolean }
  /** deactivated here: an administrator's decision wins */
  | { kind: "inactive"; user: User }
  /** a local account (isLocalOnly): not converted */
  | { kind: "local"; user: User }
  /** the entry's name is not a valid username here */
  | { kind: "bad_name"; name: string };

/** The rights and names of an existing account brought up to what the directory says. */
export async function applyPerson(
  store: AccountStore,
  cfg: DirectoryConfig,
  existing: User,
  person: DirectoryPerson,
): Promise<User> {
  const names = [...new Set(cfg.groups.deviceGroups.map((m) => m.group))];
  const ids = await store.inventory.groupIdsByName(names);
  const plan = planAccount(cfg.groups, person, { ...existing, ...existing.profile }, ids);
  warnMissing(store, plan);
  return apply(store, existing, plan);
}

/**
 * Creates or updates the local user for an accepted directory login. Nothing is changed
 * unless the result is "synced"; `admit` (e.g. the token limit) runs on an existing account
 * before anything is changed, and a refusal it throws changes nothing.
 */
export async function syncDirectoryUser(
  store: AccountStore,
  cfg: DirectoryConfig,
  typed: string,
  person: DirectoryPerson,
  admit?: (existing: User) => Promise<void>,
): Promise<SyncResult> {
  const username = storedUsername(person, typed);
  if (!username) return { kind: "bad_name", name: (person.names[0] ?? typed).slice(0, 200) };
  let existing = (await store.users.findByLdapDn(person.dn)) ?? (await store.users.findByUsername(username));

  const update = async (found: User): Promise<SyncResult> => {
    if (!found.is_active) return { kind: "inactive", user: found };
    if (isLocalOnly(found)) return { kind: "local", user: found };
    if (admit) await admit(found);
    const user = await applyPerson(store, cfg, found, person);
    await store.users.recordDirectoryLogin(user.id, person.dn);
    return { kind: "synced", user: (await store.users.get(user.id))!, tookOver: !isDirectoryManaged(found) };
  };
  if (existing) return update(existing);

  const groupNames = [...new Set(cfg.groups.deviceGroups.map((m) => m.group))];
  const plan = planAccount(cfg.groups, person, null, await store.inventory.groupIdsByName(groupNames));
  warnMissing(store, plan);
  let user: User;
  try {
    user = await store.users.create(
      { username, password: unusablePassword(), ...plan.fields },
      plan.profile,
      plan.switchgroups,
    );
  } catch (e) {
    // the same person logging in twice at once: the other request created it
    if (!(e instanceof DuplicateUsername)) throw e;
    existing = await store.users.findByUsername(username);
    if (!existing) throw e;
    return update(existing);
  }
  await store.users.recordDirectoryLogin(user.id, person.dn);
  return { kind: "synced", user: (await store.users.get(user.id))!, tookOver: false };
}

function warnMissing(store: AccountStore, plan: AccountPlan): void {
  if (plan.missingGroups.length) {
    (store.warn ?? console.warn)(
      `directory login: LDAP_GROUP_DEVICE_GROUPS names switch groups that do not exist: ${plan.missingGroups.join(", ")}`,
    );
  }
}
