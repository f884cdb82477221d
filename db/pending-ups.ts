/**
 * Ports (or their PoE) that a bounce or a PoE power cycle switched off and has not yet
 * switched on again (migration 0011). The row is written before the port goes down and
 * deleted once it is up again; a row left behind (the instance stopped during the wait)
 * is found by the device's next write lease holder, which switches the port on
 * (app/port-cycles.ts).
 */
import type { Kysely, Selectable } from "kysely";
import type { Database, PendingPortUpsTable } from "./schema";
import { nowIso } from "./time";

export type PendingPortUp = Selectable<PendingPortUpsTable>;

export class PendingUpRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** records a port about to be switched off; its id */
  async add(row: Omit<PendingPortUp, "id" | "created">): Promise<number> {
    const r = await this.db
      .insertInto("pending_port_ups")
      .values({ ...row, created: nowIso() })
      .executeTakeFirstOrThrow();
    return Number(r.insertId);
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom("pending_port_ups").where("id", "=", id).execute();
  }

  /** a device's rows written under another write lease than `lease`, oldest first (at most 100) */
  async leftOf(switchId: number, lease: string): Promise<PendingPortUp[]> {
    const rows = await this.db
      .selectFrom("pending_port_ups")
      .selectAll()
      .where("switch_id", "=", switchId)
      .where("write_lease", "<>", lease)
      .orderBy("id")
      .limit(100)
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), switch_id: Number(r.switch_id) }));
  }

  /** the devices that have rows (for the sweep that takes their leases), at most 100 */
  async devices(): Promise<number[]> {
    const rows = await this.db.selectFrom("pending_port_ups").select("switch_id").distinct().limit(100).execute();
    return rows.map((r) => Number(r.switch_id));
  }
}
