/**
 * Writes whose outcome is unknown say so (424 device_outcome_unknown, audit outcome
 * "unknown"); every refusal (permission, validation, same value, a failed or throttled
 * login, an admin request refused) is an audit row, filterable in api/admin/log/; an
 * admin change and its row are one transaction.
 */
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { AuditRepo } from "../../db/audit";
import { CSRF_COOKIE, CSRF_FIELD } from "../../server/auth";

describeDb("outcome-unknown writes and audited refusals", () => {
  let app: TestApp;
  let root: string;
  let plain: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({ loginMaxFailures: 3 }));
    lab = await startLab({ profile: "generic", ports: 12, name: "lab-audit-12", seed: 6 });
    gid = await addGroup(app, { name: "Audit" });
    sid = await addDevice(app, { name: "audit-12", lab, groups: [gid] });
    // plain sees the group, read-only
    const plainId = await app.createUser("plain", "pw-plain-1", { profile: { read_only: true } });
    expect(
      (await app.request("PATCH", `/api/admin/users/${plainId}/`, { token: root, json: { switchgroups: [gid] } }))
        .status,
    ).toBe(200);
    plain = await app.login("plain", "pw-plain-1");
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });
  afterEach(() => lab.faults.reset());

  const ifUrl = (n: number, what: string) =>
    `/api/switches/${gid}/${sid}/interface/${lab.model.port(n).ifIndex}/${what}/`;
  const log = async (query: string) => {
    const r = await app.request("GET", `/api/admin/log/?${query}`, { token: root });
    expect(r.status).toBe(200);
    return r.body.results as Schemas["LogEntry"][];
  };

  it("a SET applied but whose read-back gets no answer is a 424 device_outcome_unknown, audited as unknown", async () => {
    const port = lab.model.port(4);
    lab.faults.goneAfterSet = "answered";
    const r = await app.request("POST", ifUrl(4, "description"), {
      token: root,
      json: { description: "maybe-applied" },
    });
    expect(r.status).toBe(424);
    expect(r.body.code).toBe("device_outcome_unknown");
    expect(r.body.reason).toBe(
      `Device 'audit-12' did not confirm the change of description on ${port.name}: it may have been applied; read the interface before trying again`,
    );
    // and it was applied: the answer's "may" is honest
    expect(lab.model.alias(port.ifIndex)).toBe("maybe-applied");
    const [row] = await log("outcome=unknown");
    expect(row).toMatchObject({
      action: "description",
      outcome: "unknown",
      code: "device_outcome_unknown",
      switch_id: sid,
      interface: port.name,
      new_value: "maybe-applied",
      username: "root",
    });
  });

  it("a SET whose own answer is lost is outcome unknown too, not 'unreachable'", async () => {
    lab.faults.goneAfterSet = "unanswered";
    const r = await app.request("POST", ifUrl(5, "state"), { token: root, json: { state: "off" } });
    expect(r.status).toBe(424);
    expect(r.body.code).toBe("device_outcome_unknown");
    expect(lab.model.adminUp(lab.model.port(5).ifIndex)).toBe(false);
  });

  it("a device that stops answering before any change is still device_unreachable, audited as a failure", async () => {
    lab.faults.drop = true;
    const r = await app.request("POST", ifUrl(6, "state"), { token: root, json: { state: "off" } });
    expect(r.status).toBe(424);
    expect(r.body.code).toBe("device_unreachable");
    const [row] = await log(`switch=${sid}`);
    expect(row).toMatchObject({ outcome: "failure", code: "device_unreachable" });
  });

  it("device writes refused by permission, validation and same value are rows with who, where, what and why", async () => {
    const denied = await app.request("POST", ifUrl(7, "state"), { token: plain, json: { state: "off" } });
    expect(denied.status).toBe(403);
    const invalid = await app.request("POST", ifUrl(7, "vlan"), { token: root, json: { vlan: "ten" } });
    expect(invalid.status).toBe(400);
    const upNow = lab.model.adminUp(lab.model.port(7).ifIndex);
    const same = await app.request("POST", ifUrl(7, "state"), { token: root, json: { state: upNow ? "on" : "off" } });
    expect(same.status).toBe(404);

    const refused = await log("outcome=refused&action=admin_state");
    expect(refused[0]).toMatchObject({
      username: "root",
      source_address: "127.0.0.1",
      switch_id: sid,
      outcome: "refused",
      code: same.body.code,
      message: same.body.reason,
    });
    // refused on its token before the switch was looked up: the switch as the URL named it
    expect(refused[1]).toMatchObject({
      username: "plain",
      switch_id: null,
      switch_name: `#${sid}`,
      outcome: "refused",
      code: denied.body.code,
      message: denied.body.reason,
      new_value: "Disabled",
    });
    const vlan = await log("outcome=refused&action=untagged_vlan");
    expect(vlan[0]).toMatchObject({
      username: "root",
      outcome: "refused",
      code: invalid.body.code,
      message: invalid.body.reason,
    });
    expect(vlan[0].new_value).toContain("ten");
  });

  it("failed and throttled logins are rows with the username tried and the address, never the password", async () => {
    for (let i = 0; i < 3; i++) {
      const r = await app.request("POST", "/api/users/token/", {
        json: { username: "nobody-here", password: `secret-guess-${i}` },
      });
      expect(r.status).toBe(400);
    }
    const locked = await app.request("POST", "/api/users/token/", {
      json: { username: "nobody-here", password: "secret-guess-3" },
    });
    expect(locked.status).toBe(429);
    const rows = await log("action=login");
    expect(rows.slice(0, 4).map((r) => r.code)).toEqual([
      "rate_limited",
      "invalid_credentials",
      "invalid_credentials",
      "invalid_credentials",
    ]);
    for (const row of rows.slice(0, 4)) {
      expect(row).toMatchObject({
        username: "nobody-here",
        user_id: null,
        source_address: "127.0.0.1",
        outcome: "refused",
        new_value: "token",
      });
      expect(JSON.stringify(row)).not.toContain("secret-guess");
    }
    const web = await app.request("POST", "/login/", {
      form: { username: "root", password: "wrong-web-pw", [CSRF_FIELD]: "c1" },
      headers: { cookie: `${CSRF_COOKIE}=c1` },
    });
    expect(web.status).toBe(400);
    const [webRow] = await log("action=login");
    expect(webRow).toMatchObject({
      username: "root",
      outcome: "refused",
      code: "invalid_credentials",
      new_value: "web",
    });
    expect(JSON.stringify(webRow)).not.toContain("wrong-web-pw");
  });

  it("an admin request refused (validation, a non-superuser) is a row naming the fields, never their values", async () => {
    const bad = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "", password: "pw-never-logged-1" },
    });
    expect(bad.status).toBe(400);
    const notAdmin = await app.request("POST", "/api/admin/users/", {
      token: plain,
      json: { username: "mallory", password: "pw-never-logged-2", is_superuser: true },
    });
    expect(notAdmin.status).toBe(403);
    const rows = await log("action=request%3AcreateUser");
    // a non-superuser is refused before its body is read: the row names the request only
    expect(rows[0]).toMatchObject({
      username: "plain",
      outcome: "refused",
      code: notAdmin.body.code,
      new_value: "POST /api/admin/users/",
    });
    expect(rows[1]).toMatchObject({
      username: "root",
      outcome: "refused",
      code: bad.body.code,
      new_value: "POST /api/admin/users/; fields: password, username",
    });
    for (const row of rows) expect(JSON.stringify(row)).not.toContain("pw-never-logged");
  });

  it("the log filters by outcome and action, and refuses an unknown outcome", async () => {
    for (const row of await log("outcome=refused")) expect(row.outcome).toBe("refused");
    const bad = await app.request("GET", "/api/admin/log/?outcome=maybe", { token: root });
    expect(bad.status).toBe(400);
  });

  it("an admin change and its audit row are one transaction: when the row cannot be written, the change is not kept", async () => {
    const before = (await app.request("GET", "/api/admin/switchgroups/", { token: root })).body.length;
    const write = jest
      .spyOn(AuditRepo.prototype, "write")
      .mockRejectedValue(new Error("the audit log cannot be written"));
    let r;
    try {
      r = await app.request("POST", "/api/admin/switchgroups/", { token: root, json: { name: "half-done" } });
    } finally {
      write.mockRestore();
    }
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ reason: "Internal server error", code: "server_error" });
    const after = (await app.request("GET", "/api/admin/switchgroups/", { token: root })).body;
    expect(after.length).toBe(before);
    expect(after.map((g: { name: string }) => g.name)).not.toContain("half-done");
  });
});
