/**
 * Leases by name, shared by every instance on one database: a row (name, owner, expiry)
 * taken by a conditional UPDATE or an INSERT whose affected-row count says who won. A
 * holder renews its lease while it works; a lease whose expiry has passed belongs to a
 * holder that died and may be taken over. No named locks (GET_LOCK): on a Galera cluster
 * those hold only on the node that granted them, while a row conflict fails one of the
 * two commits cluster-wide (a deadlock error, see isWriteConflict).
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema";
import { isUniqueViolation, isWriteConflict } from "./errors";
import { nowIso } from "./time";

export type LeaseTableName = "device_leases" | "migration_lease";

/** A lease as stored: who holds it and until when (ms since the epoch). */
export interface LeaseHolder {
  owner: string;
  expires_ms: number;
  since: string;
}

export type TakeResult =
  /** ours; `tookOverFrom`: the holder whose lease had expired while held (it died) */
  | { taken: true; tookOverFrom: LeaseHolder | null }
  /** not ours: held by `holder` (null when another writer won the race just now) */
  | { taken: false; holder: LeaseHolder | null };

export class LeaseRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: LeaseTableName,
  ) {}

  async holder(name: string): Promise<LeaseHolder | null> {
    const r = await this.db
      .selectFrom(this.table)
      .select(["owner", "expires_ms", "since"])
      .where("name", "=", name)
      .executeTakeFirst();
    return r ? { owner: r.owner, expires_ms: Number(r.expires_ms), since: r.since } : null;
  }

  /**
   * Takes the lease for `ttlMs` if it is free, expired, already ours, or held by an owner
   * that `mayTakeFrom` says has ended (without releasing it). Compare-and-set
   * on the row as read, so of several racers exactly one sees an affected row; a lost
   * race (a duplicate key, a deadlock or certification failure, a busy database) is
   * "not yours", never an error.
   */
  async take(
    name: string,
    owner: string,
    ttlMs: number,
    now = Date.now(),
    mayTakeFrom?: (holder: string) => boolean,
  ): Promise<TakeResult> {
    try {
      const row = await this.holder(name);
      const expires_ms = now + ttlMs;
      if (!row) {
        try {
          await this.db.insertInto(this.table).values({ name, owner, expires_ms, since: nowIso() }).execute();
          return { taken: true, tookOverFrom: null };
        } catch (e) {
          if (isUniqueViolation(e)) return { taken: false, holder: null };
          throw e;
        }
      }
      // a live holder keeps it, unless the caller knows that holder is gone (`mayTakeFrom`)
      if (row.owner !== "" && row.owner !== owner && row.expires_ms > now && !mayTakeFrom?.(row.owner))
        return { taken: false, holder: row };
      const r = await this.db
        .updateTable(this.table)
        .set({ owner, expires_ms, since: nowIso() })
        .where("name", "=", name)
        .where("owner", "=", row.owner)
        .where("expires_ms", "=", row.expires_ms)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return { taken: false, holder: null };
      return { taken: true, tookOverFrom: row.owner !== "" && row.owner !== owner ? row : null };
    } catch (e) {
      if (isWriteConflict(e)) return { taken: false, holder: null };
      throw e;
    }
  }

  /** Extends our lease; false when it is no longer ours (it expired and was taken over). */
  async renew(name: string, owner: string, ttlMs: number, now = Date.now()): Promise<boolean> {
    const r = await this.db
      .updateTable(this.table)
      .set({ expires_ms: now + ttlMs })
      .where("name", "=", name)
      .where("owner", "=", owner)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** How many leases named `prefix…` are held and not expired (holders alive now). */
  async countLive(prefix: string, now = Date.now()): Promise<number> {
    const r = await this.db
      .selectFrom(this.table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("name", "like", `${prefix}%`)
      .where("owner", "<>", "")
      .where("expires_ms", ">", now)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /**
   * Deletes the rows named `prefix…` that expired more than `graceMs` ago (their holders
   * are gone), or our own row (`owner`) whatever its expiry. A lost race is no error:
   * another instance deleted them.
   */
  async drop(prefix: string, opts: { expiredBefore?: number; owner?: string }): Promise<void> {
    try {
      let q = this.db.deleteFrom(this.table).where("name", "like", `${prefix}%`);
      if (opts.owner !== undefined) q = q.where("owner", "=", opts.owner);
      if (opts.expiredBefore !== undefined) q = q.where("expires_ms", "<", opts.expiredBefore);
      await q.execute();
    } catch (e) {
      if (!isWriteConflict(e)) throw e;
    }
  }

  /** Frees our lease (the row stays, one per name); nothing when it is not ours any more. */
  async release(name: string, owner: string): Promise<void> {
    await this.db
      .updateTable(this.table)
      .set({ owner: "", expires_ms: 0 })
      .where("name", "=", name)
      .where("owner", "=", owner)
      .execute();
  }
}
