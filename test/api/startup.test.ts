/**
 * Start-up that fails well, through the real command (`switchdesk serve`, the built
 * bin entry): a port in use or a foreign address is one line and exit 1 before anything
 * has effects; the secret key is tied to its database; database mistakes name the
 * database; SWITCHDESK_DEMO takes only its documented values; data files are 0600.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";
import { startService } from "../../server/start-service";
import { loadConfig } from "../../app/config";
import { openStore } from "../../db/connect";
import { createTestDatabase, describeDb, dialect, tableNames, type TestDatabase } from "../support/db";

const root = path.resolve(__dirname, "../..");
// dist/ is made before the run by the API projects' globalSetup (test/support/build-once.js)
const entry = path.join(root, "dist", "server", "cli.js");

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `switchdesk serve` with this environment, until it exits (bounded: 20 s). */
function serve(env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(root, "bin", "switchdesk.js"), "serve"],
      { env: { ...process.env, ...env }, timeout: 20000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
      },
    );
  });
}

async function tablesOf(url: string): Promise<string[]> {
  const store = await openStore(url);
  try {
    return await tableNames(store);
  } finally {
    await store.close();
  }
}

describeDb("start-up that fails well", () => {
  let db: TestDatabase;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    if (!fs.existsSync(entry)) throw new Error(`${entry} is missing: the API projects' globalSetup builds it`);
  });
  beforeEach(async () => {
    db = await createTestDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-start-"));
    env = {
      DATABASE_URL: db.url,
      SWITCHDESK_SECRET_KEY_FILE: path.join(dir, "secret.key"),
      SWITCHDESK_DEMO: "1",
      HOST: "127.0.0.1",
      SWITCHDESK_SECRET_KEY: "",
    };
  });
  afterEach(async () => {
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a port in use is one line and exit 1, before a database, a superuser or a lab exists", async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", () => r()));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const r = await serve({ ...env, PORT: String(port) });
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split("\n")).toEqual([
        `switchdesk: Port ${port} on 127.0.0.1 is already in use (another switchdesk?): stop that program or set PORT to a free port`,
      ]);
      expect(r.stdout).not.toMatch(/superuser|Demo lab|password/i);
      expect(await tablesOf(db.url)).not.toContain("users");
      expect(fs.existsSync(path.join(dir, "secret.key"))).toBe(false);
    } finally {
      taken.close();
    }
  });

  it("an address that is not this machine's is one line and exit 1", async () => {
    const r = await serve({ ...env, PORT: "0", HOST: "192.0.2.77" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      "switchdesk: HOST 192.0.2.77 is not an address of this machine: set HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all of them",
    );
    expect(await tablesOf(db.url)).not.toContain("users");
  });

  it("a SWITCHDESK_DEMO value that is not documented is refused with the values that are", async () => {
    const r = await serve({ ...env, PORT: "0", SWITCHDESK_DEMO: "sometimes" });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('switchdesk: SWITCHDESK_DEMO must be auto, 0 (never) or 1 (always) (got "sometimes")');
  });

  it("the secret key is tied to its database: another key, or none, is refused at start", async () => {
    // first start: the key file is made and its check value stored
    const svc = await startService({ ...loadConfig({ ...env, SWITCHDESK_DEMO: "0" }), port: 0 }, () => undefined);
    await svc.stop();
    const keyFile = path.join(dir, "secret.key");
    expect(fs.existsSync(keyFile)).toBe(true);

    const other = await serve({ ...env, PORT: "0", SWITCHDESK_SECRET_KEY: "not-the-key-of-this-database" });
    expect(other.code).toBe(1);
    expect(other.stderr.trim()).toBe(
      "switchdesk: The secret key from SWITCHDESK_SECRET_KEY is not the key this database's device credentials were encrypted with; start with the right key (restore it from your backup)",
    );

    fs.rmSync(keyFile);
    const none = await serve({ ...env, PORT: "0" });
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toMatch(
      /^switchdesk: No secret key: SWITCHDESK_SECRET_KEY is not set and .*secret\.key does not exist, but this database holds device credentials encrypted with a key/,
    );
    // and it did not quietly make a new key file that would read nothing
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  (dialect === "mariadb" ? it : it.skip)("a database that does not exist is named, with how to create it", async () => {
    const url = new URL(db.url);
    url.pathname = "/sdtest_not_created_here";
    const r = await serve({ ...env, PORT: "0", DATABASE_URL: url.toString() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `switchdesk: Unknown database 'sdtest_not_created_here' on ${url.hostname}:${url.port || 3306}: create it (CREATE DATABASE sdtest_not_created_here CHARACTER SET utf8mb4;) and grant '${decodeURIComponent(url.username)}' all privileges on it, or fix DATABASE_URL`,
    );
  });

  (dialect === "sqlite" ? it : it.skip)(
    "the database and key files are created readable by their owner only",
    async () => {
      const svc = await startService({ ...loadConfig({ ...env, SWITCHDESK_DEMO: "0" }), port: 0 }, () => undefined);
      try {
        const file = db.url.replace(/^sqlite:/, "");
        for (const f of [file, `${file}-wal`, `${file}-shm`, path.join(dir, "secret.key")].filter((f) =>
          fs.existsSync(f),
        )) {
          expect({ f, mode: (fs.statSync(f).mode & 0o777).toString(8) }).toEqual({ f, mode: "600" });
        }
      } finally {
        await svc.stop();
      }
    },
  );
});
