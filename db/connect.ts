/**
 * Opens the store named by DATABASE_URL: `sqlite:<file>` (embedded default, a file under
 * ./data/) or `mysql://user:pass@host:3306/db` (MariaDB/MySQL through mysql2).
 */
import fs from "node:fs";
import path from "node:path";
import {
  Kysely,
  MysqlDialect,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from "kysely";
import type { Database as SqliteConnection } from "better-sqlite3";
import type { Database } from "./schema";
import { DatabaseUnavailable, classifyDatabaseError } from "./errors";

export type DialectName = "sqlite" | "mysql";

export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** human description without credentials, for logs and api/environment/ */
  describe: string;
  /** statements this store has sent so far, by kind (tests hold the per-call counts with it) */
  statements: StatementTally;
  close(): Promise<void>;
}

/** Statements sent, by their first word: reads (SELECT) and writes (INSERT, UPDATE, DELETE, REPLACE). */
export interface StatementTally {
  reads: number;
  writes: number;
}

function tallied(tally: StatementTally, sqlText: string): void {
  const word = /^\s*(\w+)/.exec(sqlText)?.[1]?.toLowerCase();
  if (word === "select" || word === "with") tally.reads++;
  else if (word === "insert" || word === "update" || word === "delete" || word === "replace") tally.writes++;
}

export function parseDatabaseUrl(url: string): { dialect: DialectName; target: string } {
  if (url.startsWith("sqlite:")) {
    return { dialect: "sqlite", target: url.slice("sqlite:".length).replace(/^\/\/(?=\.|\/)/, "") || ":memory:" };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) return { dialect: "mysql", target: url.replace(/^mariadb:/, "mysql:") };
  throw new Error(`DATABASE_URL must start with sqlite: or mysql:// (got ${url.split(":")[0]}:)`);
}

/**
 * A database error as one line that names the database and says what to do, for the
 * start-up's errors (a wrong name, user or address is the common first-day mistake).
 */
export function describeStoreError(e: unknown, url: string): Error {
  const err = e as { code?: string; errno?: number; message?: string };
  const { dialect, target } = (() => {
    try {
      return parseDatabaseUrl(url);
    } catch {
      return { dialect: "sqlite" as DialectName, target: "" };
    }
  })();
  if (dialect === "mysql") {
    const u = new URL(target);
    const where = `${u.hostname}:${u.port || 3306}`;
    const name = u.pathname.replace(/^\//, "");
    const user = decodeURIComponent(u.username);
    switch (err.code) {
      case "ER_BAD_DB_ERROR":
        return new Error(
          `Unknown database '${name}' on ${where}: create it (CREATE DATABASE ${name} CHARACTER SET utf8mb4;) and grant '${user}' all privileges on it, or fix DATABASE_URL`,
        );
      case "ER_ACCESS_DENIED_ERROR":
      case "ER_DBACCESS_DENIED_ERROR":
        return new Error(
          `The database server at ${where} refused user '${user}' for database '${name}' (${err.code}): check the user, password and grants in DATABASE_URL`,
        );
      case "ECONNREFUSED":
      case "ENOTFOUND":
      case "EHOSTUNREACH":
      case "ETIMEDOUT":
        return new Error(
          `The database server at ${where} could not be reached (${err.code}): is MariaDB running there, and is DATABASE_URL right?`,
        );
    }
    return new Error(`The database ${name} at ${where} failed at start: ${err.message ?? String(e)}`);
  }
  if (err.code === "ERR_DLOPEN_FAILED" && /better.sqlite3/.test(err.message ?? "")) {
    // node_modules installed with another Node.js (a version switched after npm ci)
    return new Error(
      `The SQLite module better-sqlite3 was built for another Node.js than this one (${process.version}): run \`npm rebuild better-sqlite3\` (or \`npm ci\`) with this Node.js`,
    );
  }
  if (err.code?.startsWith("SQLITE_") || err.code === "EACCES" || err.code === "EROFS") {
    return new Error(
      `The SQLite database ${target} cannot be opened (${err.code}): ${err.message ?? ""}; check DATABASE_URL and the folder's permissions`,
    );
  }
  return e instanceof Error ? e : new Error(String(e));
}

/** a new connection to MariaDB that is not established within this fails */
const MYSQL_CONNECT_TIMEOUT_MS = 5000;
/** a statement that finds no connection of the pool free within this fails */
const MYSQL_ACQUIRE_TIMEOUT_MS = 6000;

/**
 * The dialect with its driver guarded: every error that means the database cannot be used
 * (db/errors.ts) leaves it as DatabaseUnavailable, whichever statement or transaction step
 * met it, and (with `acquireMs`) waiting for a connection is bounded: a pool whose
 * connections all hang does not hold a request forever. Other errors pass unchanged.
 */
function guarded(inner: Dialect, acquireMs: number | null, tally: StatementTally): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => new GuardedDriver(inner.createDriver(), acquireMs, tally),
  };
}

