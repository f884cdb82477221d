/**
 * Device groups, devices, SNMP and credential (SSH and API) profiles, and the relations between
 * them (group members, group users, group VLAN lists). Plain rows in, plain rows out;
 * the admin handlers shape them for the API and encrypt secrets before they get here.
 */
import { atomic } from "./atomic";
import {
  sql,
  type Insertable,
  type Kysely,
  type Selectable,
  type Simplify,
  type Transaction,
  type Updateable,
} from "kysely";
import type { Database } from "./schema";
import { isForeignKeyViolation, isUniqueViolation, retryOnConflict } from "./errors";
import { Prepared } from "./prepared";

export type InventoryTable = "switch_groups" | "switches" | "snmp_profiles" | "credentials";
export type Row<T extends InventoryTable> = Simplify<Selectable<Database[T]>>;

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
type RelationTable = (typeof RELATIONS)[Relation]["table"];
type RelationColumn = (typeof RELATIONS)[Relation]["column"];

/** A group relation row as read: the group and the id on the other side. */
interface RelationRow {
  group_id: number;
  other: number;
}

const ID_COLUMNS = ["id", "snmp_profile_id", "credentials_profile_id"] as const;

/** MariaDB may hand back ids as numbers or strings depending on the column type: keep numbers. */
function normalise<R extends object>(row: R): R {
  const out = { ...row };
  for (const k of ID_COLUMNS) {
    if (k in out) {
      const v: unknown = Reflect.get(out, k);
      if (v !== null && v !== undefined) Reflect.set(out, k, Number(v));
    }
  }
  return out;
}

/** the row's id column of an inventory table whose name is only known at run time */
const idColumn = sql.ref<number>("t.id");
const nameColumn = sql.ref<string>("t.name");

/** a row of an inventory table by id (the SNMP profile is read on every device call): compiled once per table */
const byId = new Map<InventoryTable, Prepared<Database, [id: number], unknown>>();
function rowById(table: InventoryTable): Prepared<Database, [id: number], unknown> {
  let p = byId.get(table);
  if (!p) {
    p = new Prepared(1, (db: Kysely<Database>, id: number) =>
      db.selectFrom(db.dynamic.table(table).as("t")).selectAll().where(idColumn, "=", id),
    );
    byId.set(table, p);
  }
  return p;
}

/** the columns of an SNMP profile, read with its device under these names */
const PROFILE_COLUMNS = [
  "id",
  "name",
  "description",
  "version",
  "community_enc",
  "read_only",
  "username",
  "auth_protocol",
  "auth_key_enc",
  "priv_protocol",
  "priv_key_enc",
  "context",
  "timeout_ms",
  "retries",
] as const satisfies readonly (keyof Row<"snmp_profiles">)[];
const profileAlias = (c: string) => `profile_${c}`;

/** The given columns of a table, checked at compile time to be all of them. */
function allColumns<T>() {
  return <const C extends readonly (keyof T)[]>(
    columns: C & ([Exclude<keyof T, C[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, C[number]> }),
  ): C => columns;
}

/** the columns of a group (read with the device under these names by pair()) */
export const GROUP_COLUMNS = allColumns<Row<"switch_groups">>()([
  "id",
  "name",
  "description",
  "display_name",
  "comments",
  "read_only",
  "allow_poe_toggle",
  "edit_if_descr",
  "allow_all_vlans",
  "bulk_edit",
]);
const groupAlias = (c: string) => `group_${c}`;

/**
 * What a call on a (group, device) pair needs, in one statement: the device, its SNMP
 * profile (null without one), the group (null when there is none), the group's VLANs
 * (comma-separated, null without any, and their sum) and whether the device is
 * in the group. No row when the device does not exist.
 */
const pairRow = new Prepared(2, (db: Kysely<Database>, groupId: number, switchId: number) =>
  db
    .selectFrom("switches as t")
    .leftJoin("snmp_profiles as p", "p.id", "t.snmp_profile_id")
    .leftJoin("switch_groups as g", (join) => join.on("g.id", "=", groupId))
    .selectAll("t")
    .select(PROFILE_COLUMNS.map((c) => sql.ref<unknown>(`p.${c}`).as(profileAlias(c))))
    .select(GROUP_COLUMNS.map((c) => sql.ref<unknown>(`g.${c}`).as(groupAlias(c))))
    .select(
      sql<string | null>`(select group_concat(v.vlan_id) from group_vlans v where v.group_id = g.id)`.as("pair_vlans"),
    )
    .select(sql<number | null>`(select sum(c.vlan_id) from group_vlans c where c.group_id = g.id)`.as("pair_vlan_sum"))
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("group_switches as m")
            .select("m.group_id")
            .where("m.group_id", "=", groupId)
            .where("m.switch_id", "=", switchId),
        )
        .as("pair_in_group"),
    )
    .where("t.id", "=", switchId),
);

