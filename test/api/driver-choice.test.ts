/**
 * How a switch's driver is chosen, through the HTTP API against lab switches: "auto"
 * probes once, stores its choice with the sysObjectID it was made for (shown by the
 * admin API) and later calls spend no request on a probe; replaced hardware on the same
 * address is noticed and the choice made again; an admin can ask for a new probe.
 */
import { startAppWithRoles, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

describeDb("driver choice", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let gid: number;
  const labs: LabSwitch[] = [];

  beforeAll(async () => {
    ({ app, root, staff } = await startAppWithRoles());
    gid = await addGroup(app, { name: "Lab" });
  }, 30000);
  afterAll(async () => {
    await Promise.all(labs.map((l) => l.stop()));
    await app?.close();
  });

  async function lab(profile: "generic" | "ciscosb", opts: { port?: number; name?: string } = {}) {
    const l = await startLab({ profile, ports: 12, seed: 4, ...opts });
    labs.push(l);
    return l;
  }
  const admin = async (id: number) => (await app.request("GET", `/api/admin/switches/${id}/`, { token: root })).body;
  const basic = (id: number) => app.request("GET", `/api/switches/${gid}/${id}/`, { token: root });

  it("auto probes on first use, stores the driver with its sysObjectID, and never probes again", async () => {
    const gen = await lab("generic", { name: "auto-gen" });
    const cbs = await lab("ciscosb", { name: "auto-cbs" });
    const autoGen = await addDevice(app, { name: "auto-gen", lab: gen, groups: [gid] });
    const autoCbs = await addDevice(app, { name: "auto-cbs", lab: cbs, groups: [gid] });
    const namedGen = await addDevice(app, { name: "named-gen", lab: gen, groups: [gid], driver: "generic" });
    expect(await admin(autoGen)).toMatchObject({ driver: "auto", detected_driver: null, detected_sysobjectid: null });

    gen.counters.reset();
    expect((await basic(autoGen)).status).toBe(200);
    const firstCall = gen.counters.requests;
    expect(await admin(autoGen)).toMatchObject({
      driver: "auto",
      detected_driver: "generic",
      detected_sysobjectid: gen.model.system.sysObjectID,
    });

    // the most specific match wins: Cisco small business under Cisco's enterprise number
    expect((await basic(autoCbs)).status).toBe(200);
    expect(await admin(autoCbs)).toMatchObject({
      detected_driver: "ciscosb",
      detected_sysobjectid: cbs.model.system.sysObjectID,
    });

    // later calls cost exactly what a switch with its driver named costs
    gen.counters.reset();
    expect((await basic(autoGen)).status).toBe(200);
    const storedChoice = gen.counters.requests;
    gen.counters.reset();
    expect((await basic(namedGen)).status).toBe(200);
    const named = gen.counters.requests;
    expect(storedChoice).toBe(named);
    expect(firstCall).toBe(named + 1);
    // a switch with its driver named stores no detection
    expect(await admin(namedGen)).toMatchObject({
      driver: "generic",
      detected_driver: null,
      detected_sysobjectid: null,
    });
  });

  it("notices replaced hardware on the same address and chooses again", async () => {
    const old = await lab("generic", { name: "replaced" });
    const id = await addDevice(app, { name: "replaced", lab: old, groups: [gid] });
    expect((await basic(id)).status).toBe(200);
    expect((await admin(id)).detected_driver).toBe("generic");

    // the same UDP port now answers as a Cisco small business switch
    const port = old.port;
    await old.stop();
    labs.splice(labs.indexOf(old), 1);
    const replacement = await lab("ciscosb", { port, name: "replaced" });
    const r = await basic(id);
    expect(r.status).toBe(200);
    expect(r.body.switch.vendor).toBe("Cisco Small Business");
    expect(r.body.interfaces.map((i: { name: string }) => i.name)).toContain(replacement.model.port(12).name);
    expect(await admin(id)).toMatchObject({
      detected_driver: "ciscosb",
      detected_sysobjectid: replacement.model.system.sysObjectID,
    });
    // a write after the change goes through the new driver (ciscosb needs a save afterwards)
    const ifIndex = replacement.model.port(3).ifIndex;
    const w = await app.request("POST", `/api/switches/${gid}/${id}/interface/${ifIndex}/description/`, {
      token: root,
      json: { description: "after replacement" },
    });
    expect(w.status).toBe(200);
    expect(replacement.model.alias(ifIndex)).toBe("after replacement");
  });

  it("redetect/ forgets the choice and probes now; audited; superusers only", async () => {
    const gen = await lab("generic", { name: "redetect" });
    const id = await addDevice(app, { name: "redetect", lab: gen, groups: [gid] });
    expect((await admin(id)).detected_driver).toBeNull();

    expect((await app.request("POST", `/api/admin/switches/${id}/redetect/`, { token: staff })).status).toBe(403);
    gen.counters.reset();
    const r = await app.request("POST", `/api/admin/switches/${id}/redetect/`, { token: root });
    expect(r.status).toBe(204);
    expect(gen.counters.requests).toBeGreaterThanOrEqual(1);
    expect(await admin(id)).toMatchObject({
      detected_driver: "generic",
      detected_sysobjectid: gen.model.system.sysObjectID,
    });
    const log = await app.request("GET", `/api/admin/log/?page_size=5`, { token: root });
    expect(log.body.results[0]).toMatchObject({
      action: "admin:switches:redetect",
      username: "root",
      switch_name: "redetect",
      outcome: "success",
      new_value: `redetect (id ${id}); fields: detected_driver=generic`,
    });

    // a switch that names its driver has nothing to detect
    const named = await addDevice(app, { name: "redetect-named", lab: gen, groups: [gid], driver: "generic" });
    const n = await app.request("POST", `/api/admin/switches/${named}/redetect/`, { token: root });
    expect(n.status).toBe(400);
    expect(n.body.reason).toBe(
      `Switch 'redetect-named' names its driver ('generic'); only "auto" is chosen by probing`,
    );

    // a device that does not answer: a clear 424, and the old choice is gone (the next call probes)
    gen.faults.drop = true;
    const dead = await app.request("POST", `/api/admin/switches/${id}/redetect/`, { token: root });
    gen.faults.reset();
    expect(dead.status).toBe(424);
    expect(dead.body.code).toBe("device_unreachable");
    expect(dead.body.reason).toMatch(/^Device 'redetect' could not be reached: /);
    expect((await admin(id)).detected_driver).toBeNull();
    expect((await basic(id)).status).toBe(200);
    expect((await admin(id)).detected_driver).toBe("generic");

    expect((await app.request("POST", `/api/admin/switches/999999/redetect/`, { token: root })).status).toBe(404);
  }, 30000);
});
