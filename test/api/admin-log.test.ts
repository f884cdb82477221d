/** docs/api-decisions.md section 7 : the audit log through api/admin/log/, paged and filtered. */
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import type { AuditEntry } from "../../db/audit";

const FORBIDDEN = "You do not have permission to perform this action.";
const BASE = "/api/admin/log/";

describeDb("admin: audit log", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let regular: string;
  let rootId: number;
  let plainId: number;

  function entry(n: number, userId: number, switchId: number | null): AuditEntry {
    return {
      user_id: userId,
      username: userId === rootId ? "root" : "plain",
      source_address: "192.0.2.50",
      switch_id: switchId,
      switch_name: switchId === null ? "" : `sw-${switchId}`,
      group_id: null,
      interface: `Gi1/0/${n}`,
      action: "set_vlan",
      old_value: "1",
      new_value: String(n),
      outcome: n % 10 === 0 ? "failure" : "success",
      code: n % 10 === 0 ? "device_refused" : null,
      message: `change ${n}`,
    };
  }

  beforeAll(async () => {
    ({ app, root, rootId } = await startAppWithRoot());
    await app.createUser("staffer", "pw-staff-1", { is_staff: true });
    plainId = await app.createUser("plain", "pw-plain-1");
    staff = await app.login("staffer", "pw-staff-1");
    regular = await app.login("plain", "pw-plain-1");
    // 60 changes: by root on switch 7 when n is even, by plain on switch 8 when odd
    for (let n = 1; n <= 60; n++)
      await app.services.repos.audit.write(entry(n, n % 2 ? plainId : rootId, n % 2 ? 8 : 7));
  });
  afterAll(async () => app?.close());

  const get = (query = "", token = root) => app.request("GET", `${BASE}${query}`, { token });

  it("answers the newest 50 first with the total count", async () => {
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ count: 60, page: 1, page_size: 50 });
    expect(r.body.results).toHaveLength(50);
    expect(r.body.results[0]).toMatchObject({
      message: "change 60",
      outcome: "failure",
      code: "device_refused",
      user_id: rootId,
      switch_id: 7,
      source_address: "192.0.2.50",
    });
    expect(r.body.results[0].time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const ids = r.body.results.map((e: Schemas["LogEntry"]) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it("pages through the rest; a page beyond the end is empty", async () => {
    const two = await get("?page=2");
    expect(two.body).toMatchObject({ count: 60, page: 2, page_size: 50 });
    expect(two.body.results.map((e: Schemas["LogEntry"]) => e.message)).toEqual(
      Array.from({ length: 10 }, (_, i) => `change ${10 - i}`),
    );
    const small = await get("?page=3&page_size=7");
    expect(small.body.results.map((e: Schemas["LogEntry"]) => e.message)).toEqual(
      Array.from({ length: 7 }, (_, i) => `change ${46 - i}`),
    );
    const beyond = await get("?page=99&page_size=500");
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual({ count: 60, page: 99, page_size: 500, results: [] });
  });

  it("filters by device and by user", async () => {
    const bySwitch = await get("?switch=8&page_size=100");
    expect(bySwitch.body.count).toBe(30);
    expect(bySwitch.body.results.every((e: Schemas["LogEntry"]) => e.switch_id === 8)).toBe(true);
    const byUser = await get(`?user=${rootId}&page_size=5`);
    expect(byUser.body.count).toBe(30);
    expect(byUser.body.results.map((e: Schemas["LogEntry"]) => e.user_id)).toEqual(Array(5).fill(rootId));
    const both = await get(`?user=${rootId}&switch=8`);
    expect(both.body).toMatchObject({ count: 0, results: [] });
  });

  it("refuses page sizes and pages outside the bounds", async () => {
    for (const q of ["?page_size=501", "?page_size=0", "?page=0", "?page=x", "?switch=abc"]) {
      const r = await get(q);
      expect({ q, status: r.status }).toEqual({ q, status: 400 });
    }
  });

  it("is for superusers only: staff and regular users get 403", async () => {
    for (const token of [staff, regular]) {
      const r = await get("", token);
      expect(r.status).toBe(403);
      expect(r.body.reason).toBe(FORBIDDEN);
    }
  });
});
