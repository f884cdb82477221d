/** docs/api-decisions.md section 6: user administration, form and JSON. */
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";

const PROFILE_DEFAULTS = {
  allow_poe_toggle: false,
  are_you_sure: true,
  bulk_edit: true,
  edit_if_descr: true,
  read_only: false,
  vlan_edit: false,
  theme: "light",
  last_ldap_dn: "",
  last_ldap_login: null,
  ldap_linked: false,
  last_ldap_check: null,
};

describeDb("user administration", () => {
  let app: TestApp;
  let root: string;
  let rootId: number;
  beforeAll(async () => {
    ({ app, root, rootId } = await startAppWithRoot());
  });
  afterAll(async () => app?.close());

  it("creates a user from a form with defaults and the full profile (201)", async () => {
    const r = await app.request("POST", "/api/admin/users/", {
      token: root,
      form: { username: "newbie", password: "s3cret-pass", first_name: "New", email: "newbie@example.org" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      username: "newbie",
      first_name: "New",
      last_name: "",
      email: "newbie@example.org",
      last_login: null,
      is_active: true,
      is_staff: false,
      is_superuser: false,
      groups: [],
      user_permissions: [],
      switchgroups: [],
      profile: { ...PROFILE_DEFAULTS, id: r.body.id, user: r.body.id },
    });
    expect(r.body.date_joined).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(r.body.password).toMatch(/^\$argon2id\$/);
    expect(r.body.password).not.toContain("s3cret-pass");
    // the password works
    expect(await app.login("newbie", "s3cret-pass")).toMatch(/^[0-9a-f]{40}$/);
  });

  it("creates from JSON applying flags and a profile given as an object or a JSON string", async () => {
    const a = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: {
        username: "staffer",
        password: "pw-staff-1",
        is_staff: true,
        profile: { vlan_edit: true, theme: "dark" },
      },
    });
    expect(a.status).toBe(201);
    expect(a.body.is_staff).toBe(true);
    expect(a.body.profile).toMatchObject({ vlan_edit: true, theme: "dark", bulk_edit: true });
    const b = await app.request("POST", "/api/admin/users/", {
      token: root,
      form: { username: "formprof", password: "pw-formprof-1", is_superuser: "true", profile: '{"read_only": true}' },
    });
    expect(b.status).toBe(201);
    expect(b.body.is_superuser).toBe(true);
    expect(b.body.profile.read_only).toBe(true);
  });

  it("requires username and password, naming the field", async () => {
    const a = await app.request("POST", "/api/admin/users/", { token: root, form: { password: "x" } });
    expect(a.status).toBe(400);
    expect(a.body.reason).toBe("Missing or invalid required parameter: 'username'");
    const b = await app.request("POST", "/api/admin/users/", { token: root, json: { username: "nopass" } });
    expect(b.status).toBe(400);
    expect(b.body.reason).toBe("Missing or invalid required parameter: 'password'");
  });

  it("refuses a duplicate username, also differing in case, and nothing is created", async () => {
    const before = (await app.request("GET", "/api/admin/users/", { token: root })).body.length;
    const a = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "root", password: "pw-dup-12345" },
    });
    expect(a.status).toBe(400);
    expect(a.body.reason).toBe("A user with that username already exists.");
    const b = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "ROOT", password: "pw-dup-12345" },
    });
    expect(b.status).toBe(400);
    const after = (await app.request("GET", "/api/admin/users/", { token: root })).body.length;
    expect(after).toBe(before);
  });

  it("refuses a profile that is not a JSON dictionary, and creates nothing", async () => {
    for (const profile of ["{not json", "[1,2]", '"text"', "42"]) {
      const r = await app.request("POST", "/api/admin/users/", {
        token: root,
        form: { username: "badprof", password: "pw-profile-1", profile },
      });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Invalid profile: must be a JSON dictionary");
    }
    const r = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "badprof", password: "pw-profile-1", profile: [1] },
    });
    expect(r.status).toBe(400);
    expect(await app.services.repos.users.findByUsername("badprof")).toBeNull();
  });

  it("names an unknown profile field or a wrong value type", async () => {
    const a = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "p1", password: "pw-profile-1", profile: { colour: "red" } },
    });
    expect(a.status).toBe(400);
    expect(a.body.reason).toContain("'colour'");
    const b = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "p1", password: "pw-profile-1", profile: { vlan_edit: "maybe" } },
    });
    expect(b.status).toBe(400);
    expect(b.body.reason).toContain("'vlan_edit'");
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "p1", password: "pw-profile-1", profile: { theme: "purple" } },
    });
    expect(c.status).toBe(400);
    expect(c.body.reason).toContain("'theme'");
  });

  it("lists users with profile as the integer id", async () => {
    const r = await app.request("GET", "/api/admin/users/", { token: root });
    expect(r.status).toBe(200);
    const me = r.body.find((u: Schemas["UserListItem"]) => u.username === "root");
    expect(me.profile).toBe(rootId);
    expect(me.id).toBe(rootId);
  });

  it("reads one user with the full profile; unknown id is 404 Invalid user id!", async () => {
    const r = await app.request("GET", `/api/admin/users/${rootId}/`, { token: root });
    expect(r.status).toBe(200);
    expect(r.body.profile.id).toBe(rootId);
    const missing = await app.request("GET", "/api/admin/users/999999/", { token: root });
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toBe("Invalid user id!");
  });

  it("updates by POST and PATCH, several fields at once, profile fields partially", async () => {
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "editme", password: "pw-editme-1", profile: { vlan_edit: true, theme: "dark" } },
    });
    const id = c.body.id;
    const a = await app.request("POST", `/api/admin/users/${id}/`, {
      token: root,
      form: { first_name: "Ed", last_name: "It", is_staff: "true", profile: '{"read_only": true}' },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ first_name: "Ed", last_name: "It", is_staff: true });
    // the other profile fields keep their values
    expect(a.body.profile).toMatchObject({ read_only: true, vlan_edit: true, theme: "dark", bulk_edit: true });
    const b = await app.request("PATCH", `/api/admin/users/${id}/`, {
      token: root,
      json: { profile: { theme: "light" }, email: "ed@example.org" },
    });
    expect(b.status).toBe(200);
    expect(b.body.profile).toMatchObject({ read_only: true, vlan_edit: true, theme: "light" });
    expect(b.body.email).toBe("ed@example.org");
    const pw = await app.request("PATCH", `/api/admin/users/${id}/`, { token: root, form: { password: "new-pass-2" } });
    expect(pw.status).toBe(200);
    expect(pw.body.password).toMatch(/^\$argon2id\$/);
    expect(await app.login("editme", "new-pass-2")).toMatch(/^[0-9a-f]{40}$/);
    const bad = await app.request("PATCH", `/api/admin/users/${id}/`, { token: root, form: { profile: "{oops" } });
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe("Invalid profile: must be a JSON dictionary");
    const unknown = await app.request("PATCH", "/api/admin/users/999999/", { token: root, json: { first_name: "x" } });
    expect(unknown.status).toBe(404);
  });

  it("a bad field in an update changes nothing", async () => {
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "atomic", password: "pw-atomic-1" },
    });
    const r = await app.request("PATCH", `/api/admin/users/${c.body.id}/`, {
      token: root,
      json: { first_name: "Changed", profile: { vlan_edit: "no" } },
    });
    expect(r.status).toBe(400);
    const now = await app.request("GET", `/api/admin/users/${c.body.id}/`, { token: root });
    expect(now.body.first_name).toBe("");
  });

  it("renaming onto an existing username is refused", async () => {
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "renamer", password: "pw-renamer-1" },
    });
    const r = await app.request("PATCH", `/api/admin/users/${c.body.id}/`, { token: root, json: { username: "root" } });
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe("A user with that username already exists.");
  });

  it("deletes a user (204), its tokens stop working; a superuser cannot delete itself", async () => {
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "goner", password: "pw-goner-12" },
    });
    const t = await app.login("goner", "pw-goner-12");
    const d = await app.request("DELETE", `/api/admin/users/${c.body.id}/`, { token: root });
    expect(d.status).toBe(204);
    expect((await app.request("GET", "/api/", { token: t })).status).toBe(403);
    expect((await app.request("GET", `/api/admin/users/${c.body.id}/`, { token: root })).status).toBe(404);
    const self = await app.request("DELETE", `/api/admin/users/${rootId}/`, { token: root });
    expect(self.status).toBe(409);
    expect(self.body).toEqual({ reason: "You can not delete your own account!", code: "conflict" });
    expect((await app.request("DELETE", "/api/admin/users/999999/", { token: root })).status).toBe(404);
  });

  it("is for superusers only: staff and regular users get 403 with the contract text", async () => {
    await app.createUser("staffonly", "pw-so-1", { is_staff: true });
    await app.createUser("regular", "pw-reg-1");
    for (const who of [
      ["staffonly", "pw-so-1"],
      ["regular", "pw-reg-1"],
    ]) {
      const t = await app.login(who[0], who[1]);
      for (const [m, p] of [
        ["GET", "/api/admin/users/"],
        ["POST", "/api/admin/users/"],
        ["GET", `/api/admin/users/${rootId}/`],
        ["PATCH", `/api/admin/users/${rootId}/`],
        ["DELETE", `/api/admin/users/${rootId}/`],
        ["GET", "/api/admin/"],
      ]) {
        const r = await app.request(m, p, {
          token: t,
          json: m === "GET" || m === "DELETE" ? undefined : { first_name: "x" },
        });
        expect(r.status).toBe(403);
        expect(r.body.reason).toBe("You do not have permission to perform this action.");
      }
    }
  });

  it("switchgroups accepts a comma string or a JSON list of existing groups", async () => {
    const g1 = await app.services.repos.inventory.create("switch_groups", {
      name: "G1",
      description: "",
      display_name: "",
      comments: "",
      // the columns' defaults
      read_only: 0,
      allow_poe_toggle: 0,
      edit_if_descr: 1,
      allow_all_vlans: 0,
    });
    const g2 = await app.services.repos.inventory.create("switch_groups", {
      name: "G2",
      description: "",
      display_name: "",
      comments: "",
      // the columns' defaults
      read_only: 0,
      allow_poe_toggle: 0,
      edit_if_descr: 1,
      allow_all_vlans: 0,
    });
    const a = await app.request("POST", "/api/admin/users/", {
      token: root,
      form: { username: "member", password: "pw-member-1", switchgroups: `${g1.id},${g2.id}` },
    });
    expect(a.status).toBe(201);
    expect(a.body.switchgroups).toEqual([g1.id, g2.id]);
    const b = await app.request("PATCH", `/api/admin/users/${a.body.id}/`, {
      token: root,
      json: { switchgroups: [g2.id] },
    });
    expect(b.body.switchgroups).toEqual([g2.id]);
    const c = await app.request("PATCH", `/api/admin/users/${a.body.id}/`, {
      token: root,
      json: { switchgroups: [4242] },
    });
    expect(c.status).toBe(400);
  });
});
