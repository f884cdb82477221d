/**
 * docs/api-decisions.md section 3: VLAN add, rename and delete are limited to the VLANs the
 * group of the URL allows, as moving a port is. Through real HTTP against a lab switch on
 * 127.0.0.1: each refusal is 403 vlan_not_allowed, leaves the switch's configuration as it
 * was (read back from the lab and through the API) and is an audit row; each allowed change
 * is on the switch afterwards.
 */
import { startTestApp, type ApiResponse, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { cloneConfig, configsEqual, type SwitchConfig } from "../../lab/config";

const NOT_ALLOWED = (id: number) => `You are not allowed to change vlan ${id}`;

describeDb("VLAN add, rename and delete: only VLANs the group of the URL allows", () => {
  let app: TestApp;
  let lab: LabSwitch;
  let baseline: SwitchConfig;
  const tokens: Record<string, string> = {};
  const groups: Record<string, number> = {};
  let sw: number;

  const vlanCall = (who: string, group: number, action: "add" | "edit" | "delete", body: Record<string, unknown>) =>
    app.request("POST", `/api/switches/${group}/${sw}/vlan/${action}/`, { token: tokens[who], json: body });
  const unchanged = () => configsEqual(lab.model.running, baseline);
  const log = async (query: string) =>
    (await app.request("GET", `/api/admin/log/?${query}`, { token: tokens.root })).body.results;

  function expectNotAllowed(r: ApiResponse, id: number) {
    expect({ status: r.status, body: r.body }).toEqual({
      status: 403,
      body: { reason: NOT_ALLOWED(id), code: "vlan_not_allowed" },
    });
    expect(unchanged()).toBe(true);
  }

  function expectResult(r: ApiResponse, result: string) {
    expect({ status: r.status, body: r.body }).toEqual({ status: 200, body: { result } });
  }

  /** the switch's VLANs with their names, as the API reads them */
  async function vlansThroughApi(): Promise<Record<string, string>> {
    const r = await app.request("GET", `/api/switches/${groups.all}/${sw}/`, { token: tokens.root });
    expect(r.status).toBe(200);
    return Object.fromEntries(Object.values<Schemas["Vlan"]>(r.body.vlans).map((v) => [String(v.id), v.name]));
  }

  beforeAll(async () => {
    app = await startTestApp();
    lab = await startLab({ ports: 8, name: "vlan-rights-lab", seed: 11 });
    lab.model.update((cfg) => {
      cfg.vlans.set(99, { name: "mgmt", active: true, egress: new Set(), untagged: new Set() });
      cfg.vlans.set(40, { name: "forty", active: true, egress: new Set(), untagged: new Set() });
    });
    baseline = cloneConfig(lab.model.running);

    const people: [string, Parameters<TestApp["createUser"]>[2]][] = [
      ["root", { is_superuser: true }],
      ["staffer", { is_staff: true, profile: { vlan_edit: true } }],
      ["vera", { profile: { vlan_edit: true } }],
    ];
    const ids: Record<string, number> = {};
    for (const [name, extra] of people) {
      ids[name] = await app.createUser(name, `pw-${name}-1`, extra);
      tokens[name] = await app.login(name, `pw-${name}-1`);
    }
    // vera reaches the one switch through three groups; staff through a group without VLANs
    groups.ten = await addGroup(app, { name: "ten only", vlans: [10], users: [ids.vera] });
    groups.some = await addGroup(app, { name: "ten forty 888", vlans: [10, 40, 888], users: [ids.vera] });
    groups.all = await addGroup(app, { name: "all vlans", allow_all_vlans: true, users: [ids.vera] });
    groups.none = await addGroup(app, { name: "no vlans", vlans: [], users: [ids.staffer] });
    sw = await addDevice(app, { name: "vlan-rights", lab, groups: [groups.ten, groups.some, groups.all, groups.none] });
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await lab?.stop();
  });

  beforeEach(() => lab.model.commit(cloneConfig(baseline)));

  it("outside the group's list: add and rename are 403 vlan_not_allowed, and the switch keeps its VLANs", async () => {
    const before = await vlansThroughApi();
    expect(before["99"]).toBe("mgmt");
    expectNotAllowed(await vlanCall("vera", groups.ten, "edit", { vlan_id: 99, vlan_name: "pwned-mgmt" }), 99);
    expectNotAllowed(await vlanCall("vera", groups.ten, "add", { vlan_id: 888, vlan_name: "eight-eights" }), 888);
    // a form body is checked alike
    const form = await app.request("POST", `/api/switches/${groups.ten}/${sw}/vlan/edit/`, {
      token: tokens.vera,
      form: { vlan_id: "40", vlan_name: "x" },
    });
    expectNotAllowed(form, 40);
    expect(lab.model.vlan(99)?.name).toBe("mgmt");
    expect(lab.model.vlan(888)).toBeUndefined();
    expect(await vlansThroughApi()).toEqual(before);
  });

  it("inside the group's list: add and rename pass", async () => {
    expectResult(
      await vlanCall("vera", groups.some, "add", { vlan_id: 888, vlan_name: "eight-eights" }),
      "Vlan 888 (eight-eights) created.",
    );
    expect(lab.model.vlan(888)?.name).toBe("eight-eights");
    expectResult(
      await vlanCall("vera", groups.some, "edit", { vlan_id: 40, vlan_name: "forty-two" }),
      "Updated name for vlan 40 to 'forty-two'",
    );
    expect(lab.model.vlan(40)?.name).toBe("forty-two");
    expectResult(
      await vlanCall("vera", groups.ten, "edit", { vlan_id: 10, vlan_name: "ten-renamed" }),
      "Updated name for vlan 10 to 'ten-renamed'",
    );
    expect(lab.model.vlan(10)?.name).toBe("ten-renamed");
  });

  it("the group of the URL decides, not the user's other groups that hold the switch", async () => {
    // VLAN 888 is in vera's group "ten forty 888", which holds this switch too: not through "ten only"
    expectNotAllowed(await vlanCall("vera", groups.ten, "add", { vlan_id: 888, vlan_name: "eight-eights" }), 888);
    expectNotAllowed(await vlanCall("vera", groups.some, "edit", { vlan_id: 99, vlan_name: "pwned-mgmt" }), 99);
  });

  it("an allow_all_vlans group allows every VLAN", async () => {
    expectResult(
      await vlanCall("vera", groups.all, "edit", { vlan_id: 99, vlan_name: "mgmt-2" }),
      "Updated name for vlan 99 to 'mgmt-2'",
    );
    expect(lab.model.vlan(99)?.name).toBe("mgmt-2");
    expectResult(
      await vlanCall("vera", groups.all, "add", { vlan_id: 777, vlan_name: "lab-777" }),
      "Vlan 777 (lab-777) created.",
    );
    expect(lab.model.vlan(777)?.name).toBe("lab-777");
  });

  it("staff with vlan_edit may change every VLAN, through a group that allows none", async () => {
    expectResult(
      await vlanCall("staffer", groups.none, "add", { vlan_id: 701, vlan_name: "staff-701" }),
      "Vlan 701 (staff-701) created.",
    );
    expectResult(
      await vlanCall("staffer", groups.none, "edit", { vlan_id: 99, vlan_name: "staff-mgmt" }),
      "Updated name for vlan 99 to 'staff-mgmt'",
    );
    expect([lab.model.vlan(701)?.name, lab.model.vlan(99)?.name]).toEqual(["staff-701", "staff-mgmt"]);
  });

  it("the superuser may add, rename and delete any VLAN, through any group", async () => {
    expectResult(
      await vlanCall("root", groups.ten, "add", { vlan_id: 702, vlan_name: "root-702" }),
      "Vlan 702 (root-702) created.",
    );
    expectResult(
      await vlanCall("root", groups.ten, "edit", { vlan_id: 99, vlan_name: "root-mgmt" }),
      "Updated name for vlan 99 to 'root-mgmt'",
    );
    expectResult(await vlanCall("root", groups.none, "delete", { vlan_id: 40 }), "Vlan 40 was deleted!");
    expect([lab.model.vlan(702)?.name, lab.model.vlan(99)?.name, lab.model.vlan(40)]).toEqual([
      "root-702",
      "root-mgmt",
      undefined,
    ]);
  });

  it("delete stays superuser-only: vlan_edit and a group that allows the VLAN are not enough", async () => {
    for (const group of [groups.some, groups.all]) {
      const r = await vlanCall("vera", group, "delete", { vlan_id: 40 });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 403,
        body: { reason: "Access Denied: you need to be SuperUser to delete a VLAN", code: "access_denied" },
      });
    }
    expect(unchanged()).toBe(true);
  });

  it("an id outside 1..4094 is still the value's 400, not a refusal of rights", async () => {
    const r = await vlanCall("vera", groups.ten, "add", { vlan_id: 5000, vlan_name: "too-far" });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { reason: "Invalid new vlan id: '5000'", code: "invalid_parameter" },
    });
    expect(unchanged()).toBe(true);
  });

  it("each refusal is an audit row naming who, where, what and why", async () => {
    expectNotAllowed(await vlanCall("vera", groups.ten, "edit", { vlan_id: 99, vlan_name: "audit-me" }), 99);
    expectNotAllowed(await vlanCall("vera", groups.ten, "add", { vlan_id: 889, vlan_name: "audit-add" }), 889);
    const [rename] = await log("outcome=refused&action=vlan_rename");
    expect(rename).toMatchObject({
      username: "vera",
      switch_id: sw,
      outcome: "refused",
      code: "vlan_not_allowed",
      message: NOT_ALLOWED(99),
      new_value: "99 audit-me",
    });
    const [add] = await log("outcome=refused&action=vlan_add");
    expect(add).toMatchObject({
      username: "vera",
      switch_id: sw,
      outcome: "refused",
      code: "vlan_not_allowed",
      message: NOT_ALLOWED(889),
      new_value: "889 audit-add",
    });
  });
});
