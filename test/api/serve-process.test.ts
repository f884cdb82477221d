/**
 * The real command as an operator runs it. First start: the generated admin password
 * is shown on stderr, where a newcomer running `npm start` sees it, and never in the
 * JSON log on stdout. Graceful shutdown: `node bin/switchdesk.js serve` (the build in
 * dist/, made before the run by test/support/build-once.js) gets SIGTERM in
 * the middle of a device write to a slow lab switch. It stops taking connections at
 * once, lets the write finish (its answer is a 200 and the switch has the change),
 * closes the database, logs that it did and exits 0.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createTestDatabase, describeDb, type TestDatabase } from "../support/db";
import { startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import type { JsonBody } from "../support/harness";

const root = path.resolve(__dirname, "../..");

/** the build the bin entry runs; the API projects' globalSetup made it */
function requireBuilt(): void {
  const entry = path.join(root, "dist", "server", "cli.js");
  if (!fs.existsSync(entry))
    throw new Error(`${entry} is missing: the API projects' globalSetup (test/support/build-once.js) builds it`);
}

/** true when a new TCP connection to the port is refused */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(true));
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `switchdesk serve` as a child process, its output collected */
/** A line of the service's JSON log, with the fields these tests read. */
interface LogLine {
  level?: string;
  msg?: string;
  reason?: string;
  operationId?: string;
  status?: number;
  durationMs?: number;
  [field: string]: unknown;
}

