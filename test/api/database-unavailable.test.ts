/**
 * SQLite that cannot be used: while another connection holds the file's write lock past
 * the busy timeout, calls that must write answer 503 database_unavailable with
 * Retry-After (the API and the login page), not 500; once the lock is gone they work
 * again. And the errors of a database that cannot be used, as the drivers raise them, are
 * told apart from the others. (MariaDB stopped and started: test/cluster/database-outage.)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type BetterSqlite from "better-sqlite3";
import { sql } from "kysely";
import { startAppWithRoot, type TestApp } from "../support/harness";
import { dialect } from "../support/db";
import { DatabaseUnavailable, isDatabaseUnavailable, isWriteConflict } from "../../db/errors";
import { toApiError } from "../../app/errors";
import { openSqliteConnection } from "../../db/connect";

const UNAVAILABLE = { code: "database_unavailable", reason: "The database could not be reached; try again in 5 s" };

(dialect === "sqlite" ? describe : describe.skip)("SQLite that cannot be used: 503 database_unavailable", () => {
  let app: TestApp;
  let root: string;
  let other: BetterSqlite.Database;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    // the service waits 100 ms for a locked file instead of 5 s, to keep the test short
    await sql`PRAGMA busy_timeout = 100`.execute(app.services.store.db);
    other = await openSqliteConnection(app.services.config.databaseUrl.replace(/^sqlite:/, ""));
  });
  afterEach(() => {
    if (other.inTransaction) other.exec("ROLLBACK");
  });
  afterAll(async () => {
    other.close();
    await app.close();
  });

  it("a write while another connection holds the write lock: 503 with Retry-After, nothing kept; then it works", async () => {
    other.exec("BEGIN IMMEDIATE");
    const r = await app.request("POST", "/api/admin/switchgroups/", { token: root, json: { name: "while-locked" } });
    expect({ status: r.status, body: r.body }).toEqual({ status: 503, body: UNAVAILABLE });
    expect(r.headers.get("retry-after")).toBe("5");
    other.exec("ROLLBACK");
    const list = await app.request("GET", "/api/admin/switchgroups/", { token: root });
    expect(list.body.map((g: { name: string }) => g.name)).not.toContain("while-locked");
    const again = await app.request("POST", "/api/admin/switchgroups/", {
      token: root,
      json: { name: "while-locked" },
    });
    expect(again.status).toBe(201);
  });

  it("the login page answers 503 with Retry-After and says why", async () => {
    const page = await fetch(`${app.url}/login/`);
    const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    other.exec("BEGIN IMMEDIATE");
    const r = await fetch(`${app.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
      body: new URLSearchParams({ username: "root", password: "pw-root-1", csrfmiddlewaretoken: csrf }).toString(),
    });
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("5");
    expect(await r.text()).toContain(UNAVAILABLE.reason);
  });
});

describe("errors of a database that cannot be used", () => {
  it("SQLite: a file that cannot be opened, a lock held past the busy timeout", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-dberr-"));
    try {
      let cantOpen: unknown;
      try {
        // a folder where the database file should be
        await openSqliteConnection(dir);
      } catch (e) {
        cantOpen = e;
      }
      expect((cantOpen as { code?: string }).code).toBe("SQLITE_CANTOPEN");
      expect(isDatabaseUnavailable(cantOpen)).toBe(true);

      const file = path.join(dir, "locked.db");
      const a = await openSqliteConnection(file);
      const b = await openSqliteConnection(file);
      try {
        a.exec("CREATE TABLE t (x INTEGER)");
        b.exec("PRAGMA busy_timeout = 10");
        a.exec("BEGIN IMMEDIATE");
        let busy: unknown;
        try {
          b.exec("INSERT INTO t VALUES (1)");
        } catch (e) {
          busy = e;
        }
        expect((busy as { code?: string }).code).toBe("SQLITE_BUSY");
        expect(isDatabaseUnavailable(busy)).toBe(true);
        a.exec("ROLLBACK");
        // a unique index's refusal is the request's own problem, not the database's
        a.exec("CREATE UNIQUE INDEX t_x ON t (x)");
        a.exec("INSERT INTO t VALUES (1)");
        let duplicate: unknown;
        try {
          a.exec("INSERT INTO t VALUES (1)");
        } catch (e) {
          duplicate = e;
        }
        expect(isDatabaseUnavailable(duplicate)).toBe(false);
      } finally {
        a.close();
        b.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("MariaDB as mysql2 reports it: refused, lost, too many connections, shutting down, a Galera node not ready; not a duplicate or a syntax error", () => {
    const unavailable = [
      { code: "ECONNREFUSED", errno: -111 },
      { code: "PROTOCOL_CONNECTION_LOST", fatal: true },
      { code: "ETIMEDOUT", fatal: true },
      { code: "ER_CON_COUNT_ERROR", errno: 1040 },
      { code: "ER_SERVER_SHUTDOWN", errno: 1053 },
      { code: "ER_UNKNOWN_COM_ERROR", errno: 1047, message: "WSREP has not yet prepared node for application use" },
      { code: "ER_CONNECTION_KILLED", errno: 1927 },
    ];
    for (const e of unavailable)
      expect([e.code, isDatabaseUnavailable(Object.assign(new Error(e.code), e))]).toEqual([e.code, true]);
    const others = [
      { code: "ER_DUP_ENTRY", errno: 1062 },
      { code: "ER_PARSE_ERROR", errno: 1064 },
      { code: "ER_LOCK_DEADLOCK", errno: 1213 },
      { code: "ER_NO_SUCH_TABLE", errno: 1146 },
    ];
    for (const e of others)
      expect([e.code, isDatabaseUnavailable(Object.assign(new Error(e.code), e))]).toEqual([e.code, false]);
  });

  it("DatabaseUnavailable is answered 503 with Retry-After and keeps the driver's code", () => {
    const busy = new DatabaseUnavailable(
      "locked",
      Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
    );
    expect(isWriteConflict(busy)).toBe(true);
    const answer = toApiError(busy)!;
    expect({ status: answer.status, body: answer.body(), headers: answer.headers }).toEqual({
      status: 503,
      body: UNAVAILABLE,
      headers: { "Retry-After": "5" },
    });
  });
});
