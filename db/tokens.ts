/**
 * API tokens. The key (40 lowercase hex from a CSPRNG) is shown once; only its SHA-256
 * is stored. Sessions of the web UI use the same scheme.
 */
import { atomic } from "./atomic";
import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Selectable } from "kysely";
import type { Database, SessionsTable, TokensTable } from "./schema";
import { bit, bool } from "./flags";
import { isoPlus, nowIso } from "./time";
import { retryOnConflict } from "./errors";
import { toUser, type User } from "./users";
import { Prepared } from "./prepared";

/** the ids of a group_concat list ("35,3,12", MariaDB may hand it over as bytes), ascending */
function groupList(list: string | Buffer | null): number[] {
  if (list === null || String(list) === "") return [];
  return String(list)
    .split(",")
    .map(Number)
    .sort((a, b) => a - b);
}

export const newKey = (): string => crypto.randomBytes(20).toString("hex");
export const hashKey = (key: string): string => crypto.createHash("sha256").update(key, "utf8").digest("hex");

type TokenRow = Selectable<TokensTable>;

/** A token as its owner may see it: never its key or hash. */
export type TokenInfo = Omit<TokenRow, "key_hash" | "user_id" | "write_enabled"> & { write_enabled: boolean };

export type TokenRecord = TokenInfo & Pick<TokenRow, "user_id">;

export class TooManyTokens extends Error {}