/**
 * A group's VLANs from pair()'s `group_concat` column (text on SQLite; MariaDB may give a
 * number's group_concat as bytes), ascending; null when the text is not the whole list: a
 * server whose group_concat_max_len cut it short (MySQL's default is 1 kB) drops VLANs or
 * cuts the last one's digits, either way the sum comes out smaller than `sum`.
 */
export function vlanListOf(listed: unknown, sum: unknown): number[] | null {
  const text = typeof listed === "string" ? listed : Buffer.isBuffer(listed) ? listed.toString("latin1") : "";
  const vlans = text === "" ? [] : text.split(",").map(Number);
  if (vlans.some((v) => !Number.isInteger(v) || v < 1)) return null;
  if (vlans.reduce((a, b) => a + b, 0) !== Number(sum ?? 0)) return null;
  return vlans.sort((a, b) => a - b);
}

export class InventoryRepo {
  constructor(private readonly db: Kysely<Database>) {}

  private rows<T extends InventoryTable>(table: T, db: Db = this.db) {
    return db.selectFrom(db.dynamic.table(table).as("t")).selectAll().$castTo<Selectable<Database[T]>>();
  }

  async list<T extends InventoryTable>(table: T): Promise<Row<T>[]> {
    const rows = await this.rows(table).orderBy(nameColumn).orderBy(idColumn).execute();
    return rows.map(normalise);
  }

  async get<T extends InventoryTable>(table: T, id: number, db: Db = this.db): Promise<Row<T> | null> {
    const [row] = (await rowById(table).rows(db, id)) as Row<T>[];
    return row ? normalise(row) : null;
  }

  async findByName<T extends InventoryTable>(table: T, name: string): Promise<Row<T> | null> {
    const row = await this.rows(table).where(nameColumn, "=", name).executeTakeFirst();
    return row ? normalise(row) : null;
  }

