/**
 * Opens the store named by DATABASE_URL: `sqlite:<file>` (embedded default, a file under
 * ./data/) or `mysql://user:pass@host:3306/db` (MariaDB/MySQL through mysql2).
 */
import fs from "node:fs";
import path from "node:path";
import { Kysely, MysqlDialect, SqliteDialect, sql } from "kysely";
import type { Database } from "./schema";

export type DialectName = "sqlite" | "mysql";

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** human description without credentials, for logs and api/environment/ */
  describe: string;
  close(): Promise<void>;
}

export function parseDatabaseUrl(url: string): { dialect: DialectName; target: string } {
  if (url.startsWith("sqlite:")) {
    return { dialect: "sqlite", target: url.slice("sqlite:".length).replace(/^\/\/(?=\.|\/)/, "") || ":memory:" };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) return { dialect: "mysql", target: url.replace(/^mariadb:/, "mysql:") };
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:// (got ${url.split(":")[0]}:)`);
}

export async function openStore(url: string): Promise<Store> {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === "sqlite") {
    // loaded lazily so a MariaDB-only install never needs the native module
    const BetterSqlite = (await import("better-sqlite3")).default;
    if (target !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    const conn = new BetterSqlite(target);
    conn.pragma("journal_mode = WAL");
    conn.pragma("foreign_keys = ON");
    conn.pragma("busy_timeout = 5000");
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: conn }) });
    return { db, dialect, describe: `SQLite ${target}`, close: () => db.destroy() };
  }
  const { createPool } = await import("mysql2");
  const u = new URL(target);
  const pool = createPool({
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, ""),
    connectionLimit: 10,
    timezone: "Z",
    charset: "utf8mb4",
    supportBigNumbers: true,
  });
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  return {
    db,
    dialect,
    describe: `MySQL ${u.hostname}:${u.port || 3306}${u.pathname}`,
    close: () => db.destroy(),
  };
}

/** Server product and version, e.g. "MariaDB 10.11.19" or "SQLite 3.53.2". */
export async function databaseVersion(store: Store): Promise<string> {
  if (store.dialect === "sqlite") {
    const r = await sql<{ v: string }>`select sqlite_version() as v`.execute(store.db);
    return `SQLite ${r.rows[0].v}`;
  }
  const r = await sql<{ v: string }>`select version() as v`.execute(store.db);
  const v = String(r.rows[0].v);
  return /mariadb/i.test(v) ? `MariaDB ${v.replace(/-MariaDB.*$/i, "")}` : `MySQL ${v}`;
}
