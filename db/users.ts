/**
 * Users and their profiles. A profile row always exists beside its user (same id);
 * both are written in one transaction.
 */
import { atomic } from "./atomic";
import type { Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { Database, ProfilesTable, UsersTable } from "./schema";
import { bit, bool } from "./flags";
import { nowIso } from "./time";
import { isUniqueViolation } from "./errors";

export type Theme = "light" | "dark";

export const PROFILE_FLAGS = [
  "allow_poe_toggle",
  "are_you_sure",
  "bulk_edit",
  "edit_if_descr",
  "read_only",
  "vlan_edit",
] as const;
export type ProfileFlag = (typeof PROFILE_FLAGS)[number];
const USER_FLAGS = ["is_active", "is_staff", "is_superuser"] as const;
type UserFlag = (typeof USER_FLAGS)[number];

type UserRow = Selectable<UsersTable>;
type ProfileRow = Selectable<ProfilesTable>;
/** a row with its 0/1 flag columns as booleans */
type WithBooleans<R, K extends keyof R> = Omit<R, K> & Record<K, boolean>;

/** A profile as the API shows it: the row, flags as booleans, keyed by the user's id. */
export type Profile = Omit<
  WithBooleans<ProfileRow, ProfileFlag>,
  "user_id" | "theme" | "ldap_linked" | "ldap_checked"
> & {
  id: number;
  user: number;
  theme: Theme;
  /** an administrator allows a directory login to take over this local account */
  ldap_linked: boolean;
  /** when the directory last confirmed the rights (a directory login or a recheck) */
  last_ldap_check: string | null;
};

/** A user with its profile and group memberships (groups and user_permissions: Django's, always empty). */
export type User = WithBooleans<UserRow, UserFlag> & {
  groups: never[];
  user_permissions: never[];
  switchgroups: number[];
  profile: Profile;
};

export type ProfilePatch = Partial<Record<ProfileFlag, boolean> & { theme: Theme; ldap_linked: boolean }>;

/** the writable user fields; `password` is already hashed */
export type UserFields = Partial<Omit<WithBooleans<UserRow, UserFlag>, "id" | "date_joined" | "last_login">>;

export class DuplicateUsername extends Error {
  constructor() {
    super("A user with that username already exists.");
  }
}

/** The change would leave no active superuser (the last one demoted, deactivated or deleted). */
export class LastSuperuser extends Error {
  constructor() {
    super("The last active superuser cannot lose superuser rights or be deactivated");
  }
}

type Db = Kysely<Database> | Transaction<Database>;

async function isActiveSuperuser(db: Db, id: number): Promise<boolean> {
  const r = await db.selectFrom("users").select(["is_superuser", "is_active"]).where("id", "=", id).executeTakeFirst();
  return !!r && bool(r.is_superuser) && bool(r.is_active);
}

async function activeSuperusers(db: Db): Promise<number> {
  const r = await db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("is_superuser", "=", 1)
    .where("is_active", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

function toProfile(p: ProfileRow): Profile {
  return {
    id: p.user_id,
    user: p.user_id,
    allow_poe_toggle: bool(p.allow_poe_toggle),
    are_you_sure: bool(p.are_you_sure),
    bulk_edit: bool(p.bulk_edit),
    edit_if_descr: bool(p.edit_if_descr),
    read_only: bool(p.read_only),
    vlan_edit: bool(p.vlan_edit),
    theme: p.theme === "dark" ? "dark" : "light",
    last_ldap_dn: p.last_ldap_dn,
    last_ldap_login: p.last_ldap_login,
    ldap_linked: bool(p.ldap_linked),
    last_ldap_check: p.ldap_checked,
  };
}

export function toUser(u: UserRow, p: ProfileRow, groups: number[]): User {
  return {
    id: Number(u.id),
    username: u.username,
    password: u.password,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    date_joined: u.date_joined,
    last_login: u.last_login,
    is_active: bool(u.is_active),
    is_staff: bool(u.is_staff),
    is_superuser: bool(u.is_superuser),
    groups: [],
    user_permissions: [],
    switchgroups: groups,
    profile: toProfile(p),
  };
}

function userColumns(f: UserFields): Updateable<UsersTable> {
  const out: Updateable<UsersTable> = {};
  for (const k of ["username", "password", "first_name", "last_name", "email"] as const)
    if (f[k] !== undefined) out[k] = f[k];
  for (const k of USER_FLAGS) if (f[k] !== undefined) out[k] = bit(f[k]);
  return out;
}

function profileColumns(p: ProfilePatch): Updateable<ProfilesTable> {
  const out: Updateable<ProfilesTable> = {};
  for (const k of PROFILE_FLAGS) if (p[k] !== undefined) out[k] = bit(p[k]);
  if (p.theme !== undefined) out.theme = p.theme;
  if (p.ldap_linked !== undefined) out.ldap_linked = bit(p.ldap_linked);
  return out;
}

export class UserRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<User[]> {
    const users = await this.db.selectFrom("users").selectAll().orderBy("id").execute();
    const profiles = await this.db.selectFrom("profiles").selectAll().execute();
    const memberships = await this.db.selectFrom("group_users").selectAll().orderBy("group_id").execute();
    const pById = new Map(profiles.map((p) => [Number(p.user_id), p]));
    return users.map((u) =>
      toUser(
        u,
        pById.get(Number(u.id))!,
        memberships.filter((m) => Number(m.user_id) === Number(u.id)).map((m) => Number(m.group_id)),
      ),
    );
  }

  async get(id: number, db: Db = this.db): Promise<User | null> {
    const u = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    if (!u) return null;
    const p = await db.selectFrom("profiles").selectAll().where("user_id", "=", id).executeTakeFirstOrThrow();
    const g = await db
      .selectFrom("group_users")
      .select("group_id")
      .where("user_id", "=", id)
      .orderBy("group_id")
      .execute();
    return toUser(
      u,
      p,
      g.map((r) => Number(r.group_id)),
    );
  }

  async findByUsername(username: string): Promise<User | null> {
    const u = await this.db.selectFrom("users").select("id").where("username", "=", username).executeTakeFirst();
    return u ? this.get(Number(u.id)) : null;
  }

  /** the user a directory login last came in as this DN (the lowest id if there were several) */
  async findByLdapDn(dn: string): Promise<User | null> {
    const row = await this.db
      .selectFrom("profiles")
      .select("user_id")
      .where("last_ldap_dn", "=", dn)
      .orderBy("user_id")
      .executeTakeFirst();
    return row ? this.get(Number(row.user_id)) : null;
  }

  /** a directory login: the DN it came as and when (which also confirms its rights) */
  async recordDirectoryLogin(id: number, dn: string): Promise<void> {
    const now = nowIso();
    await this.db
      .updateTable("profiles")
      .set({ last_ldap_dn: dn, last_ldap_login: now, ldap_checked: now })
      .where("user_id", "=", id)
      .execute();
  }

  /** the directory confirmed a directory user's rights again (without a login) */
  async recordDirectoryCheck(id: number): Promise<void> {
    await this.db.updateTable("profiles").set({ ldap_checked: nowIso() }).where("user_id", "=", id).execute();
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Creates user + profile (+ group memberships) atomically; returns the new id. */
  async create(
    fields: UserFields & { username: string; password: string },
    profile: ProfilePatch,
    switchgroups?: number[],
  ): Promise<User> {
    try {
      return await atomic(this.db, async (tx) => {
        const clash = await tx
          .selectFrom("users")
          .select("id")
          .where("username", "=", fields.username)
          .executeTakeFirst();
        if (clash) throw new DuplicateUsername();
        const res = await tx
          .insertInto("users")
          .values({
            first_name: "",
            last_name: "",
            email: "",
            is_active: 1,
            is_staff: 0,
            is_superuser: 0,
            ...userColumns(fields),
            username: fields.username,
            password: fields.password,
            date_joined: nowIso(),
            last_login: null,
          })
          .executeTakeFirstOrThrow();
        const id = Number(res.insertId);
        await tx
          .insertInto("profiles")
          .values({
            user_id: id,
            allow_poe_toggle: 0,
            are_you_sure: 1,
            bulk_edit: 1,
            edit_if_descr: 1,
            read_only: 0,
            vlan_edit: 0,
            theme: "light",
            last_ldap_dn: "",
            last_ldap_login: null,
            ldap_linked: 0,
            ldap_checked: null,
            ...profileColumns(profile),
          })
          .execute();
        if (switchgroups) await this.replaceGroups(tx, id, switchgroups);
        return (await this.get(id, tx))!;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateUsername();
      throw e;
    }
  }

  /**
   * Applies any subset of fields; profile fields not named keep their values. A change
   * that leaves no active superuser is rolled back (LastSuperuser), inside the same
   * transaction so that two admins demoting each other at once cannot both succeed.
   */
  async update(id: number, fields: UserFields, profile: ProfilePatch, switchgroups?: number[]): Promise<User | null> {
    try {
      return await atomic(this.db, async (tx) => {
        const exists = await tx.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
        if (!exists) return null;
        const wasActiveSuperuser = await isActiveSuperuser(tx, id);
        if (fields.username !== undefined) {
          const clash = await tx
            .selectFrom("users")
            .select("id")
            .where("username", "=", fields.username)
            .where("id", "!=", id)
            .executeTakeFirst();
          if (clash) throw new DuplicateUsername();
        }
        const cols = userColumns(fields);
        if (Object.keys(cols).length) await tx.updateTable("users").set(cols).where("id", "=", id).execute();
        if (wasActiveSuperuser && (await activeSuperusers(tx)) === 0) throw new LastSuperuser();
        const pcols = profileColumns(profile);
        if (Object.keys(pcols).length) await tx.updateTable("profiles").set(pcols).where("user_id", "=", id).execute();
        if (switchgroups) await this.replaceGroups(tx, id, switchgroups);
        return this.get(id, tx);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateUsername();
      throw e;
    }
  }

  private async replaceGroups(tx: Db, userId: number, groups: number[]): Promise<void> {
    await tx.deleteFrom("group_users").where("user_id", "=", userId).execute();
    const unique = [...new Set(groups)];
    if (unique.length)
      await tx
        .insertInto("group_users")
        .values(unique.map((g) => ({ group_id: g, user_id: userId })))
        .execute();
  }

  async remove(id: number): Promise<boolean> {
    return atomic(this.db, async (tx) => {
      // children first: MariaDB and SQLite both cascade, but explicit order keeps it portable
      await tx.deleteFrom("tokens").where("user_id", "=", id).execute();
      await tx.deleteFrom("sessions").where("user_id", "=", id).execute();
      await tx.deleteFrom("group_users").where("user_id", "=", id).execute();
      await tx.deleteFrom("profiles").where("user_id", "=", id).execute();
      const wasActiveSuperuser = await isActiveSuperuser(tx, id);
      const r = await tx.deleteFrom("users").where("id", "=", id).executeTakeFirst();
      if (wasActiveSuperuser && (await activeSuperusers(tx)) === 0) throw new LastSuperuser();
      return Number(r.numDeletedRows) > 0;
    });
  }

  async touchLogin(id: number): Promise<void> {
    await this.db.updateTable("users").set({ last_login: nowIso() }).where("id", "=", id).execute();
  }

  /** ids of groups that exist among the given ones */
  async existingGroups(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom("switch_groups").select("id").where("id", "in", ids).execute();
    return rows.map((r) => Number(r.id));
  }
}
