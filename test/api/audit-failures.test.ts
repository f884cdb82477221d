/**
 * An audit row that cannot be written is never silent: the JSON log gets an error line
 * (what the row was about, never its values) and /metrics counts it in
 * switchdesk_audit_write_failures_total{kind}. The caller's answer stays what it was for
 * a row recording what already happened (a refusal, a failed login, a device's answer);
 * a device write whose pending row cannot be written stops before the device is changed.
 * The store is the real one; only its audit writes are made to fail, one kind at a time.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { AuditRepo } from "../../db/audit";

const STORE_ERROR = "SQLITE_FULL: the audit log cannot be written";

/** A line of the JSON log, as far as these tests read it. */
interface LogLine {
  level: string;
  msg: string;
  audit?: { kind: string; row?: number };
  err?: { message: string };
}

/** Runs `fn` while one method of the audit repository fails as a full disk would. */
async function whileFailing<T>(method: "write" | "writePending" | "settle", fn: () => Promise<T>): Promise<T> {
  const spy = jest.spyOn(AuditRepo.prototype, method).mockRejectedValue(new Error(STORE_ERROR));
  try {
    return await fn();
  } finally {
    spy.mockRestore();
  }
}

describeDb("an audit row that cannot be written", () => {
  let app: TestApp;
  let root: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  const lines: string[] = [];
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({}, { logDestination: { write: (line) => void lines.push(line) } }));
    lab = await startLab({ profile: "generic", ports: 8, name: "lab-audit-fail-8", seed: 11 });
    gid = await addGroup(app, { name: "AuditFail" });
    sid = await addDevice(app, { name: "audit-fail-8", lab, groups: [gid] });
    // the first call probes and stores the driver choice
    expect((await app.request("GET", `/api/switches/${gid}/${sid}/`, { token: root })).status).toBe(200);
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });

  /** switchdesk_audit_write_failures_total{kind} as /metrics shows it (0 before the first) */
  const failures = async (kind: string): Promise<number> => {
    const text = await (await fetch(`${app.url}/metrics`)).text();
    const m = new RegExp(`^switchdesk_audit_write_failures_total\\{kind="${kind}"\\} (\\d+)$`, "m").exec(text);
    return m ? Number(m[1]) : 0;
  };
  /** the log's error lines about audit rows of this kind */
  const errorLines = (kind: string) =>
    lines.map((l) => JSON.parse(l) as LogLine).filter((l) => l.level === "error" && l.audit?.kind === kind);
  const ifUrl = (n: number, what: string) =>
    `/api/switches/${gid}/${sid}/interface/${lab.model.port(n).ifIndex}/${what}/`;

  it("a refused request keeps its answer; the log says the row was lost and /metrics counts it", async () => {
    const before = await failures("refusal");
    const r = await whileFailing("write", () =>
      app.request("POST", "/api/admin/users/", { token: root, json: { username: "", password: "pw-never-logged-9" } }),
    );
    expect([r.status, r.body.code]).toEqual([400, "missing_parameter"]);
    expect(await failures("refusal")).toBe(before + 1);
    const [line] = errorLines("refusal").slice(-1);
    expect(line).toMatchObject({
      msg: "an audit row could not be written",
      audit: { kind: "refusal", action: "request:createUser", outcome: "refused", code: "missing_parameter" },
      err: { message: STORE_ERROR },
    });
    expect(lines.join("\n")).not.toContain("pw-never-logged-9");
  });

  it("a failed login keeps its answer; the line names neither the username tried nor the password", async () => {
    const before = await failures("refusal");
    const r = await whileFailing("write", () =>
      app.request("POST", "/api/users/token/", { json: { username: "not-a-user-7", password: "secret-guess-7" } }),
    );
    expect([r.status, r.body.code]).toEqual([400, "invalid_credentials"]);
    expect(await failures("refusal")).toBe(before + 1);
    expect(errorLines("refusal").at(-1)).toMatchObject({
      audit: { kind: "refusal", action: "login", code: "invalid_credentials" },
    });
    expect(lines.join("\n")).not.toContain("secret-guess-7");
    expect(lines.join("\n")).not.toContain("not-a-user-7");
  });

  it("a device change whose outcome cannot be recorded still answers the device's result; its row stays pending", async () => {
    const before = await failures("settle");
    const r = await whileFailing("settle", () =>
      app.request("POST", ifUrl(3, "description"), { token: root, json: { description: "changed-unrecorded" } }),
    );
    expect(r.status).toBe(200);
    expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("changed-unrecorded");
    expect(await failures("settle")).toBe(before + 1);
    const line = errorLines("settle").at(-1);
    expect(line).toMatchObject({ audit: { kind: "settle", outcome: "success" }, err: { message: STORE_ERROR } });
    const log = await app.request("GET", `/api/admin/log/?outcome=pending&switch=${sid}`, { token: root });
    expect(log.body.results[0]).toMatchObject({ id: line?.audit?.row, action: "description", outcome: "pending" });
    expect(lines.join("\n")).not.toContain("changed-unrecorded");
  });

  it("a device write whose pending row cannot be written stops before the device is changed, and says so", async () => {
    const port = lab.model.port(4);
    const wasUp = lab.model.adminUp(port.ifIndex);
    const before = await failures("pending");
    const r = await whileFailing("writePending", () =>
      app.request("POST", ifUrl(4, "state"), { token: root, json: { state: wasUp ? "off" : "on" } }),
    );
    expect([r.status, r.body.code]).toEqual([500, "server_error"]);
    expect(lab.model.adminUp(port.ifIndex)).toBe(wasUp);
    expect(await failures("pending")).toBe(before + 1);
    expect(errorLines("pending").at(-1)).toMatchObject({
      audit: { kind: "pending", action: "admin_state", outcome: "pending", switch_id: sid },
      err: { message: STORE_ERROR },
    });
    // the write's end is still a row of its own (the store takes plain rows again)
    const log = await app.request("GET", `/api/admin/log/?action=admin_state&switch=${sid}`, { token: root });
    expect(log.body.results[0]).toMatchObject({ outcome: "failure", code: "server_error" });
  });
});
