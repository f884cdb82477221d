/**
 * Device groups, devices, SNMP and SSH credential profiles, and the relations between
 * them (group members, group users, group VLAN lists). Plain rows in, plain rows out;
 * the admin handlers shape them for the API and encrypt secrets before they get here.
 */
import type { Insertable, Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { Database } from "./schema";
import { isForeignKeyViolation, isUniqueViolation } from "./errors";

export type InventoryTable = "switch_groups" | "switches" | "snmp_profiles" | "credentials";
export type Row<T extends InventoryTable> = Selectable<Database[T]>;

export class DuplicateName extends Error {}
export class MissingReference extends Error {}

type Db = Kysely<Database> | Transaction<Database>;

/** group-relation tables: which column holds the other side */
const RELATIONS = {
  users: { table: "group_users", column: "user_id" },
  switches: { table: "group_switches", column: "switch_id" },
  vlans: { table: "group_vlans", column: "vlan_id" },
} as const;
export type Relation = keyof typeof RELATIONS;

const ID_COLUMNS = ["id", "snmp_profile_id", "credentials_profile_id", "group_id", "user_id", "switch_id"];

function normalise<T extends Record<string, any>>(row: T): T {
  // MariaDB may hand back ids as numbers or strings depending on type; keep numbers
  const out: Record<string, any> = { ...row };
  for (const k of ID_COLUMNS) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
  return out as T;
}

export class InventoryRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list<T extends InventoryTable>(table: T): Promise<Row<T>[]> {
    const rows = await (this.db.selectFrom(table as any).selectAll() as any).orderBy("name").orderBy("id").execute();
    return rows.map(normalise);
  }

  async get<T extends InventoryTable>(table: T, id: number, db: Db = this.db): Promise<Row<T> | null> {
    const row = await (db.selectFrom(table as any).selectAll() as any).where("id", "=", id).executeTakeFirst();
    return row ? normalise(row) : null;
  }

  async findByName<T extends InventoryTable>(table: T, name: string): Promise<Row<T> | null> {
    const row = await (this.db.selectFrom(table as any).selectAll() as any).where("name", "=", name).executeTakeFirst();
    return row ? normalise(row) : null;
  }

  /** Inserts a row and (for groups and switches) its relations in one transaction. */
  async create<T extends InventoryTable>(
    table: T,
    values: Insertable<Database[T]>,
    relations: { relation: Relation | "groups"; ids: number[] }[] = [],
  ): Promise<Row<T>> {
    return this.guard(() =>
      this.db.transaction().execute(async (tx) => {
        const res = await tx.insertInto(table).values(values as any).executeTakeFirstOrThrow();
        const id = Number(res.insertId);
        for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
        return (await this.get(table, id, tx))!;
      }),
    );
  }

  async update<T extends InventoryTable>(
    table: T,
    id: number,
    values: Updateable<Database[T]>,
    relations: { relation: Relation | "groups"; ids: number[] }[] = [],
  ): Promise<Row<T> | null> {
    return this.guard(() =>
      this.db.transaction().execute(async (tx) => {
        if (!(await this.get(table, id, tx))) return null;
        if (Object.keys(values).length) await (tx.updateTable(table) as any).set(values).where("id", "=", id).execute();
        for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
        return this.get(table, id, tx);
      }),
    );
  }

  async remove(table: InventoryTable, id: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      if (table === "switch_groups") {
        for (const r of Object.values(RELATIONS)) await tx.deleteFrom(r.table).where("group_id", "=", id).execute();
      }
      if (table === "switches") await tx.deleteFrom("group_switches").where("switch_id", "=", id).execute();
      if (table === "snmp_profiles") await tx.updateTable("switches").set({ snmp_profile_id: null }).where("snmp_profile_id", "=", id).execute();
      if (table === "credentials") await tx.updateTable("switches").set({ credentials_profile_id: null }).where("credentials_profile_id", "=", id).execute();
      const r = await (tx.deleteFrom(table) as any).where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  /** switches: "groups" is group_switches seen from the switch; groups: users/switches/vlans */
  private async replace(tx: Db, table: InventoryTable, id: number, relation: Relation | "groups", ids: number[]) {
    const unique = [...new Set(ids)];
    if (relation === "groups") {
      const col = table === "switches" ? "switch_id" : "user_id";
      const rel = table === "switches" ? "group_switches" : "group_users";
      await (tx.deleteFrom(rel) as any).where(col, "=", id).execute();
      if (unique.length) await (tx.insertInto(rel) as any).values(unique.map((g) => ({ group_id: g, [col]: id }))).execute();
      return;
    }
    const r = RELATIONS[relation];
    await (tx.deleteFrom(r.table) as any).where("group_id", "=", id).execute();
    if (unique.length) await (tx.insertInto(r.table) as any).values(unique.map((x) => ({ group_id: id, [r.column]: x }))).execute();
  }

  private async guard<R>(fn: () => Promise<R>): Promise<R> {
    try {
      return await fn();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateName("name already in use");
      if (isForeignKeyViolation(e)) throw new MissingReference("a referenced object does not exist");
      throw e;
    }
  }

  /** ids on the other side of a group relation, per group */
  async relationMap(relation: Relation): Promise<Map<number, number[]>> {
    const r = RELATIONS[relation];
    const rows: any[] = await (this.db.selectFrom(r.table) as any).selectAll().orderBy(r.column).execute();
    const out = new Map<number, number[]>();
    for (const row of rows) {
      const g = Number(row.group_id);
      if (!out.has(g)) out.set(g, []);
      out.get(g)!.push(Number(row[r.column]));
    }
    return out;
  }

  async groupsOfSwitch(switchId: number): Promise<number[]> {
    const rows = await this.db.selectFrom("group_switches").select("group_id").where("switch_id", "=", switchId).orderBy("group_id").execute();
    return rows.map((r) => Number(r.group_id));
  }

  async groupsOfUser(userId: number): Promise<number[]> {
    const rows = await this.db.selectFrom("group_users").select("group_id").where("user_id", "=", userId).orderBy("group_id").execute();
    return rows.map((r) => Number(r.group_id));
  }

  async existingIds(table: InventoryTable | "users", ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await (this.db.selectFrom(table as any).select("id") as any).where("id", "in", ids).execute();
    return rows.map((r: any) => Number(r.id));
  }

  async count(table: InventoryTable): Promise<number> {
    const r = await (this.db.selectFrom(table as any) as any).select((eb: any) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** groups that have at least one switch (OpenL2M counts those as "Switch Groups") */
  async countGroupsWithSwitches(): Promise<number> {
    const r = await this.db
      .selectFrom("group_switches")
      .select((eb) => eb.fn.count("group_id").distinct().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async countGroupVlans(): Promise<number> {
    const r = await this.db.selectFrom("group_vlans").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async setDriverInfo(switchId: number, info: string, hostname?: string): Promise<void> {
    const values: Record<string, string> = { driver_info: info };
    if (hostname !== undefined) values.hostname = hostname;
    await this.db.updateTable("switches").set(values).where("id", "=", switchId).execute();
  }

  // ---- appended for the admin API and the YAML import ----

  /** the ids on the other side of one group's relation (users, switches or vlans) */
  async relationOf(relation: Relation, groupId: number): Promise<number[]> {
    const r = RELATIONS[relation];
    const rows: any[] = await (this.db.selectFrom(r.table) as any).select(r.column).where("group_id", "=", groupId).orderBy(r.column).execute();
    return rows.map((row) => Number(row[r.column]));
  }

  /**
   * Several creates and updates as one transaction: all of them or none (the inventory
   * import applies a whole file this way). Same errors as create/update.
   */
  async writeAll<R>(fn: (w: InventoryWriter) => Promise<R>): Promise<R> {
    return this.guard(() =>
      this.db.transaction().execute((tx) =>
        fn({
          create: async (table, values, relations = []) => {
            const res = await tx.insertInto(table).values(values as any).executeTakeFirstOrThrow();
            const id = Number(res.insertId);
            for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
            return id;
          },
          update: async (table, id, values, relations = []) => {
            if (Object.keys(values).length) await (tx.updateTable(table) as any).set(values).where("id", "=", id).execute();
            for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
          },
        }),
      ),
    );
  }
}

export type RelationIds = { relation: Relation | "groups"; ids: number[] };

/** create/update inside InventoryRepo.writeAll's transaction */
export interface InventoryWriter {
  create<T extends InventoryTable>(table: T, values: Insertable<Database[T]>, relations?: RelationIds[]): Promise<number>;
  update<T extends InventoryTable>(table: T, id: number, values: Updateable<Database[T]>, relations?: RelationIds[]): Promise<void>;
}

/** A switches row with the schema's defaults, for code that builds rows itself (demo lab, tests). */
export function switchRow(values: Pick<Insertable<Database["switches"]>, "name"> & Partial<Insertable<Database["switches"]>>): Insertable<Database["switches"]> {
  return {
    hostname: values.name,
    description: "",
    comments: "",
    nms_id: "",
    primary_ipv4: null,
    primary_ipv6: null,
    snmp_port: 161,
    connector_type: 0,
    driver: "auto",
    snmp_profile_id: null,
    credentials_profile_id: null,
    read_only: 0,
    allow_poe_toggle: 0,
    edit_if_descr: 1,
    status: "active",
    default_view: 0,
    driver_info: "",
    lab: 0,
    ...values,
  };
}

/** An snmp_profiles row with the schema's defaults (secrets already encrypted by the caller). */
export function snmpProfileRow(
  values: Pick<Insertable<Database["snmp_profiles"]>, "name"> & Partial<Insertable<Database["snmp_profiles"]>>,
): Insertable<Database["snmp_profiles"]> {
  return {
    description: "",
    version: "2c",
    community_enc: null,
    read_only: 0,
    username: "",
    auth_protocol: null,
    auth_key_enc: null,
    priv_protocol: null,
    priv_key_enc: null,
    context: "",
    timeout_ms: 2000,
    retries: 1,
    ...values,
  };
}