  /**
   * The inventory's version (migration 0014): raised in the same transaction as every
   * change to groups, devices, their relations and the device fields the menu shows, on
   * any instance. Equal versions read at two times mean the menu's inputs did not change.
   */
  async version(): Promise<number> {
    const row = await this.db.selectFrom("inventory_version").select("version").where("id", "=", 1).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** raises the version inside the transaction of the change */
  private async bump(tx: Db): Promise<void> {
    await tx
      .updateTable("inventory_version")
      .set({ version: sql<number>`version + 1` })
      .where("id", "=", 1)
      .execute();
  }

  /** Inserts a row and (for groups and switches) its relations in one transaction. */
  async create<T extends InventoryTable>(
    table: T,
    values: Insertable<Database[T]>,
    relations: RelationIds[] = [],
  ): Promise<Row<T>> {
    return this.guard(() =>
      atomic(this.db, async (tx) => {
        const id = await this.insertRow(tx, table, values);
        for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
        await this.bump(tx);
        return (await this.get(table, id, tx))!;
      }),
    );
  }

  async update<T extends InventoryTable>(
    table: T,
    id: number,
    values: Updateable<Database[T]>,
    relations: RelationIds[] = [],
  ): Promise<Row<T> | null> {
    return this.guard(() =>
      atomic(this.db, async (tx) => {
        if (!(await this.get(table, id, tx))) return null;
        await this.updateRow(tx, table, id, values);
        for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
        await this.bump(tx);
        return this.get(table, id, tx);
      }),
    );
  }

  private async insertRow<T extends InventoryTable>(
    tx: Db,
    table: T,
    values: Insertable<Database[T]>,
  ): Promise<number> {
    const res = await tx.insertInto(table).values(values).executeTakeFirstOrThrow();
    return Number(res.insertId);
  }

  /** The given columns of one row; the column names are the typed keys of the table's Updateable. */
  private async updateRow<T extends InventoryTable>(
    tx: Db,
    table: T,
    id: number,
    values: Updateable<Database[T]>,
  ): Promise<void> {
    const assignments = Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
    if (!assignments.length) return;
    await sql`update ${sql.table(table)} set ${sql.join(assignments)} where ${sql.ref("id")} = ${id}`.execute(tx);
  }

  async remove(table: InventoryTable, id: number): Promise<boolean> {
    return this.retrying(() =>
      atomic(this.db, async (tx) => {
        if (table === "switch_groups") {
          for (const r of Object.values(RELATIONS)) await tx.deleteFrom(r.table).where("group_id", "=", id).execute();
        }
        if (table === "switches") await tx.deleteFrom("group_switches").where("switch_id", "=", id).execute();
        if (table === "snmp_profiles")
          await tx.updateTable("switches").set({ snmp_profile_id: null }).where("snmp_profile_id", "=", id).execute();
        if (table === "credentials")
          await tx
            .updateTable("switches")
            .set({ credentials_profile_id: null })
            .where("credentials_profile_id", "=", id)
            .execute();
        // MariaDB takes no alias in a single-table DELETE
        const r = await sql`delete from ${sql.table(table)} where ${sql.ref("id")} = ${id}`.execute(tx);
        await this.bump(tx);
        return Number(r.numAffectedRows ?? 0) > 0;
      }),
    );
  }

  /** replaces one side of a relation: a group's users, switches or VLANs, or a switch's or user's groups */
  private async replace(tx: Db, table: InventoryTable, id: number, relation: Relation | "groups", ids: number[]) {
    const unique = [...new Set(ids)];
    if (relation === "groups") {
      const r = table === "switches" ? RELATIONS.switches : RELATIONS.users;
      await this.setRelation(tx, r.table, r.column, "other", id, unique);
      return;
    }
    const r = RELATIONS[relation];
    await this.setRelation(tx, r.table, r.column, "group", id, unique);
  }

  /** `fixed` says which side `id` is: the group, or the other side (a switch or user) */
  private async setRelation(
    tx: Db,
    table: RelationTable,
    column: RelationColumn,
    fixed: "group" | "other",
    id: number,
    others: number[],
  ) {
    const fixedColumn = fixed === "group" ? "group_id" : column;
    await sql`delete from ${sql.table(table)} where ${sql.ref(fixedColumn)} = ${id}`.execute(tx);
    if (!others.length) return;
    const rows = others.map((other) => (fixed === "group" ? sql`(${id}, ${other})` : sql`(${other}, ${id})`));
    await sql`insert into ${sql.table(table)} (${sql.ref("group_id")}, ${sql.ref(column)}) values ${sql.join(rows)}`.execute(
      tx,
    );
  }

  /**
   * A change tried again (whole, bounded) when another writer won a race: every change
   * raises the one version row, so two changes made at once on two Galera nodes conflict
   * at commit even on different rows. Inside a caller's transaction the caller decides.
   */
  private retrying<R>(fn: () => Promise<R>): Promise<R> {
    return this.db.isTransaction ? fn() : retryOnConflict(fn);
  }

  /** a change's errors as the API's, the change retried as above */
  private async guard<R>(fn: () => Promise<R>): Promise<R> {
    try {
      return await this.retrying(fn);
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateName("name already in use");
      if (isForeignKeyViolation(e)) throw new MissingReference("a referenced object does not exist");
      throw e;
    }
  }

  private async relationRows(relation: Relation, groupId?: number): Promise<RelationRow[]> {
    const r = RELATIONS[relation];
    const where = groupId === undefined ? sql`` : sql`where ${sql.ref("group_id")} = ${groupId}`;
    const result =
      await sql<RelationRow>`select ${sql.ref("group_id")} as group_id, ${sql.ref(r.column)} as other from ${sql.table(r.table)} ${where} order by other`.execute(
        this.db,
      );
    return result.rows.map((row) => ({ group_id: Number(row.group_id), other: Number(row.other) }));
  }

  /** ids on the other side of a group relation, per group */
  async relationMap(relation: Relation): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    for (const row of await this.relationRows(relation)) {
      if (!out.has(row.group_id)) out.set(row.group_id, []);
      out.get(row.group_id)!.push(row.other);
    }
    return out;
  }

  /**
   * One side of a group relation, ascending: the groups a switch or user is in
   * ("groups"), or what a group holds ("members": its users, switches or VLANs).
   */
  private async related(relation: Relation, side: "groups" | "members", id: number): Promise<number[]> {
    const r = RELATIONS[relation];
    const [wanted, given] = side === "groups" ? ["group_id", r.column] : [r.column, "group_id"];
    const result = await sql<{
      v: number;
    }>`select ${sql.ref(wanted)} as v from ${sql.table(r.table)} where ${sql.ref(given)} = ${id} order by v`.execute(
      this.db,
    );
    return result.rows.map((row) => Number(row.v));
  }

