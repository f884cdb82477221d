/**
 * docs/api-decisions.md sections 7 and 14: api/admin/switches/switchgroups/ (device groups, VLAN lists,
 * members; OpenL2M's path and names), form and JSON.
 */
import { startTestApp, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";

const FORBIDDEN = "You do not have permission to perform this action.";
const BASE = "/api/admin/switches/switchgroups/";

describeDb("admin: switch groups", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let regular: string;
  let alice: number;
  let bob: number;
  let sw1: number;
  let sw2: number;

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser("root", "pw-root-1", { is_superuser: true });
    await app.createUser("staffer", "pw-staff-1", { is_staff: true });
    await app.createUser("plain", "pw-plain-1");
    alice = await app.createUser("alice", "pw-alice-1");
    bob = await app.createUser("bob", "pw-bob-1");
    root = await app.login("root", "pw-root-1");
    staff = await app.login("staffer", "pw-staff-1");
    regular = await app.login("plain", "pw-plain-1");
    sw1 = (await call("POST", "/api/admin/switches/", { json: { name: "sw1" } })).body.id;
    sw2 = (await call("POST", "/api/admin/switches/", { json: { name: "sw2" } })).body.id;
  });
  afterAll(async () => app?.close());

  function call(method: string, path: string, opts: Parameters<TestApp["request"]>[2] = {}) {
    return app.request(method, path, { token: root, ...opts });
  }
  async function count() {
    return (await call("GET", BASE)).body.length as number;
  }

  it("creates a group from JSON with its VLAN list, users and switches", async () => {
    const r = await call("POST", BASE, {
      json: { name: "Access", description: "edge ports", vlans: [20, 10, 20], users: [alice], switches: [sw1, sw2] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: "Access",
      description: "edge ports",
      display_name: "",
      comments: "",
      read_only: false,
      bulk_edit: true,
      allow_poe_toggle: false,
      edit_if_descr: true,
      allow_all_vlans: false,
      vlan_groups: [],
      vlans: [10, 20],
      users: [alice],
      switches: [sw1, sw2],
    });
    // both sides see the membership
    expect((await call("GET", `/api/admin/users/${alice}/`)).body.switchgroups).toEqual([r.body.id]);
    expect((await call("GET", `/api/admin/switches/${sw1}/`)).body.switchgroups).toEqual([r.body.id]);
  });

  it("creates from a form: flags and comma separated lists", async () => {
    const r = await call("POST", BASE, {
      form: {
        name: "Core",
        allow_all_vlans: "true",
        read_only: "yes",
        allow_poe_toggle: "1",
        edit_if_descr: "false",
        vlans: "100,200",
        users: `${alice},${bob}`,
        display_name: "Core switches",
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      allow_all_vlans: true,
      read_only: true,
      allow_poe_toggle: true,
      edit_if_descr: false,
      vlans: [100, 200],
      users: [alice, bob],
      switches: [],
      display_name: "Core switches",
    });
  });

  it("refuses invalid groups, naming the field, and stores nothing (no half-written memberships)", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ vlans: [1] }, "Missing or invalid required parameter: 'name'"],
      [{ name: "g1", vlans: [0] }, "Invalid value for parameter 'vlans': '0' is not a VLAN id (1 to 4094)"],
      [{ name: "g2", vlans: [4095] }, "Invalid value for parameter 'vlans': '4095' is not a VLAN id (1 to 4094)"],
      [{ name: "g3", users: [alice, 999999] }, "Invalid value for parameter 'users': no user with id 999999"],
      [
        { name: "g4", switches: [999998, 999999] },
        "Invalid value for parameter 'switches': no switch with id 999998, 999999",
      ],
      [
        { name: "g5", display_name: "a\u001bb" },
        "Invalid value for parameter 'display_name': control characters are not allowed",
      ],
    ];
    for (const [json, reason] of cases) {
      const r = await call("POST", BASE, { json });
      expect({ json, status: r.status, reason: r.body.reason }).toEqual({ json, status: 400, reason });
    }
    const f = await call("POST", BASE, { form: { name: "g6", vlans: "10,abc" } });
    expect(f.status).toBe(400);
    expect(f.body.reason).toContain("'vlans'");
    expect(await count()).toBe(before);
    expect((await call("GET", `/api/admin/users/${alice}/`)).body.switchgroups).toHaveLength(2);
    const dup = await call("POST", BASE, { form: { name: "access" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ reason: "Switch group with name 'access' already exists.", code: "already_exists" });
  });

  it("lists groups by name and reads one; unknown id is 404 Invalid switchgroup id!", async () => {
    const list = await call("GET", BASE);
    expect(list.body.map((g: Schemas["SwitchGroup"]) => g.name)).toEqual(["Access", "Core"]);
    expect((await call("GET", `${BASE}${list.body[0].id}/`)).body).toEqual(list.body[0]);
    for (const [method, opts] of [
      ["GET", {}],
      ["POST", { json: { read_only: true } }],
      ["PATCH", { json: { read_only: true } }],
      ["DELETE", {}],
    ] as const) {
      const r = await call(method, `${BASE}999999/`, opts);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ reason: "Invalid switchgroup id!", code: "not_found" });
    }
  });

  it("updates by POST and PATCH: only the given fields; a given list replaces the memberships", async () => {
    const g = (await call("GET", BASE)).body.find((x: Schemas["SwitchGroup"]) => x.name === "Access");
    const a = await call("POST", `${BASE}${g.id}/`, { form: { allow_all_vlans: "true", switches: String(sw2) } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ...g, allow_all_vlans: true, switches: [sw2] });
    const b = await call("PATCH", `${BASE}${g.id}/`, { json: { vlans: [], users: [bob], comments: "two\nlines" } });
    expect(b.body).toMatchObject({ vlans: [], users: [bob], switches: [sw2], comments: "two\nlines" });
    expect((await call("GET", `/api/admin/users/${alice}/`)).body.switchgroups).not.toContain(g.id);
    const c = await call("PATCH", `${BASE}${g.id}/`, { form: { vlans: "" } });
    expect(c.status).toBe(200);
    expect(c.body.vlans).toEqual([]);
    const bad = await call("PATCH", `${BASE}${g.id}/`, { json: { name: "Renamed", users: [999999] } });
    expect(bad.status).toBe(400);
    expect((await call("GET", `${BASE}${g.id}/`)).body).toEqual(c.body);
  });

  it("deletes a group (204) with its memberships and VLAN list; users and switches stay", async () => {
    const g = (await call("GET", BASE)).body.find((x: Schemas["SwitchGroup"]) => x.name === "Core");
    expect((await call("DELETE", `${BASE}${g.id}/`)).status).toBe(204);
    expect((await call("GET", `${BASE}${g.id}/`)).status).toBe(404);
    const db = app.services.store.db;
    for (const t of ["group_users", "group_switches", "group_vlans"] as const) {
      expect(await db.selectFrom(t).selectAll().where("group_id", "=", g.id).execute()).toEqual([]);
    }
    expect((await call("GET", `/api/admin/users/${bob}/`)).body.switchgroups).not.toContain(g.id);
    expect((await call("GET", `/api/admin/switches/${sw1}/`)).status).toBe(200);
  });

  it("is for superusers only: staff and regular users get 403", async () => {
    const g = (await call("GET", BASE)).body[0];
    for (const token of [staff, regular]) {
      const tries: [string, string, Parameters<TestApp["request"]>[2]][] = [
        ["GET", BASE, {}],
        ["POST", BASE, { json: { name: "sneaky" } }],
        ["GET", `${BASE}${g.id}/`, {}],
        ["POST", `${BASE}${g.id}/`, { form: { users: "1,2,3" } }],
        ["PATCH", `${BASE}${g.id}/`, { json: { allow_all_vlans: false } }],
        ["DELETE", `${BASE}${g.id}/`, {}],
      ];
      for (const [method, path, opts] of tries) {
        const r = await app.request(method, path, { ...opts, token });
        expect({ method, path, status: r.status, reason: r.body.reason }).toEqual({
          method,
          path,
          status: 403,
          reason: FORBIDDEN,
        });
      }
    }
    expect((await call("GET", `${BASE}${g.id}/`)).body).toEqual(g);
  });
});
