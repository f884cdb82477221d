/**
 * Rights that follow the directory while tokens and sessions are used, against a real
 * OpenLDAP server: a group membership removed with ldapmodify is gone on the first call
 * after LDAP_RECHECK_SECONDS (superuser admin API, a device group in the menu), one recheck
 * for many parallel calls, and a stopped directory: last known rights within the grace,
 * then writes refused with 503 directory_unavailable. The age of the last check is set in
 * the database instead of waiting for it.
 */
import { captureLogs, type LogCapture } from "../support/log-capture";
import {
  describeDirectory,
  startTestDirectory,
  groupDn,
  userDn,
  SERVICE_DN,
  type TestDirectory,
} from "../support/slapd";
import {
  mappingEnv,
  searchEnv,
  startDirectoryApp,
  tokenLogin,
  ROOT_PASSWORD,
  type DirectoryApp,
} from "../support/directory-app";
import type { Schemas } from "../support/harness";

const UNAVAILABLE = {
  reason: "The directory server could not be reached; local accounts can still log in",
  code: "directory_unavailable",
};

describeDirectory("directory rights recheck", () => {
  let logs: LogCapture;
  beforeAll(() => {
    logs = captureLogs();
  });
  afterAll(() => logs?.restore());

  /** makes the directory's last confirmation of a user's rights `secondsAgo` old */
  const ageCheck = async (app: DirectoryApp, id: number, secondsAgo: number) => {
    const at = new Date(Date.now() - secondsAgo * 1000).toISOString();
    await app.services.store.db.updateTable("profiles").set({ ldap_checked: at }).where("user_id", "=", id).execute();
  };
  const menuGroups = async (app: DirectoryApp, token: string) => {
    const m = await app.request("GET", "/api/switches/", { token });
    expect(m.status).toBe(200);
    return Object.values<Schemas["MenuGroup"]>(m.body.groups)
      .map((g) => g.name)
      .sort();
  };
  const serviceBinds = (dir: TestDirectory) => dir.log().split(`BIND dn="${SERVICE_DN}" method=128`).length - 1;

  describe("with the directory up", () => {
    let dir: TestDirectory;
    let app: DirectoryApp;
    beforeAll(async () => {
      dir = await startTestDirectory();
      app = await startDirectoryApp({ ...searchEnv(dir, "starttls"), ...mappingEnv() });
      for (const name of ["Core", "Access"]) {
        const g = await app.request("POST", "/api/admin/switchgroups/", { token: app.root, json: { name } });
        expect(g.status).toBe(201);
        expect(
          (
            await app.request("POST", "/api/admin/switches/", {
              token: app.root,
              json: { name: `sw-${name}`, switchgroups: [g.body.id] },
            })
          ).status,
        ).toBe(201);
      }
    });
    afterAll(async () => {
      await app?.close();
      await dir?.stop();
    });

    it("takes a right removed in the directory from a token issued before, on the first call after LDAP_RECHECK_SECONDS", async () => {
      const r = await tokenLogin(app, "alice", dir.users.alice.password);
      expect(r.status).toBe(200);
      const { token, user_id: id } = r.body;
      expect((await app.request("GET", "/api/admin/users/", { token })).status).toBe(200);
      expect(await menuGroups(app, token)).toEqual(["Access", "Core"]);

      await dir.modify(
        [
          `dn: ${groupDn("sd-admins")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
          `dn: ${groupDn("sd-staff")}\nchangetype: modify\ndelete: uniqueMember\nuniqueMember: ${userDn("alice")}\n-\nadd: uniqueMember\nuniqueMember: ${SERVICE_DN}`,
          `dn: ${groupDn("netops")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}`,
        ].join("\n\n"),
      );
      // within LDAP_RECHECK_SECONDS (300 by default) the last check stands
      expect((await app.request("GET", "/api/admin/users/", { token })).status).toBe(200);

      await ageCheck(app, id, 301);
      const refused = await app.request("GET", "/api/admin/users/", { token });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("forbidden");
      // superuser and staff gone: only the groups she is a member of, and Core is not one any more
      expect(await menuGroups(app, token)).toEqual([]);
      const u = (await app.request("GET", `/api/admin/users/${id}/`, { token: app.root })).body;
      expect(u).toMatchObject({ is_superuser: false, is_staff: false, switchgroups: [] });
      expect(Date.now() - Date.parse(u.profile.last_ldap_check)).toBeLessThan(60_000);
      // a login is not what did it
      expect(u.profile.last_ldap_login).not.toBe(u.profile.last_ldap_check);
    });

    it("rechecks a web session's user too, and gives a right back the same way", async () => {
      const session = await app.webLogin("bob", dir.users.bob.password);
      const id = (await app.request("GET", "/api/admin/users/", { token: app.root })).body.find(
        (x: Schemas["UserListItem"]) => x.username === "bob",
      ).id;
      expect((await app.request("GET", "/api/admin/users/", { session })).status).toBe(403);
      await dir.modify(`dn: ${groupDn("sd-admins")}\nchangetype: modify\nadd: member\nmember: ${userDn("bob")}`);
      await ageCheck(app, id, 400);
      expect((await app.request("GET", "/api/admin/users/", { session })).status).toBe(200);
    });

    it("runs one recheck for many parallel calls of one user", async () => {
      const r = await tokenLogin(app, "carol", dir.users.carol.password);
      expect(r.status).toBe(200);
      await ageCheck(app, r.body.user_id, 600);
      const before = serviceBinds(dir);
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => app.request("GET", "/api/switches/", { token: r.body.token })),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
      expect(serviceBinds(dir) - before).toBe(1);
      // and none for the next calls: the check is fresh now
      await app.request("GET", "/api/switches/", { token: r.body.token });
      expect(serviceBinds(dir) - before).toBe(1);
    });

    it("ends the calls of a user whose entry is gone from the directory (403 User inactive)", async () => {
      const frank = await dir.addUser("frank");
      const r = await tokenLogin(app, "frank", frank.password);
      expect(r.status).toBe(200);
      await dir.modify(`dn: ${userDn("frank")}\nchangetype: delete`);
      expect((await app.request("GET", "/api/switches/", { token: r.body.token })).status).toBe(200);
      await ageCheck(app, r.body.user_id, 301);
      const gone = await app.request("GET", "/api/switches/", { token: r.body.token });
      expect(gone.status).toBe(403);
      expect(gone.body).toMatchObject({ reason: "User inactive", code: "user_inactive" });
      expect(logs.text()).toContain(
        `directory recheck: the entry ${userDn("frank")} of 'frank' (id ${r.body.user_id}) is gone from the directory`,
      );
    });

    it("leaves local accounts alone: no directory traffic for their calls", async () => {
      const before = serviceBinds(dir);
      expect((await app.request("GET", "/api/admin/users/", { token: app.root })).status).toBe(200);
      expect(serviceBinds(dir)).toBe(before);
    });
  });

  describe("with the directory stopped", () => {
    let dir: TestDirectory;
    let app: DirectoryApp;
    let token: string;
    let id: number;
    beforeAll(async () => {
      dir = await startTestDirectory();
      app = await startDirectoryApp({ ...searchEnv(dir, "plain"), ...mappingEnv() });
      const g = await app.request("POST", "/api/admin/switchgroups/", { token: app.root, json: { name: "Core" } });
      expect(g.status).toBe(201);
      const r = await tokenLogin(app, "alice", dir.users.alice.password);
      expect(r.status).toBe(200);
      ({ token, user_id: id } = r.body);
      await dir.stop();
    });
    afterAll(async () => app?.close());

    const write = () =>
      app.request("POST", "/api/switches/1/1/vlan/add/", { token, json: { vlan_id: 3999, vlan_name: "x" } });

    it("keeps the last known rights within LDAP_RECHECK_GRACE_SECONDS", async () => {
      await ageCheck(app, id, 600);
      expect((await app.request("GET", "/api/admin/users/", { token })).status).toBe(200);
      expect((await write()).status).not.toBe(503);
      const line = logs
        .text()
        .split("\n")
        .find((l) => l.includes("directory users keep their last known rights"));
      expect(JSON.parse(line!)).toMatchObject({ level: "warn", msg: expect.stringContaining("ECONNREFUSED") });
    });

    it("refuses the user's writes with 503 directory_unavailable past the grace; reads go on", async () => {
      await ageCheck(app, id, 3700);
      const w = await write();
      expect(w.status).toBe(503);
      expect(w.body).toEqual(UNAVAILABLE);
      expect((await app.request("GET", "/api/switches/", { token })).status).toBe(200);
      // a local account is not affected
      expect((await app.request("GET", "/api/admin/users/", { token: app.root })).status).toBe(200);
    });
  });

  it("logged none of the passwords it used", () => {
    expect(logs.text()).not.toContain(ROOT_PASSWORD);
  });
});
