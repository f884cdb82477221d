/**
 * Directory login when things go wrong or someone tries something: which password wins
 * (LDAP_PRECEDENCE both ways), the failed-login throttle, a directory that is down, slow
 * or presents a certificate the configured CA did not sign (503, never a login), filter
 * injection through the username, empty passwords, and no password in any log.
 */
import { captureLogs, type LogCapture } from "../support/log-capture";
import {
  describeDirectory,
  startSilentServer,
  startTestDirectory,
  freePort,
  groupDn,
  userDn,
  SERVICE_DN,
  type TestDirectory,
} from "../support/slapd";
import {
  searchEnv,
  startDirectoryApp,
  tokenLogin,
  webLoginRaw,
  ROOT_PASSWORD,
  type DirectoryApp,
} from "../support/directory-app";
import type { Schemas } from "../support/harness";

const UNAVAILABLE = {
  reason: "The directory server could not be reached; local accounts can still log in",
  code: "directory_unavailable",
};
const LOGIN_FAILED = { reason: "Unable to log in with provided credentials.", code: "invalid_credentials" };

describeDirectory("directory login failures", () => {
  let logs: LogCapture;
  let dir: TestDirectory;
  /** every password this file sends or stores, for the final log check */
  const used: string[] = [ROOT_PASSWORD];
  const secret = (s: string) => (used.push(s), s);
  beforeAll(async () => {
    logs = captureLogs();
    dir = await startTestDirectory();
  });
  afterAll(async () => {
    logs?.restore();
    await dir?.stop();
  });

  /** the account as an administrator sees it (undefined when there is none) */
  const account = async (app: DirectoryApp, username: string) => {
    const listed = (await app.request("GET", "/api/admin/users/", { token: app.root })).body.find(
      (u: Schemas["UserListItem"]) => u.username === username,
    );
    return listed ? (await app.request("GET", `/api/admin/users/${listed.id}/`, { token: app.root })).body : undefined;
  };

  describe("LDAP_PRECEDENCE=directory (the default)", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp(searchEnv(dir, "plain"));
      // alice also has a local account with a different password; erin is local only
      await app.createUser("alice", secret("alice-local-pw-1"));
      await app.createUser("erin", secret("erin-local-pw-1"));
    });
    afterAll(async () => app?.close());

    it("keeps a local account local: its own password logs in, the directory's is refused and converts nothing", async () => {
      expect((await tokenLogin(app, "alice", dir.users.alice.password)).body).toEqual(LOGIN_FAILED);
      expect((await account(app, "alice")).profile.last_ldap_dn).toBe("");
      expect((await tokenLogin(app, "alice", "alice-local-pw-1")).status).toBe(200);
      expect((await account(app, "alice")).profile.last_ldap_dn).toBe("");
    });

    it("still logs in a local-only user with the local password", async () => {
      const r = await tokenLogin(app, "erin", "erin-local-pw-1");
      expect(r.status).toBe(200);
      expect((await account(app, "erin")).profile.last_ldap_dn).toBe("");
      expect((await webLoginRaw(app, "erin", "erin-local-pw-1")).status).toBe(302);
      expect((await tokenLogin(app, "erin", secret("erin-wrong-1"))).body).toEqual(LOGIN_FAILED);
    });
  });

  describe("LDAP_PRECEDENCE=local", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_PRECEDENCE: "local" });
      await app.createUser("alice", secret("alice-local-pw-2"));
    });
    afterAll(async () => app?.close());

    it("lets the local password in without asking the directory", async () => {
      const binds = dir.log().split(`BIND dn="${userDn("alice")}"`).length;
      const r = await tokenLogin(app, "alice", "alice-local-pw-2");
      expect(r.status).toBe(200);
      expect((await account(app, "alice")).profile.last_ldap_dn).toBe("");
      expect(dir.log().split(`BIND dn="${userDn("alice")}"`).length).toBe(binds);
    });

    it("refuses the directory password for a local account, and falls back to the directory once an administrator linked it", async () => {
      expect((await tokenLogin(app, "alice", dir.users.alice.password)).body).toEqual(LOGIN_FAILED);
      expect((await account(app, "alice")).profile.last_ldap_dn).toBe("");
      const id = (await account(app, "alice")).id;
      expect(
        (
          await app.request("PATCH", `/api/admin/users/${id}/`, {
            token: app.root,
            json: { profile: { ldap_linked: true } },
          })
        ).status,
      ).toBe(200);
      const r = await tokenLogin(app, "alice", dir.users.alice.password);
      expect(r.status).toBe(200);
      expect((await account(app, "alice")).profile.last_ldap_dn).toBe(userDn("alice"));
      // the local password keeps working under this precedence
      expect((await tokenLogin(app, "alice", "alice-local-pw-2")).status).toBe(200);
      expect((await tokenLogin(app, "alice", secret("neither-pw-1"))).body).toEqual(LOGIN_FAILED);
    });
  });

  describe("decisions an administrator made locally", () => {
    it("keeps a deactivated account deactivated: its directory login is refused", async () => {
      const app = await startDirectoryApp(searchEnv(dir, "plain"));
      try {
        const id = (await tokenLogin(app, "carol", dir.users.carol.password)).body.user_id;
        expect(
          (await app.request("PATCH", `/api/admin/users/${id}/`, { token: app.root, json: { is_active: false } }))
            .status,
        ).toBe(200);
        expect((await tokenLogin(app, "carol", dir.users.carol.password)).body).toEqual(LOGIN_FAILED);
        expect((await account(app, "carol")).is_active).toBe(false);
      } finally {
        await app.close();
      }
    });

    it("does not demote the last active superuser, and says so in the log", async () => {
      const app = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_GROUP_SUPERUSER: groupDn("sd-admins") });
      try {
        const id = (await tokenLogin(app, "alice", dir.users.alice.password)).body.user_id;
        expect((await account(app, "alice")).is_superuser).toBe(true);
        // root steps down: alice is now the only active superuser
        const rootId = (await account(app, "root")).id;
        expect(
          (await app.request("PATCH", `/api/admin/users/${rootId}/`, { token: app.root, json: { is_active: false } }))
            .status,
        ).toBe(200);
        await dir.modify(
          `dn: ${groupDn("sd-admins")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
        );
        try {
          const r = await tokenLogin(app, "alice", dir.users.alice.password);
          expect(r.status).toBe(200);
          expect(r.body.user_id).toBe(id);
          const alice = await app.request("GET", `/api/admin/users/${id}/`, { token: r.body.token });
          expect(alice.status).toBe(200);
          expect(alice.body.is_superuser).toBe(true);
          const kept = logs
            .text()
            .split("\n")
            .find((l) => l.includes("is the last active superuser here"));
          expect(JSON.parse(kept!)).toMatchObject({
            level: "warn",
            msg: "directory login: 'alice' left its superuser group but is the last active superuser here; it stays superuser",
          });
        } finally {
          await dir.modify(`dn: ${groupDn("sd-admins")}\nchangetype: modify\nadd: member\nmember: ${userDn("alice")}`);
        }
      } finally {
        await app.close();
      }
    });
  });

  describe("throttle", () => {
    it("counts wrong directory passwords: 429 after the limit, even for the right one", async () => {
      const app = await startDirectoryApp(searchEnv(dir, "starttls"), { loginMaxFailures: 3 });
      try {
        for (let i = 0; i < 3; i++) {
          const r = await tokenLogin(app, "bob", secret(`bob-guess-${i}`));
          expect(r.status).toBe(400);
        }
        const blocked = await tokenLogin(app, "bob", dir.users.bob.password);
        expect(blocked.status).toBe(429);
        expect(blocked.body.code).toBe("rate_limited");
        expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
        // the web login shares the same count
        expect((await webLoginRaw(app, "bob", dir.users.bob.password)).status).toBe(429);
      } finally {
        await app.close();
      }
    });
  });

  describe("a directory that does not answer", () => {
    let app: DirectoryApp;
    let downUrl: string;
    beforeAll(async () => {
      downUrl = `ldap://127.0.0.1:${await freePort()}`; // nothing listens there
      app = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_URL: downUrl }, { loginMaxFailures: 3 });
      await app.createUser("erin", secret("erin-local-pw-2"));
      // a directory-managed user (last_ldap_dn set): its local password is not a fallback
      const id = await app.createUser("alice", secret("alice-local-pw-3"));
      await app.services.store.db
        .updateTable("profiles")
        .set({ last_ldap_dn: userDn("alice") })
        .where("user_id", "=", id)
        .execute();
    });
    afterAll(async () => app?.close());

    it("answers a directory login with 503 directory_unavailable and the contract text", async () => {
      for (const name of ["bob", "alice"]) {
        const r = await tokenLogin(app, name, dir.users[name].password);
        expect({ name, status: r.status, body: r.body }).toEqual({ name, status: 503, body: UNAVAILABLE });
      }
      const web = await webLoginRaw(app, "bob", dir.users.bob.password);
      expect(web.status).toBe(503);
      expect(web.text).toContain(UNAVAILABLE.reason);
    });

    it("still lets a local account log in", async () => {
      expect((await tokenLogin(app, "erin", "erin-local-pw-2")).status).toBe(200);
      expect((await webLoginRaw(app, "erin", "erin-local-pw-2")).status).toBe(302);
      // a directory-managed account does not fall back to a local password
      expect((await tokenLogin(app, "alice", "alice-local-pw-3")).status).toBe(503);
    });

    it("does not lock anyone out for the outage, but counts wrong local passwords", async () => {
      for (let i = 0; i < 4; i++) expect((await tokenLogin(app, "bob", dir.users.bob.password)).status).toBe(503);
      for (let i = 0; i < 3; i++) expect((await tokenLogin(app, "erin", secret(`erin-guess-${i}`))).status).toBe(503);
      expect((await tokenLogin(app, "erin", "erin-local-pw-2")).status).toBe(429);
    });

    it("logs one clear line about it in the JSON log, at warn level, without secrets", () => {
      const line = logs
        .text()
        .split("\n")
        .find((l) => l.includes("could not be used"));
      expect(JSON.parse(line!)).toMatchObject({
        level: "warn",
        msg: expect.stringMatching(new RegExp(`^directory login: ${downUrl} could not be used \\(.*ECONNREFUSED`)),
      });
    });

    it("gives 503 within LDAP_TIMEOUT_MS when the server accepts and stays silent", async () => {
      const silent = await startSilentServer();
      const apps: DirectoryApp[] = [];
      try {
        const envs: Array<Record<string, string>> = [
          { LDAP_URL: silent.url },
          { LDAP_URL: silent.url, LDAP_STARTTLS: "on", LDAP_CA_FILE: dir.caFile },
          { LDAP_URL: silent.tlsUrl, LDAP_CA_FILE: dir.caFile },
        ];
        for (const env of envs) {
          const a = await startDirectoryApp({ ...searchEnv(dir, "plain"), ...env, LDAP_TIMEOUT_MS: "400" });
          apps.push(a);
          const t0 = Date.now();
          const r = await tokenLogin(a, "bob", dir.users.bob.password);
          expect({ url: env.LDAP_URL, status: r.status, code: r.body.code }).toEqual({
            url: env.LDAP_URL,
            status: 503,
            code: "directory_unavailable",
          });
          expect(Date.now() - t0).toBeLessThan(3000);
        }
        expect(silent.connections()).toBeGreaterThanOrEqual(3);
      } finally {
        for (const a of apps) await a.close();
        await silent.stop();
      }
    });

    it("gives 503 when the service account is refused", async () => {
      const a = await startDirectoryApp({
        ...searchEnv(dir, "plain"),
        LDAP_BIND_PASSWORD: secret("not-the-service-pw"),
      });
      try {
        const r = await tokenLogin(a, "bob", dir.users.bob.password);
        expect(r.status).toBe(503);
        expect(r.body).toEqual(UNAVAILABLE);
        expect(logs.text()).toContain("the service account LDAP_BIND_DN was refused");
      } finally {
        await a.close();
      }
    });
  });

  describe("TLS certificate checks", () => {
    const cases = [
      ["LDAPS", () => ({ LDAP_URL: dir.ldapsUrl })],
      ["StartTLS", () => ({ LDAP_URL: dir.ldapUrl, LDAP_STARTTLS: "on" })],
    ] as const;

    it.each(cases)(
      "%s: a server whose certificate the configured CA did not sign is refused (503, no login)",
      async (_name, env) => {
        const app = await startDirectoryApp({ ...searchEnv(dir, "plain"), ...env(), LDAP_CA_FILE: dir.otherCaFile });
        try {
          const r = await tokenLogin(app, "carol", dir.users.carol.password);
          expect(r.status).toBe(503);
          expect(r.body).toEqual(UNAVAILABLE);
          expect(await account(app, "carol")).toBeUndefined();
        } finally {
          await app.close();
        }
      },
    );

    it.each(cases)(
      "%s: without LDAP_CA_FILE the system CAs are used, so the test CA is refused too",
      async (_name, env) => {
        const app = await startDirectoryApp({ ...searchEnv(dir, "plain"), ...env() });
        try {
          expect((await tokenLogin(app, "carol", dir.users.carol.password)).status).toBe(503);
        } finally {
          await app.close();
        }
      },
    );

    it.each(cases)("%s: checking can be turned off, only explicitly (LDAP_TLS_VERIFY=off)", async (_name, env) => {
      const app = await startDirectoryApp({ ...searchEnv(dir, "plain"), ...env(), LDAP_TLS_VERIFY: "off" });
      try {
        expect((await tokenLogin(app, "carol", dir.users.carol.password)).status).toBe(200);
      } finally {
        await app.close();
      }
    });

    it("accepts the server by its DNS name too (certificate for localhost)", async () => {
      const app = await startDirectoryApp({
        ...searchEnv(dir, "plain"),
        LDAP_URL: dir.ldapsUrl.replace("127.0.0.1", "localhost"),
        LDAP_CA_FILE: dir.caFile,
      });
      try {
        expect((await tokenLogin(app, "carol", dir.users.carol.password)).status).toBe(200);
      } finally {
        await app.close();
      }
    });
  });

  describe("what a username or password cannot do", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      // a high limit: these tests make many failed logins on purpose
      app = await startDirectoryApp(searchEnv(dir, "ldaps"), { loginMaxFailures: 1000 });
    });
    afterAll(async () => app?.close());

    it("refuses names with filter metacharacters before the directory is asked (the escaping of RFC 4515 stays as a second line)", async () => {
      const alice = dir.users.alice.password;
      const searches = () =>
        dir
          .log()
          .split("\n")
          .filter((l) => l.includes("SRCH base=")).length;
      const before = searches();
      const attempts: Array<[string, string]> = [
        ["*", alice], // unescaped: (uid=*) would match everyone
        ["al*ce", alice], // unescaped: a substring filter matching alice alone
        ["alice*", alice],
        ["admin)(|(uid=*", alice], // unescaped: a different filter, or a syntax error (503)
        ["alice)(uid=alice", alice],
        ["alice))(|(uid=*", alice],
        ["a\\2a", dir.users["a*"].password], // unescaped: \2a is "*", the entry "a*"
        ["alice\u0000", alice], // unescaped: a C string ends at NUL
        ["alice\u0000junk", alice],
        // a name outside the username rules, even one the directory holds
        ["a*", dir.users["a*"].password],
      ];
      for (const [name, password] of attempts) {
        const r = await tokenLogin(app, name, password);
        expect({ name, status: r.status, body: r.body }).toEqual({ name, status: 400, body: LOGIN_FAILED });
      }
      const users = (await app.request("GET", "/api/admin/users/", { token: app.root })).body.map(
        (u: Schemas["UserListItem"]) => u.username,
      );
      expect(users).toEqual(["root"]);
      expect(searches()).toBe(before);
      // the same app does search for a valid name
      expect((await tokenLogin(app, "alice", alice)).status).toBe(200);
      expect(searches()).toBeGreaterThan(before);
    });

    it("never binds with an empty password: refused before the directory is contacted", async () => {
      const listener = await startSilentServer();
      const a = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_URL: listener.url, LDAP_TIMEOUT_MS: "400" });
      try {
        // (setting up the app logged the local "root" in with its own password: the directory was not asked)
        const before = listener.connections();
        const web = await webLoginRaw(a, "alice", "");
        expect(web.status).toBe(400);
        expect(web.text).toContain(LOGIN_FAILED.reason);
        const token = await tokenLogin(a, "alice", "");
        expect(token.status).toBe(400);
        expect(token.body.code).toBe("missing_parameter");
        expect(listener.connections()).toBe(before);
        // the same app does contact the directory for a real password (and gets no answer)
        expect((await webLoginRaw(a, "alice", secret("some-password-1"))).status).toBe(503);
        expect(listener.connections()).toBe(before + 1);
      } finally {
        await a.close();
        await listener.stop();
      }
    });
  });

  it("logged none of the passwords it used (service output, slapd's log)", () => {
    const everything = logs.text() + dir.log();
    // the capture works: it holds the outage warnings this file caused
    expect(logs.text()).toContain("could not be used");
    expect(dir.log()).toContain(`BIND dn="${userDn("alice")}"`);
    for (const s of [...dir.passwords(), ...used])
      expect({ secret: s, found: everything.includes(s) }).toEqual({ secret: s, found: false });
  });
});
