/**
 * A migrated template database per dialect and test run, made once by the Jest projects'
 * globalSetup (test/support/global-setup.ts) and copied for every test app
 * (createTestDatabase({ migrated: true }) in ./db.ts) instead of running the migrations
 * again in each: a file copy on SQLite, the template's CREATE TABLE statements (and the
 * migration bookkeeping rows) replayed into a new database on MariaDB. The copy is what
 * the migrations made, so a test app's start-up still runs migrateToLatest and finds
 * nothing left to apply. The suites of the migrations themselves (startup, cli,
 * serve-newcomer, scale-out) keep starting from empty databases.
 *
 * Where the template is travels to the workers in environment variables (set before Jest
 * starts them); without them a test database is migrated by its service as before.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openStore } from "../../db/connect";
import { migrateToLatest } from "../../db/migrations";
import { MARIADB_ANSWERED_VARIABLE, sqliteTestDir, TEMPLATE_VARIABLE, type MariadbTemplate } from "./db";

const mysqlBase = () => process.env.SWITCHDESK_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/";

/**
 * Makes the template of `dialect` unless this process has one already, and names it in
 * the environment the workers inherit. A MariaDB that does not answer leaves no template
 * (the suites then report it themselves).
 */
export async function prepareTemplate(dialect: "sqlite" | "mariadb"): Promise<void> {
  const variable = TEMPLATE_VARIABLE[dialect];
  if (process.env[variable]) return;
  const dir = fs.mkdtempSync(path.join(dialect === "sqlite" ? sqliteTestDir : os.tmpdir(), "switchdesk-template-"));
  if (dialect === "sqlite") {
    const file = path.join(dir, "template.db");
    const store = await openStore(`sqlite:${file}`);
    try {
      await migrateToLatest(store);
    } finally {
      await store.close();
    }
    process.env[variable] = file;
    return;
  }
  const mysql = await import("mysql2/promise");
  let admin: import("mysql2/promise").Connection;
  try {
    admin = await mysql.createConnection(mysqlBase());
  } catch {
    // no MariaDB here: its suites say so themselves (db.ts describeDb)
    fs.rmSync(dir, { recursive: true, force: true });
    process.env[MARIADB_ANSWERED_VARIABLE] = "0";
    return;
  }
  process.env[MARIADB_ANSWERED_VARIABLE] = "1";
  const database = `sdtest_template_${process.pid}_${Date.now().toString(36)}`;
  try {
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    const url = new URL(mysqlBase());
    url.pathname = `/${database}`;
    const store = await openStore(url.toString());
    try {
      await migrateToLatest(store);
    } finally {
      await store.close();
    }
    const [names] = await admin.query<import("mysql2/promise").RowDataPacket[]>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name",
      [database],
    );
    const template: MariadbTemplate = { database, tables: [], withRows: [] };
    for (const { name } of names as Array<{ name: string }>) {
      const [created] = await admin.query<import("mysql2/promise").RowDataPacket[]>(
        `SHOW CREATE TABLE \`${database}\`.\`${name}\``,
      );
      template.tables.push(String(created[0]["Create Table"]));
      const [rows] = await admin.query<import("mysql2/promise").RowDataPacket[]>(
        `SELECT 1 FROM \`${database}\`.\`${name}\` LIMIT 1`,
      );
      if (rows.length > 0) template.withRows.push(name);
    }
    const file = path.join(dir, "mariadb-template.json");
    fs.writeFileSync(file, JSON.stringify(template));
    process.env[variable] = file;
  } catch (e) {
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``).catch(() => undefined);
    throw e;
  } finally {
    await admin.end();
  }
}

/** Removes this process's templates (globalTeardown). */
export async function dropTemplates(): Promise<void> {
  const sqlite = process.env[TEMPLATE_VARIABLE.sqlite];
  if (sqlite) {
    fs.rmSync(path.dirname(sqlite), { recursive: true, force: true });
    delete process.env[TEMPLATE_VARIABLE.sqlite];
  }
  const mariadb = process.env[TEMPLATE_VARIABLE.mariadb];
  if (mariadb) {
    const { database } = JSON.parse(fs.readFileSync(mariadb, "utf8")) as MariadbTemplate;
    const mysql = await import("mysql2/promise");
    const admin = await mysql.createConnection(mysqlBase());
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    } finally {
      await admin.end();
    }
    fs.rmSync(path.dirname(mariadb), { recursive: true, force: true });
    delete process.env[TEMPLATE_VARIABLE.mariadb];
  }
}