/** A connection of the guarded driver: the driver's own one inside. */
class GuardedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly tally: StatementTally,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    tallied(this.tally, query.sql);
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (e) {
      throw classifyDatabaseError(e);
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize);
    } catch (e) {
      throw classifyDatabaseError(e);
    }
  }
}

const innerOf = (c: DatabaseConnection) => (c instanceof GuardedConnection ? c.inner : c);

async function classified<T>(step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (e) {
    throw classifyDatabaseError(e);
  }
}

class GuardedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly acquireMs: number | null,
    private readonly tally: StatementTally,
  ) {}

  init(): Promise<void> {
    return classified(this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const asked = classified(this.inner.acquireConnection());
    if (this.acquireMs === null) return new GuardedConnection(await asked, this.tally);
    let timer: NodeJS.Timeout | undefined;
    let late = false;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        late = true;
        reject(new DatabaseUnavailable(`no database connection became free within ${this.acquireMs} ms`));
      }, this.acquireMs!);
    });
    // a connection that arrives after the wait gave up goes straight back to the pool
    asked.then(
      (c) => (late ? this.inner.releaseConnection(c).catch(() => undefined) : undefined),
      () => undefined,
    );
    try {
      return new GuardedConnection(await Promise.race([asked, timeout]), this.tally);
    } finally {
      clearTimeout(timer);
    }
  }

  beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return classified(this.inner.beginTransaction(innerOf(c), settings));
  }

  commitTransaction(c: DatabaseConnection): Promise<void> {
    return classified(this.inner.commitTransaction(innerOf(c)));
  }

  rollbackTransaction(c: DatabaseConnection): Promise<void> {
    return classified(this.inner.rollbackTransaction(innerOf(c)));
  }

  releaseConnection(c: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(c));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** Creates a SQLite file (and its folder) readable by its owner only, before SQLite opens it. */
function createPrivately(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, "a", 0o600));
  // an existing file keeps its owner's choice; a new one is 0600 whatever the umask
  if (fs.statSync(file).size === 0) fs.chmodSync(file, 0o600);
}

/**
 * better-sqlite3 12's connection and statement objects are freed by the garbage collector,
 * and on Node 24 freeing one at a moment when no JavaScript runs aborts the whole process
 * ("RemoveEnvironmentCleanupHook ... (env) != nullptr"). Kysely's driver prepares a new
 * statement for every query and drops it, so that moment came within seconds of start.
 * Here each SQL text is prepared once per connection and reused, and the connection and
 * its statements stay referenced until the process exits: none of them is ever collected.
 * Closing still finalizes them on SQLite's side. The SQL texts are few (values are bound
 * as parameters), so what is kept is small.
 */
const keptForProcess: unknown[] = [];

/**
 * A better-sqlite3 connection that stays referenced until the process exits (the reason is
 * above). Every connection in the project, tests included, is opened here: run SQL on it
 * with exec(), or through keptStatements(), never with prepare() or pragma() directly.
 */
export async function openSqliteConnection(file: string): Promise<SqliteConnection> {
  // loaded lazily so a MariaDB-only install never needs the native module
  const BetterSqlite = (await import("better-sqlite3")).default;
  const conn = new BetterSqlite(file);
  keptForProcess.push(conn);
  return conn;
}

function keptStatements(conn: SqliteConnection): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  keptForProcess.push(statements);
  return {
    prepare(sqlText: string): SqliteStatement {
      let statement = statements.get(sqlText);
      if (!statement) {
        statement = conn.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
    close: () => void conn.close(),
  };
}

export async function openStore(url: string): Promise<Store> {
  const { dialect, target } = parseDatabaseUrl(url);
  if (dialect === "sqlite") {
    if (target !== ":memory:") createPrivately(path.resolve(target));
    const conn = await openSqliteConnection(target);
    try {
      // exec runs SQL without a statement object (pragma() would leave one to the collector)
      conn.exec("PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000");
    } catch (e) {
      conn.close();
      throw e;
    }
    const statements: StatementTally = { reads: 0, writes: 0 };
    const db = new Kysely<Database>({
      dialect: guarded(new SqliteDialect({ database: keptStatements(conn) }), null, statements),
    });
    return { db, dialect, describe: `SQLite ${target}`, statements, close: () => db.destroy() };
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
    // a server that does not answer fails the connection in seconds, not at the OS's timeout
    connectTimeout: MYSQL_CONNECT_TIMEOUT_MS,
  });
  const statements: StatementTally = { reads: 0, writes: 0 };
  const db = new Kysely<Database>({
    dialect: guarded(new MysqlDialect({ pool }), MYSQL_ACQUIRE_TIMEOUT_MS, statements),
  });
  return {
    db,
    dialect,
    statements,
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