/** last_used is written at most this often per token, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

/** A token with its user, profile and groups (one row per group): read on every call, compiled once. */
const tokenWithUser = new Prepared(1, (db: Kysely<Database>, keyHash: string) =>
  db
    .selectFrom("tokens as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .innerJoin("profiles as p", "p.user_id", "u.id")
    .selectAll("u")
    .selectAll("p")
    .select([
      "t.id as token_id",
      "t.created as token_created",
      "t.expires as token_expires",
      "t.last_used as token_last_used",
      "t.write_enabled as token_write_enabled",
      "t.description as token_description",
    ])
    // the user's groups as one list in the one row (a user in 200 groups was 200 rows)
    .select(
      sql<
        string | null
      >`(select group_concat(cast(g.group_id as char)) from group_users g where g.user_id = ${sql.ref("u.id")})`.as(
        "member_of",
      ),
    )
    .where("t.key_hash", "=", keyHash),
);

export class TokenRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private static info(r: TokenRow): TokenRecord {
    return {
      id: Number(r.id),
      user_id: Number(r.user_id),
      created: r.created,
      expires: r.expires,
      last_used: r.last_used,
      write_enabled: bool(r.write_enabled),
      description: r.description,
    };
  }

  /** Creates a token unless the user already holds `max` live ones. Returns the key once. */
  async create(
    userId: number,
    opts: { writeEnabled: boolean; lifetimeMs: number | null; max: number; description?: string },
  ) {
    return atomic(this.db, async (tx) => {
      const now = nowIso();
      // expired tokens are dead weight: drop them so they do not count against the limit
      await tx.deleteFrom("tokens").where("user_id", "=", userId).where("expires", "<=", now).execute();
      const live = await tx
        .selectFrom("tokens")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      if (Number(live.n) >= opts.max) throw new TooManyTokens("Too many tokens exist!");
      const key = newKey();
      const res = await tx
        .insertInto("tokens")
        .values({
          user_id: userId,
          key_hash: hashKey(key),
          created: now,
          expires: opts.lifetimeMs ? isoPlus(opts.lifetimeMs) : null,
          last_used: null,
          write_enabled: bit(opts.writeEnabled),
          description: opts.description ?? "",
        })
        .executeTakeFirstOrThrow();
      return { key, id: Number(res.insertId) };
    });
  }

  async findByKey(key: string): Promise<TokenRecord | null> {
    const r = await this.db.selectFrom("tokens").selectAll().where("key_hash", "=", hashKey(key)).executeTakeFirst();
    return r ? TokenRepo.info(r) : null;
  }

  /**
   * The token with this key and its user (profile and device groups) in one query and one
   * row, the groups as one list ("3,12,35"; a user in 200 groups is not 200 rows of its
   * user and profile). Read from the database on every call, so a revoked token or a
   * deactivated user counts at once.
   */
  async findWithUser(key: string): Promise<{ token: TokenRecord; user: User } | null> {
    const rows = await tokenWithUser.rows(this.db, hashKey(key));
    if (rows.length === 0) return null;
    const r = rows[0];
    const groups = groupList(r.member_of);
    const user = toUser(
      {
        id: r.id,
        username: r.username,
        password: r.password,
        first_name: r.first_name,
        last_name: r.last_name,
        email: r.email,
        date_joined: r.date_joined,
        last_login: r.last_login,
        is_active: r.is_active,
        is_staff: r.is_staff,
        is_superuser: r.is_superuser,
      },
      {
        user_id: Number(r.id),
        allow_poe_toggle: r.allow_poe_toggle,
        are_you_sure: r.are_you_sure,
        bulk_edit: r.bulk_edit,
        edit_if_descr: r.edit_if_descr,
        read_only: r.read_only,
        vlan_edit: r.vlan_edit,
        theme: r.theme,
        last_ldap_dn: r.last_ldap_dn,
        last_ldap_login: r.last_ldap_login,
        ldap_linked: r.ldap_linked,
        ldap_checked: r.ldap_checked,
      },
      groups,
    );
    const token: TokenRecord = {
      id: Number(r.token_id),
      user_id: user.id,
      created: r.token_created,
      expires: r.token_expires,
      last_used: r.token_last_used,
      write_enabled: bool(r.token_write_enabled),
      description: r.token_description,
    };
    return { token, user };
  }

  async touch(t: TokenRecord): Promise<void> {
    if (t.last_used && Date.now() - Date.parse(t.last_used) < TOUCH_INTERVAL_MS) return;
    await retryOnConflict(() =>
      this.db.updateTable("tokens").set({ last_used: nowIso() }).where("id", "=", t.id).execute(),
    );
  }

  async listForUser(userId: number): Promise<TokenInfo[]> {
    const rows = await this.db.selectFrom("tokens").selectAll().where("user_id", "=", userId).orderBy("id").execute();
    return rows.map((r) => {
      const { user_id: _u, ...info } = TokenRepo.info(r);
      return info;
    });
  }

  async revoke(userId: number, id: number): Promise<boolean> {
    const r = await this.db.deleteFrom("tokens").where("id", "=", id).where("user_id", "=", userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Every token of a user (a password change with revoke_tokens, a compromised account). */
  async revokeAllOfUser(userId: number): Promise<number> {
    const r = await this.db.deleteFrom("tokens").where("user_id", "=", userId).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async count(): Promise<number> {
    const r = await this.db
      .selectFrom("tokens")
      .select(sql<number>`count(*)`.as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** how many unexpired tokens a user holds */
  async liveCount(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom("tokens")
      .select(sql<number>`count(*)`.as("n"))
      .where("user_id", "=", userId)
      .where((eb) => eb.or([eb("expires", "is", null), eb("expires", ">", nowIso())]))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}

export type SessionRecord = Pick<Selectable<SessionsTable>, "id" | "user_id" | "csrf_token" | "expires">;

export class SessionRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** A new session; expired ones of every user are deleted on the way. */
  async create(userId: number, lifetimeMs: number): Promise<{ key: string; csrf: string }> {
    await this.purgeExpired();
    const key = crypto.randomBytes(32).toString("hex");
    const csrf = crypto.randomBytes(32).toString("hex");
    await this.db
      .insertInto("sessions")
      .values({
        key_hash: hashKey(key),
        user_id: userId,
        csrf_token: csrf,
        created: nowIso(),
        expires: isoPlus(lifetimeMs),
      })
      .execute();
    return { key, csrf };
  }

  async find(key: string): Promise<SessionRecord | null> {
    const r = await this.db
      .selectFrom("sessions")
      .select(["id", "user_id", "csrf_token", "expires"])
      .where("key_hash", "=", hashKey(key))
      .where("expires", ">", nowIso())
      .executeTakeFirst();
    return r ? { id: Number(r.id), user_id: Number(r.user_id), csrf_token: r.csrf_token, expires: r.expires } : null;
  }

  async remove(key: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("key_hash", "=", hashKey(key)).execute();
  }

  async purgeExpired(): Promise<number> {
    const r = await this.db.deleteFrom("sessions").where("expires", "<=", nowIso()).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Ends a user's web sessions (after a password change), except the one making the change. */
  async removeAllOfUser(userId: number, exceptSessionId?: number): Promise<number> {
    let q = this.db.deleteFrom("sessions").where("user_id", "=", userId);
    if (exceptSessionId !== undefined) q = q.where("id", "!=", exceptSessionId);
    const r = await q.executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
