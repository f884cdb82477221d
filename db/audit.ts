/**
 * The audit log (every change and every failed change, with who, from where, what,
 * before and after) and the hourly usage counters behind api/stats/.
 */
import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import type { AuditLogTable, Database } from "./schema";
import { nowIso } from "./time";
import { retryOnConflict } from "./errors";
import type { DialectName } from "./connect";

/** A row to write: everything but the id and the time, which the repository sets. */
export type AuditEntry = Omit<Insertable<AuditLogTable>, "id" | "time">;

/** A row as read, ids as numbers on both dialects. */
export type AuditRow = Selectable<AuditLogTable>;

export class AuditRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async write(e: AuditEntry): Promise<void> {
    await this.db.insertInto("audit_log").values({ ...e, time: nowIso() }).execute();
  }

  async page(opts: { page: number; pageSize: number; switchId?: number; userId?: number; outcome?: AuditLogTable["outcome"]; action?: string }) {
    let q = this.db.selectFrom("audit_log");
    if (opts.switchId !== undefined) q = q.where("switch_id", "=", opts.switchId);
    if (opts.userId !== undefined) q = q.where("user_id", "=", opts.userId);
    if (opts.outcome !== undefined) q = q.where("outcome", "=", opts.outcome);
    if (opts.action !== undefined) q = q.where("action", "=", opts.action);
    const total = await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll()
      .orderBy("id", "desc")
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize)
      .execute();
    return {
      count: Number(total.n),
      results: rows.map((r) => ({
        ...r,
        id: Number(r.id),
        user_id: r.user_id === null ? null : Number(r.user_id),
        switch_id: r.switch_id === null ? null : Number(r.switch_id),
        group_id: r.group_id === null ? null : Number(r.group_id),
      })),
    };
  }

  /** log rows since a time (null: ever), optionally of one outcome and some actions */
  async countSince(since: string | null, only: { outcome?: AuditLogTable["outcome"]; actions?: readonly string[] } = {}): Promise<number> {
    let q = this.db.selectFrom("audit_log").select((eb) => eb.fn.countAll().as("n"));
    if (since) q = q.where("time", ">=", since);
    if (only.outcome) q = q.where("outcome", "=", only.outcome);
    if (only.actions) q = q.where("action", "in", [...only.actions]);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async count(): Promise<number> {
    return this.countSince(null);
  }
}

export const hourBucket = (d = new Date()): string => d.toISOString().slice(0, 13);

export class UsageRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** one API call by a user, optionally on a switch */
  async record(userId: number, switchId: number | null): Promise<void> {
    const row = { hour: hourBucket(), user_id: userId, switch_id: switchId ?? 0, calls: 1 };
    const q = this.db.insertInto("usage").values(row);
    // every instance counts into the same row: a lost race (Galera certification) is tried again
    await retryOnConflict(() =>
      this.dialect === "mysql"
        ? q.onDuplicateKeyUpdate({ calls: sql`calls + 1` }).execute()
        : q.onConflict((oc) => oc.columns(["hour", "user_id", "switch_id"]).doUpdateSet({ calls: sql`usage.calls + 1` })).execute(),
    );
  }

  async summary(sinceHour: string) {
    const calls = await this.db
      .selectFrom("usage")
      .select(sql<string>`coalesce(sum(calls), 0)`.as("n"))
      .where("hour", ">=", sinceHour)
      .executeTakeFirstOrThrow();
    const users = await this.db
      .selectFrom("usage")
      .select(sql<number>`count(distinct user_id)`.as("n"))
      .where("hour", ">=", sinceHour)
      .executeTakeFirstOrThrow();
    const devices = await this.db
      .selectFrom("usage")
      .select(sql<number>`count(distinct switch_id)`.as("n"))
      .where("hour", ">=", sinceHour)
      .where("switch_id", ">", 0)
      .executeTakeFirstOrThrow();
    // MariaDB returns SUM as a string: normalise here, not in callers
    return { calls: Number(calls.n), users: Number(users.n), devices: Number(devices.n) };
  }
}