  async groupsOfSwitch(switchId: number): Promise<number[]> {
    return this.related("switches", "groups", switchId);
  }

  async groupsOfUser(userId: number): Promise<number[]> {
    return this.related("users", "groups", userId);
  }

  /**
   * What decides whether a user may use a (group, switch) pair, in two queries: the group
   * with its VLAN list (one row per VLAN), and the switch with whether it is a member of
   * the group and its SNMP profile (read here so that the call needs no statement of its
   * own for it; app/devices.ts). Whether the user is in the group comes from `userGroups` when the caller
   * already holds them (the groups read with its token or session), else a third query.
   */
  async pair(groupId: number, switchId: number, userId: number, userGroups?: readonly number[]) {
    const [row, userInGroup] = await Promise.all([
      pairRow.rows(this.db, groupId, switchId).then((rows) => rows[0] as Record<string, unknown> | undefined),
      userGroups
        ? Promise.resolve(userGroups.includes(groupId))
        : this.db
            .selectFrom("group_users")
            .select("group_id")
            .where("group_id", "=", groupId)
            .where("user_id", "=", userId)
            .executeTakeFirst()
            .then((r) => r !== undefined),
    ]);
    let group: Row<"switch_groups"> | null = null;
    let vlans: number[] = [];
    let device: Row<"switches"> | null = null;
    let switchInGroup = false;
    let snmpProfile: Row<"snmp_profiles"> | null = null;
    if (row) {
      const d: Record<string, unknown> = {};
      const p: Record<string, unknown> = {};
      const g: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row)) {
        if (k.startsWith("profile_")) p[k.slice("profile_".length)] = v;
        else if (k.startsWith("group_")) g[k.slice("group_".length)] = v;
        else if (!k.startsWith("pair_")) d[k] = v;
      }
      device = normalise(d as Row<"switches">);
      switchInGroup = Number(row.pair_in_group) === 1;
      if (p.id !== null && p.id !== undefined) snmpProfile = normalise(p as Row<"snmp_profiles">);
      if (g.id !== null && g.id !== undefined) {
        group = normalise(g as Row<"switch_groups">);
        vlans = vlanListOf(row.pair_vlans, row.pair_vlan_sum) ?? (await this.groupVlans(groupId));
      }
    }
    return { group, vlans, device, switchInGroup, userInGroup, snmpProfile };
  }

  /** a group's VLANs, ascending */
  async groupVlans(groupId: number): Promise<number[]> {
    return this.related("vlans", "members", groupId);
  }

  /** group name -> id, for the names that exist */
  async groupIdsByName(names: string[]): Promise<Map<string, number>> {
    if (!names.length) return new Map();
    const rows = await this.db.selectFrom("switch_groups").select(["id", "name"]).where("name", "in", names).execute();
    return new Map(rows.map((r) => [r.name, Number(r.id)]));
  }

  async existingIds(table: InventoryTable | "users", ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .selectFrom(this.db.dynamic.table(table).as("t"))
      .select(idColumn.as("id"))
      .where(idColumn, "in", ids)
      .execute();
    return rows.map((r) => Number(r.id));
  }

  /** switches of the inventory's own (lab: false) or of the demo lab (lab: true) */
  async countSwitches(where: { lab: boolean }): Promise<number> {
    const r = await this.db
      .selectFrom("switches")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("lab", "=", where.lab ? 1 : 0)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async setLabSwitchStatus(status: "active" | "inactive"): Promise<void> {
    await this.retrying(() =>
      atomic(this.db, async (tx) => {
        await tx.updateTable("switches").set({ status }).where("lab", "=", 1).execute();
        await this.bump(tx);
      }),
    );
  }

  async count(table: InventoryTable): Promise<number> {
    const r = await this.db
      .selectFrom(this.db.dynamic.table(table).as("t"))
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
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
    const r = await this.db
      .selectFrom("group_vlans")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** what "auto" chose for a switch (null: forget it, the next call probes) */
  async setDetection(switchId: number, detection: { driver: string; sysObjectId: string } | null): Promise<void> {
    await this.db
      .updateTable("switches")
      .set({ detected_driver: detection?.driver ?? null, detected_sysobjectid: detection?.sysObjectId ?? null })
      .where("id", "=", switchId)
      .execute();
  }

  /** pin a switch's SSH host key (null: forget it, the next contact pins anew) */
  async pinHostKey(switchId: number, fingerprint: string | null, at: string | null): Promise<void> {
    await this.db
      .updateTable("switches")
      .set({ ssh_host_key: fingerprint, ssh_host_key_accepted: at, ssh_host_key_presented: null })
      .where("id", "=", switchId)
      .execute();
  }

  /**
   * Trust on first use: pins the host key (ssh) or certificate (tls) a switch presented at
   * its first contact, only while none is pinned. True when this call pinned it (so the
   * caller records it once; of two first contacts at once, one pins).
   */
  async pinFirst(switchId: number, kind: "ssh" | "tls", fingerprint: string, at: string): Promise<boolean> {
    const r =
      kind === "ssh"
        ? await this.db
            .updateTable("switches")
            .set({ ssh_host_key: fingerprint, ssh_host_key_accepted: at, ssh_host_key_presented: null })
            .where("id", "=", switchId)
            .where("ssh_host_key", "is", null)
            .executeTakeFirst()
        : await this.db
            .updateTable("switches")
            .set({ tls_certificate: fingerprint, tls_certificate_accepted: at, tls_certificate_presented: null })
            .where("id", "=", switchId)
            .where("tls_certificate", "is", null)
            .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** pin a switch's TLS certificate (null: forget it, the next contact pins anew) */
  async pinCertificate(switchId: number, fingerprint: string | null, at: string | null): Promise<void> {
    await this.db
      .updateTable("switches")
      .set({ tls_certificate: fingerprint, tls_certificate_accepted: at, tls_certificate_presented: null })
      .where("id", "=", switchId)
      .execute();
  }

  /** a different TLS certificate the switch presented, kept until an administrator accepts it */
  async presentedCertificate(switchId: number, fingerprint: string): Promise<void> {
    await this.db
      .updateTable("switches")
      .set({ tls_certificate_presented: fingerprint })
      .where("id", "=", switchId)
      .execute();
  }

  /** a different host key the switch presented, kept until an administrator accepts it */
  async presentedHostKey(switchId: number, fingerprint: string): Promise<void> {
    await this.db
      .updateTable("switches")
      .set({ ssh_host_key_presented: fingerprint })
      .where("id", "=", switchId)
      .execute();
  }

  async setDriverInfo(switchId: number, info: string, hostname?: string): Promise<void> {
    const values: Record<string, string> = { driver_info: info };
    if (hostname !== undefined) values.hostname = hostname;
    // learns on two instances at once may raise the version together: a lost race is tried again
    await retryOnConflict(() =>
      atomic(this.db, async (tx) => {
        await tx.updateTable("switches").set(values).where("id", "=", switchId).execute();
        await this.bump(tx);
      }),
    );
  }

  /** the ids on the other side of one group's relation (users, switches or vlans) */
  async relationOf(relation: Relation, groupId: number): Promise<number[]> {
    return (await this.relationRows(relation, groupId)).map((row) => row.other);
  }

  /**
   * Several creates and updates as one transaction: all of them or none (the inventory
   * import applies a whole file this way). Same errors as create/update.
   */
  async writeAll<R>(fn: (w: InventoryWriter) => Promise<R>): Promise<R> {
    return this.guard(() =>
      atomic(this.db, async (tx) => {
        const result = await fn({
          create: async (table, values, relations = []) => {
            const id = await this.insertRow(tx, table, values);
            for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
            return id;
          },
          update: async (table, id, values, relations = []) => {
            await this.updateRow(tx, table, id, values);
            for (const r of relations) await this.replace(tx, table, id, r.relation, r.ids);
          },
        });
        await this.bump(tx);
        return result;
      }),
    );
  }
}

export type RelationIds = { relation: Relation | "groups"; ids: number[] };

/** create/update inside InventoryRepo.writeAll's transaction */
export interface InventoryWriter {
  create<T extends InventoryTable>(
    table: T,
    values: Insertable<Database[T]>,
    relations?: RelationIds[],
  ): Promise<number>;
  update<T extends InventoryTable>(
    table: T,
    id: number,
    values: Updateable<Database[T]>,
    relations?: RelationIds[],
  ): Promise<void>;
}

/** A switches row with the schema's defaults, for code that builds rows itself (demo lab, tests). */
export function switchRow(
  values: Pick<Insertable<Database["switches"]>, "name"> & Partial<Insertable<Database["switches"]>>,
): Insertable<Database["switches"]> {
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
    detected_driver: null,
    detected_sysobjectid: null,
    ssh_host_key: null,
    ssh_host_key_accepted: null,
    ssh_host_key_presented: null,
    tls_certificate: null,
    tls_certificate_accepted: null,
    tls_certificate_presented: null,
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
