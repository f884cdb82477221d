/** Administrative changes are in the audit log too, never with a secret or password value. */
import { startAppWithRoles, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";

describeDb("audit of administrative changes", () => {
  let app: TestApp;
  let root: string;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoles());
  });
  afterAll(async () => app?.close());

  const newest = async (n: number) =>
    (await app.request("GET", `/api/admin/log/?page_size=${n}`, { token: root })).body.results;

  it("logs user create, update and delete without the password", async () => {
    const c = await app.request("POST", "/api/admin/users/", {
      token: root,
      form: { username: "temp1", password: "very-secret-pw-1" },
    });
    await app.request("PATCH", `/api/admin/users/${c.body.id}/`, {
      token: root,
      json: { first_name: "T", password: "other-secret-pw-2" },
    });
    await app.request("DELETE", `/api/admin/users/${c.body.id}/`, { token: root });
    const rows = await newest(3);
    expect(rows.map((r: Schemas["LogEntry"]) => r.action)).toEqual([
      "admin:users:delete",
      "admin:users:update",
      "admin:users:create",
    ]);
    expect(rows[1]).toMatchObject({
      username: "root",
      source_address: "127.0.0.1",
      outcome: "success",
      new_value: `temp1 (id ${c.body.id}); fields: first_name, password`,
    });
    expect(JSON.stringify(rows)).not.toMatch(/very-secret|other-secret/);
  });

  it("logs inventory changes without secret values, and they are not counted as device changes", async () => {
    const p = await app.request("POST", "/api/admin/snmpprofiles/", {
      token: root,
      json: { name: "audited", version: "2c", community: "community-secret-9" },
    });
    expect(p.status).toBe(201);
    const rows = await newest(1);
    expect(rows[0]).toMatchObject({
      action: "admin:snmp_profiles:create",
      new_value: `audited (id ${p.body.id}); fields: community, name, version`,
    });
    expect(JSON.stringify(rows)).not.toContain("community-secret-9");
    const stats = await app.request("GET", "/api/stats/", { token: root });
    expect(stats.body.usage.changes_total.value).toBe(0);
    expect(stats.body.database.log_entries.value).toBeGreaterThanOrEqual(4);
  });
});
