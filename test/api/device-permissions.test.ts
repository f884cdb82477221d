/**
 * docs/api-decisions.md section 3 (who may do what), rule by rule, through real HTTP against lab
 * switches on 127.0.0.1: the menu and the (group, switch) check, read-only users, groups,
 * devices and tokens, VLAN allow-lists, PoE and description flags, unmanageable
 * interfaces with their reasons, VLAN add/rename/delete. Every refused write is checked
 * against the lab's running configuration (nothing changed), every allowed one for the
 * change it made.
 */
import { startTestApp, type ApiResponse, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { cloneConfig, configsEqual, moveAccessVlan, type SwitchConfig } from "../../lab/config";
import { hashKey } from "../../db/tokens";

const ACCESS_DENIED = "Access denied!";
const TOKEN_CANNOT_WRITE = "This token cannot write!";
const CANNOT_MANAGE = "You can not manage this interface!";
const NO_DESCRIPTION_EDIT = "You are not allowed to change the interface description!";
const SUPERUSER_TO_DELETE = "Access Denied: you need to be SuperUser to delete a VLAN";
const VLAN_NOT_ACCESSIBLE = "Interface access denied: you do not have access to the interface vlan!";
const NOT_ETHERNET = "Access denied: not an Ethernet interface!";
const ROUTED_MODE = "Access denied: interface in routed mode!";

/** A VLAN on the main lab switch that no port uses, so deleting it is possible. */
const SPARE_VLAN = 50;
/** The access VLAN of each Ethernet port of the main lab switch (port 12 is the generated uplink). */
const ACCESS_VLAN: Record<number, number> = {
  1: 10,
  2: 10,
  3: 30,
  4: 30,
  5: 20,
  6: 99,
  7: 10,
  8: 10,
  9: 30,
  10: 20,
  11: 1,
};
const POE_PORTS = [1, 2, 3, 4, 5, 6];
/** the port of the second lab switch that holds an IP address */
const ROUTED_PORT = 7;

interface Write {
  name: string;
  /** path below /api/switches/<g>/<s>/ */
  path: string;
  body: Record<string, unknown>;
}

describeDb("permissions of the device endpoints (docs/api-decisions.md section 3)", () => {
  let app: TestApp;
  let lab: LabSwitch;
  let routedLab: LabSwitch;
  /** the main lab switch's running configuration every test starts from */
  let baseline: SwitchConfig;

  const users: Record<string, number> = {};
  const tokens: Record<string, string> = {};
  const groups: Record<string, number> = {};
  const devices: Record<string, number> = {};

  /** ifIndex (the SNMP interface id) of Ethernet port n of the main lab switch */
  const ifIndex = (n: number) => lab.model.port(n).ifIndex;
  const portName = (n: number) => lab.model.port(n).name;
  const bridgePort = (n: number) => lab.model.port(n).bridgePort!;
  const svi = () => lab.model.interfaces.find((i) => i.ifType === 136)!;
  const loopback = () => lab.model.interfaces.find((i) => i.ifType === 24)!;

  /** One valid call of every write endpoint; port 1 is on VLAN 10, which every test group allows. */
  const everyWrite = (): Write[] => [
    { name: "state", path: `interface/${ifIndex(1)}/state/`, body: { state: "off" } },
    { name: "poe_state", path: `interface/${ifIndex(1)}/poe_state/`, body: { poe_state: "off" } },
    { name: "vlan", path: `interface/${ifIndex(1)}/vlan/`, body: { vlan: 20 } },
    { name: "description", path: `interface/${ifIndex(1)}/description/`, body: { description: "not allowed" } },
    { name: "save", path: "save/", body: { save: "yes" } },
    { name: "vlan add", path: "vlan/add/", body: { vlan_id: 77, vlan_name: "seventy-seven" } },
    { name: "vlan edit", path: "vlan/edit/", body: { vlan_id: 10, vlan_name: "renamed" } },
    { name: "vlan delete", path: "vlan/delete/", body: { vlan_id: SPARE_VLAN } },
  ];

  const switchPath = (g: number, s: number) => `/api/switches/${g}/${s}/`;
  const post = (token: string, g: number, s: number, path: string, body: Record<string, unknown>) =>
    app.request("POST", switchPath(g, s) + path, { token, json: body });
  const basic = (token: string, g: number, s: number) => app.request("GET", switchPath(g, s), { token });
  const ifaceOf = (view: ApiResponse, id: number) => {
    const found = view.body.interfaces.find((i: { id: string }) => i.id === String(id));
    if (!found) throw new Error(`interface ${id} not in the view`);
    return found;
  };
  const unchanged = () => configsEqual(lab.model.running, baseline);

  /** Every write endpoint answers 403 with `reason`, and the switch keeps its configuration. */
  async function expectEveryWriteRefused(token: string, g: number, s: number, reason: string) {
    for (const w of everyWrite()) {
      const r = await post(token, g, s, w.path, w.body);
      expect({ write: w.name, status: r.status, reason: r.body.reason }).toEqual({
        write: w.name,
        status: 403,
        reason,
      });
    }
    expect(unchanged()).toBe(true);
  }

  function expectRefused(r: ApiResponse, status: number, reason: string) {
    expect({ status: r.status, reason: r.body.reason }).toEqual({ status, reason });
    expect(unchanged()).toBe(true);
  }

  function expectResult(r: ApiResponse, result: string) {
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { result } });
  }

  beforeAll(async () => {
    app = await startTestApp();
    lab = await startLab({ ports: 12, poePorts: POE_PORTS, name: "perm-lab", seed: 3 });
    // a second switch whose Ethernet port ROUTED_PORT holds an IPv4 address (a routed port)
    routedLab = await startLab({
      profile: "generic",
      ports: 8,
      name: "perm-routed-lab",
      seed: 5,
      routedPorts: [ROUTED_PORT],
    });

    // A known layout instead of the generated one: which port is on which VLAN decides
    // every allow-list test below.
    lab.model.update((cfg) => {
      cfg.vlans.set(SPARE_VLAN, { name: "spare", active: true, egress: new Set(), untagged: new Set() });
      for (const [n, vlan] of Object.entries(ACCESS_VLAN)) {
        moveAccessVlan(cfg, bridgePort(Number(n)), vlan);
        cfg.ports.set(ifIndex(Number(n)), { adminUp: true, alias: "", poeEnabled: true });
      }
    });
    expect(lab.model.consistencyProblems()).toEqual([]);
    baseline = cloneConfig(lab.model.running);

    const people: [string, Parameters<TestApp["createUser"]>[2]][] = [
      ["root", { is_superuser: true }],
      ["staff", { is_staff: true }],
      ["staffvlan", { is_staff: true, profile: { vlan_edit: true } }],
      ["alice", {}],
      ["pat", { profile: { allow_poe_toggle: true } }],
      ["dan", { profile: { edit_if_descr: false } }],
      ["rita", {}],
      ["vera", { profile: { vlan_edit: true } }],
      ["carol", {}],
    ];
    for (const [name, extra] of people) {
      users[name] = await app.createUser(name, `pw-${name}-1`, extra);
      tokens[name] = await app.login(name, `pw-${name}-1`);
    }
    // rita's first token was made while she could write; then her profile became
    // read-only, so that token still may write and only the profile stops her.
    await app.services.repos.users.update(users.rita, {}, { read_only: true });
    tokens.ritaReadOnly = await app.login("rita", "pw-rita-1");
    // a token of a writing user, made read-only afterwards
    tokens.aliceReadOnly = await app.login("alice", "pw-alice-1");
    await app.services.store.db
      .updateTable("tokens")
      .set({ write_enabled: 0 })
      .where("key_hash", "=", hashKey(tokens.aliceReadOnly))
      .execute();

    const regulars = [users.alice, users.pat, users.dan, users.rita, users.vera];
    // VLAN 61 is not on the switch: it is in the list so that vera (vlan_edit) may create it
    groups.users = await addGroup(app, { name: "A users 10+20", vlans: [10, 20, 61], users: regulars });
    groups.readOnly = await addGroup(app, {
      name: "B read-only",
      read_only: true,
      vlans: [10, 20],
      users: [users.alice],
    });
    groups.poe = await addGroup(app, {
      name: "C poe toggle",
      allow_poe_toggle: true,
      vlans: [10, 20],
      users: [users.alice],
    });
    groups.noDescr = await addGroup(app, {
      name: "D no descriptions",
      edit_if_descr: false,
      vlans: [10, 20],
      users: [users.alice],
    });
    groups.allVlans = await addGroup(app, { name: "E all vlans", allow_all_vlans: true, users: [users.alice] });
    groups.routed = await addGroup(app, { name: "F routed lab", allow_all_vlans: true, users: [users.alice] });
    groups.other = await addGroup(app, { name: "G carol only", vlans: [10, 20], users: [users.carol] });
    groups.empty = await addGroup(app, {
      name: "H no devices",
      allow_all_vlans: true,
      users: [users.alice, users.carol],
    });
    groups.inactiveOnly = await addGroup(app, { name: "I inactive only", users: [users.carol] });

    const mainGroups = [groups.users, groups.readOnly, groups.poe, groups.noDescr, groups.allVlans];
    devices.main = await addDevice(app, { name: "perm-main", lab, groups: mainGroups });
    devices.readOnly = await addDevice(app, { name: "perm-ro-device", lab, groups: [groups.users], read_only: true });
    devices.poe = await addDevice(app, {
      name: "perm-poe-device",
      lab,
      groups: [groups.users],
      allow_poe_toggle: true,
    });
    devices.noDescr = await addDevice(app, {
      name: "perm-nodescr-device",
      lab,
      groups: [groups.users],
      edit_if_descr: false,
    });
    devices.inactive = await addDevice(app, { name: "perm-inactive", lab, groups: [groups.users], status: "inactive" });
    devices.other = await addDevice(app, { name: "perm-other", lab, groups: [groups.other] });
    devices.inactiveOnly = await addDevice(app, {
      name: "perm-inactive-only",
      lab,
      groups: [groups.inactiveOnly],
      status: "inactive",
    });
    devices.routed = await addDevice(app, { name: "perm-routed", lab: routedLab, groups: [groups.routed] });
    // nine users with a password hash and eleven logins: slow while the fuzzer runs beside it
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await lab?.stop();
    await routedLab?.stop();
  });

  // every test starts from the same switch configuration, whatever the one before changed
  beforeEach(() => lab.model.commit(cloneConfig(baseline)));

  describe("the menu and the (group, switch) check", () => {
    const menuOf = async (token: string) => {
      const r = await app.request("GET", "/api/switches/", { token });
      expect(r.status).toBe(200);
      return r.body.groups as Record<string, { name: string; members: Record<string, { name: string }> }>;
    };
    const groupIds = (menu: Record<string, unknown>) =>
      Object.keys(menu)
        .map(Number)
        .sort((a, b) => a - b);
    const memberNames = (menu: Record<string, { members: Record<string, { name: string }> }>, g: number) =>
      Object.values(menu[String(g)].members).map((m) => m.name);

    it("a regular user sees only the groups they are a member of, and only groups with devices", async () => {
      const menu = await menuOf(tokens.alice);
      const expected = [groups.users, groups.readOnly, groups.poe, groups.noDescr, groups.allVlans, groups.routed];
      expect(groupIds(menu)).toEqual(expected.sort((a, b) => a - b));
      expect(groupIds(await menuOf(tokens.carol))).toEqual([groups.other, groups.inactiveOnly]);
    });

    it("staff and superuser see every group that has a device, member or not", async () => {
      const all = Object.values(groups)
        .filter((g) => g !== groups.empty)
        .sort((a, b) => a - b);
      expect(groupIds(await menuOf(tokens.staff))).toEqual(all);
      expect(groupIds(await menuOf(tokens.root))).toEqual(all);
    });

    it("inactive devices are not listed and cannot be opened", async () => {
      const menu = await menuOf(tokens.root);
      // as a set: the member order is another test's subject (JSON.parse reorders numeric keys)
      expect(memberNames(menu, groups.users).sort()).toEqual([
        "perm-main",
        "perm-nodescr-device",
        "perm-poe-device",
        "perm-ro-device",
      ]);
      const r = await basic(tokens.root, groups.users, devices.inactive);
      expect({ status: r.status, reason: r.body.reason }).toEqual({ status: 403, reason: ACCESS_DENIED });
      // a group whose only device is inactive still has a device: listed, without members (as OpenL2M)
      expect((await menuOf(tokens.carol))[String(groups.inactiveOnly)].members).toEqual({});
      const search = await app.request("GET", "/api/switches/search/perm-inactive-only/", { token: tokens.root });
      expect({ status: search.status, reason: search.body.reason }).toEqual({
        status: 404,
        reason: "Device 'perm-inactive-only' not found!",
      });
    });

    it("another user's group: 403 Access denied! on basic, details and every write", async () => {
      const r = await basic(tokens.alice, groups.other, devices.other);
      expect({ status: r.status, reason: r.body.reason }).toEqual({ status: 403, reason: ACCESS_DENIED });
      const d = await app.request("GET", switchPath(groups.other, devices.other) + "details/", { token: tokens.alice });
      expect({ status: d.status, reason: d.body.reason }).toEqual({ status: 403, reason: ACCESS_DENIED });
      await expectEveryWriteRefused(tokens.alice, groups.other, devices.other, ACCESS_DENIED);
      // the member of that group gets in
      expect((await basic(tokens.carol, groups.other, devices.other)).status).toBe(200);
    });

    it("a switch that is not in the group of the URL: 403, even for the superuser", async () => {
      for (const [token, g, s] of [
        [tokens.alice, groups.users, devices.routed],
        [tokens.root, groups.users, devices.routed],
        [tokens.root, groups.other, devices.main],
      ] as const) {
        const r = await basic(token, g, s);
        expect({ status: r.status, reason: r.body.reason }).toEqual({ status: 403, reason: ACCESS_DENIED });
      }
      const w = await post(tokens.root, groups.other, devices.main, `interface/${ifIndex(1)}/state/`, { state: "off" });
      expectRefused(w, 403, ACCESS_DENIED);
    });

    it("search finds a switch only within the caller's menu", async () => {
      const mine = await app.request("GET", "/api/switches/search/perm-main/", { token: tokens.alice });
      expect(mine.status).toBe(200);
      expect(mine.body.switch).toMatchObject({ name: "perm-main", id: String(devices.main) });
      expect(
        Object.keys(mine.body.groups)
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual([groups.users, groups.readOnly, groups.poe, groups.noDescr, groups.allVlans].sort((a, b) => a - b));

      for (const [token, text] of [
        [tokens.alice, "perm-other"],
        [tokens.alice, "perm-inactive"],
        [tokens.carol, "perm-main"],
      ]) {
        const r = await app.request("GET", `/api/switches/search/${text}/`, { token });
        expect({ status: r.status, reason: r.body.reason }).toEqual({
          status: 404,
          reason: `Device '${text}' not found!`,
        });
      }
      const carols = await app.request("GET", "/api/switches/search/perm-other/", { token: tokens.carol });
      expect(carols.status).toBe(200);
      const staffs = await app.request("GET", "/api/switches/search/perm-other/", { token: tokens.staff });
      expect(staffs.status).toBe(200);
      expect(Object.keys(staffs.body.groups)).toEqual([String(groups.other)]);
    });
  });

  describe("the group in the URL decides", () => {
    it("the same switch is read-only through one group and writable through another", async () => {
      const ro = await basic(tokens.alice, groups.readOnly, devices.main);
      expect(ro.status).toBe(200);
      expect(ro.body.switch.read_only).toBe(true);
      expect(ifaceOf(ro, ifIndex(1)).manageable).toBe(false);
      const rw = await basic(tokens.alice, groups.users, devices.main);
      expect(rw.body.switch.read_only).toBe(false);
      expect(ifaceOf(rw, ifIndex(1)).manageable).toBe(true);

      const body = { state: "off" };
      expectRefused(
        await post(tokens.alice, groups.readOnly, devices.main, `interface/${ifIndex(1)}/state/`, body),
        403,
        ACCESS_DENIED,
      );
      const ok = await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(1)}/state/`, body);
      expectResult(ok, `Interface ${portName(1)} is now Disabled`);
      expect(lab.model.adminUp(ifIndex(1))).toBe(false);
    });
  });

  describe("read-only user, group and device", () => {
    const cases = () =>
      [
        { who: "a read-only user (profile)", token: tokens.rita, g: groups.users, s: devices.main },
        { who: "a read-only group", token: tokens.alice, g: groups.readOnly, s: devices.main },
        { who: "a read-only device", token: tokens.alice, g: groups.users, s: devices.readOnly },
        { who: "the superuser on a read-only device", token: tokens.root, g: groups.users, s: devices.readOnly },
      ] as const;

    it.each([0, 1, 2, 3])("case %i: every write is 403 Access denied!", async (i) => {
      const c = cases()[i];
      await expectEveryWriteRefused(c.token, c.g, c.s, ACCESS_DENIED);
    });

    it.each([0, 1, 2, 3])(
      "case %i: reads work, the switch says read_only and no interface is manageable",
      async (i) => {
        const c = cases()[i];
        const r = await basic(c.token, c.g, c.s);
        expect(r.status).toBe(200);
        expect(r.body.switch.read_only).toBe(true);
        expect(r.body.interfaces.length).toBe(lab.model.interfaces.length);
        for (const iface of r.body.interfaces)
          expect({ id: iface.id, manageable: iface.manageable }).toEqual({ id: iface.id, manageable: false });
        expect(ifaceOf(r, ifIndex(1)).unmanage_reason).toBe(ACCESS_DENIED);
      },
    );

    it("details work for a read-only user", async () => {
      const r = await app.request("GET", switchPath(groups.users, devices.main) + "details/", { token: tokens.rita });
      expect(r.status).toBe(200);
      expect(r.body.switch.read_only).toBe(true);
    });
  });

  describe("read-only tokens", () => {
    it("a token of a read-only user and a token set to write_enabled=0 cannot write anywhere", async () => {
      await expectEveryWriteRefused(tokens.ritaReadOnly, groups.users, devices.main, TOKEN_CANNOT_WRITE);
      await expectEveryWriteRefused(tokens.aliceReadOnly, groups.users, devices.main, TOKEN_CANNOT_WRITE);
    });

    it("they still read", async () => {
      const r = await basic(tokens.aliceReadOnly, groups.users, devices.main);
      expect(r.status).toBe(200);
      // the token does not make the switch read-only for its user, it only stops writes
      expect(ifaceOf(r, ifIndex(1)).manageable).toBe(true);
    });

    it("the token check comes before the menu check", async () => {
      await expectEveryWriteRefused(tokens.aliceReadOnly, groups.other, devices.other, TOKEN_CANNOT_WRITE);
      await expectEveryWriteRefused(tokens.ritaReadOnly, groups.routed, devices.routed, TOKEN_CANNOT_WRITE);
    });
  });

  describe("VLAN allow-lists", () => {
    it("a regular user manages ports on the group's VLANs only, with the reason on the others", async () => {
      const r = await basic(tokens.alice, groups.users, devices.main);
      expect(r.status).toBe(200);
      for (const n of [1, 2, 5, 7, 8, 10]) expect(ifaceOf(r, ifIndex(n))).toMatchObject({ manageable: true });
      for (const n of [3, 4, 6, 9, 11]) {
        expect(ifaceOf(r, ifIndex(n))).toMatchObject({ manageable: false, unmanage_reason: VLAN_NOT_ACCESSIBLE });
      }
      expect(ifaceOf(r, ifIndex(1)).unmanage_reason).toBeUndefined();
    });

    it("vlans.<id>.allowed follows the group's list", async () => {
      const r = await basic(tokens.alice, groups.users, devices.main);
      const allowed = Object.fromEntries(
        Object.entries<Schemas["Vlan"]>(r.body.vlans).map(([id, v]) => [id, v.allowed]),
      );
      expect(allowed).toEqual({ "1": false, "10": true, "20": true, "30": false, [SPARE_VLAN]: false, "99": false });
    });

    it("writing to a port on another VLAN is 403, moving a port to a VLAN outside the list is 400", async () => {
      for (const [path, body] of [
        ["state/", { state: "off" }],
        ["vlan/", { vlan: 10 }],
        ["description/", { description: "mine now" }],
      ] as const) {
        const r = await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(3)}/${path}`, body);
        expectRefused(r, 403, CANNOT_MANAGE);
      }
      const out = await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(1)}/vlan/`, { vlan: 30 });
      expectRefused(out, 400, "New vlan 30 is not valid or allowed on this device");
      expect(lab.model.pvid(bridgePort(1))).toBe(10);

      const inside = await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(1)}/vlan/`, {
        vlan: 20,
      });
      expectResult(inside, `Interface ${portName(1)} changed to vlan 20`);
      expect(lab.model.pvid(bridgePort(1))).toBe(20);
    });

    it("an allow_all_vlans group allows every VLAN", async () => {
      const r = await basic(tokens.alice, groups.allVlans, devices.main);
      expect(Object.values<Schemas["Vlan"]>(r.body.vlans).every((v) => v.allowed)).toBe(true);
      for (const n of [3, 6, 9, 11]) expect(ifaceOf(r, ifIndex(n)).manageable).toBe(true);
      const moved = await post(tokens.alice, groups.allVlans, devices.main, `interface/${ifIndex(3)}/vlan/`, {
        vlan: 99,
      });
      expectResult(moved, `Interface ${portName(3)} changed to vlan 99`);
      expect(lab.model.pvid(bridgePort(3))).toBe(99);
    });

    it.each(["staff", "root"])("%s may use every VLAN through a group with a short list", async (who) => {
      const r = await basic(tokens[who], groups.users, devices.main);
      expect(Object.values<Schemas["Vlan"]>(r.body.vlans).every((v) => v.allowed)).toBe(true);
      for (const n of [3, 6, 9, 11]) expect(ifaceOf(r, ifIndex(n)).manageable).toBe(true);
      const moved = await post(tokens[who], groups.users, devices.main, `interface/${ifIndex(9)}/vlan/`, { vlan: 99 });
      expectResult(moved, `Interface ${portName(9)} changed to vlan 99`);
      expect(lab.model.pvid(bridgePort(9))).toBe(99);
    });
  });

  describe("non-Ethernet and routed interfaces", () => {
    it("carry their reasons even for the superuser, and refuse writes", async () => {
      const r = await basic(tokens.root, groups.users, devices.main);
      expect(ifaceOf(r, svi().ifIndex)).toMatchObject({ manageable: false, unmanage_reason: NOT_ETHERNET });
      expect(ifaceOf(r, loopback().ifIndex)).toMatchObject({ manageable: false, unmanage_reason: NOT_ETHERNET });
      const w = await post(tokens.root, groups.users, devices.main, `interface/${svi().ifIndex}/state/`, {
        state: "off",
      });
      expectRefused(w, 403, CANNOT_MANAGE);
      const d = await post(tokens.root, groups.users, devices.main, `interface/${loopback().ifIndex}/description/`, {
        description: "lo",
      });
      expectRefused(d, 403, CANNOT_MANAGE);
    });

    it("an Ethernet port with an IP address is in routed mode", async () => {
      const routed = routedLab.model.port(ROUTED_PORT);
      const before = cloneConfig(routedLab.model.running);
      const r = await basic(tokens.root, groups.routed, devices.routed);
      expect(r.status).toBe(200);
      expect(ifaceOf(r, routed.ifIndex)).toMatchObject({
        mode: "Routed",
        manageable: false,
        unmanage_reason: ROUTED_MODE,
      });
      expect(ifaceOf(r, routedLab.model.port(1).ifIndex).manageable).toBe(true);
      for (const [path, body] of [
        ["state/", { state: "off" }],
        ["vlan/", { vlan: 10 }],
        ["description/", { description: "routed" }],
      ] as const) {
        const w = await post(tokens.root, groups.routed, devices.routed, `interface/${routed.ifIndex}/${path}`, body);
        expect({ status: w.status, reason: w.body.reason }).toEqual({ status: 403, reason: CANNOT_MANAGE });
      }
      expect(configsEqual(routedLab.model.running, before)).toBe(true);
    });
  });

  describe("PoE", () => {
    const poeOn = (n: number) => lab.model.poeState(ifIndex(n))!.enabled;
    const poeOff = (token: string, g: number, s: number, n: number) =>
      post(token, g, s, `interface/${ifIndex(n)}/poe_state/`, { poe_state: "off" });

    it("allow_poe_toggle on the profile alone allows it on a port whose VLAN is not allowed", async () => {
      const r = await poeOff(tokens.pat, groups.users, devices.main, 3);
      expectResult(r, `Interface ${portName(3)} PoE is now Disabled`);
      expect(poeOn(3)).toBe(false);
      // the flag is for PoE only: the port stays unmanageable otherwise
      const s = await post(tokens.pat, groups.users, devices.main, `interface/${ifIndex(3)}/state/`, { state: "off" });
      expect({ status: s.status, reason: s.body.reason }).toEqual({ status: 403, reason: CANNOT_MANAGE });
      expect(lab.model.adminUp(ifIndex(3))).toBe(true);
    });

    it("allow_poe_toggle on the group alone allows it", async () => {
      expectResult(
        await poeOff(tokens.alice, groups.poe, devices.main, 3),
        `Interface ${portName(3)} PoE is now Disabled`,
      );
      expect(poeOn(3)).toBe(false);
    });

    it("allow_poe_toggle on the device alone allows it", async () => {
      expectResult(
        await poeOff(tokens.alice, groups.users, devices.poe, 3),
        `Interface ${portName(3)} PoE is now Disabled`,
      );
      expect(poeOn(3)).toBe(false);
    });

    it("without any flag: only on manageable ports", async () => {
      expectRefused(await poeOff(tokens.alice, groups.users, devices.main, 3), 403, CANNOT_MANAGE);
      expect(poeOn(3)).toBe(true);
      expectResult(
        await poeOff(tokens.alice, groups.users, devices.main, 1),
        `Interface ${portName(1)} PoE is now Disabled`,
      );
      expect(poeOn(1)).toBe(false);
    });

    it("a port without PoE: 400", async () => {
      const r = await poeOff(tokens.alice, groups.users, devices.main, 7);
      expectRefused(r, 400, `Interface ${portName(7)} does not support PoE`);
    });
  });

  describe("interface description", () => {
    const describePort = (token: string, g: number, s: number, n: number, description: string) =>
      post(token, g, s, `interface/${ifIndex(n)}/description/`, { description });

    it("is allowed with edit_if_descr on profile, group and device and a manageable port", async () => {
      const r = await describePort(tokens.alice, groups.users, devices.main, 1, "desk of alice");
      expectResult(r, `Interface ${portName(1)} description was changed!`);
      expect(lab.model.alias(ifIndex(1))).toBe("desk of alice");
    });

    it.each([
      ["profile", "dan", "users", "main"],
      ["group", "alice", "noDescr", "main"],
      ["device", "alice", "users", "noDescr"],
    ])("edit_if_descr off on the %s alone: 403", async (_where, who, g, s) => {
      const r = await describePort(tokens[who], groups[g], devices[s], 1, "forbidden");
      expectRefused(r, 403, NO_DESCRIPTION_EDIT);
    });

    it("an unmanageable port: 403 You can not manage this interface!", async () => {
      expectRefused(await describePort(tokens.alice, groups.users, devices.main, 3, "not my vlan"), 403, CANNOT_MANAGE);
      // a PoE flag does not open the description either
      expectRefused(await describePort(tokens.pat, groups.users, devices.main, 3, "not my vlan"), 403, CANNOT_MANAGE);
    });
  });

  describe("allow_poe_toggle and can_edit_description in the interface view", () => {
    const poeOn = (n: number) => lab.model.poeState(ifIndex(n))!.enabled;

    it("a group with allow_poe_toggle: true on a port that is not manageable, and the PoE write passes there", async () => {
      const view = await basic(tokens.alice, groups.poe, devices.main);
      expect(ifaceOf(view, ifIndex(3))).toMatchObject({
        manageable: false,
        unmanage_reason: VLAN_NOT_ACCESSIBLE,
        allow_poe_toggle: true,
        can_edit_description: false,
      });
      const r = await post(tokens.alice, groups.poe, devices.main, `interface/${ifIndex(3)}/poe_state/`, {
        poe_state: "off",
      });
      expectResult(r, `Interface ${portName(3)} PoE is now Disabled`);
      expect(poeOn(3)).toBe(false);

      // the same port through a group without the flag: false, and the write is refused
      lab.model.commit(cloneConfig(baseline));
      const plain = await basic(tokens.alice, groups.users, devices.main);
      expect(ifaceOf(plain, ifIndex(3))).toMatchObject({ manageable: false, allow_poe_toggle: false });
      expectRefused(
        await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(3)}/poe_state/`, {
          poe_state: "off",
        }),
        403,
        CANNOT_MANAGE,
      );
      expect(poeOn(3)).toBe(true);
    });

    it("edit_if_descr off on the device: can_edit_description false on a manageable port and the write 403; where it is true, 200", async () => {
      const off = await basic(tokens.alice, groups.users, devices.noDescr);
      expect(ifaceOf(off, ifIndex(1))).toMatchObject({
        manageable: true,
        can_edit_description: false,
        allow_poe_toggle: true,
      });
      expect(ifaceOf(off, ifIndex(1))).not.toHaveProperty("unmanage_reason");
      expectRefused(
        await post(tokens.alice, groups.users, devices.noDescr, `interface/${ifIndex(1)}/description/`, {
          description: "desk 1",
        }),
        403,
        NO_DESCRIPTION_EDIT,
      );

      // the same port on a device that allows it: true, and the write is 200
      const on = await basic(tokens.alice, groups.users, devices.main);
      expect(ifaceOf(on, ifIndex(1))).toMatchObject({ manageable: true, can_edit_description: true });
      expectResult(
        await post(tokens.alice, groups.users, devices.main, `interface/${ifIndex(1)}/description/`, {
          description: "desk 1",
        }),
        `Interface ${portName(1)} description was changed!`,
      );
      expect(lab.model.alias(ifIndex(1))).toBe("desk 1");
    });

    it("a superuser: both true on every Ethernet port, both false on the VLAN interface and the loopback", async () => {
      const view = await basic(tokens.root, groups.users, devices.main);
      const ethernet = lab.model.interfaces.filter((i) => i.ifType === 6).map((i) => i.ifIndex);
      expect(ethernet.length).toBeGreaterThanOrEqual(12);
      for (const id of ethernet)
        expect({ id, ...pick(ifaceOf(view, id)) }).toEqual({ id, allow_poe_toggle: true, can_edit_description: true });
      for (const id of [svi().ifIndex, loopback().ifIndex])
        expect({ id, ...pick(ifaceOf(view, id)) }).toEqual({
          id,
          allow_poe_toggle: false,
          can_edit_description: false,
        });
    });

    const pick = (i: { allow_poe_toggle: boolean; can_edit_description: boolean }) => ({
      allow_poe_toggle: i.allow_poe_toggle,
      can_edit_description: i.can_edit_description,
    });

    /**
     * Every interface, for callers whose rights differ: the flag is true exactly where the
     * write gets past the permission checks. Each write asks for the value the port already
     * has, so a permitted one ends at a later check (404 same value, 400 no PoE) and
     * nothing on the switch changes; a refused one is 403.
     */
    it("agree with the writes on every interface, for every kind of caller", async () => {
      const callers = [
        ["root", tokens.root, groups.users, devices.main],
        ["alice", tokens.alice, groups.users, devices.main],
        ["alice via a PoE group", tokens.alice, groups.poe, devices.main],
        ["alice via a group without descriptions", tokens.alice, groups.noDescr, devices.main],
        ["alice on a device without descriptions", tokens.alice, groups.users, devices.noDescr],
        ["alice on a PoE device", tokens.alice, groups.users, devices.poe],
        ["pat (PoE profile)", tokens.pat, groups.users, devices.main],
        ["dan (no descriptions profile)", tokens.dan, groups.users, devices.main],
        ["alice with a read-only token", tokens.aliceReadOnly, groups.users, devices.main],
        ["rita (read-only profile)", tokens.rita, groups.users, devices.main],
        ["alice via a read-only group", tokens.alice, groups.readOnly, devices.main],
      ] as const;
      const disagreements: string[] = [];
      let offered = 0;
      for (const [who, token, g, s] of callers) {
        const view = await basic(token, g, s);
        expect(view.status).toBe(200);
        for (const i of view.body.interfaces) {
          const poe = await post(token, g, s, `interface/${i.id}/poe_state/`, {
            poe_state: i.poe?.admin_status === "Enabled" ? "on" : "off",
          });
          const descr = await post(token, g, s, `interface/${i.id}/description/`, { description: i.description });
          if (i.allow_poe_toggle === (poe.status === 403))
            disagreements.push(
              `${who}, ${i.name}: allow_poe_toggle ${i.allow_poe_toggle}, PoE write ${poe.status} ${poe.body.reason}`,
            );
          if (i.can_edit_description === (descr.status === 403))
            disagreements.push(
              `${who}, ${i.name}: can_edit_description ${i.can_edit_description}, description write ${descr.status} ${descr.body.reason}`,
            );
          offered += Number(i.allow_poe_toggle) + Number(i.can_edit_description);
        }
      }
      expect(disagreements).toEqual([]);
      // both answers occurred: the comparison was not one-sided
      expect(offered).toBeGreaterThan(0);
      expect(unchanged()).toBe(true);
    }, 60000);
  });

  describe("VLAN add, rename and delete", () => {
    const vlanCall = (token: string, action: "add" | "edit" | "delete", body: Record<string, unknown>) =>
      post(token, groups.users, devices.main, `vlan/${action}/`, body);

    it("without vlan_edit (regular user or staff): add and rename are 403 Access denied!", async () => {
      for (const who of ["alice", "staff"]) {
        expectRefused(await vlanCall(tokens[who], "add", { vlan_id: 60, vlan_name: "sixty" }), 403, ACCESS_DENIED);
        expectRefused(await vlanCall(tokens[who], "edit", { vlan_id: 10, vlan_name: "renamed" }), 403, ACCESS_DENIED);
      }
    });

    it.each(["vera", "staffvlan"])(
      "%s with profile vlan_edit may add and rename (a VLAN the group allows) but not delete",
      async (who) => {
        const added = await vlanCall(tokens[who], "add", { vlan_id: 61, vlan_name: `${who}-61` });
        expectResult(added, `Vlan 61 (${who}-61) created.`);
        expect(lab.model.vlan(61)?.name).toBe(`${who}-61`);

        const renamed = await vlanCall(tokens[who], "edit", { vlan_id: 61, vlan_name: "renamed-61" });
        expectResult(renamed, "Updated name for vlan 61 to 'renamed-61'");
        expect(lab.model.vlan(61)?.name).toBe("renamed-61");

        const before = cloneConfig(lab.model.running);
        const del = await vlanCall(tokens[who], "delete", { vlan_id: 61 });
        expect({ status: del.status, reason: del.body.reason }).toEqual({ status: 403, reason: SUPERUSER_TO_DELETE });
        expect(configsEqual(lab.model.running, before)).toBe(true);
      },
    );

    it("the superuser may add, rename and delete", async () => {
      expectResult(
        await vlanCall(tokens.root, "add", { vlan_id: 62, vlan_name: "root-62" }),
        "Vlan 62 (root-62) created.",
      );
      expect(lab.model.vlan(62)?.name).toBe("root-62");
      expectResult(
        await vlanCall(tokens.root, "edit", { vlan_id: 62, vlan_name: "root-renamed" }),
        "Updated name for vlan 62 to 'root-renamed'",
      );
      expect(lab.model.vlan(62)?.name).toBe("root-renamed");
      expectResult(await vlanCall(tokens.root, "delete", { vlan_id: SPARE_VLAN }), `Vlan ${SPARE_VLAN} was deleted!`);
      expect(lab.model.vlan(SPARE_VLAN)).toBeUndefined();
    });
  });
});
