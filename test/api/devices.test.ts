/**
 * docs/api-decisions.md section 4 and 5 through HTTP against lab switches: the menu, search, basic
 * and details views, every write with its texts and status codes, save, VLANs, device
 * faults, concurrent writes and the audit trail.
 */
import { DEVICE_ACTIONS } from "../../domain/audit-actions";
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

describeDb("device endpoints", () => {
  let app: TestApp;
  let root: string;
  let generic: LabSwitch;
  let cbs: LabSwitch;
  let dead: LabSwitch;
  let gid: number;
  let sid: number; // generic
  let cid: number; // ciscosb (needs save)
  let did: number; // a switch that stops answering
  const base = () => `/api/switches/${gid}/${sid}`;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    generic = await startLab({
      profile: "generic",
      ports: 12,
      poePorts: [1, 2, 3, 4],
      name: "lab-gen-12",
      seed: 3,
      v3: {
        username: "sd-v3",
        authProtocol: "SHA-512",
        authKey: "auth-key-for-v3",
        privProtocol: "AES-256",
        privKey: "priv-key-for-v3",
      },
    });
    cbs = await startLab({ profile: "ciscosb", ports: 10, name: "lab-cbs-10", seed: 5 });
    dead = await startLab({ profile: "generic", ports: 8, name: "lab-dead-8", seed: 9 });
    gid = await addGroup(app, { name: "Lab" });
    sid = await addDevice(app, { name: "gen-12", lab: generic, groups: [gid] });
    cid = await addDevice(app, { name: "cbs-10", lab: cbs, groups: [gid], v3: false });
    did = await addDevice(app, { name: "dead-8", lab: dead, groups: [gid] });
  }, 60000);
  afterAll(async () => {
    await Promise.all([generic, cbs, dead].filter(Boolean).map((l) => l.stop()));
    await app?.close();
  });
  afterEach(() => {
    for (const l of [generic, cbs, dead]) l?.faults.reset();
  });

  const port = (lab: LabSwitch, n: number) => lab.model.port(n);
  const ifUrl = (n: number, what: string) => `${base()}/interface/${port(generic, n).ifIndex}/${what}/`;

  describe("reads", () => {
    it("menu lists the group and its switches by name, with string keys", async () => {
      const r = await app.request("GET", "/api/switches/", { token: root });
      expect(r.status).toBe(200);
      expect(r.body.user).toEqual({
        name: "root",
        read_only: false,
        vlan_edit: false,
        allow_poe_toggle: false,
        edit_if_descr: true,
      });
      const g = r.body.groups[String(gid)];
      expect(g.name).toBe("Lab");
      // JSON.parse orders integer-like keys numerically: the wire text keeps the name order
      const order = ["cbs-10", "dead-8", "gen-12"].map((n) => r.text.indexOf(`"name":"${n}"`));
      expect(order.every((x) => x > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(Object.keys(g.members).sort()).toEqual([String(sid), String(cid), String(did)].sort());
      expect(g.members[String(sid)]).toMatchObject({
        hostname: "gen-12",
        url: `${app.url}/api/switches/${gid}/${sid}/`,
        connector_type: 0,
        connector_type_name: "SNMP",
        primary_ipv4: "127.0.0.1",
        nms_id: "",
      });
    });

    it("search finds a switch by name or hostname, any case, else 404", async () => {
      const r = await app.request("GET", "/api/switches/search/GEN-12/", { token: root });
      expect(r.status).toBe(200);
      expect(r.body.switch).toMatchObject({ name: "gen-12", id: String(sid) });
      expect(r.body.groups[String(gid)]).toMatchObject({
        name: "Lab",
        id: String(gid),
        switch_url: `${app.url}/api/switches/${gid}/${sid}/`,
      });
      const none = await app.request("GET", "/api/switches/search/nothing-like-it/", { token: root });
      expect(none.status).toBe(404);
      expect(none.body.reason).toBe("Device 'nothing-like-it' not found!");
    });

    it("basic view lists what the switch holds: ports, VLANs, PoE, in natural order", async () => {
      const r = await app.request("GET", `${base()}/`, { token: root });
      expect(r.status).toBe(200);
      const sw = r.body.switch;
      expect(sw).toMatchObject({
        name: "gen-12",
        id: sid,
        group: "Lab",
        group_id: gid,
        save_config: false,
        change_vlan: true,
        read_only: false,
      });
      expect(sw.hostname).toBe("lab-gen-12");
      expect(sw.poe).toMatchObject({ enabled: true });
      // VLANs: exactly the lab's, keyed by id in numeric order
      const labVlans = generic.model.vlanIds();
      expect(Object.keys(r.body.vlans)).toEqual(labVlans.map(String));
      for (const id of labVlans) expect(r.body.vlans[id].name).toBe(generic.model.vlan(id)!.name);
      // every lab interface, natural order of ids, Ethernet ports with their PVID
      const ids = r.body.interfaces.map((i: Schemas["Interface"]) => i.id);
      expect(ids).toEqual([...ids].sort((a: string, b: string) => Number(a) - Number(b)));
      expect(ids.length).toBe(generic.model.interfaces.length);
      for (let n = 1; n <= 12; n++) {
        const p = port(generic, n);
        const i = r.body.interfaces.find((x: Schemas["Interface"]) => x.id === String(p.ifIndex));
        expect(i.name).toBe(p.name);
        expect(i.vlan).toBe(generic.model.pvid(p.bridgePort!));
        expect(i.state).toBe(generic.model.adminUp(p.ifIndex) ? "Enabled" : "Disabled");
        expect(i.description).toBe(generic.model.alias(p.ifIndex));
        expect("poe" in i).toBe(n <= 4);
        expect(i.ethernet_addresses).toEqual([]);
        expect(i.neighbors).toEqual([]);
      }
    });

    it("details view fills MAC table entries and LLDP neighbours", async () => {
      const r = await app.request("GET", `${base()}/details/`, { token: root });
      expect(r.status).toBe(200);
      const macs = r.body.interfaces.flatMap((i: Schemas["Interface"]) => i.ethernet_addresses);
      const neighbours = r.body.interfaces.flatMap((i: Schemas["Interface"]) => i.neighbors);
      expect(macs.length).toBe(generic.model.fdb.length);
      expect(neighbours.length).toBe(generic.model.lldp.length);
      expect(macs[0]).toEqual({
        address: expect.stringMatching(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/),
        vlan: expect.any(Number),
        ipv4: expect.any(Array),
        ipv6: [],
        hostname: "",
        vendor: expect.any(String),
      });
      expect(macs.some((m: Schemas["EthernetAddress"]) => m.ipv4.length > 0)).toBe(true);
      expect(neighbours[0].system_name).toBeTruthy();
    });

    it("a switch that does not answer is a 424 naming it, never a 200", async () => {
      dead.faults.drop = true;
      const r = await app.request("GET", `/api/switches/${gid}/${did}/`, { token: root });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_unreachable");
      expect(r.body.reason).toContain("dead-8");
    });

    it("a switch that stops answering in the middle of a walk is a 424 too", async () => {
      dead.faults.dropAfter(2);
      const r = await app.request("GET", `/api/switches/${gid}/${did}/details/`, { token: root });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_unreachable");
    });
  });

  describe("SNMPv3 authPriv", () => {
    it("reads and writes a switch through an SHA-512/AES-256 profile", async () => {
      const v3id = await addDevice(app, { name: "gen-12-v3", lab: generic, groups: [gid], v3: true });
      const b = await app.request("GET", `/api/switches/${gid}/${v3id}/`, { token: root });
      expect(b.status).toBe(200);
      expect(b.body.switch.hostname).toBe("lab-gen-12");
      const p = port(generic, 4);
      const r = await app.request("POST", `/api/switches/${gid}/${v3id}/interface/${p.ifIndex}/description/`, {
        token: root,
        json: { description: "via v3" },
      });
      expect(r.status).toBe(200);
      expect(generic.model.alias(p.ifIndex)).toBe("via v3");
      const row = (await app.services.repos.inventory.list("snmp_profiles")).find((x) => x.version === "3")!;
      expect(row.auth_protocol).toBe("SHA-512");
      expect(row.priv_key_enc).not.toContain("priv-key-for-v3");
    });
  });

  describe("interface writes", () => {
    it("admin state: Disabled then the same again is 404; the switch really changed", async () => {
      const p = port(generic, 5);
      if (!generic.model.adminUp(p.ifIndex))
        await app.request("POST", ifUrl(5, "state"), { token: root, form: { state: "on" } });
      const r = await app.request("POST", ifUrl(5, "state"), { token: root, form: { state: "off" } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ result: `Interface ${p.name} is now Disabled` });
      expect(generic.model.adminUp(p.ifIndex)).toBe(false);
      const same = await app.request("POST", ifUrl(5, "state"), { token: root, json: { state: "down" } });
      expect(same.status).toBe(404);
      expect(same.body).toEqual({
        reason: "New interface status is the same (Disabled), please change status!",
        code: "same_value",
      });
      const up = await app.request("POST", ifUrl(5, "state"), { token: root, json: { state: true } });
      expect(up.body.result).toBe(`Interface ${p.name} is now Enabled`);
      expect(generic.model.adminUp(p.ifIndex)).toBe(true);
    });

    it("state: missing parameter is 400 with the contract text", async () => {
      const r = await app.request("POST", ifUrl(5, "state"), { token: root, form: {} });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Missing or invalid required parameter: 'state'");
    });

    it("PoE: off, same again 404, on; a port without PoE is 400", async () => {
      const p = port(generic, 2);
      if (!generic.model.poeState(p.ifIndex)!.enabled)
        await app.request("POST", ifUrl(2, "poe_state"), { token: root, form: { poe_state: "on" } });
      expect(generic.model.poeState(p.ifIndex)!.enabled).toBe(true);
      const off = await app.request("POST", ifUrl(2, "poe_state"), { token: root, form: { poe_state: "no" } });
      expect(off.body).toEqual({ result: `Interface ${p.name} PoE is now Disabled` });
      expect(generic.model.poeState(p.ifIndex)!.enabled).toBe(false);
      const same = await app.request("POST", ifUrl(2, "poe_state"), { token: root, form: { poe_state: "0" } });
      expect(same.status).toBe(404);
      expect(same.body.reason).toBe("New PoE status is the same (Disabled), please change status!");
      const on = await app.request("POST", ifUrl(2, "poe_state"), { token: root, json: { poe_state: 1 } });
      expect(on.body.result).toBe(`Interface ${p.name} PoE is now Enabled`);
      expect(generic.model.poeState(p.ifIndex)!.enabled).toBe(true);
      const none = await app.request("POST", ifUrl(9, "poe_state"), { token: root, form: { poe_state: "on" } });
      expect(none.status).toBe(400);
      expect(none.body.reason).toBe(`Interface ${port(generic, 9).name} does not support PoE`);
    });

    it("untagged VLAN: moves the port keeping Q-BRIDGE consistent; same 404; unknown 400", async () => {
      const p = port(generic, 6);
      const current = generic.model.pvid(p.bridgePort!)!;
      const target = generic.model.vlanIds().find((v) => v !== current && v !== 1)!;
      const r = await app.request("POST", ifUrl(6, "vlan"), { token: root, form: { vlan: String(target) } });
      expect(r.status).toBe(200);
      expect(r.body.result).toBe(`Interface ${p.name} changed to vlan ${target}`);
      expect(generic.model.pvid(p.bridgePort!)).toBe(target);
      expect(generic.model.vlan(target)!.untagged.has(p.bridgePort!)).toBe(true);
      expect(generic.model.vlan(current)!.untagged.has(p.bridgePort!)).toBe(false);
      expect(generic.model.consistencyProblems()).toEqual([]);
      const same = await app.request("POST", ifUrl(6, "vlan"), { token: root, json: { vlan: target } });
      expect(same.status).toBe(404);
      expect(same.body.reason).toBe(`New vlan ${target} is the same, please change the vlan first!`);
      for (const bad of [999, 0, 4095]) {
        const r2 = await app.request("POST", ifUrl(6, "vlan"), { token: root, json: { vlan: bad } });
        expect(r2.status).toBe(400);
        expect(r2.body.reason).toBe(`New vlan ${bad} is not valid or allowed on this device`);
      }
      for (const body of [{}, { vlan: "ten" }, { vlan: "1.5" }]) {
        const r3 = await app.request("POST", ifUrl(6, "vlan"), { token: root, json: body });
        expect(r3.status).toBe(400);
        expect(r3.body.reason).toBe("Missing or invalid required numeric parameter: 'vlan'");
      }
    });

    it("description: set, same 404, stripped, too long and control characters 400", async () => {
      const p = port(generic, 7);
      const r = await app.request("POST", ifUrl(7, "description"), {
        token: root,
        form: { description: "  desk 4.12  " },
      });
      expect(r.body).toEqual({ result: `Interface ${p.name} description was changed!` });
      expect(generic.model.alias(p.ifIndex)).toBe("desk 4.12");
      const same = await app.request("POST", ifUrl(7, "description"), {
        token: root,
        json: { description: "desk 4.12" },
      });
      expect(same.status).toBe(404);
      expect(same.body.reason).toBe("New description is the same, please change it first!");
      const long = await app.request("POST", ifUrl(7, "description"), {
        token: root,
        json: { description: "x".repeat(65) },
      });
      expect(long.status).toBe(400);
      expect(long.body.reason).toBe("Description is too long (max 64 characters)");
      for (const bad of ["a\nb", "a\rb", "bell\u0007", "tab\there"]) {
        const c = await app.request("POST", ifUrl(7, "description"), { token: root, json: { description: bad } });
        expect(c.status).toBe(400);
      }
      expect(generic.model.alias(p.ifIndex)).toBe("desk 4.12");
      const missing = await app.request("POST", ifUrl(7, "description"), { token: root, json: {} });
      expect(missing.body.reason).toBe("Missing or invalid required parameter: 'description'");
      const clear = await app.request("POST", ifUrl(7, "description"), { token: root, json: { description: "" } });
      expect(clear.status).toBe(200);
      expect(generic.model.alias(p.ifIndex)).toBe("");
    });

    it("an unknown interface is 404", async () => {
      const r = await app.request("POST", `${base()}/interface/987654/state/`, { token: root, form: { state: "on" } });
      expect(r.status).toBe(404);
      expect(r.body.reason).toBe("Interface 987654 not found");
    });
  });

  describe("save", () => {
    it("needs save=yes; other values are no save; 'true' is not in the save set", async () => {
      const missing = await app.request("POST", `/api/switches/${gid}/${cid}/save/`, { token: root, form: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.reason).toBe("Missing or invalid required parameter and value: 'save=yes'");
      for (const v of ["0", "no", "true"]) {
        const r = await app.request("POST", `/api/switches/${gid}/${cid}/save/`, { token: root, form: { save: v } });
        expect(r.status).toBe(400);
        expect(r.body.reason).toBe("No save requested (why did you call us?).");
      }
    });

    it("a switch that needs a save keeps running and startup apart until the save", async () => {
      const b = await app.request("GET", `/api/switches/${gid}/${cid}/`, { token: root });
      expect(b.body.switch.save_config).toBe(true);
      const p = port(cbs, 3);
      const r = await app.request("POST", `/api/switches/${gid}/${cid}/interface/${p.ifIndex}/description/`, {
        token: root,
        form: { description: "saved later" },
      });
      expect(r.status).toBe(200);
      expect(cbs.model.isSaved()).toBe(false);
      expect(cbs.model.startup.ports.get(p.ifIndex)!.alias).not.toBe("saved later");
      const s = await app.request("POST", `/api/switches/${gid}/${cid}/save/`, { token: root, form: { save: "yes" } });
      expect(s.status).toBe(200);
      expect(s.body).toEqual({ result: "Configuration saved!" });
      expect(cbs.model.isSaved()).toBe(true);
      expect(cbs.model.startup.ports.get(p.ifIndex)!.alias).toBe("saved later");
    });

    it("a switch that needs no save says so (400)", async () => {
      const r = await app.request("POST", `${base()}/save/`, { token: root, json: { save: "on" } });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("This switch model cannot save or does not need to save the config");
    });
  });

  describe("VLANs", () => {
    it("add, rename, delete with the contract texts; the switch changes", async () => {
      const add = await app.request("POST", `${base()}/vlan/add/`, {
        token: root,
        form: { vlan_id: "777", vlan_name: "seven-times-3" },
      });
      expect(add.body).toEqual({ result: "Vlan 777 (seven-times-3) created." });
      expect(generic.model.vlan(777)?.name).toBe("seven-times-3");
      const again = await app.request("POST", `${base()}/vlan/add/`, {
        token: root,
        json: { vlan_id: 777, vlan_name: "x" },
      });
      expect(again.status).toBe(400);
      expect(again.body.reason).toBe("Vlan 777 already exists!");
      const edit = await app.request("POST", `${base()}/vlan/edit/`, {
        token: root,
        json: { vlan_id: "777", vlan_name: "seven-seven-seven" },
      });
      expect(edit.body).toEqual({ result: "Updated name for vlan 777 to 'seven-seven-seven'" });
      expect(generic.model.vlan(777)?.name).toBe("seven-seven-seven");
      const del = await app.request("POST", `${base()}/vlan/delete/`, { token: root, form: { vlan_id: "777" } });
      expect(del.body).toEqual({ result: "Vlan 777 was deleted!" });
      expect(generic.model.vlan(777)).toBeUndefined();
      const gone = await app.request("POST", `${base()}/vlan/delete/`, { token: root, form: { vlan_id: "777" } });
      expect(gone.status).toBe(404);
      expect(gone.body.reason).toBe("Vlan 777 does not exist!");
      const editGone = await app.request("POST", `${base()}/vlan/edit/`, {
        token: root,
        form: { vlan_id: "777", vlan_name: "x" },
      });
      expect(editGone.status).toBe(404);
      expect(editGone.body.reason).toBe("Vlan 777 does not exist!");
    });

    it("bad VLAN parameters", async () => {
      const parse = await app.request("POST", `${base()}/vlan/add/`, { token: root, form: { vlan_name: "x" } });
      expect(parse.body.reason).toBe("One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'");
      const parseEdit = await app.request("POST", `${base()}/vlan/edit/`, { token: root, json: { vlan_id: 5 } });
      expect(parseEdit.body.reason).toBe("One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'");
      const parseDel = await app.request("POST", `${base()}/vlan/delete/`, { token: root, json: {} });
      expect(parseDel.body.reason).toBe("Missing or invalid required parameter: 'vlan_id'");
      for (const id of [0, 4095]) {
        const r = await app.request("POST", `${base()}/vlan/add/`, {
          token: root,
          json: { vlan_id: id, vlan_name: "x" },
        });
        expect(r.status).toBe(400);
        expect(r.body.reason).toBe(`Invalid new vlan id: '${id}'`);
      }
      const empty = await app.request("POST", `${base()}/vlan/add/`, {
        token: root,
        json: { vlan_id: 800, vlan_name: "  " },
      });
      expect(empty.body.reason).toBe("Please provide a vlan name!");
      const emptyEdit = await app.request("POST", `${base()}/vlan/edit/`, {
        token: root,
        json: { vlan_id: 1, vlan_name: "" },
      });
      expect(emptyEdit.body.reason).toBe("Vlan name can not be empty!");
      const long = await app.request("POST", `${base()}/vlan/add/`, {
        token: root,
        json: { vlan_id: 800, vlan_name: "n".repeat(33) },
      });
      expect(long.status).toBe(400);
      const ctl = await app.request("POST", `${base()}/vlan/add/`, {
        token: root,
        json: { vlan_id: 800, vlan_name: "evil\nvlan 9" },
      });
      expect(ctl.status).toBe(400);
      expect(generic.model.vlan(800)).toBeUndefined();
    });
  });

  describe("device faults and the audit trail", () => {
    it("a refused set is a 424 device_refused, nothing changed, audited", async () => {
      const p = port(generic, 8);
      const before = generic.model.alias(p.ifIndex);
      generic.faults.refuseSets = "noAccess";
      const r = await app.request("POST", ifUrl(8, "description"), { token: root, form: { description: "refused" } });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_refused");
      expect(r.body.reason).toContain("gen-12");
      expect(generic.model.alias(p.ifIndex)).toBe(before);
      const log = await app.services.repos.audit.page({ page: 1, pageSize: 1, switchId: sid });
      expect(log.results[0]).toMatchObject({
        action: "description",
        outcome: "failure",
        code: "device_refused",
        new_value: "refused",
        interface: p.name,
        username: "root",
      });
    });

    it("a set that reads back different is a 424 device_mismatch, never a 200", async () => {
      generic.faults.lieOnSet = true;
      const r = await app.request("POST", ifUrl(8, "description"), {
        token: root,
        form: { description: "lied about" },
      });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_mismatch");
      const log = await app.services.repos.audit.page({ page: 1, pageSize: 1, switchId: sid });
      expect(log.results[0]).toMatchObject({ outcome: "failure", code: "device_mismatch" });
    });

    it("an unreachable switch on a write is a 424 and audited", async () => {
      dead.faults.drop = true;
      const p = port(dead, 1);
      const r = await app.request("POST", `/api/switches/${gid}/${did}/interface/${p.ifIndex}/state/`, {
        token: root,
        form: { state: "off" },
      });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_unreachable");
      const log = await app.services.repos.audit.page({ page: 1, pageSize: 1, switchId: did });
      expect(log.results[0]).toMatchObject({ outcome: "failure", code: "device_unreachable", switch_name: "dead-8" });
    });

    it("a success is audited with old and new value, user and source address", async () => {
      const p = port(generic, 10);
      const before = generic.model.alias(p.ifIndex);
      const r = await app.request("POST", ifUrl(10, "description"), { token: root, form: { description: "audited" } });
      expect(r.status).toBe(200);
      const log = await app.services.repos.audit.page({ page: 1, pageSize: 1, switchId: sid });
      expect(log.results[0]).toMatchObject({
        action: "description",
        outcome: "success",
        old_value: before,
        new_value: "audited",
        interface: p.name,
        username: "root",
        source_address: "127.0.0.1",
        switch_name: "gen-12",
        group_id: gid,
      });
    });

    it("changes and device use feed api/stats/ and api/admin/log/", async () => {
      const stats = await app.request("GET", "/api/stats/", { token: root });
      const changes = await app.services.repos.audit.countSince(null, { outcome: "success", actions: DEVICE_ACTIONS });
      expect(changes).toBeGreaterThan(0);
      expect(stats.body.usage.changes_total.value).toBe(changes);
      expect(stats.body.usage.changes_today.value).toBe(changes);
      // gen-12, cbs-10, dead-8 and gen-12-v3 were all used today
      expect(stats.body.usage.devices_today.value).toBe(4);
      expect(stats.body.database.switches.value).toBeGreaterThanOrEqual(3);
      const log = await app.request("GET", `/api/admin/log/?switch=${sid}&page_size=5`, { token: root });
      expect(log.status).toBe(200);
      expect(log.body.results).toHaveLength(5);
      expect(log.body.results.every((r: Schemas["LogEntry"]) => r.switch_id === sid)).toBe(true);
      const ids = log.body.results.map((r: Schemas["LogEntry"]) => r.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    });

    it("two writes to one switch at the same time are applied one after the other", async () => {
      const a = port(generic, 11);
      const b = port(generic, 12);
      generic.faults.latencyMs = 5;
      generic.counters.reset();
      const [ra, rb] = await Promise.all([
        app.request("POST", ifUrl(11, "description"), { token: root, form: { description: "first" } }),
        app.request("POST", ifUrl(12, "description"), { token: root, form: { description: "second" } }),
      ]);
      expect(ra.status).toBe(200);
      expect(rb.status).toBe(200);
      expect(generic.model.alias(a.ifIndex)).toBe("first");
      expect(generic.model.alias(b.ifIndex)).toBe("second");
      // each write is one driver session (one socket): the agent saw all requests of one
      // write, then all of the other, never the two mixed (which they would be without the queue)
      const senders = generic.counters.journal.map((e) => e.from);
      const runs = senders.filter((from, i) => i === 0 || from !== senders[i - 1]);
      expect(new Set(senders).size).toBe(2);
      expect(runs).toHaveLength(2);
      expect(generic.counters.journal.filter((e) => e.type === "set")).toHaveLength(2);
      // the same port twice: exactly one succeeds, the other sees the first's value
      const [x, y] = await Promise.all([
        app.request("POST", ifUrl(11, "description"), { token: root, form: { description: "same" } }),
        app.request("POST", ifUrl(11, "description"), { token: root, form: { description: "same" } }),
      ]);
      expect([x.status, y.status].sort()).toEqual([200, 404]);
    });
  });
});
