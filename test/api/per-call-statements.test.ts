/**
 * What one call costs the database (issue "Speed, second round"): a basic read of a
 * device sends at most 2 SELECTs and writes nothing (the usage counters wait in memory and
 * are written at most once a second, by this instance to its own rows); the menu sends
 * the same number of statements whatever the number of groups and devices; a revoked
 * token stops working at the next call. Counted by the store's own statement tally.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

describeDb("statements per call", () => {
  let app: TestApp;
  let root: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    lab = await startLab({ profile: "generic", ports: 8, name: "lab-stmt-8", seed: 4 });
    gid = await addGroup(app, { name: "Counted" });
    sid = await addDevice(app, { name: "stmt-8", lab, groups: [gid] });
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });

  /**
   * The statements one call sends. The tally is the store's, so a timer of the service
   * that fires while the call runs (the instance's presence beat, the usage counter's
   * write a second after a count) is counted with it: the call is made three times and the
   * fewest statements seen are its own (every call does the same work, so a statement the
   * call itself sends is in all three).
   */
  async function cost(path: string, token: string): Promise<{ reads: number; writes: number; status: number }> {
    // the usage counters' timed write (once a second) is not the call's: done beforehand
    await app.services.usage.flush();
    const tally = app.services.store.statements;
    const seen: Array<{ reads: number; writes: number; status: number }> = [];
    for (let i = 0; i < 3; i++) {
      const before = { ...tally };
      const r = await app.request("GET", path, { token });
      seen.push({ reads: tally.reads - before.reads, writes: tally.writes - before.writes, status: r.status });
    }
    return {
      reads: Math.min(...seen.map((c) => c.reads)),
      writes: Math.min(...seen.map((c) => c.writes)),
      status: Math.max(...seen.map((c) => c.status)),
    };
  }

  it("a basic read: at most 2 SELECTs (the token; the device with its SNMP profile, group and VLANs) and no write; the usage count reaches the database within a second", async () => {
    const user = await app.createUser("reader", "pw-reader-1");
    await app.request("PATCH", `/api/admin/users/${user}/`, { token: root, json: { switchgroups: [gid] } });
    const token = await app.login("reader", "pw-reader-1");
    // the first use of a token stamps its last_used (once a minute at most): not the case measured
    await app.request("GET", `/api/switches/${gid}/${sid}/`, { token });
    await app.services.usage.flush();
    const c = await cost(`/api/switches/${gid}/${sid}/`, token);
    expect(c.status).toBe(200);
    expect(c.reads).toBeLessThanOrEqual(2);
    expect(c.writes).toBe(0);
    expect(app.services.usage.waiting).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, app.services.usage.intervalMs + 300));
    expect(app.services.usage.waiting).toBe(0);
    const stats = await app.request("GET", "/api/stats/", { token: root });
    // one device read today, however many calls read it
    expect(stats.body.usage.devices_today.value).toBe(1);
  });

  it("a read a second later (the device's uptime has moved on) leaves the stored driver_info and the inventory version alone", async () => {
    const stored = async () => (await app.services.repos.inventory.get("switches", sid))!.driver_info;
    await app.request("GET", `/api/switches/${gid}/${sid}/`, { token: root });
    const before = { info: await stored(), version: await app.services.repos.inventory.version() };
    expect(JSON.parse(before.info)).toHaveProperty("uptime_seconds");
    await new Promise((r) => setTimeout(r, 1500));
    const r = await app.request("GET", `/api/switches/${gid}/${sid}/`, { token: root });
    expect(r.body.switch.driver_info.uptime_seconds).toBeGreaterThan(JSON.parse(before.info).uptime_seconds);
    expect({ info: await stored(), version: await app.services.repos.inventory.version() }).toEqual(before);
  });

  it("the menu: the same statements for 1 group of 1 device and for 30 groups of 5", async () => {
    const small = await cost("/api/switches/", root);
    for (let g = 0; g < 30; g++) {
      const id = await addGroup(app, { name: `menu-${g}` });
      for (let d = 0; d < 5; d++) await addDevice(app, { name: `menu-${g}-${d}`, lab, groups: [id] });
    }
    const big = await cost("/api/switches/", root);
    expect(big.status).toBe(200);
    expect(big.reads).toBe(small.reads);
    expect(big.writes).toBe(0);
  }, 30000);

  it("a revoked token or a deactivated user is refused at the next call", async () => {
    const user = await app.createUser("leaver", "pw-leaver-1");
    const token = await app.login("leaver", "pw-leaver-1");
    expect((await app.request("GET", "/api/switches/", { token })).status).toBe(200);
    await app.request("PATCH", `/api/admin/users/${user}/`, { token: root, json: { is_active: false } });
    expect((await app.request("GET", "/api/switches/", { token })).status).toBe(403);
  });

  it("the group's VLAN list read with the device decides a VLAN change, on both databases", async () => {
    const pvid = () => lab.model.pvid(lab.model.port(3).bridgePort!);
    const [allowed, refused] = lab.model.vlanIds().filter((id) => id !== 1 && id !== pvid());
    expect(refused).toBeDefined();
    const user = await app.createUser("vlan-reader", "pw-vlan-1");
    // several VLANs, in no order, one with four digits and one the switch does not have; the
    // port's own VLAN too (a user manages only a port on a VLAN of the group's)
    const group = await addGroup(app, { name: "Some VLANs", vlans: [4000, allowed, 5, pvid()!], users: [user] });
    const device = await addDevice(app, { name: "stmt-8-vlans", lab, groups: [group] });
    // what pair() falls back on when a server cuts its one-column list short
    expect(await app.services.repos.inventory.groupVlans(group)).toEqual(
      [4000, allowed, 5, pvid()!].sort((a, b) => a - b),
    );
    const token = await app.login("vlan-reader", "pw-vlan-1");
    const url = `/api/switches/${group}/${device}/interface/${lab.model.port(3).ifIndex}/vlan/`;
    const ok = await app.request("POST", url, { token, json: { vlan: allowed } });
    expect(ok.status).toBe(200);
    expect(pvid()).toBe(allowed);
    const no = await app.request("POST", url, { token, json: { vlan: refused } });
    expect({ status: no.status, body: no.body }).toEqual({
      status: 400,
      body: { code: "invalid_parameter", reason: `New vlan ${refused} is not valid or allowed on this device` },
    });
    expect(pvid()).toBe(allowed);
    // the switch has that VLAN: the group's list refused it (a superuser may set it)
    expect((await app.request("POST", url, { token: root, json: { vlan: refused } })).status).toBe(200);
    expect(pvid()).toBe(refused);
  });
});
