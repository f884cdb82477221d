/**
 * The audit log (every change and every failed change, with who, from where, what,
 * before and after) and the hourly usage counters behind api/stats/ (one row per hour,
 * instance, user and switch: app/usage-counter.ts).
 */
import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import type { AuditLogTable, Database } from "./schema";
import { nowIso } from "./time";
import { retryOnConflict } from "./errors";
import type { DialectName } from "./connect";

/** A row to write: everything but the id and the time, which the repository sets. */
export type AuditEntry = Omit<Insertable<AuditLogTable>, "id" | "time" | "write_lease">;

/** A row as read, ids as numbers on both dialects. */
export type AuditRow = Omit<Selectable<AuditLogTable>, "write_lease">;

/** How a pending row ends: its outcome and what the device phase learned. */
export interface Settlement {
  outcome: Exclude<AuditLogTable["outcome"], "pending">;
  code: string | null;
  message: string;
  interface?: string;
  old_value?: string;
  new_value?: string;
}

/** A pending row left by an earlier write, as its settler needs it. */
export interface PendingRow {
  id: number;
  time: string;
  switch_name: string;
  write_lease: string;
}

export class AuditRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async write(e: AuditEntry): Promise<void> {
    await this.db
      .insertInto("audit_log")
      .values({ ...e, time: nowIso() })
      .execute();
  }

  /**
   * The row of a device write about to change the device, outcome "pending", under the
   * write lease `lease`; its id, for settle().
   */
  async writePending(e: AuditEntry, lease: string): Promise<number> {
    const r = await this.db
      .insertInto("audit_log")
      .values({ ...e, outcome: "pending", write_lease: lease, time: nowIso() })
      .executeTakeFirstOrThrow();
    return Number(r.insertId);
  }

  /**
   * Settles a pending row with what the device answered, by id. A row that the device's
   * next lease holder already called unknown (its writer had lost the lease while still
   * working) gets the outcome its writer learned after all.
   */
  async settle(id: number, s: Settlement): Promise<void> {
    const changes: Record<string, string | null> = { outcome: s.outcome, code: s.code, message: s.message };
    for (const k of ["interface", "old_value", "new_value"] as const) if (s[k] !== undefined) changes[k] = s[k]!;
    await this.db
      .updateTable("audit_log")
      .set(changes)
      .where("id", "=", id)
      .where("outcome", "in", ["pending", "unknown"])
      .execute();
  }

  /** The pending rows of a device written under another write lease than `lease`, oldest first. */
  async pendingOf(switchId: number, lease: string): Promise<PendingRow[]> {
    const rows = await this.db
      .selectFrom("audit_log")
      .select(["id", "time", "switch_name", "write_lease"])
      .where("outcome", "=", "pending")
      .where("switch_id", "=", switchId)
      .where("write_lease", "<>", lease)
      .orderBy("id")
      .limit(100)
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  /** Settles one leftover pending row as not known (only while it is still pending). */
  async settleUnknown(id: number, code: string, message: string): Promise<boolean> {
    const r = await this.db
      .updateTable("audit_log")
      .set({ outcome: "unknown", code, message })
      .where("id", "=", id)
      .where("outcome", "=", "pending")
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async page(opts: {
    page: number;
    pageSize: number;
    switchId?: number;
    userId?: number;
    outcome?: AuditLogTable["outcome"];
    action?: string;
    batchId?: string;
  }) {
    let q = this.db.selectFrom("audit_log");
    if (opts.batchId !== undefined) q = q.where("batch_id", "=", opts.batchId);
    if (opts.switchId !== undefined) q = q.where("switch_id", "=", opts.switchId);
    if (opts.userId !== undefined) q = q.where("user_id", "=", opts.userId);
    if (opts.outcome !== undefined) q = q.where("outcome", "=", opts.outcome);
    if (opts.action !== undefined) q = q.where("action", "=", opts.action);
    const total = await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const rows = await q
      .select([
        "id",
        "time",
        "user_id",
        "username",
        "source_address",
        "switch_id",
        "switch_name",
        "group_id",
        "interface",
        "action",
        "old_value",
        "new_value",
        "outcome",
        "code",
        "message",
        "batch_id",
      ])
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
  async countSince(
    since: string | null,
    only: { outcome?: AuditLogTable["outcome"]; actions?: readonly string[] } = {},
  ): Promise<number> {
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

/** Calls counted by one instance in one hour, by one user on one switch (0: none). */
export interface UsageCount {
  hour: string;
  user_id: number;
  switch_id: number;
  calls: number;
}

export class UsageRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Adds an instance's counts to its own rows in one statement. Only that instance writes
   * rows with its name, so no other instance races it; a lost race all the same (a Galera
   * certification) is tried again.
   */
  async add(instance: string, counts: readonly UsageCount[]): Promise<void> {
    if (counts.length === 0) return;
    const q = this.db.insertInto("usage_counts").values(counts.map((c) => ({ ...c, instance })));
    await retryOnConflict(() =>
      this.dialect === "mysql"
        ? q.onDuplicateKeyUpdate({ calls: sql`calls + values(calls)` }).execute()
        : q
            .onConflict((oc) =>
              oc
                .columns(["hour", "instance", "user_id", "switch_id"])
                .doUpdateSet({ calls: sql`usage_counts.calls + excluded.calls` }),
            )
            .execute(),
    );
  }

  /** one API call by a user, optionally on a switch, added at once (tests; the service counts in memory) */
  async record(userId: number, switchId: number | null, instance = "direct"): Promise<void> {
    await this.add(instance, [{ hour: hourBucket(), user_id: userId, switch_id: switchId ?? 0, calls: 1 }]);
  }

  async summary(sinceHour: string) {
    const calls = await this.db
      .selectFrom("usage_counts")
      .select(sql<string>`coalesce(sum(calls), 0)`.as("n"))
      .where("hour", ">=", sinceHour)
      .executeTakeFirstOrThrow();
    const users = await this.db
      .selectFrom("usage_counts")
      .select(sql<number>`count(distinct user_id)`.as("n"))
      .where("hour", ">=", sinceHour)
      .executeTakeFirstOrThrow();
    const devices = await this.db
      .selectFrom("usage_counts")
      .select(sql<number>`count(distinct switch_id)`.as("n"))
      .where("hour", ">=", sinceHour)
      .where("switch_id", ">", 0)
      .executeTakeFirstOrThrow();
    // MariaDB returns SUM as a string: normalise here, not in callers
    return { calls: Number(calls.n), users: Number(users.n), devices: Number(devices.n) };
  }
}
