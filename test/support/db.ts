/**
 * A fresh database per test file, on the dialect the Jest project names
 * (SWITCHDESK_TEST_DB): a temporary SQLite file, or a new MariaDB database that is
 * dropped afterwards. MariaDB is found at SWITCHDESK_TEST_MYSQL_URL
 * (default mysql://root@127.0.0.1:3306/).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import type { Store } from "../../db/connect";

export const dialect = (process.env.SWITCHDESK_TEST_DB ?? "sqlite") as "sqlite" | "mariadb";
const mysqlBase = process.env.SWITCHDESK_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/";

let mariaAnswer: boolean | null = null;

/**
 * Whether MariaDB answered the run's global set-up ("1" or "0"; db-template.ts sets it
 * while it makes the MariaDB template), inherited by the workers: each suite then knows
 * without starting a node process of its own to ask.
 */
export const MARIADB_ANSWERED_VARIABLE = "SWITCHDESK_TEST_MARIADB_ANSWERED";

/**
 * Is MariaDB answering? What the run's global set-up found, else asked once per test file,
 * synchronously, so suites can be declared or skipped.
 */
export function mariadbAvailable(): boolean {
  if (mariaAnswer !== null) return mariaAnswer;
  const answered = process.env[MARIADB_ANSWERED_VARIABLE];
  if (answered === "1" || answered === "0") return (mariaAnswer = answered === "1");
  const probe = `require("mysql2/promise").createConnection(${JSON.stringify(mysqlBase)}).then(c=>c.end()).then(()=>process.exit(0),()=>process.exit(1))`;
  try {
    execFileSync(process.execPath, ["-e", probe], {
      stdio: "ignore",
      timeout: 10000,
      cwd: path.resolve(__dirname, "../.."),
    });
    mariaAnswer = true;
  } catch {
    mariaAnswer = false;
  }
  return mariaAnswer;
}

/**
 * describe() for suites that need a database. On the MariaDB project without a server the
 * suite is skipped (reported as skipped, never as passed); under CI that is a failure.
 */
export function describeDb(name: string, fn: () => void): void {
  if (dialect === "mariadb" && !mariadbAvailable()) {
    if (process.env.CI) {
      describe(name, () => {
        it("needs MariaDB at " + mysqlBase.replace(/\/\/.*@/, "//"), () => {
          throw new Error("MariaDB is not answering; .ci/run must start it");
        });
      });
      return;
    }
    describe.skip(`${name} (MariaDB not answering)`, fn);
    return;
  }
  describe(`${name} [${dialect}]`, fn);
}

/**
 * Where SQLite test databases are made: in memory (/dev/shm, a tmpfs) where the machine
 * has one, else the temporary folder. SQLite syncs its journal to the disk at every
 * commit; on a tmpfs that costs nothing, on a disk it was most of the time of the suites
 * that write much (10,000 failed logins: 25 s on the disk, 10 s in memory).
 */
export const sqliteTestDir: string = (() => {
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    return "/dev/shm";
  } catch {
    return os.tmpdir();
  }
})();

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** the variable naming the template of each dialect: an SQLite file, or a JSON file describing a MariaDB one */
export const TEMPLATE_VARIABLE = {
  sqlite: "SWITCHDESK_TEST_TEMPLATE_SQLITE",
  mariadb: "SWITCHDESK_TEST_TEMPLATE_MARIADB",
} as const;

/** A MariaDB template: its database, and what a copy needs in order. */
export interface MariadbTemplate {
  database: string;
  /** SHOW CREATE TABLE of every table, run with foreign key checks off */
  tables: string[];
  /** tables holding rows after the migrations (the migration bookkeeping), copied over */
  withRows: string[];
}

/** The template of `dialect` this run made, or null. */
export function templateOf(dialect: "sqlite"): string | null;
export function templateOf(dialect: "mariadb"): MariadbTemplate | null;
export function templateOf(dialect: "sqlite" | "mariadb"): string | MariadbTemplate | null {
  const named = process.env[TEMPLATE_VARIABLE[dialect]];
  if (!named || !fs.existsSync(named)) return null;
  return dialect === "sqlite" ? named : (JSON.parse(fs.readFileSync(named, "utf8")) as MariadbTemplate);
}

/**
 * A new database of the project's dialect: empty, or with `migrated` a copy of this run's
 * migrated template (./db-template.ts) when there is one, else empty (the service then
 * migrates it at start-up, as it would anyway).
 */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const tag = `${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(sqliteTestDir, "switchdesk-test-"));
    const file = path.join(dir, "test.db");
    const template = options.migrated ? templateOf("sqlite") : null;
    if (template) fs.copyFileSync(template, file);
    return {
      url: `sqlite:${file}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const mysql = await import("mysql2/promise");
  const name = `sdtest_${tag}`;
  const template = options.migrated ? templateOf("mariadb") : null;
  const admin = await mysql.createConnection({ uri: mysqlBase, multipleStatements: template !== null });
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    if (template) {
      // one round trip: the template's tables (foreign keys point within the new database),
      // then its bookkeeping rows
      const copy = template.withRows.map(
        (t) => `INSERT INTO \`${name}\`.\`${t}\` SELECT * FROM \`${template.database}\`.\`${t}\``,
      );
      await admin.query(
        [
          `USE \`${name}\``,
          "SET FOREIGN_KEY_CHECKS = 0",
          ...template.tables,
          ...copy,
          "SET FOREIGN_KEY_CHECKS = 1",
        ].join(";\n"),
      );
    }
  } finally {
    await admin.end();
  }
  const url = new URL(mysqlBase);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = await mysql.createConnection(mysqlBase);
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

/**
 * The tables of a store, by the cheapest query each server has (`SHOW TABLES`; sqlite_master)
 * rather than Kysely's introspection, whose information_schema join is heavy on MariaDB.
 */
export async function tableNames(store: Pick<Store, "db" | "dialect">): Promise<string[]> {
  const { sql } = await import("kysely");
  if (store.dialect === "sqlite") {
    const r = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(store.db);
    return r.rows.map((x) => x.name);
  }
  const r = await sql<Record<string, string>>`show tables`.execute(store.db);
  return r.rows.map((x) => Object.values(x)[0]);
}
