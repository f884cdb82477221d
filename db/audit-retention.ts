/**
 * Removing old audit rows a bounded batch at a time (app/audit-retention.ts runs it). One
 * statement per batch, the oldest rows first along the audit_log_time index: it is
 * idempotent, so instances sharing a database may run it at the same moment (a row one
 * of them removed is simply not there for the other), and each statement holds its locks
 * for one batch only. MariaDB takes DELETE ... ORDER BY ... LIMIT; SQLite, built without
 * that clause, deletes the ids a bounded subquery picks.
 */
import { sql, type Kysely } from "kysely";
import type { DialectName } from "./connect";
import type { Database } from "./schema";

/** Removes at most `limit` rows whose time is before `olderThan` (ISO 8601 UTC, as stored); how many it removed. */
export async function deleteAuditBatch(
  db: Kysely<Database>,
  dialect: DialectName,
  olderThan: string,
  limit: number,
): Promise<number> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`a batch is 1 row or more (got ${limit})`);
  const time = sql.ref("time");
  const id = sql.ref("id");
  const n = sql.lit(limit);
  const result =
    dialect === "mysql"
      ? await sql`DELETE FROM audit_log WHERE ${time} < ${olderThan} ORDER BY ${time}, ${id} LIMIT ${n}`.execute(db)
      : await sql`DELETE FROM audit_log WHERE ${id} IN (SELECT ${id} FROM audit_log WHERE ${time} < ${olderThan} ORDER BY ${time}, ${id} LIMIT ${n})`.execute(
          db,
        );
  return Number(result.numAffectedRows ?? 0n);
}

/** How many rows are older than `olderThan` (tests, and the log line of a run that left some). */
export async function countAuditOlderThan(db: Kysely<Database>, olderThan: string): Promise<number> {
  const r = await db
    .selectFrom("audit_log")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("time", "<", olderThan)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
