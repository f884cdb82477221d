/** The command line: first start, createsuperuser, changepassword, migrate, serve. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile } from "node:child_process";

import { main } from "../../server/cli";
import { startService } from "../../server/start-service";
import { loadConfig } from "../../app/config";
import { createTestDatabase, describeDb, tableNames, type TestDatabase } from "../support/db";
import type { JsonBody } from "../support/harness";

const root = path.resolve(__dirname, "../..");

describeDb("command line", () => {
  let db: TestDatabase;
  let keyDir: string;
  const saved = { ...process.env };
  beforeEach(async () => {
    db = await createTestDatabase();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-cli-"));
    process.env.DATABASE_URL = db.url;
    process.env.SWITCHDESK_SECRET_KEY_FILE = path.join(keyDir, "secret.key");
    process.env.SWITCHDESK_DEMO = "0";
    delete process.env.SWITCHDESK_ADMIN_PASSWORD;
    delete process.env.SWITCHDESK_ADMIN_USER;
  });
  afterEach(async () => {
    process.env = { ...saved };
    await db.drop();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  async function token(url: string, username: string, password: string) {
    const r = await fetch(`${url}/api/users/token/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    return { status: r.status, body: (await r.json()) as JsonBody };
  }

  it("first start on an empty database creates 'admin' with a generated password printed once", async () => {
    const lines: string[] = [];
    const svc = await startService({ ...loadConfig(), port: 0 }, (l) => lines.push(l));
    try {
      const pwLine = lines.find((l) => l.includes("generated password"));
      expect(pwLine).toBeDefined();
      const password = pwLine!.split(": ").pop()!;
      const t = await token(svc.url, "admin", password);
      expect(t.status).toBe(200);
      const user = await svc.services.repos.users.findByUsername("admin");
      expect(user).toMatchObject({ is_superuser: true, is_active: true });
    } finally {
      await svc.stop();
    }
    // a second start creates nothing and prints no password
    const again: string[] = [];
    const svc2 = await startService({ ...loadConfig(), port: 0 }, (l) => again.push(l));
    await svc2.stop();
    expect(again.some((l) => l.includes("password"))).toBe(false);
  });

  it("takes the first superuser's name and password from the environment", async () => {
    process.env.SWITCHDESK_ADMIN_USER = "chief";
    process.env.SWITCHDESK_ADMIN_PASSWORD = "chief-pass-1";
    const lines: string[] = [];
    const svc = await startService({ ...loadConfig(), port: 0 }, (l) => lines.push(l));
    try {
      expect(lines.some((l) => l.includes("generated password"))).toBe(false);
      expect((await token(svc.url, "chief", "chief-pass-1")).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });

  it("migrate, createsuperuser and changepassword work on the configured database", async () => {
    const log = jest.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await main(["migrate"])).toBe(0);
      expect(
        await main(["createsuperuser", "--username", "ops", "--password", "ops-pass-1", "--email", "ops@example.org"]),
      ).toBe(0);
      expect(await main(["changepassword", "ops", "--password", "ops-pass-2"])).toBe(0);
      await expect(main(["changepassword", "ghost", "--password", "ghost-pass-1"])).rejects.toThrow(
        "no user named 'ghost'",
      );
    } finally {
      log.mockRestore();
    }
    const svc = await startService({ ...loadConfig(), port: 0 }, () => {});
    try {
      expect((await token(svc.url, "ops", "ops-pass-1")).status).toBe(400);
      const t = await token(svc.url, "ops", "ops-pass-2");
      expect(t.status).toBe(200);
      expect(t.body.email).toBe("ops@example.org");
    } finally {
      await svc.stop();
    }
  });

  it("new passwords follow PASSWORD_MIN_LENGTH: changepassword, createsuperuser and the first superuser's", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const run = (argv: string[]) =>
      main(
        argv,
        (l) => out.push(l),
        (l) => err.push(l),
      );
    expect(await run(["createsuperuser", "--username", "ops", "--password", "ops-pass"])).toBe(2);
    expect(err.pop()).toBe(
      "switchdesk createsuperuser: This password is too short. It must contain at least 10 characters.",
    );
    expect(await run(["createsuperuser", "--username", "ops", "--password", "ops-pass-1"])).toBe(0);
    expect(await run(["changepassword", "ops", "--password", "123456789"])).toBe(2);
    expect(err.pop()).toBe(
      "switchdesk changepassword: This password is too short. It must contain at least 10 characters.",
    );
    process.env.PASSWORD_MIN_LENGTH = "14";
    expect(await run(["changepassword", "ops", "--password", "ops-pass-12"])).toBe(2);
    expect(err.pop()).toBe(
      "switchdesk changepassword: This password is too short. It must contain at least 14 characters.",
    );
    expect(await run(["changepassword", "ops", "--password", "ops-pass-12345"])).toBe(0);
    expect(err).toEqual([]);
  });

  it("the first superuser's password: a configured short one is refused at start, a generated one is long enough", async () => {
    await expect(
      startService({ ...loadConfig({ ...process.env, SWITCHDESK_ADMIN_PASSWORD: "short-1" }), port: 0 }, () => {}),
    ).rejects.toThrow(
      "SWITCHDESK_ADMIN_PASSWORD, the first superuser's password: This password is too short. It must contain at least 10 characters. (PASSWORD_MIN_LENGTH)",
    );
    const lines: string[] = [];
    const svc = await startService({ ...loadConfig({ ...process.env, PASSWORD_MIN_LENGTH: "30" }), port: 0 }, (l) =>
      lines.push(l),
    );
    try {
      const password = lines
        .find((l) => l.includes("generated password"))!
        .split(": ")
        .pop()!;
      expect(password.length).toBeGreaterThanOrEqual(30);
      expect((await token(svc.url, "admin", password)).status).toBe(200);
    } finally {
      await svc.stop();
    }
  });

  it("changepassword ends web sessions and, with --revoke-tokens, revokes API tokens; unlock forgets failed logins", async () => {
    const log = jest.spyOn(console, "log").mockImplementation(() => {});
    let svc = await startService({ ...loadConfig(), port: 0, loginMaxFailures: 2 }, () => {});
    let apiToken: string;
    try {
      const r = svc.services.repos;
      await main(["createsuperuser", "--username", "ops", "--password", "ops-pass-1"]);
      apiToken = (await token(svc.url, "ops", "ops-pass-1")).body.token;
      const user = (await r.users.findByUsername("ops"))!;
      await r.sessions.create(user.id, 60_000);
      expect(await main(["changepassword", "ops", "--password", "ops-pass-2"])).toBe(0);
      expect(log.mock.calls.at(-1)![0]).toBe("Password changed for 'ops'; 1 web session(s) ended.");
      const stillThere = await fetch(`${svc.url}/api/`, { headers: { authorization: `Token ${apiToken}` } });
      expect(stillThere.status).toBe(200);
      expect(await main(["changepassword", "ops", "--password", "ops-pass-3", "--revoke-tokens"])).toBe(0);
      expect(log.mock.calls.at(-1)![0]).toBe(
        "Password changed for 'ops'; 0 web session(s) ended, 1 API token(s) revoked.",
      );
      const revoked = await fetch(`${svc.url}/api/`, { headers: { authorization: `Token ${apiToken}` } });
      expect(revoked.status).toBe(403);

      for (let i = 0; i < 2; i++) expect((await token(svc.url, "ops", "wrong")).status).toBe(400);
      expect((await token(svc.url, "ops", "ops-pass-3")).status).toBe(429);
      await svc.stop();
      process.env.LOGIN_MAX_FAILURES = "2";
      expect(await main(["unlock", "ops"])).toBe(0);
      expect(log.mock.calls.at(-1)![0]).toBe("Unlocked 'ops'.");
      svc = await startService({ ...loadConfig(), port: 0 }, () => {});
      expect((await token(svc.url, "ops", "ops-pass-3")).status).toBe(200);
      await expect(main(["unlock", "ghost"])).rejects.toThrow("no user named 'ghost'");
    } finally {
      log.mockRestore();
      await svc.stop();
    }
  });

  // dist/ is made before the run by the API projects' globalSetup (test/support/build-once.js)
  it("npx switchdesk serve runs the built service (bin entry)", async () => {
    expect(fs.existsSync(path.join(root, "dist", "server", "cli.js"))).toBe(true);
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = execFile(process.execPath, [path.join(root, "bin", "switchdesk.js"), "serve"], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        SWITCHDESK_ADMIN_PASSWORD: "bin-pass-1",
        LOG_LEVEL: "info",
      },
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    try {
      for (let i = 0; i < 100 && !out.includes("listening"); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toContain(`listening on http://127.0.0.1:${port}/api/`);
      expect((await token(`http://127.0.0.1:${port}`, "admin", "bin-pass-1")).status).toBe(200);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  });

  it("answers --help for every command with its usage and exit 0, doing nothing", async () => {
    const out: string[] = [];
    for (const command of ["serve", "migrate", "createsuperuser", "changepassword", "unlock", "inventory", "lab"]) {
      out.length = 0;
      expect(await main([command, "--help"], (l) => out.push(l))).toBe(0);
      expect(out.join("\n")).toMatch(/^usage: switchdesk /);
    }
    expect(await main(["--help"], (l) => out.push(l))).toBe(0);
    // nothing ran: migrate --help did not create the database's tables
    const { openStore } = await import("../../db/connect");
    const store = await openStore(db.url);
    try {
      expect(await tableNames(store)).not.toContain("users");
    } finally {
      await store.close();
    }
  });

  it("refuses an unknown command, an unknown option, a missing value or argument with one line and exit 2", async () => {
    const cases: [string[], RegExp][] = [
      [["frobnicate"], /^switchdesk: unknown command 'frobnicate'/],
      [["migrate", "--colour"], /^switchdesk migrate: Unknown option '--colour'/],
      [["createsuperuser", "--username"], /^switchdesk createsuperuser: Option '--username <value>' argument missing/],
      [["changepassword"], /^switchdesk changepassword: missing USERNAME/],
      [["unlock", "a", "b"], /^switchdesk unlock: unexpected argument 'b'/],
      [["inventory", "export", "x.yaml"], /^switchdesk inventory: unknown inventory command 'export'/],
      [["lab", "--colour", "blue"], /^switchdesk lab: Unknown option '--colour'/],
      [["lab", "--count", "x"], /^switchdesk lab: --count needs a whole number/],
    ];
    for (const [argv, expected] of cases) {
      const err: string[] = [];
      expect(
        await main(
          argv,
          () => {},
          (l) => err.push(l),
        ),
      ).toBe(2);
      expect(err).toHaveLength(1);
      expect(err[0]).toMatch(expected);
    }
  });
});
