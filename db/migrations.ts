/**
 * One set of migrations for both dialects. Each migration is code (Kysely's schema
 * builder); the few dialect differences (case-insensitive usernames, table charset) are
 * handled here and nowhere else.
 */
import {
  Kysely,
  Migration,
  MigrationProvider,
  Migrator,
  sql,
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
} from "kysely";
import type { Store } from "./connect";
import type { Database } from "./schema";
import { LeaseRepo, type LeaseTableName } from "./leases";

// migrations are written against the schema of their own time, not today's Database
// type: they build tables and run SQL, and query no table through the typed builder
type AnyDb = Kysely<unknown>;
/** what building a table needs (also run outside the migrations, on the typed store) */
type SchemaDb = Pick<AnyDb, "schema">;

function table(db: SchemaDb, dialect: Store["dialect"], name: string): CreateTableBuilder<string, never> {
  const t = db.schema.createTable(name);
  return dialect === "mysql" ? t.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_unicode_ci`) : t;
}

/** Names compared without regard to case in both dialects (MariaDB's _ci collation). */
function ciText(dialect: Store["dialect"]) {
  return dialect === "sqlite" ? sql`varchar(150) collate nocase` : sql`varchar(150)`;
}

function initial(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      const bool = (v: 0 | 1) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(v);
      await table(db, dialect, "users")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("username", ciText(dialect), (c) => c.notNull().unique())
        .addColumn("password", "varchar(255)", (c) => c.notNull())
        .addColumn("first_name", "varchar(150)", (c) => c.notNull().defaultTo(""))
        .addColumn("last_name", "varchar(150)", (c) => c.notNull().defaultTo(""))
        .addColumn("email", "varchar(254)", (c) => c.notNull().defaultTo(""))
        .addColumn("date_joined", "varchar(32)", (c) => c.notNull())
        .addColumn("last_login", "varchar(32)")
        .addColumn("is_active", "integer", bool(1))
        .addColumn("is_staff", "integer", bool(0))
        .addColumn("is_superuser", "integer", bool(0))
        .execute();
      await table(db, dialect, "profiles")
        .addColumn("user_id", "integer", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
        .addColumn("allow_poe_toggle", "integer", bool(0))
        .addColumn("are_you_sure", "integer", bool(1))
        .addColumn("bulk_edit", "integer", bool(1))
        .addColumn("edit_if_descr", "integer", bool(1))
        .addColumn("read_only", "integer", bool(0))
        .addColumn("vlan_edit", "integer", bool(0))
        .addColumn("theme", "varchar(20)", (c) => c.notNull().defaultTo("light"))
        .addColumn("last_ldap_dn", "varchar(1024)", (c) => c.notNull().defaultTo(""))
        .addColumn("last_ldap_login", "varchar(32)")
        .execute();
      await table(db, dialect, "tokens")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("created", "varchar(32)", (c) => c.notNull())
        .addColumn("expires", "varchar(32)")
        .addColumn("last_used", "varchar(32)")
        .addColumn("write_enabled", "integer", bool(1))
        .addColumn("description", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema.createIndex("tokens_user").on("tokens").column("user_id").execute();
      await table(db, dialect, "sessions")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull().unique())
        .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
        .addColumn("csrf_token", "varchar(64)", (c) => c.notNull())
        .addColumn("created", "varchar(32)", (c) => c.notNull())
        .addColumn("expires", "varchar(32)", (c) => c.notNull())
        .execute();
      await table(db, dialect, "switch_groups")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("name", ciText(dialect), (c) => c.notNull().unique())
        .addColumn("description", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("display_name", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("comments", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .addColumn("read_only", "integer", bool(0))
        .addColumn("allow_poe_toggle", "integer", bool(0))
        .addColumn("edit_if_descr", "integer", bool(1))
        .addColumn("allow_all_vlans", "integer", bool(0))
        .execute();
      await table(db, dialect, "snmp_profiles")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("name", ciText(dialect), (c) => c.notNull().unique())
        .addColumn("description", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("version", "varchar(4)", (c) => c.notNull().defaultTo("2c"))
        .addColumn("community_enc", "text")
        .addColumn("read_only", "integer", bool(0))
        .addColumn("username", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("auth_protocol", "varchar(16)")
        .addColumn("auth_key_enc", "text")
        .addColumn("priv_protocol", "varchar(16)")
        .addColumn("priv_key_enc", "text")
        .addColumn("context", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("timeout_ms", "integer", (c) => c.notNull().defaultTo(2000))
        .addColumn("retries", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await table(db, dialect, "credentials")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("name", ciText(dialect), (c) => c.notNull().unique())
        .addColumn("description", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("username", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("password_enc", "text")
        .addColumn("private_key_enc", "text")
        .addColumn("enable_password_enc", "text")
        .addColumn("port", "integer", (c) => c.notNull().defaultTo(22))
        .execute();
      await table(db, dialect, "switches")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("name", ciText(dialect), (c) => c.notNull().unique())
        .addColumn("hostname", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("description", "varchar(255)", (c) => c.notNull().defaultTo(""))
        .addColumn("comments", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .addColumn("nms_id", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("primary_ipv4", "varchar(64)")
        .addColumn("primary_ipv6", "varchar(64)")
        .addColumn("snmp_port", "integer", (c) => c.notNull().defaultTo(161))
        .addColumn("connector_type", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("driver", "varchar(64)", (c) => c.notNull().defaultTo("auto"))
        .addColumn("snmp_profile_id", "integer", (c) => c.references("snmp_profiles.id").onDelete("set null"))
        .addColumn("credentials_profile_id", "integer", (c) => c.references("credentials.id").onDelete("set null"))
        .addColumn("read_only", "integer", bool(0))
        .addColumn("allow_poe_toggle", "integer", bool(0))
        .addColumn("edit_if_descr", "integer", bool(1))
        .addColumn("status", "varchar(16)", (c) => c.notNull().defaultTo("active"))
        .addColumn("default_view", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("driver_info", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .addColumn("lab", "integer", bool(0))
        .execute();
      for (const [name, other, otherTable] of [
        ["group_users", "user_id", "users"],
        ["group_switches", "switch_id", "switches"],
      ] as const) {
        await table(db, dialect, name)
          .addColumn("group_id", "integer", (c) => c.notNull().references("switch_groups.id").onDelete("cascade"))
          .addColumn(other, "integer", (c) => c.notNull().references(`${otherTable}.id`).onDelete("cascade"))
          .addPrimaryKeyConstraint(`${name}_pk`, ["group_id", other])
          .execute();
      }
      await table(db, dialect, "group_vlans")
        .addColumn("group_id", "integer", (c) => c.notNull().references("switch_groups.id").onDelete("cascade"))
        .addColumn("vlan_id", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("group_vlans_pk", ["group_id", "vlan_id"])
        .execute();
      await table(db, dialect, "audit_log")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("time", "varchar(32)", (c) => c.notNull())
        .addColumn("user_id", "integer")
        .addColumn("username", "varchar(150)", (c) => c.notNull().defaultTo(""))
        .addColumn("source_address", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .addColumn("switch_id", "integer")
        .addColumn("switch_name", "varchar(150)", (c) => c.notNull().defaultTo(""))
        .addColumn("group_id", "integer")
        .addColumn("interface", "varchar(128)", (c) => c.notNull().defaultTo(""))
        .addColumn("action", "varchar(64)", (c) => c.notNull())
        .addColumn("old_value", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .addColumn("new_value", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .addColumn("outcome", "varchar(16)", (c) => c.notNull())
        .addColumn("code", "varchar(64)")
        .addColumn("message", "text", (c) => c.notNull().defaultTo(sql`('')`))
        .execute();
      await db.schema.createIndex("audit_log_time").on("audit_log").column("time").execute();
      await db.schema.createIndex("audit_log_switch").on("audit_log").columns(["switch_id", "time"]).execute();
      await table(db, dialect, "usage")
        .addColumn("hour", "varchar(13)", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("switch_id", "integer", (c) => c.notNull())
        .addColumn("calls", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("usage_pk", ["hour", "user_id", "switch_id"])
        .execute();
    },
  };
}

/**
 * Failed logins live in the database, so that what a client may try does not depend on
 * which process it reaches or on a restart, and memory stays flat under a flood. Keys are
 * SHA-256 hashes (bounded, whatever a username's length); rows older than the window are
 * swept. Sessions get an index on their expiry, which the sweep of expired ones uses.
 */
function loginFailures(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await table(db, dialect, "login_failures")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("key_hash", "varchar(64)", (c) => c.notNull())
        .addColumn("time", "varchar(32)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("login_failures_key").on("login_failures").columns(["key_hash", "time"]).execute();
      await db.schema.createIndex("login_failures_time").on("login_failures").column("time").execute();
      await db.schema.createIndex("sessions_expires").on("sessions").column("expires").execute();
      await db.schema.createIndex("sessions_user").on("sessions").column("user_id").execute();
    },
  };
}

/**
 * What "auto" chose for a switch and the sysObjectID it chose by (so later calls open
 * that driver without a probe), and the SSH host key pinned on first use with the date it
 * was accepted, plus a different key a device presented since (until an admin accepts it).
 */
function driverChoiceAndHostKeys(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      for (const [column, type] of [
        ["detected_driver", "varchar(64)"],
        ["detected_sysobjectid", "varchar(255)"],
        ["ssh_host_key", "varchar(128)"],
        ["ssh_host_key_accepted", "varchar(32)"],
        ["ssh_host_key_presented", "varchar(128)"],
      ] as const) {
        await db.schema.alterTable("switches").addColumn(column, type).execute();
      }
      void dialect;
    },
  };
}

/**
 * Settings of the database itself: for now the key check, a known text encrypted with
 * the secret key when the database first met one, so that a wrong or missing key is
 * refused at start instead of failing on the first device call.
 */
function settings(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await table(db, dialect, "settings")
        .addColumn("name", "varchar(64)", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .execute();
    },
  };
}

/** A lease table (db/leases.ts): one row per name, its holder and expiry. */
function leaseTable(db: SchemaDb, dialect: Store["dialect"], name: LeaseTableName, ifNotExists = false) {
  const t = table(db, dialect, name)
    .addColumn("name", "varchar(64)", (c) => c.primaryKey())
    .addColumn("owner", "varchar(160)", (c) => c.notNull().defaultTo(""))
    .addColumn("expires_ms", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("since", "varchar(32)", (c) => c.notNull());
  return ifNotExists ? t.ifNotExists() : t;
}

/**
 * A lease row per device ("switch:<id>"), so that writes to one device stay in order when
 * several instances share the database (app/write-lease.ts).
 */
function deviceLeases(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await leaseTable(db, dialect, "device_leases").execute();
    },
  };
}

/**
 * Directory accounts: ldap_linked marks a local account that an administrator allows a
 * directory login to take over; ldap_checked is when the directory last confirmed a
 * directory user's rights (at a login or a later recheck).
 */
function directoryLinks(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable("profiles")
        .addColumn("ldap_linked", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("profiles").addColumn("ldap_checked", "varchar(32)").execute();
      void dialect;
    },
  };
}

/**
 * Device writes record their audit row before the device is changed, as "pending", and
 * settle it after (app/device-writes.ts): the row keeps the write lease it ran under, so
 * that the device's next lease holder can tell leftovers of earlier writes from its own.
 * An index finds a device's pending rows without reading its whole history.
 */
function pendingAuditRows(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable("audit_log")
        .addColumn("write_lease", "varchar(160)", (c) => c.notNull().defaultTo(""))
        .execute();
      await db.schema
        .createIndex("audit_log_outcome_switch")
        .on("audit_log")
        .columns(["outcome", "switch_id"])
        .execute();
    },
  };
}

/**
 * Login attempts instead of failures: an attempt takes its place in the counts before its
 * password is checked (db/login-failures.ts), counted per username and address together,
 * per address and per username. One row per attempt with both keys; a row per key that
 * an attempt locks while it counts. The old failure rows are dropped: they would only
 * have counted for the rest of one window.
 */
function loginAttempts(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await table(db, dialect, "login_attempts")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("user_hash", "varchar(64)", (c) => c.notNull())
        .addColumn("addr_hash", "varchar(64)", (c) => c.notNull())
        .addColumn("time_ms", "bigint", (c) => c.notNull())
        .addColumn("pending", "integer", (c) => c.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createIndex("login_attempts_user")
        .on("login_attempts")
        .columns(["user_hash", "time_ms"])
        .execute();
      await db.schema
        .createIndex("login_attempts_addr")
        .on("login_attempts")
        .columns(["addr_hash", "time_ms"])
        .execute();
      await db.schema.createIndex("login_attempts_time").on("login_attempts").column("time_ms").execute();
      await table(db, dialect, "login_throttle_keys")
        .addColumn("key_hash", "varchar(64)", (c) => c.primaryKey())
        .addColumn("stamp", "bigint", (c) => c.notNull().defaultTo(0))
        .addColumn("touched_ms", "bigint", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("login_throttle_keys_touched")
        .on("login_throttle_keys")
        .column("touched_ms")
        .execute();
      await db.schema.dropTable("login_failures").execute();
    },
  };
}

/**
 * OpenL2M's inventory fields that switchdesk had no column for (issue 18): `bulk_edit` on
 * devices and device groups (on, as OpenL2M's default), and a credential profile's Netmiko
 * `device_type` (informational: the device's driver decides how switchdesk talks to it).
 */
function openl2mInventoryFields(): Migration {
  return {
    async up(db: AnyDb) {
      for (const t of ["switches", "switch_groups"]) {
        await db.schema
          .alterTable(t)
          .addColumn("bulk_edit", "integer", (c) => c.notNull().defaultTo(1))
          .execute();
      }
      await db.schema
        .alterTable("credentials")
        .addColumn("device_type", "varchar(64)", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  };
}

/**
 * The API drivers (issue 19: connectors 1 AOS-CX REST, 2 Junos NETCONF, 3 Arista eAPI).
 * A switch's TLS certificate is pinned like its SSH host key: the fingerprint pinned on
 * first contact and when it was accepted, plus a different one the device presented since
 * (until an administrator accepts it). A credential profile may name a CA file instead (a
 * PEM file on the service's machine, read when a call opens the device; "" for none).
 */
function apiConnectors(): Migration {
  return {
    async up(db: AnyDb) {
      for (const [column, type] of [
        ["tls_certificate", "varchar(128)"],
        ["tls_certificate_accepted", "varchar(32)"],
        ["tls_certificate_presented", "varchar(128)"],
      ] as const) {
        await db.schema.alterTable("switches").addColumn(column, type).execute();
      }
      await db.schema
        .alterTable("credentials")
        .addColumn("ca_file", "varchar(1024)", (c) => c.notNull().defaultTo(""))
        .execute();
    },
  };
}

/**
 * The helpdesk writes (issue 20, app/port-batch.ts): every audit row of one batch carries
 * the batch's id (`batch_id`, null for a lone write), indexed for the log's `?batch=`
 * filter; and `pending_port_ups`, the port (or PoE) a bounce or power cycle has switched
 * off and not yet back on, so that the device's next write lease holder on any instance
 * switches it on again when the instance that switched it off stopped in between.
 */
function portBatchesAndCycles(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable("audit_log").addColumn("batch_id", "varchar(36)").execute();
      await db.schema.createIndex("audit_log_batch").on("audit_log").column("batch_id").execute();
      await table(db, dialect, "pending_port_ups")
        .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
        .addColumn("switch_id", "integer", (c) => c.notNull())
        .addColumn("interface_id", "varchar(200)", (c) => c.notNull())
        .addColumn("interface_name", "varchar(200)", (c) => c.notNull())
        .addColumn("kind", "varchar(16)", (c) => c.notNull())
        .addColumn("write_lease", "varchar(160)", (c) => c.notNull())
        .addColumn("batch_id", "varchar(36)")
        .addColumn("username", "varchar(150)", (c) => c.notNull().defaultTo(""))
        .addColumn("created", "varchar(40)", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("pending_port_ups_switch").on("pending_port_ups").column("switch_id").execute();
    },
  };
}

/**
 * Usage counters per instance (0013): each instance keeps its counts in memory and adds
 * them to its own rows at most once a second (app/usage-counter.ts), so two instances never
 * write the same row (no Galera certification conflicts on a shared counter). The rows of
 * the old table are kept under the instance name "before-0013"; api/stats/ sums over all
 * instances.
 */
function usagePerInstance(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await table(db, dialect, "usage_counts")
        .addColumn("hour", "varchar(13)", (c) => c.notNull())
        .addColumn("instance", "varchar(120)", (c) => c.notNull())
        .addColumn("user_id", "integer", (c) => c.notNull())
        .addColumn("switch_id", "integer", (c) => c.notNull())
        .addColumn("calls", "integer", (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint("usage_counts_pk", ["hour", "instance", "user_id", "switch_id"])
        .execute();
      await sql`insert into usage_counts (hour, instance, user_id, switch_id, calls)
        select hour, 'before-0013', user_id, switch_id, calls from ${sql.table("usage")}`.execute(db);
      await db.schema.dropTable("usage").execute();
    },
  };
}

/**
 * The inventory's version (0014): one row whose counter goes up in the same transaction as
 * every change to device groups, devices and their memberships, so that an instance that
 * keeps a menu built from them (app/menu-cache.ts) sees another instance's change at its
 * next call, with one small SELECT.
 */
function inventoryVersion(dialect: Store["dialect"]): Migration {
  return {
    async up(db: AnyDb) {
      await table(db, dialect, "inventory_version")
        .addColumn("id", "integer", (c) => c.primaryKey())
        .addColumn("version", "bigint", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`insert into inventory_version (id, version) values (1, 0)`.execute(db);
    },
  };
}

class StaticProvider implements MigrationProvider {
  constructor(private readonly dialect: Store["dialect"]) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return {
      "0001_initial": initial(this.dialect),
      "0002_login_failures": loginFailures(this.dialect),
      "0003_driver_choice_and_host_keys": driverChoiceAndHostKeys(this.dialect),
      "0004_settings": settings(this.dialect),
      "0005_device_leases": deviceLeases(this.dialect),
      "0006_directory_links": directoryLinks(this.dialect),
      "0007_pending_audit_rows": pendingAuditRows(),
      "0008_login_attempts": loginAttempts(this.dialect),
      "0009_openl2m_inventory_fields": openl2mInventoryFields(),
      "0010_api_connectors": apiConnectors(),
      "0011_port_batches_and_cycles": portBatchesAndCycles(this.dialect),
      "0013_usage_per_instance": usagePerInstance(this.dialect),
      "0014_inventory_version": inventoryVersion(this.dialect),
    };
  }
}

/** The database was migrated by a later version: this one must not touch it. */
export class NewerDatabaseError extends Error {}

/** Names of the migrations applied to the database so far (none on an empty one). */
async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  try {
    const rows = await db
      .withTables<{ kysely_migration: { name: string } }>()
      .selectFrom("kysely_migration")
      .select("name")
      .execute();
    return rows.map((r) => r.name);
  } catch (e) {
    const err = e as { errno?: number; message?: string };
    if (err.errno === 1146 || /no such table/i.test(err.message ?? "")) return [];
    throw e;
  }
}

async function refuseNewerDatabase(db: Kysely<Database>, known: string[]): Promise<void> {
  const unknown = (await appliedMigrations(db)).filter((n) => !known.includes(n));
  if (unknown.length) {
    throw new NewerDatabaseError(
      `This database was migrated by a newer switchdesk (migration ${unknown.join(", ")} is unknown to this version): start the newer version, or restore the backup taken before the upgrade`,
    );
  }
}

const MIGRATION_LEASE = "migrate";
/** a migrating instance holds the lease this long and renews it every third of it */
const MIGRATION_LEASE_MS = 30_000;
/** how long an instance waits for another one's migration before giving up */
const MIGRATION_WAIT_MS = 300_000;

/**
 * Applies every pending migration; returns the names applied now. Several instances
 * starting at once on one database migrate once: each first takes the migration lease
 * (a row of its own table, created here outside the migrations, see db/leases.ts: Kysely's
 * own lock on MySQL is GET_LOCK, which a Galera cluster holds per node only); the others
 * wait for it and then find nothing left to apply. A database that a later version
 * migrated is refused before anything is changed.
 */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const provider = new StaticProvider(store.dialect);
  const known = Object.keys(await provider.getMigrations());
  await refuseNewerDatabase(store.db, known);
  await leaseTable(store.db, store.dialect, "migration_lease", true).execute();
  const leases = new LeaseRepo(store.db, "migration_lease");
  const owner = `migrate:${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
  const deadline = Date.now() + MIGRATION_WAIT_MS;
  while (!(await leases.take(MIGRATION_LEASE, owner, MIGRATION_LEASE_MS)).taken) {
    if (Date.now() > deadline)
      throw new Error(
        `Another instance has been migrating this database for over ${MIGRATION_WAIT_MS / 1000} s; is it stuck?`,
      );
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 150));
  }
  const renewal = setInterval(
    () => void leases.renew(MIGRATION_LEASE, owner, MIGRATION_LEASE_MS).catch(() => undefined),
    MIGRATION_LEASE_MS / 3,
  );
  renewal.unref();
  try {
    await refuseNewerDatabase(store.db, known);
    const migrator = new Migrator({ db: store.db, provider });
    const { error, results } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error("the migration failed", { cause: error });
    return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
  } finally {
    clearInterval(renewal);
    await leases.release(MIGRATION_LEASE, owner).catch(() => undefined);
  }
}
