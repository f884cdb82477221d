/**
 * POST api/switches/<g>/<s>/interface/<id>/tags/ (CONTRACT section 10, docs/api-decisions.md
 * "Trunk ports"), through real HTTP against a lab switch on 127.0.0.1 whose agent keeps
 * Q-BRIDGE's rules: the bodies (form and JSON; comma list, array, empty; allow_all's
 * on-set), every 400 naming its parameter, a VLAN the device lacks, the same value, the
 * read-back, the audit row with what the port was and is, who may change trunks
 * (ALLOW_TAGS_EDIT, STAFF_ALLOW_TAGS_EDIT, read-only tokens, users, groups and devices,
 * the group's VLAN list, foreign VLANs kept), and the view's can_edit_tags,
 * allowed_tagged and mtu. Every refusal leaves the switch as it was. On both databases:
 * the rights and the audit rows go through the store.
 */
import { startTestApp, type ApiResponse, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { cloneConfig, configsEqual, type SwitchConfig } from "../../lab/config";
import { hashKey } from "../../db/tokens";
import type { components } from "../../generated/api";

type SwitchJson = components["schemas"]["SwitchInfo"];
type LogRow = { username: string; code: string };

const MISSING = "Missing or invalid parameter: 'untagged_vlan', 'tagged_vlans' and 'allow_all' are required!";
const CANNOT_MANAGE = "You can not manage this interface!";

describeDb("trunk ports: POST .../interface/<id>/tags/", () => {
  let app: TestApp;
  let lab: LabSwitch;
  let arista: LabSwitch;
  let baseline: SwitchConfig;
  const tokens: Record<string, string> = {};
  const groups: Record<string, number> = {};
  let sw: number;
  let roDevice: number;
  let aristaSw: number;
  // bridge port 3 = ifIndex 1003, GigabitEthernet1/0/3, an access port of VLAN 10 (lab seed 11)
  const PORT = 1003;
  const BP = 3;
  const NAME = "GigabitEthernet1/0/3";

  const tagsUrl = (group = groups.all, device = sw, port: number | string = PORT) =>
    `/api/switches/${group}/${device}/interface/${port}/tags/`;
  const post = (who: string, body: Record<string, unknown>, opts: { form?: boolean; group?: number } = {}) =>
    app.request("POST", tagsUrl(opts.group), {
      token: tokens[who],
      ...(opts.form ? { form: body as Record<string, string | string[]> } : { json: body }),
    });
  const unchanged = () => configsEqual(lab.model.running, baseline);
  /** the port as the lab's model holds it: PVID and the VLANs whose egress holds it besides */
  const port = () => {
    const cfg = lab.model.running;
    const untagged = cfg.pvid.get(BP)!;
    const tagged = [...cfg.vlans]
      .filter(([id, v]) => id !== untagged && v.egress.has(BP))
      .map(([id]) => id)
      .sort((a, b) => a - b);
    const onlyNative = [...cfg.vlans].filter(([, v]) => v.untagged.has(BP)).map(([id]) => id);
    return { untagged, tagged, onlyNative };
  };
  const log = async (query: string) =>
    (await app.request("GET", `/api/admin/log/?${query}`, { token: tokens.root })).body.results;
  const viewOf = async (who: string, group = groups.all): Promise<SwitchJson> => {
    const r = await app.request<SwitchJson>("GET", `/api/switches/${group}/${sw}/`, { token: tokens[who] });
    expect(r.status).toBe(200);
    return r.body;
  };
  const ifaceIn = (body: SwitchJson) => body.interfaces.find((i) => i.id === String(PORT))!;

  function expectOk(r: ApiResponse) {
    expect({ status: r.status, body: r.body }).toEqual({
      status: 200,
      body: { result: `Interface ${NAME} vlans have been set!` },
    });
  }
  function expectRefused(r: ApiResponse, status: number, code: string, reason: string) {
    expect({ status: r.status, body: r.body }).toEqual({ status, body: { reason, code } });
    expect(unchanged()).toBe(true);
  }

  beforeAll(async () => {
    app = await startTestApp();
    lab = await startLab({ ports: 8, name: "trunk-lab", seed: 11 });
    arista = await startLab({ profile: "arista", ports: 8, name: "trunk-arista", seed: 11 });
    lab.model.update((cfg) =>
      cfg.vlans.set(40, { name: "forty", active: true, egress: new Set(), untagged: new Set() }),
    );
    baseline = cloneConfig(lab.model.running);

    const people: [string, Parameters<TestApp["createUser"]>[2]][] = [
      ["root", { is_superuser: true }],
      ["staffer", { is_staff: true }],
      ["vera", {}],
      ["rita", { is_superuser: true }],
    ];
    const ids: Record<string, number> = {};
    for (const [name, extra] of people) {
      ids[name] = await app.createUser(name, `pw-${name}-1`, extra);
      tokens[name] = await app.login(name, `pw-${name}-1`);
    }
    // a token of root made read-only; rita, a superuser whose profile became read-only
    tokens.rootReadOnly = await app.login("root", "pw-root-1");
    await app.services.store.db
      .updateTable("tokens")
      .set({ write_enabled: 0 })
      .where("key_hash", "=", hashKey(tokens.rootReadOnly))
      .execute();
    await app.services.repos.users.update(ids.rita, {}, { read_only: true });

    groups.all = await addGroup(app, { name: "all vlans", allow_all_vlans: true, users: [ids.vera] });
    groups.some = await addGroup(app, { name: "ten twenty", vlans: [10, 20], users: [ids.vera, ids.staffer] });
    groups.readOnly = await addGroup(app, { name: "read only", read_only: true, vlans: [10, 20] });
    sw = await addDevice(app, { name: "trunk-lab", lab, groups: [groups.all, groups.some, groups.readOnly] });
    roDevice = await addDevice(app, { name: "trunk-lab-ro", lab, groups: [groups.all], read_only: true });
    aristaSw = await addDevice(app, { name: "trunk-arista", lab: arista, groups: [groups.all] });
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await lab?.stop();
    await arista?.stop();
  });

  beforeEach(() => {
    lab.model.commit(cloneConfig(baseline));
    lab.faults.reset();
    app.services.config.allowTagsEdit = true;
    app.services.config.staffAllowTagsEdit = false;
  });

  describe("bodies", () => {
    it("JSON with an array makes an access port a trunk; the lab and the view show it; the audit row says before and after", async () => {
      expect(port()).toEqual({ untagged: 10, tagged: [], onlyNative: [10] });
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [30, 20], allow_all: false }));
      expect(port()).toEqual({ untagged: 10, tagged: [20, 30], onlyNative: [10] });
      expect(lab.model.consistencyProblems()).toEqual([]);
      expect(ifaceIn(await viewOf("root"))).toMatchObject({ mode: "Tagged", tagged_vlans: "20, 30", vlan: 10 });
      const [row] = await log(`switch=${sw}&action=tagged_vlans&page_size=1`);
      expect(row).toMatchObject({
        action: "tagged_vlans",
        outcome: "success",
        interface: NAME,
        old_value: "untagged 10 tagged none",
        new_value: "untagged 10 tagged 20,30",
        username: "root",
      });
    });

    it("a form with a comma list (blanks allowed) moves the native VLAN too; the old native stays tagged when listed", async () => {
      expectOk(await post("root", { untagged_vlan: "20", tagged_vlans: "10, 30", allow_all: "off" }, { form: true }));
      expect(port()).toEqual({ untagged: 20, tagged: [10, 30], onlyNative: [20] });
      expect(lab.model.consistencyProblems()).toEqual([]);
    });

    it("a form may repeat tagged_vlans; JSON may send numeric strings and one number", async () => {
      expectOk(
        await post("root", { untagged_vlan: "10", tagged_vlans: ["20", "30"], allow_all: "no" }, { form: true }),
      );
      expect(port().tagged).toEqual([20, 30]);
      expectOk(await post("root", { untagged_vlan: "10", tagged_vlans: ["40", 20], allow_all: 0 }));
      expect(port().tagged).toEqual([20, 40]);
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: 99, allow_all: false }));
      expect(port().tagged).toEqual([99]);
    });

    it("an empty list makes a trunk an access port again", async () => {
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: "20,30", allow_all: "off" }, { form: true }));
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: "", allow_all: "off" }, { form: true }));
      expect(configsEqual(lab.model.running, baseline)).toBe(true);
      expect(ifaceIn(await viewOf("root"))).toMatchObject({ mode: "Access", vlan: 10 });
      expect("tagged_vlans" in ifaceIn(await viewOf("root"))).toBe(false);
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [30], allow_all: false }));
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [], allow_all: false }));
      expect(unchanged()).toBe(true);
    });

    it("allow_all takes the on-set of state: yes puts every VLAN on the port, no does not (OpenL2M reads it as yes)", async () => {
      expectOk(await post("root", { untagged_vlan: "10", tagged_vlans: "20", allow_all: "no" }, { form: true }));
      expect(port().tagged).toEqual([20]);
      expectOk(await post("root", { untagged_vlan: "10", tagged_vlans: "", allow_all: "yes" }, { form: true }));
      expect(port().tagged).toEqual([1, 20, 30, 40, 99]);
      const [row] = await log(`switch=${sw}&action=tagged_vlans&page_size=1`);
      expect(row).toMatchObject({ old_value: "untagged 10 tagged 20", new_value: "untagged 10 tagged all" });
      // an on-value in JSON too; and back to an access port
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [], allow_all: false }));
      expect(unchanged()).toBe(true);
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [], allow_all: "Enabled" }));
      expect(port().tagged).toEqual([1, 20, 30, 40, 99]);
    });

    it("the native VLAN in the tagged list is no tag", async () => {
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [10, 20], allow_all: false }));
      expect(port()).toEqual({ untagged: 10, tagged: [20], onlyNative: [10] });
    });
  });

  describe("bad requests change nothing", () => {
    it("a missing parameter is 400 missing_parameter with the contract's text, in JSON and forms", async () => {
      const full = { untagged_vlan: 10, tagged_vlans: "20", allow_all: "off" };
      for (const key of Object.keys(full)) {
        const { [key]: _left, ...body } = full as Record<string, unknown>;
        expectRefused(await post("root", body), 400, "missing_parameter", MISSING);
        expectRefused(await post("root", body, { form: true }), 400, "missing_parameter", MISSING);
      }
      expectRefused(
        await post("root", { untagged_vlan: "", tagged_vlans: "", allow_all: "on" }, { form: true }),
        400,
        "missing_parameter",
        MISSING,
      );
    });

    it("a malformed parameter is 400 invalid_parameter with the same text", async () => {
      for (const body of [
        { untagged_vlan: "ten", tagged_vlans: "20", allow_all: "off" },
        { untagged_vlan: 10, tagged_vlans: "20,abc", allow_all: "off" },
        { untagged_vlan: 10, tagged_vlans: "20;30", allow_all: "off" },
        { untagged_vlan: 10, tagged_vlans: { 20: true }, allow_all: "off" },
        { untagged_vlan: 10.5, tagged_vlans: "20", allow_all: "off" },
        { untagged_vlan: 10, tagged_vlans: "20", allow_all: ["on"] },
        { untagged_vlan: 10, tagged_vlans: "20", allow_all: "off", mode: "trunk" },
      ]) {
        expectRefused(await post("root", body), 400, "invalid_parameter", MISSING);
      }
    });

    it("a VLAN id outside 1..4094 or listed twice is 400 naming it", async () => {
      expectRefused(
        await post("root", { untagged_vlan: 10, tagged_vlans: "20,5000", allow_all: "off" }),
        400,
        "invalid_parameter",
        "Invalid vlan id in 'tagged_vlans': '5000'",
      );
      expectRefused(
        await post("root", { untagged_vlan: 0, tagged_vlans: "", allow_all: "off" }),
        400,
        "invalid_parameter",
        "Invalid vlan id in 'untagged_vlan': '0'",
      );
      expectRefused(
        await post("root", { untagged_vlan: 10, tagged_vlans: "20, 30, 20", allow_all: "off" }, { form: true }),
        400,
        "invalid_parameter",
        "Vlan 20 is listed more than once in 'tagged_vlans'",
      );
    });

    it("a VLAN the device does not have is 400 naming it, tagged or native", async () => {
      expectRefused(
        await post("root", { untagged_vlan: 10, tagged_vlans: [20, 777], allow_all: false }),
        400,
        "invalid_parameter",
        "Vlan 777 does not exist!",
      );
      expectRefused(
        await post("root", { untagged_vlan: 778, tagged_vlans: [], allow_all: false }),
        400,
        "invalid_parameter",
        "Vlan 778 does not exist!",
      );
    });

    it("the VLANs the port has now are 404 same_value; an unknown interface is 404", async () => {
      expectRefused(
        await post("root", { untagged_vlan: 10, tagged_vlans: "", allow_all: "off" }),
        404,
        "same_value",
        "New vlans are the same, please change the vlans first!",
      );
      const r = await app.request("POST", tagsUrl(groups.all, sw, 99999), {
        token: tokens.root,
        json: { untagged_vlan: 10, tagged_vlans: "", allow_all: "off" },
      });
      expectRefused(r, 404, "interface_not_found", "Interface 99999 not found");
      const [row] = await log(`switch=${sw}&action=tagged_vlans&outcome=refused&page_size=1`);
      expect(row).toMatchObject({ code: "interface_not_found" });
    });

    it("a driver that cannot change trunks is 400 not_supported before anything is sent", async () => {
      const r = await app.request("POST", tagsUrl(groups.all, aristaSw, 1003), {
        token: tokens.root,
        json: { untagged_vlan: 1, tagged_vlans: [10], allow_all: false },
      });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 400,
        body: { reason: "This switch model cannot change the interface tagged vlans", code: "not_supported" },
      });
      const view = await app.request("GET", `/api/switches/${groups.all}/${aristaSw}/`, { token: tokens.root });
      expect(view.body.switch.change_tags).toBe(false);
      expect((await viewOf("root")).switch.change_tags).toBe(true);
    });
  });

  describe("the device's answer", () => {
    it("a change the device takes but does not keep is 424 device_mismatch, put back, and audited as a failure", async () => {
      lab.faults.lieOnSet = true;
      const r = await post("root", { untagged_vlan: 10, tagged_vlans: [20], allow_all: false });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_mismatch");
      expect(r.body.reason).toMatch(/reads back otherwise.*dot1qVlanStaticEgressPorts\.20/);
      expect(unchanged()).toBe(true);
      const [row] = await log(`switch=${sw}&action=tagged_vlans&page_size=1`);
      expect(row).toMatchObject({
        outcome: "failure",
        code: "device_mismatch",
        old_value: "untagged 10 tagged none",
        new_value: "untagged 10 tagged 20",
      });
    });

    it("a change the device refuses is 424 device_refused and changes nothing", async () => {
      lab.faults.refuseSets = "notWritable";
      const r = await post("root", { untagged_vlan: 10, tagged_vlans: [20], allow_all: false });
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_refused");
      expect(unchanged()).toBe(true);
    });
  });

  describe("who may change trunks", () => {
    const body = { untagged_vlan: 10, tagged_vlans: [20], allow_all: false };

    it("a read-only token, user, group or device is refused, superusers included", async () => {
      expectRefused(await post("rootReadOnly", body), 403, "token_read_only", "This token cannot write!");
      expectRefused(await post("rita", body), 403, "access_denied", "Access denied!");
      expectRefused(await post("root", body, { group: groups.readOnly }), 403, "access_denied", "Access denied!");
      const r = await app.request("POST", tagsUrl(groups.all, roDevice), { token: tokens.root, json: body });
      expectRefused(r, 403, "access_denied", "Access denied!");
      const rows = await log(`action=tagged_vlans&outcome=refused&page_size=4`);
      expect((rows as LogRow[]).map((row) => [row.username, row.code])).toEqual([
        ["root", "access_denied"],
        ["root", "access_denied"],
        ["rita", "access_denied"],
        ["root", "token_read_only"],
      ]);
    });

    it("ALLOW_TAGS_EDIT off: not even a superuser; can_edit_tags says so", async () => {
      app.services.config.allowTagsEdit = false;
      app.services.config.staffAllowTagsEdit = true;
      expect(ifaceIn(await viewOf("root")).can_edit_tags).toBe(false);
      expectRefused(await post("root", body), 403, "access_denied", CANNOT_MANAGE);
      expectRefused(await post("staffer", body, { group: groups.some }), 403, "access_denied", CANNOT_MANAGE);
    });

    it("staff only with STAFF_ALLOW_TAGS_EDIT; a user who is neither never", async () => {
      expect(ifaceIn(await viewOf("staffer", groups.some)).can_edit_tags).toBe(false);
      expectRefused(await post("staffer", body, { group: groups.some }), 403, "access_denied", CANNOT_MANAGE);
      app.services.config.staffAllowTagsEdit = true;
      expect(ifaceIn(await viewOf("vera", groups.some)).can_edit_tags).toBe(false);
      expectRefused(await post("vera", body, { group: groups.some }), 403, "access_denied", CANNOT_MANAGE);
      expectRefused(await post("vera", body, { group: groups.all }), 403, "access_denied", CANNOT_MANAGE);
      expect(ifaceIn(await viewOf("staffer", groups.some)).can_edit_tags).toBe(true);
      expectOk(await post("staffer", body, { group: groups.some }));
      expect(port().tagged).toEqual([20]);
    });

    it("staff add and remove only VLANs of the group's list; one they may not use is refused, naming it", async () => {
      app.services.config.staffAllowTagsEdit = true;
      const view = await viewOf("staffer", groups.some);
      expect(Object.values(view.vlans).map((v) => [v.id, v.allowed, v.allowed_tagged])).toEqual([
        [1, true, false],
        [10, true, true],
        [20, true, true],
        [30, true, false],
        [40, true, false],
        [99, true, false],
      ]);
      expectRefused(
        await post("staffer", { untagged_vlan: 10, tagged_vlans: [20, 30], allow_all: false }, { group: groups.some }),
        403,
        "vlan_not_allowed",
        "You are not allowed to change vlan 30",
      );
      // the native VLAN too: moving it to a VLAN outside the list
      expectRefused(
        await post("staffer", { untagged_vlan: 40, tagged_vlans: [], allow_all: false }, { group: groups.some }),
        403,
        "vlan_not_allowed",
        "You are not allowed to change vlan 40",
      );
      const [row] = await log(`switch=${sw}&action=tagged_vlans&page_size=1`);
      expect(row).toMatchObject({ outcome: "refused", code: "vlan_not_allowed", username: "staffer" });
    });

    it("a tagged VLAN on the port that the staff user may not use stays on it; allow_all needs every VLAN", async () => {
      expectOk(await post("root", { untagged_vlan: 10, tagged_vlans: [20, 30], allow_all: false }));
      app.services.config.staffAllowTagsEdit = true;
      // the staff user lists no VLANs: 20 (theirs) goes, 30 (not theirs) stays
      expectOk(
        await post("staffer", { untagged_vlan: 10, tagged_vlans: "", allow_all: "off" }, { group: groups.some }),
      );
      expect(port()).toEqual({ untagged: 10, tagged: [30], onlyNative: [10] });
      const [row] = await log(`switch=${sw}&action=tagged_vlans&page_size=1`);
      expect(row).toMatchObject({
        outcome: "success",
        username: "staffer",
        old_value: "untagged 10 tagged 20,30",
        new_value: "untagged 10 tagged 30",
      });
      // leaving out only a VLAN that is not theirs changes nothing: the same VLANs
      const same = await post(
        "staffer",
        { untagged_vlan: 10, tagged_vlans: [], allow_all: false },
        { group: groups.some },
      );
      expect({ status: same.status, code: same.body.code }).toEqual({ status: 404, code: "same_value" });
      const before = cloneConfig(lab.model.running);
      const all = await post(
        "staffer",
        { untagged_vlan: 10, tagged_vlans: [], allow_all: true },
        { group: groups.some },
      );
      expect({ status: all.status, body: all.body }).toEqual({
        status: 403,
        body: { reason: "You are not allowed to change vlan 1", code: "vlan_not_allowed" },
      });
      expect(configsEqual(lab.model.running, before)).toBe(true);
    });

    it("staff in an allow_all_vlans group may use every VLAN, allow_all included", async () => {
      app.services.config.staffAllowTagsEdit = true;
      expectOk(await post("staffer", { untagged_vlan: 10, tagged_vlans: [], allow_all: true }, { group: groups.all }));
      expect(port().tagged).toEqual([1, 20, 30, 40, 99]);
    });
  });

  describe("the view", () => {
    it("can_edit_tags per caller and port, change_tags per switch, allowed_tagged per VLAN, mtu from ifMtu", async () => {
      const root = await viewOf("root");
      expect(root.switch.change_tags).toBe(true);
      const ports = root.interfaces.filter((i) => i.id.startsWith("100"));
      expect(ports.every((i) => i.can_edit_tags)).toBe(true);
      expect(Object.values(root.vlans).every((v) => v.allowed_tagged)).toBe(true);
      for (const i of root.interfaces) {
        const iface = lab.model.interfaces.find((x) => String(x.ifIndex) === i.id)!;
        expect(i.mtu).toBe(iface.mtu);
      }
      // a read-only token is offered no write; vera may not change trunks
      expect(ifaceIn(await viewOf("rootReadOnly")).can_edit_tags).toBe(false);
      expect(ifaceIn(await viewOf("vera")).can_edit_tags).toBe(false);
      const roView = await app.request<SwitchJson>("GET", `/api/switches/${groups.all}/${roDevice}/`, {
        token: tokens.root,
      });
      expect(ifaceIn(roView.body).can_edit_tags).toBe(false);
    });
  });
});
