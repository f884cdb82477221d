/**
 * Rights that follow directory groups, rechecked at every directory login: superuser,
 * staff, read-only, VLAN edit and device groups, from groupOfNames, groupOfUniqueNames and
 * posixGroup groups (found by a search), and from memberOf (slapd's memberof overlay).
 * The test changes the directory with ldapmodify between logins.
 */
import { captureLogs, type LogCapture } from "../support/log-capture";
import {
  describeDirectory,
  startTestDirectory,
  groupDn,
  userDn,
  GROUPS,
  PEOPLE,
  SERVICE_DN,
  type TestDirectory,
} from "../support/slapd";
import {
  mappingEnv,
  searchEnv,
  startDirectoryApp,
  tokenLogin,
  transportEnv,
  ROOT_PASSWORD,
  type DirectoryApp,
} from "../support/directory-app";
import type { Schemas } from "../support/harness";

describeDirectory("directory group mappings", () => {
  let logs: LogCapture;
  let dir: TestDirectory;
  beforeAll(async () => {
    logs = captureLogs();
    dir = await startTestDirectory();
  });
  afterAll(async () => {
    logs?.restore();
    await dir?.stop();
  });

  describe("groups found by a search (groupOfNames, groupOfUniqueNames, posixGroup)", () => {
    let app: DirectoryApp;
    const groupId: Record<string, number> = {};
    beforeAll(async () => {
      app = await startDirectoryApp({
        ...searchEnv(dir, "starttls"),
        ...mappingEnv(),
        // a mapped switch group that does not exist here: warned about, otherwise ignored
        LDAP_GROUP_DEVICE_GROUPS: `${mappingEnv().LDAP_GROUP_DEVICE_GROUPS};${groupDn("netops")}=NoSuchGroup`,
      });
      // device groups with one switch each, so that they show in a member's menu
      for (const name of ["Core", "Access", "Local"]) {
        const g = await app.request("POST", "/api/admin/switchgroups/", { token: app.root, json: { name } });
        expect(g.status).toBe(201);
        groupId[name] = g.body.id;
        const sw = await app.request("POST", "/api/admin/switches/", {
          token: app.root,
          json: { name: `sw-${name}`, switchgroups: [g.body.id] },
        });
        expect(sw.status).toBe(201);
      }
    });
    afterAll(async () => app?.close());

    const login = async (uid: string) => {
      const r = await tokenLogin(app, uid, dir.users[uid].password);
      expect(r.status).toBe(200);
      return { token: r.body.token as string, id: r.body.user_id as number };
    };
    const account = async (id: number) =>
      (await app.request("GET", `/api/admin/users/${id}/`, { token: app.root })).body;
    const menuGroups = async (token: string) => {
      const m = await app.request("GET", "/api/switches/", { token });
      expect(m.status).toBe(200);
      return Object.values<Schemas["MenuGroup"]>(m.body.groups)
        .map((g) => g.name)
        .sort();
    };

    it("makes a member of the superuser and staff groups a superuser and staff, in its device group", async () => {
      const { token, id } = await login("alice");
      const u = await account(id);
      expect(u).toMatchObject({ is_superuser: true, is_staff: true, switchgroups: [groupId.Core] });
      expect(u.profile).toMatchObject({ read_only: false, vlan_edit: false });
      // what alice notices: the admin API opens for her
      expect((await app.request("GET", "/api/admin/users/", { token })).status).toBe(200);
    });

    it("gives read-only (posixGroup) and VLAN edit, and both device groups, to bob", async () => {
      const { token, id } = await login("bob");
      const u = await account(id);
      expect(u).toMatchObject({ is_superuser: false, is_staff: false });
      expect([...u.switchgroups].sort()).toEqual([groupId.Core, groupId.Access].sort());
      expect(u.profile).toMatchObject({ read_only: true, vlan_edit: true });
      // what bob notices: his menu, his flags, a read-only token, no admin API
      expect(await menuGroups(token)).toEqual(["Access", "Core"]);
      const menu = await app.request("GET", "/api/switches/", { token });
      expect(menu.body.user).toMatchObject({ read_only: true, vlan_edit: true });
      const tokens = await app.request("GET", "/api/users/tokens/", { token });
      expect(tokens.body.every((t: Schemas["TokenInfo"]) => t.write_enabled === false)).toBe(true);
      expect((await app.request("GET", "/api/admin/users/", { token })).status).toBe(403);
    });

    it("warns about a mapped device group that does not exist, without failing the login", () => {
      expect(logs.text()).toContain("LDAP_GROUP_DEVICE_GROUPS names switch groups that do not exist: NoSuchGroup");
    });

    it("takes rights away at the next login after the directory removes the user from groups", async () => {
      const bob = await login("bob");
      // an administrator also puts bob into an unmapped group; that is not the directory's
      const upd = await app.request("PATCH", `/api/admin/users/${bob.id}/`, {
        token: app.root,
        json: { switchgroups: [groupId.Core, groupId.Access, groupId.Local] },
      });
      expect(upd.status).toBe(200);

      await dir.modify(
        [
          `dn: ${groupDn("sd-admins")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
          `dn: ${groupDn("netops")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\ndelete: member\nmember: ${userDn("bob")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
          `dn: ${groupDn("sd-readonly")}\nchangetype: modify\ndelete: memberUid\nmemberUid: bob`,
          `dn: ${groupDn("sd-vlan")}\nchangetype: modify\ndelete: member\nmember: ${userDn("bob")}\n-\nadd: member\nmember: ${SERVICE_DN}`,
          `dn: ${groupDn("helpdesk")}\nchangetype: modify\nadd: uniqueMember\nuniqueMember: ${userDn("carol")}`,
        ].join("\n\n"),
      );

      const alice = await login("alice");
      const a = await account(alice.id);
      expect(a).toMatchObject({ is_superuser: false, is_staff: true, switchgroups: [] });
      expect((await app.request("GET", "/api/admin/users/", { token: alice.token })).status).toBe(403);

      const bob2 = await login("bob");
      const b = await account(bob2.id);
      expect(b.profile).toMatchObject({ read_only: false, vlan_edit: false });
      // Core (from netops) is gone, Access (helpdesk) stays, Local (given by an admin) stays
      expect([...b.switchgroups].sort()).toEqual([groupId.Access, groupId.Local].sort());
      expect(await menuGroups(bob2.token)).toEqual(["Access", "Local"]);
      const tokens = await app.request("GET", "/api/users/tokens/", { token: bob2.token });
      expect(tokens.body.find((t: Schemas["TokenInfo"]) => t.write_enabled === true)).toBeDefined();

      const carol = await login("carol");
      expect((await account(carol.id)).switchgroups).toEqual([groupId.Access]);
    });

    it("puts a managed right back when an administrator changed it on a directory user", async () => {
      const alice = await login("alice");
      const off = await app.request("PATCH", `/api/admin/users/${alice.id}/`, {
        token: app.root,
        json: { is_staff: false },
      });
      expect(off.status).toBe(200);
      expect((await account(alice.id)).is_staff).toBe(false);
      await login("alice");
      expect((await account(alice.id)).is_staff).toBe(true);
    });

    it("leaves the rights of a local-only user alone", async () => {
      const dave = await app.request("POST", "/api/admin/users/", {
        token: app.root,
        json: {
          username: "dave",
          password: "dave-local-pw-1",
          is_staff: true,
          switchgroups: [groupId.Core],
          profile: { vlan_edit: true, read_only: true },
        },
      });
      expect(dave.status).toBe(201);
      // dave is not in the directory: his local password logs him in, nothing changes
      const r = await tokenLogin(app, "dave", "dave-local-pw-1");
      expect(r.status).toBe(200);
      const d = await account(dave.body.id);
      expect(d).toMatchObject({ is_staff: true, is_superuser: false, switchgroups: [groupId.Core] });
      expect(d.profile).toMatchObject({ vlan_edit: true, read_only: true, last_ldap_dn: "", last_ldap_login: null });
    });

    it("leaves rights alone whose LDAP_GROUP_* variable is empty", async () => {
      const other = await startDirectoryApp({ ...searchEnv(dir, "plain"), LDAP_GROUP_SUPERUSER: groupDn("sd-admins") });
      try {
        // a local account an administrator linked to the directory (else no directory login may take it)
        const id = await other.createUser("bob", "bob-local-pw-1", {
          is_staff: true,
          profile: { vlan_edit: true, ldap_linked: true },
        });
        const r = await tokenLogin(other, "bob", dir.users.bob.password);
        expect(r.status).toBe(200);
        expect(r.body.user_id).toBe(id);
        const u = (await other.request("GET", `/api/admin/users/${id}/`, { token: other.root })).body;
        // staff and VLAN edit are not mapped here: an administrator's values stay
        expect(u).toMatchObject({ is_staff: true, is_superuser: false });
        expect(u.profile).toMatchObject({ vlan_edit: true, last_ldap_dn: userDn("bob") });
      } finally {
        await other.close();
      }
    });
  });

  describe("groups from memberOf (memberof overlay)", () => {
    let mdir: TestDirectory;
    let app: DirectoryApp;
    beforeAll(async () => {
      mdir = await startTestDirectory({ memberOf: true });
      app = await startDirectoryApp({
        ...transportEnv(mdir, "ldaps"),
        LDAP_BIND_DN: SERVICE_DN,
        LDAP_BIND_PASSWORD: mdir.servicePassword,
        LDAP_USER_BASE: PEOPLE,
        LDAP_GROUP_MEMBERSHIP: "memberof",
        // written differently from the server's spelling: compared as DNs
        LDAP_GROUP_SUPERUSER: `CN=SD-Admins, OU=Groups, DC=example, DC=org`,
        LDAP_GROUP_VLAN_EDIT: groupDn("sd-vlan"),
        LDAP_GROUP_DEVICE_GROUPS: `${groupDn("netops")}=Core`,
      });
      const g = await app.request("POST", "/api/admin/switchgroups/", { token: app.root, json: { name: "Core" } });
      expect(g.status).toBe(201);
    });
    afterAll(async () => {
      await app?.close();
      await mdir?.stop();
    });

    it("maps the groups the entry's memberOf names, and follows a change", async () => {
      const r = await tokenLogin(app, "alice", mdir.users.alice.password);
      expect(r.status).toBe(200);
      let u = (await app.request("GET", `/api/admin/users/${r.body.user_id}/`, { token: app.root })).body;
      expect(u.is_superuser).toBe(true);
      expect(u.switchgroups).toHaveLength(1);
      expect(u.profile.vlan_edit).toBe(false);

      await mdir.modify(
        `dn: ${groupDn("sd-admins")}\nchangetype: modify\ndelete: member\nmember: ${userDn("alice")}\n-\nadd: member\nmember: ${SERVICE_DN}\n\n` +
          `dn: ${groupDn("sd-vlan")}\nchangetype: modify\nadd: member\nmember: ${userDn("alice")}`,
      );
      const again = await tokenLogin(app, "alice", mdir.users.alice.password);
      expect(again.status).toBe(200);
      u = (await app.request("GET", `/api/admin/users/${r.body.user_id}/`, { token: app.root })).body;
      expect(u.is_superuser).toBe(false);
      expect(u.profile.vlan_edit).toBe(true);
      expect((await app.request("GET", "/api/admin/users/", { token: again.body.token })).status).toBe(403);
    });

    it("logged none of this directory's passwords", () => {
      const everything = logs.text() + mdir.log();
      expect(mdir.log()).toContain(`BIND dn="${userDn("alice")}"`);
      for (const secret of mdir.passwords()) expect(everything).not.toContain(secret);
    });
  });

  it("logged none of the passwords it used (service output, slapd's log)", () => {
    const everything = logs.text() + dir.log();
    // the capture works: it holds the service's warning and slapd's binds
    expect(logs.text()).toContain("LDAP_GROUP_DEVICE_GROUPS");
    expect(dir.log()).toContain(`BIND dn="${userDn("bob")}"`);
    expect(dir.log()).toContain(GROUPS);
    for (const secret of [...dir.passwords(), ROOT_PASSWORD, "dave-local-pw-1", "bob-local-pw-1"])
      expect(everything).not.toContain(secret);
  });
});
