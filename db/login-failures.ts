/**
 * Login attempts per throttle key, kept in the database (see migration 0008): every
 * process and every restart sees the same counts. Keys are stored as SHA-256 hashes, so a
 * row has a fixed size whatever the username was.
 *
 * An attempt takes its place before its password is checked (`reserve`): in one
 * transaction it locks the rows of its username and address keys (an UPDATE, which
 * MariaDB, a Galera cluster and SQLite all serialize), counts the attempts in the window,
 * pending ones included, and, when the rules allow, inserts its own row as pending. So
 * parallel attempts, on one instance or several, each see the ones before them. The
 * row is then settled: deleted on success or when it must not count, marked failed
 * otherwise. A pending row whose process died counts until it leaves the window.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema";
import type { DialectName } from "./connect";
import { hashKey } from "./tokens";
import { isWriteConflict, retryOnConflict } from "./errors";

/** Recent attempt times (ms) under the keys of one attempt (the rules' AttemptTimes). */
export interface RecentAttempts {
  /** this username from this address */
  pair: number[];
  /** this address, any username */
  address: number[];
  /** this username, any address */
  user: number[];
}

/** How often a reservation is tried again when a sweep removed its key rows meanwhile. */
const KEY_ROW_TRIES = 5;

class KeyRowsGone extends Error {}

export interface Reservation<V> {
  verdict: V;
  /** the attempt's row, when the verdict let it take a place */
  id: number | null;
}

export class LoginFailureRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Counts the recent attempts of `userKey` and `addrKey` (since `sinceMs`), asks `decide`
   * and, when it says `allowed`, adds a pending attempt at `nowMs`: all while holding both
   * keys' rows, so no other attempt on either key counts in between.
   */
  async reserve<V extends { allowed: boolean }>(
    userKey: string,
    addrKey: string,
    nowMs: number,
    sinceMs: number,
    decide: (times: RecentAttempts) => V,
  ): Promise<Reservation<V>> {
    const user_hash = hashKey(userKey);
    const addr_hash = hashKey(addrKey);
    const keys = [user_hash, addr_hash].sort();
    const makeKeyRows = (db: Kysely<Database>) =>
      db
        .insertInto("login_throttle_keys")
        .values(keys.map((key_hash) => ({ key_hash, touched_ms: nowMs })))
        .orIgnore()
        .execute();
    for (let attempt = 1; ; attempt++) {
      // on MariaDB before the transaction: a duplicate key found inside it would hold a
      // shared lock there, and two such holders waiting to update the row deadlock. SQLite
      // runs one write transaction at a time, so the rows are made inside it (one commit less).
      if (this.dialect === "mysql") await makeKeyRows(this.db);
      try {
        return await retryOnConflict(() =>
          this.inTransaction(async (tx) => {
            if (this.dialect === "sqlite") await makeKeyRows(tx);
            // the lock: every attempt on either key waits here for the one before it
            const locked = await tx
              .updateTable("login_throttle_keys")
              .set((eb) => ({ stamp: eb("stamp", "+", 1), touched_ms: nowMs }))
              .where("key_hash", "in", keys)
              .executeTakeFirst();
            if (Number(locked.numUpdatedRows) !== keys.length) throw new KeyRowsGone();
            const rows = await tx
              .selectFrom("login_attempts")
              .select(["user_hash", "addr_hash", "time_ms"])
              .where((eb) => eb.or([eb("user_hash", "=", user_hash), eb("addr_hash", "=", addr_hash)]))
              .where("time_ms", ">", sinceMs)
              .execute();
            const times: RecentAttempts = { pair: [], address: [], user: [] };
            for (const r of rows) {
              const t = Number(r.time_ms);
              if (r.user_hash === user_hash) times.user.push(t);
              if (r.addr_hash === addr_hash) times.address.push(t);
              if (r.user_hash === user_hash && r.addr_hash === addr_hash) times.pair.push(t);
            }
            const verdict = decide(times);
            if (!verdict.allowed) return { verdict, id: null };
            const inserted = await tx
              .insertInto("login_attempts")
              .values({ user_hash, addr_hash, time_ms: nowMs, pending: 1 })
              .executeTakeFirstOrThrow();
            return { verdict, id: Number(inserted.insertId) };
          }),
        );
      } catch (e) {
        // a sweep deleted a key row between the insert and the lock: make it again
        if (!(e instanceof KeyRowsGone) || attempt >= KEY_ROW_TRIES) throw e;
      }
    }
  }

  /** Read committed on MariaDB: the count sees every attempt committed before the lock was ours. */
  private inTransaction<T>(fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
    return this.db.isTransaction ? fn(this.db) : this.db.transaction().setIsolationLevel("read committed").execute(fn);
  }

  /** The attempt's password was wrong: it stays counted until it leaves the window. */
  async failed(id: number): Promise<void> {
    await this.db.updateTable("login_attempts").set({ pending: 0 }).where("id", "=", id).execute();
  }

  /** The attempt must not count (it succeeded, or nothing was checked). */
  async remove(id: number): Promise<void> {
    await this.db.deleteFrom("login_attempts").where("id", "=", id).execute();
  }

  /**
   * Forgets the failures of a username (from one address, or from all): they stop counting
   * for the username, but still count for their addresses. Returns how many there were.
   */
  async forget(userKey: string, addrKey?: string): Promise<number> {
    let q = this.db.updateTable("login_attempts").set({ user_hash: "" }).where("user_hash", "=", hashKey(userKey));
    if (addrKey !== undefined) q = q.where("addr_hash", "=", hashKey(addrKey));
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Deletes every attempt at or before `beforeMs`, and the key rows no attempt has touched
   * since; returns how many attempts. A conflict with attempts running now is no error:
   * the next sweep gets them.
   */
  async sweep(beforeMs: number): Promise<number> {
    try {
      const r = await this.db.deleteFrom("login_attempts").where("time_ms", "<=", beforeMs).executeTakeFirst();
      await this.db.deleteFrom("login_throttle_keys").where("touched_ms", "<=", beforeMs).execute();
      return Number(r.numDeletedRows);
    } catch (e) {
      if (isWriteConflict(e)) return 0;
      throw e;
    }
  }

  /** Attempts stored, pending ones included. */
  async count(): Promise<number> {
    const r = await this.db
      .selectFrom("login_attempts")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
