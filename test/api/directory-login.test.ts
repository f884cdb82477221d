/**
 * Directory login against a real OpenLDAP server (slapd on 127.0.0.1): the token endpoint
 * and the web login, over plain LDAP, StartTLS and LDAPS; the local account created from
 * the directory entry; direct bind with a DN template.
 */
import { captureLogs, type LogCapture } from "../support/log-capture";
import { describeDirectory, startTestDirectory, PEOPLE, type TestDirectory } from "../support/slapd";
import {
  searchEnv,
  startDirectoryApp,
  tokenLogin,
  transportEnv,
  webLoginRaw,
  ROOT_PASSWORD,
  type DirectoryApp,
  type Transport,
} from "../support/directory-app";
import type { Schemas } from "../support/harness";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeDirectory("directory login", () => {
  let logs: LogCapture;
  let dir: TestDirectory;
  const wrongPasswords: string[] = [];
  beforeAll(async () => {
    logs = captureLogs();
    dir = await startTestDirectory();
  });
  afterAll(async () => {
    logs?.restore();
    await dir?.stop();
  });

  /** how many lines of slapd's log match, to see what a login really did on the wire */
  const countLog = (re: RegExp) =>
    dir
      .log()
      .split("\n")
      .filter((l) => re.test(l)).length;

  describe.each<Transport>(["plain", "starttls", "ldaps"])("over %s", (transport) => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp(searchEnv(dir, transport));
    });
    afterAll(async () => app?.close());

    it("gives a token to a directory user and creates the local account from the entry", async () => {
      const tlsBefore = countLog(/TLS established/);
      const r = await tokenLogin(app, "alice", dir.users.alice.password);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        token: expect.stringMatching(/^[0-9a-f]{40}$/),
        user_id: expect.any(Number),
        email: "alice@example.org",
      });
      // the transport really was the one configured
      if (transport === "plain") expect(countLog(/TLS established/)).toBe(tlsBefore);
      else expect(countLog(/TLS established/)).toBeGreaterThan(tlsBefore);

      // the token works, and the account is what an administrator sees
      expect((await app.request("GET", "/api/users/tokens/", { token: r.body.token })).status).toBe(200);
      const u = await app.request("GET", `/api/admin/users/${r.body.user_id}/`, { token: app.root });
      expect(u.status).toBe(200);
      expect(u.body).toMatchObject({
        username: "alice",
        first_name: "Alice",
        last_name: "Liddell",
        email: "alice@example.org",
        is_active: true,
      });
      expect(u.body.profile.last_ldap_dn).toBe(`uid=alice,${PEOPLE}`);
      expect(u.body.profile.last_ldap_login).toMatch(ISO);
      expect(Date.now() - Date.parse(u.body.profile.last_ldap_login)).toBeLessThan(60_000);
      expect(u.body.last_login).toMatch(ISO);
      // no usable local password was made for it
      expect(u.body.password).not.toMatch(/^\$argon2/);
    });

    it("logs a directory user into the web UI", async () => {
      const r = await webLoginRaw(app, "bob", dir.users.bob.password);
      expect(r.status).toBe(302);
      expect(r.location).toBe("/api/");
      const users = await app.request("GET", "/api/admin/users/", { token: app.root });
      const bob = users.body.find((x: Schemas["UserListItem"]) => x.username === "bob");
      expect(bob).toMatchObject({ first_name: "Bob", last_name: "Builder", email: "bob@example.org" });
    });

    it("refuses a wrong directory password like any bad login (400), and creates nobody", async () => {
      const wrong = `not-carols-${transport}`;
      wrongPasswords.push(wrong);
      const r = await tokenLogin(app, "carol", wrong);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ reason: "Unable to log in with provided credentials.", code: "invalid_credentials" });
      const web = await webLoginRaw(app, "carol", wrong);
      expect(web.status).toBe(400);
      const users = await app.request("GET", "/api/admin/users/", { token: app.root });
      expect(users.body.map((x: Schemas["UserListItem"]) => x.username)).not.toContain("carol");
      // both refusals are audit rows: the name tried and the address, never the password
      const rows = (await app.request("GET", "/api/admin/log/?action=login", { token: app.root })).body.results;
      expect(
        rows
          .slice(0, 2)
          .map((x: Schemas["LogEntry"]) => [x.username, x.new_value, x.outcome, x.code, x.source_address]),
      ).toEqual([
        ["carol", "web", "refused", "invalid_credentials", "127.0.0.1"],
        ["carol", "token", "refused", "invalid_credentials", "127.0.0.1"],
      ]);
      expect(JSON.stringify(rows)).not.toContain(wrong);
    });

    it("updates the account from the directory at the next login", async () => {
      await dir.modify(
        `dn: uid=alice,${PEOPLE}\nchangetype: modify\nreplace: mail\nmail: alice.${transport}@example.org\n-\nreplace: sn\nsn: Pleasance-${transport}`,
      );
      const r = await tokenLogin(app, "alice", dir.users.alice.password);
      expect(r.status).toBe(200);
      expect(r.body.email).toBe(`alice.${transport}@example.org`);
      const u = await app.request("GET", `/api/admin/users/${r.body.user_id}/`, { token: app.root });
      expect(u.body.last_name).toBe(`Pleasance-${transport}`);
      // still one account for alice
      const all = await app.request("GET", "/api/admin/users/", { token: app.root });
      expect(all.body.filter((x: Schemas["UserListItem"]) => x.username.toLowerCase() === "alice")).toHaveLength(1);
      await dir.modify(
        `dn: uid=alice,${PEOPLE}\nchangetype: modify\nreplace: mail\nmail: alice@example.org\n-\nreplace: sn\nsn: Liddell`,
      );
    });
  });

  describe("direct bind with a DN template (no service account)", () => {
    let app: DirectoryApp;
    beforeAll(async () => {
      app = await startDirectoryApp({
        ...transportEnv(dir, "starttls"),
        LDAP_USER_DN_TEMPLATE: `uid={username},${PEOPLE}`,
      });
    });
    afterAll(async () => app?.close());

    it("binds as the user and reads its entry", async () => {
      const r = await tokenLogin(app, "carol", dir.users.carol.password);
      expect(r.status).toBe(200);
      expect(r.body.email).toBe("carol@example.org");
      const u = await app.request("GET", `/api/admin/users/${r.body.user_id}/`, { token: app.root });
      expect(u.body).toMatchObject({ first_name: "Carol", last_name: "Danvers" });
      expect(u.body.profile.last_ldap_dn).toBe(`uid=carol,${PEOPLE}`);
    });

    it("refuses a name with a comma (outside the username rules) without binding", async () => {
      const binds = () =>
        dir
          .log()
          .split("\n")
          .filter((l) => l.includes("BIND dn=")).length;
      const before = binds();
      const r = await tokenLogin(app, "smith, j", dir.users["smith, j"].password);
      expect(r.status).toBe(400);
      expect(binds()).toBe(before);
    });

    it("refuses a wrong password (400) and a name that would change the DN (400, not 503)", async () => {
      wrongPasswords.push("carol-wrong-1");
      expect((await tokenLogin(app, "carol", "carol-wrong-1")).status).toBe(400);
      // unescaped, this would be the DN of carol's entry with extra RDNs, or a syntax error
      // (a leading or trailing space is not among them: uid matching ignores it, so " carol" is carol)
      for (const name of [`carol,ou=people`, "carol+cn=x", "carol\\", "#carol", "carol=x", 'carol"']) {
        const r = await tokenLogin(app, name, dir.users.carol.password);
        expect({ name, status: r.status, code: r.body.code }).toEqual({
          name,
          status: 400,
          code: "invalid_credentials",
        });
      }
    });
  });

  it("logged none of the passwords it used (service output, slapd's log)", async () => {
    const everything = logs.text() + dir.log();
    // the capture works: slapd's log has the binds of this run
    expect(dir.log()).toContain(`BIND dn="uid=alice,${PEOPLE}"`);
    for (const secret of [...dir.passwords(), ...wrongPasswords, ROOT_PASSWORD])
      expect(everything).not.toContain(secret);
  });
});
