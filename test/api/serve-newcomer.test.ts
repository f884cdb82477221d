/**
 * `npm start` as a newcomer runs it, on the Node.js that runs the tests (CI runs this file
 * on Node 20, 22 and 24): `node bin/switchdesk.js serve` in an empty folder with nothing
 * configured, so on SQLite the default database file under ./data/ and the demo lab (on the
 * MariaDB project the one setting is DATABASE_URL). It must answer /healthz, walk the demo
 * (token, switch list, a switch read over SNMP, a port shut and brought up) for a while, and stop
 * on SIGTERM with exit 0 and nothing but the first password on stderr: no native abort
 * while the garbage collector frees what the queries left behind.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createTestDatabase, describeDb, dialect, type TestDatabase } from "../support/db";
import type { JsonBody } from "../support/harness";

const root = path.resolve(__dirname, "../..");
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describeDb("npm start on this Node.js, as a newcomer", () => {
  let db: TestDatabase | undefined;
  let cwd: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    // the build bin/switchdesk.js runs, made only when a source is newer (as npm start does)
    execFileSync(process.execPath, [path.join(root, "scripts", "build.js"), "--if-changed"], {
      cwd: root,
      stdio: "inherit",
    });
    if (dialect === "mariadb") db = await createTestDatabase();
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-newcomer-"));
  }, 180000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await db?.drop();
    if (cwd) fs.rmSync(cwd, { recursive: true, force: true });
  });

  it(`starts with the defaults, answers for a while and stops cleanly on SIGTERM (Node.js ${process.version})`, async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" };
    for (const name of [
      "DATABASE_URL",
      "SWITCHDESK_DEMO",
      "SWITCHDESK_ADMIN_PASSWORD",
      "SWITCHDESK_SECRET_KEY",
      "SWITCHDESK_SECRET_KEY_FILE",
    ])
      delete env[name];
    if (db) env.DATABASE_URL = db.url;
    child = spawn(process.execPath, [path.join(root, "bin", "switchdesk.js"), "serve"], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const io = { out: "", err: "" };
    child.stdout!.on("data", (d) => (io.out += d));
    child.stderr!.on("data", (d) => (io.err += d));
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child!.once("exit", (code, signal) => r({ code, signal })),
    );
    let gone: { code: number | null; signal: string | null } | null = null;
    void exited.then((e) => (gone = e));

    let port = 0;
    for (let i = 0; i < 600 && !port && !gone; i++) {
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/api\/ \(database: ([^)]*)\)/.exec(io.out);
      if (m) port = Number(m[1]);
      else await pause(50);
    }
    expect({ port: port > 0, exit: gone, stderr: port ? "" : io.err }).toEqual({ port: true, exit: null, stderr: "" });
    expect(io.out).toContain(db ? "(database: MySQL" : "(database: SQLite ./data/switchdesk.db)");
    if (!db) expect(fs.existsSync(path.join(cwd, "data", "switchdesk.db"))).toBe(true);
    const password = /Its generated password \(shown only now\): (\S+)/.exec(io.err)![1];

    const url = `http://127.0.0.1:${port}`;
    const call = async (method: string, p: string, token?: string, form?: Record<string, string>) => {
      const r = await fetch(url + p, {
        method,
        headers: token ? { authorization: `Token ${token}` } : {},
        body: form ? new URLSearchParams(form) : undefined,
      });
      return { status: r.status, body: (await r.json()) as JsonBody };
    };
    expect(await call("GET", "/healthz")).toEqual({
      status: 200,
      body: expect.objectContaining({ status: "ok", database: "ok" }),
    });
    const token = (await call("POST", "/api/users/token/", undefined, { username: "admin", password })).body
      .token as string;
    expect(token).toMatch(/^[0-9a-f]{40}$/);

    // the demo lab's switches, read and changed over SNMP, many times over: each call runs queries
    const menu = await call("GET", "/api/switches/", token);
    expect(menu.status).toBe(200);
    const base = "/api/switches/1/1";
    const sw = await call("GET", `${base}/`, token);
    expect(sw.status).toBe(200);
    const ifIndex = Number(sw.body.interfaces.find((i: { manageable: boolean }) => i.manageable).id);
    expect(ifIndex).toBeGreaterThan(0);
    for (let i = 0; i < 8; i++) {
      const changed = await call("POST", `${base}/interface/${ifIndex}/state/`, token, { state: i % 2 ? "on" : "off" });
      expect(changed.status).toBe(200);
      expect((await call("GET", `${base}/`, token)).status).toBe(200);
      expect((await call("GET", "/api/admin/log/", token)).status).toBe(200);
    }
    expect(gone).toBeNull();

    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(io.out).toMatch(/"reason":"SIGTERM"[^\n]*"msg":"shutdown complete/);
    // the first password's frame and nothing else: no "Assertion failed", no native stack
    expect(io.err.replace(/\n=+\nIts generated password \(shown only now\): \S+\n=+\n\n/, "")).toBe("");
  }, 120000);
});
