/** api/environment/ and api/stats/: label/value shapes and counters that move. */
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb, dialect } from "../support/db";

describeDb("environment and stats", () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    ({ app, root: token } = await startAppWithRoot());
  });
  afterAll(async () => app?.close());

  it("describes the runtime as label/value entries, database engine included", async () => {
    const r = await app.request("GET", "/api/environment/", { token });
    expect(r.status).toBe(200);
    for (const v of Object.values<Schemas["LabelledText"]>(r.body))
      expect(Object.keys(v).sort()).toEqual(["label", "value"]);
    expect(r.body.node.value).toBe(process.version.slice(1));
    expect(r.body.database.value).toMatch(dialect === "sqlite" ? /^SQLite 3\./ : /^(MariaDB|MySQL) \d+\./);
    expect(r.body.net_snmp.value).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.body.switchdesk.value).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("counts database objects and usage, device counters zero without devices", async () => {
    const before = await app.request("GET", "/api/stats/", { token });
    expect(before.status).toBe(200);
    expect(before.body.database.switches).toEqual({ label: "Switches", value: 0 });
    expect(before.body.database.users.value).toBe(1);
    expect(before.body.usage.devices_today.value).toBe(0);
    expect(before.body.usage.changes_total.value).toBe(0);
    const callsBefore = before.body.usage.api_calls_today.value;
    expect(callsBefore).toBeGreaterThan(0);
    await app.createUser("second", "pw-second-1");
    const t2 = await app.login("second", "pw-second-1");
    await app.request("GET", "/api/", { token: t2 });
    const after = await app.request("GET", "/api/stats/", { token });
    expect(after.body.usage.api_calls_today.value).toBe(callsBefore + 2);
    expect(after.body.usage.users_last_hour.value).toBe(2);
    expect(after.body.database.api_tokens.value).toBe(2);
    expect(after.body.database.users.value).toBe(2);
    for (const section of ["database", "usage"]) {
      for (const v of Object.values<Schemas["LabelledCount"]>(after.body[section]))
        expect(typeof v.value).toBe("number");
    }
  });
});
