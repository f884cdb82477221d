/**
 * Who a directory login may become, against a real OpenLDAP server: a local account is
 * never taken over by a directory entry of the same name (under either LDAP_PRECEDENCE)
 * unless an administrator linked it; one person is one account and one throttle key however
 * the name is typed; the directory's own name is what is stored; a name outside the
 * username rules never reaches the directory; a refused login changes no rights; the log
 * says what happened.
 */
import { captureLogs, type LogCapture } from "../support/log-capture";
import {
  describeDirectory,
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

const LOGIN_FAILED = { reason: "Unable to log in with provided credentials.", code: "invalid_credentials" };

describeDirectory("directory identity", () => {
  let logs: LogCapture;
  let dir: TestDirectory;
  beforeAll(async () => {
    logs = captureLogs();
    dir = await startTestDirectory();
    // an entry with the local superuser's name, as an attacker with a directory account could make
    await dir.addUser("root", { givenName: "Mallory", sn: "Attacker", mail: "mallory@example.org" });
    await dir.addUser("Dora", { givenName: "Dora", sn: "Explorer" });
    await dir.addUser("eve");
  });
  afterAll(async () => {
    logs?.restore();
    await dir?.stop();
  });

  const account = async (app: DirectoryApp, username: string) => {
    const listed = (await app.request("GET", "/api/admin/users/", { token: app.root })).body.filter(
      (u: Schemas["UserListItem"]) => u.username.toLowerCase() === username.toLowerCase(),
    );
    expect(listed.length).toBeLessThanOrEqual(1);
    return listed.length
      ? (await app.request("GET", `/api/admin/users/${listed[0].id}/`, { token: app.root })).body
      : undefined;
  };
  const loginRows = async (app: DirectoryApp, n: number) =>
    (await app.request("GET", `/api/admin/log/?action=login&page_size=${n}`, { token: app.root })).body.results;
  /** JSON log lines (of the service) whose message contains the text */
  const logLines = (text: string) =>
    logs
      .text()
      .split("\n")
      .filter((l) => l.startsWith("{") && l.includes(text))
      .map((l) => JSON.parse(l));

  describe.each(["directory", "local"])("LDAP_PRECEDENCE=%s", (precedence) => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp({
        ...searchEnv(dir, "plain"),
        LDAP_PRECEDENCE: precedence,
        LDAP_GROUP_SUPERUSER: groupDn("sd-admins"),
      });
    });
    afterAll(async () => app?.close());

    it("refuses a directory login into the local superuser, keeps it local and superuser, and its token and password working", async () => {
      const before = await account(app, "root");
      const r = await tokenLogin(app, "root", dir.users.root.password);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(LOGIN_FAILED);
      expect((await webLoginRaw(app, "ROOT ", dir.users.root.password)).status).toBe(400);

      const after = await account(app, "root");
      expect(after).toEqual({ ...before, last_login: after.last_login });
      expect(after).toMatchObject({ id: before.id, username: "root", is_superuser: true, first_name: "", email: "" });
      expect(after.profile).toMatchObject({ last_ldap_dn: "", ldap_linked: false });
      // the old token still works as a superuser's, and the local password still logs in
      expect((await app.request("GET", "/api/admin/users/", { token: app.root })).status).toBe(200);
      expect((await tokenLogin(app, "root", ROOT_PASSWORD)).status).toBe(200);

      // the client learns nothing more; the audit row and the log say exactly why
      const rows = await loginRows(app, 3);
      const refused = rows.filter((x: Schemas["LogEntry"]) => x.code === "invalid_credentials").slice(0, 2);
      expect(refused.map((x: Schemas["LogEntry"]) => [x.username, x.new_value, x.outcome])).toEqual([
        ["root", "web", "refused"],
        ["root", "token", "refused"],
      ]);
      for (const row of refused)
        expect(row.message).toContain("is a local account not linked to the directory: not converted");
      const line = logLines("'root' (id ").find((l) => l.msg.includes("local account not linked"));
      expect(line).toMatchObject({
        level: "warn",
        msg: expect.stringContaining(
          `directory login refused: the directory accepted the password of ${userDn("root")}`,
        ),
      });
    });
  });

  describe("an administrator links a local account to the directory", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp(searchEnv(dir, "plain"));
    });
    afterAll(async () => app?.close());

    it("takes it over at the next directory login only after the link, which is audited", async () => {
      const made = await app.request("POST", "/api/admin/users/", {
        token: app.root,
        json: { username: "carol", password: "carol-local-pw-1" },
      });
      expect(made.status).toBe(201);
      expect(made.body.profile).toMatchObject({ ldap_linked: false, last_ldap_check: null });
      expect((await tokenLogin(app, "carol", dir.users.carol.password)).body).toEqual(LOGIN_FAILED);
      expect((await account(app, "carol")).profile.last_ldap_dn).toBe("");

      // a user cannot write the check time; an administrator sets the link
      const bad = await app.request("PATCH", `/api/admin/users/${made.body.id}/`, {
        token: app.root,
        json: { profile: { last_ldap_check: null } },
      });
      expect(bad.status).toBe(400);
      const linked = await app.request("PATCH", `/api/admin/users/${made.body.id}/`, {
        token: app.root,
        json: { profile: { ldap_linked: true } },
      });
      expect(linked.status).toBe(200);
      expect(linked.body.profile.ldap_linked).toBe(true);
      const audit = (await app.request("GET", "/api/admin/log/?page_size=5", { token: app.root })).body.results.find(
        (x: Schemas["LogEntry"]) => x.action === "admin:users:update",
      );
      expect(audit.new_value).toBe(`carol (id ${made.body.id}); fields: profile, profile.ldap_linked=true`);

      const r = await tokenLogin(app, "carol", dir.users.carol.password);
      expect(r.status).toBe(200);
      expect(r.body.user_id).toBe(made.body.id);
      const carol = await account(app, "carol");
      expect(carol).toMatchObject({ first_name: "Carol", last_name: "Danvers" });
      expect(carol.profile.last_ldap_dn).toBe(userDn("carol"));
      expect(carol.profile.last_ldap_check).toBe(carol.profile.last_ldap_login);
      expect(
        logLines(
          `the local account 'carol' (id ${made.body.id}), linked by an administrator, is now managed by the directory entry`,
        ),
      ).toHaveLength(1);
    });
  });

  describe("one identity per person", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp(searchEnv(dir, "plain"), { loginMaxFailures: 3 });
    });
    afterAll(async () => app?.close());

    it("stores the directory's own name, once, however the name is typed", async () => {
      const first = await tokenLogin(app, "  BOB ", dir.users.bob.password);
      expect(first.status).toBe(200);
      for (const typed of ["bob", "Bob", "\uff42\uff4f\uff42", "\u3000bob\t"]) {
        const r = await tokenLogin(app, typed, dir.users.bob.password);
        expect({ typed, status: r.status, id: r.body.user_id }).toEqual({ typed, status: 200, id: first.body.user_id });
      }
      expect((await account(app, "bob")).username).toBe("bob");
      // the entry's uid is "Dora": that spelling is stored, whatever was typed
      const dora = await tokenLogin(app, "DORA", dir.users.Dora.password);
      expect(dora.status).toBe(200);
      expect((await account(app, "dora")).username).toBe("Dora");
      // a name typed with 300 trailing spaces is the person's name, not a 305-character one
      const eve = await tokenLogin(app, `  EVE${" ".repeat(300)}`, dir.users.eve.password);
      expect(eve.status).toBe(200);
      const users = (await app.request("GET", "/api/admin/users/", { token: app.root })).body
        .map((u: Schemas["UserListItem"]) => u.username)
        .sort();
      expect(users).toEqual(["Dora", "bob", "eve", "root"]);
    });

    it("counts failures of every spelling of a name against one limit", async () => {
      for (const typed of ["carol", " carol", "CAROL  "]) {
        expect((await tokenLogin(app, typed, `carol-guess-${typed.length}`)).status).toBe(400);
      }
      const blocked = await tokenLogin(app, "\uff43arol\u3000", dir.users.carol.password);
      expect(blocked.status).toBe(429);
      expect((await webLoginRaw(app, "  carol", dir.users.carol.password)).status).toBe(429);
    });
  });

  describe("names outside the username rules", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      // a high limit: this makes many failed logins on purpose
      app = await startDirectoryApp(searchEnv(dir, "plain"), { loginMaxFailures: 1000 });
    });
    afterAll(async () => app?.close());

    it("refuses a name outside the username rules before the directory is asked", async () => {
      const searches = () =>
        dir
          .log()
          .split("\n")
          .filter((l) => l.includes("SRCH base=")).length;
      const before = searches();
      for (const typed of ["x".repeat(151), "bob<script>", "j\u00fcrgen", "a*", "smith, j", "*", "admin)(|(uid=*"]) {
        const r = await tokenLogin(app, typed, dir.users.bob.password);
        expect({ typed, status: r.status, body: r.body }).toEqual({ typed, status: 400, body: LOGIN_FAILED });
      }
      expect(searches()).toBe(before);
      const row = (await loginRows(app, 1))[0];
      expect(row.message).toContain(
        "not a valid username (up to 150 letters, digits and @/./+/-/_ only); the directory was not asked",
      );
    });
  });

  describe("a refused login changes no rights", () => {
    it("a login answered too_many_tokens re-applies nothing", async () => {
      const app = await startDirectoryApp(
        { ...searchEnv(dir, "plain"), LDAP_GROUP_SUPERUSER: groupDn("sd-admins") },
        { apiMaxTokens: 1 },
      );
      try {
        const first = await tokenLogin(app, "alice", dir.users.alice.password);
        expect(first.status).toBe(200);
        expect((await account(app, "alice")).is_superuser).toBe(true);
        await dir.modify(
          `dn: ${groupDn("sd-admins")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
        );
        try {
          const r = await tokenLogin(app, "alice", dir.users.alice.password);
          expect(r.status).toBe(400);
          expect(r.body).toEqual({ reason: "Too many tokens exist!", code: "too_many_tokens" });
          const alice = await account(app, "alice");
          expect(alice.is_superuser).toBe(true);
          expect((await loginRows(app, 1))[0]).toMatchObject({ username: "alice", code: "too_many_tokens" });
        } finally {
          await dir.modify(`dn: ${groupDn("sd-admins")}\nchangetype: modify\nadd: member\nmember: ${userDn("alice")}`);
        }
      } finally {
        await app.close();
      }
    });
  });

  describe("log lines say what happened", () => {
    it("a refused connection is logged as that, not as a refused service account", async () => {
      const down = `ldap://127.0.0.1:${await freePort()}`;
      const app = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_URL: down });
      try {
        expect((await tokenLogin(app, "bob", dir.users.bob.password)).status).toBe(503);
        const line = logLines(`directory login: ${down} could not be used`)[0];
        expect(line.level).toBe("warn");
        expect(line.msg).toContain("ECONNREFUSED");
        expect(line.msg).not.toContain("service account");
        const row = (await loginRows(app, 1))[0];
        expect(row).toMatchObject({ username: "bob", code: "directory_unavailable" });
        expect(row.message).toContain("ECONNREFUSED");
      } finally {
        await app.close();
      }
    });
  });

  it("logged none of the passwords it used", () => {
    const everything = logs.text() + dir.log();
    expect(dir.log()).toContain(`BIND dn="${userDn("bob")}"`);
    for (const secret of [...dir.passwords(), ROOT_PASSWORD, "carol-local-pw-1"])
      expect({ secret, found: everything.includes(secret) }).toEqual({ secret, found: false });
  });
});
