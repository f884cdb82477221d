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

export const newKey = (): string => crypto.randomBytes(20).toString("hex");
export const hashKey = (key: string): string => crypto.createHash("sha256").update(key, "utf8").digest("hex");

type TokenRow = Selectable<TokensTable>;

/** A token as its owner may see it: never its key or hash. */
export type TokenInfo = Omit<TokenRow, "key_hash" | "user_id" | "write_enabled"> & { write_enabled: boolean };

export type TokenRecord = TokenInfo & Pick<TokenRow, "user_id">;

export class TooManyTokens extends Error {}

/** last_used is written at most this often per token, to keep reads cheap. */
const TOUCH_INTERVAL_MS = 60_000;

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