function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(root, "bin", "switchdesk.js"), "serve"], {
    cwd: env.SWITCHDESK_SECRET_KEY_FILE ? path.dirname(env.SWITCHDESK_SECRET_KEY_FILE) : undefined,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", SWITCHDESK_DEMO: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const io = { out: "", err: "" };
  child.stdout.on("data", (d) => (io.out += d));
  child.stderr.on("data", (d) => (io.err += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const lines = () =>
    io.out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as LogLine);
  /** the port from the listening line (0 when it did not come) */
  const listening = async () => {
    for (let i = 0; i < 300; i++) {
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/api\//.exec(io.out);
      if (m) return Number(m[1]);
      await pause(50);
    }
    return 0;
  };
  return { child, io, exited, lines, listening };
}

describeDb("switchdesk serve as a process", () => {
  let db: TestDatabase;
  let keyDir: string;
  let lab: LabSwitch;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    requireBuilt();
    db = await createTestDatabase();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-shutdown-"));
    lab = await startLab({ profile: "generic", ports: 8, name: "lab-slow-8", seed: 2 });
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    await lab?.stop();
    await db?.drop();
    if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it("shows a generated first password on stderr, not in the JSON log", async () => {
    const first = serve({
      DATABASE_URL: db.url,
      SWITCHDESK_SECRET_KEY_FILE: path.join(keyDir, "secret.key"),
      SWITCHDESK_ADMIN_PASSWORD: "",
    });
    child = first.child;
    const port = await first.listening();
    expect(port).toBeGreaterThan(0);
    const shown = /Its generated password \(shown only now\): (\S+)/.exec(first.io.err);
    expect(shown).not.toBeNull();
    const password = shown![1];
    expect(first.io.out).not.toContain(password);
    expect(first.lines().find((l) => l.level === "warn")?.msg).toMatch(
      /generated password; it is printed on stderr once and never logged/,
    );
    const login = await fetch(`http://127.0.0.1:${port}/api/users/token/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password }),
    });
    expect(login.status).toBe(200);
    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);
    expect(first.lines().some((l) => l.reason === "SIGINT" && /^shutdown complete/.test(l.msg ?? ""))).toBe(true);
  }, 60000);

  it("finishes a device write in flight on SIGTERM, refuses new connections, closes the database and exits 0", async () => {
    // the same database: admin exists now; log in with a password set afresh
    execFileSync(
      process.execPath,
      [path.join(root, "bin", "switchdesk.js"), "changepassword", "admin", "--password", "shutdown-pass-1"],
      {
        env: { ...process.env, DATABASE_URL: db.url, SWITCHDESK_SECRET_KEY_FILE: path.join(keyDir, "secret.key") },
      },
    );
    const running = serve({
      DATABASE_URL: db.url,
      SWITCHDESK_SECRET_KEY_FILE: path.join(keyDir, "secret.key"),
      SHUTDOWN_TIMEOUT: "10",
    });
    child = running.child;
    const { exited, lines } = running;
    const port = await running.listening();
    expect({ port: port > 0, err: running.io.err }).toEqual({ port: true, err: "" });
    const url = `http://127.0.0.1:${port}`;
    const call = async (method: string, p: string, token?: string, json?: unknown) => {
      const r = await fetch(url + p, {
        method,
        headers: {
          ...(token ? { authorization: `Token ${token}` } : {}),
          ...(json ? { "content-type": "application/json" } : {}),
        },
        body: json ? JSON.stringify(json) : undefined,
      });
      return { status: r.status, body: (await r.json()) as JsonBody };
    };

    const token = (
      await call("POST", "/api/users/token/", undefined, { username: "admin", password: "shutdown-pass-1" })
    ).body.token;
    const community = lab.snmpTarget({ write: true }).community;
    const profile = await call("POST", "/api/admin/snmpprofiles/", token, {
      name: "slow",
      version: "2c",
      community,
      timeout_ms: 5000,
      retries: 0,
    });
    const group = await call("POST", "/api/admin/switchgroups/", token, { name: "Slow" });
    const sw = await call("POST", "/api/admin/switches/", token, {
      name: "slow-8",
      primary_ipv4: "127.0.0.1",
      snmp_port: lab.port,
      snmp_profile: profile.body.id,
      switchgroups: [group.body.id],
    });
    expect([profile.status, group.status, sw.status]).toEqual([201, 201, 201]);
    const base = `/api/switches/${group.body.id}/${sw.body.id}`;
    expect((await call("GET", `${base}/`, token)).status).toBe(200);

    // a slow switch: every answer waits 1.5 s; SIGTERM goes out once the SET has been applied
    const p = lab.model.port(5);
    lab.faults.latencyMs = 1500;
    const setsBefore = lab.counters.byType.set;
    let settled = false;
    const write = call("POST", `${base}/interface/${p.ifIndex}/description/`, token, {
      description: "written during shutdown",
    }).finally(() => (settled = true));
    for (let i = 0; i < 400 && lab.counters.byType.set === setsBefore; i++) await pause(25);
    expect(lab.counters.byType.set).toBe(setsBefore + 1);
    expect(settled).toBe(false);
    running.child.kill("SIGTERM");

    // no new connections while the write reads back its change
    let refusedMidWrite = false;
    for (let i = 0; i < 200 && !settled && !refusedMidWrite; i++) {
      refusedMidWrite = await refused(port);
      if (!refusedMidWrite) await pause(10);
    }
    expect(refusedMidWrite).toBe(true);

    const answer = await write;
    expect(answer).toEqual({ status: 200, body: { result: `Interface ${p.name} description was changed!` } });
    expect(lab.model.alias(p.ifIndex)).toBe("written during shutdown");
    expect(await exited).toBe(0);

    const stopping = lines().find((l) => l.msg?.startsWith("shutting down"));
    expect(stopping).toMatchObject({ reason: "SIGTERM", requestsInFlight: 1, deviceWrites: 1 });
    const doneAt = lines().findIndex((l) => l.msg?.startsWith("shutdown complete"));
    const done = lines()[doneAt];
    expect(done).toMatchObject({ level: "info", reason: "SIGTERM", requestsCutOff: 0, deviceWritesLeft: 0 });
    // the write's own request line came before the shutdown line
    const writeLine = lines().findIndex((l) => l.operationId === "setInterfaceDescription" && l.status === 200);
    expect(writeLine).toBeGreaterThan(-1);
    expect(writeLine).toBeLessThan(doneAt);
    console.log(`shutdown waited ${done.durationMs} ms for the write in flight`);
  }, 60000);
});
