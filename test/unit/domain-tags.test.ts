/**
 * The pure rules of POST .../tags/ (docs/api-decisions.md "Trunk ports"): reading the
 * body, who may change trunks, which VLANs a caller may add or remove, what is kept, and
 * the audit text. The API tests (test/api/trunk-tags.test.ts) check the same through HTTP.
 */
import { loadConfig, policyOf } from "../../app/config";
import { canEditTags, interfaceRights, tagVlans } from "../../domain/access";
import { planTagChange, tagsText } from "../../domain/device-checks";
import { parseTagsRequest } from "../../domain/request-values";
import { caller, device, group, iface, noPolicy, staff, superuser, vlan } from "./domain-builders";

const MISSING = "Missing or invalid parameter: 'untagged_vlan', 'tagged_vlans' and 'allow_all' are required!";

describe("parseTagsRequest", () => {
  const parse = (body: Record<string, unknown>) => parseTagsRequest(body);

  it("takes a comma list, a JSON array, one number and an empty list", () => {
    expect(parse({ untagged_vlan: "10", tagged_vlans: "30, 20,40", allow_all: "off" })).toEqual({
      ok: true,
      value: { untagged: 10, tagged: [20, 30, 40], allowAll: false },
    });
    expect(parse({ untagged_vlan: 10, tagged_vlans: [30, "20"], allow_all: false })).toMatchObject({
      value: { tagged: [20, 30] },
    });
    expect(parse({ untagged_vlan: 10, tagged_vlans: 20, allow_all: 0 })).toMatchObject({ value: { tagged: [20] } });
    expect(parse({ untagged_vlan: 10, tagged_vlans: "", allow_all: "no" })).toMatchObject({ value: { tagged: [] } });
    expect(parse({ untagged_vlan: 10, tagged_vlans: [], allow_all: "no" })).toMatchObject({ value: { tagged: [] } });
  });

  it("allow_all has the on-set of state: 'no' is off (OpenL2M reads bool('no') as true)", () => {
    const allow = (v: unknown) => {
      const r = parse({ untagged_vlan: 1, tagged_vlans: "", allow_all: v });
      return r.ok ? r.value.allowAll : null;
    };
    for (const on of ["on", "enabled", "Enable", "YES", "y", "1", "true", true, 1]) expect(allow(on)).toBe(true);
    for (const off of ["no", "off", "false", "0", "n", "disabled", false, 0, "nope"]) expect(allow(off)).toBe(false);
  });

  it("the native VLAN in the tagged list is left out", () => {
    expect(parse({ untagged_vlan: 20, tagged_vlans: "10,20,30", allow_all: "off" })).toMatchObject({
      value: { untagged: 20, tagged: [10, 30] },
    });
  });

  it("a missing parameter is missing_parameter, a malformed one invalid_parameter, with the contract's text", () => {
    const full = { untagged_vlan: 10, tagged_vlans: "20", allow_all: "off" };
    for (const key of ["untagged_vlan", "tagged_vlans", "allow_all"]) {
      const { [key]: _gone, ...rest } = full as Record<string, unknown>;
      expect(parse(rest)).toEqual({ ok: false, status: 400, code: "missing_parameter", reason: MISSING });
    }
    for (const bad of [
      { ...full, untagged_vlan: "ten" },
      { ...full, untagged_vlan: 1.5 },
      { ...full, tagged_vlans: "20,abc" },
      { ...full, tagged_vlans: "20,,30" },
      { ...full, tagged_vlans: [20, [30]] },
      { ...full, tagged_vlans: { 20: true } },
      { ...full, allow_all: ["on"] },
    ]) {
      expect(parse(bad)).toEqual({ ok: false, status: 400, code: "invalid_parameter", reason: MISSING });
    }
  });

  it("a VLAN id outside 1..4094 or listed twice is 400 naming it", () => {
    expect(parse({ untagged_vlan: 0, tagged_vlans: "", allow_all: "off" })).toMatchObject({
      status: 400,
      reason: "Invalid vlan id in 'untagged_vlan': '0'",
    });
    expect(parse({ untagged_vlan: 1, tagged_vlans: "20,4095", allow_all: "off" })).toMatchObject({
      code: "invalid_parameter",
      reason: "Invalid vlan id in 'tagged_vlans': '4095'",
    });
    expect(parse({ untagged_vlan: 1, tagged_vlans: [20, "20"], allow_all: "off" })).toMatchObject({
      code: "invalid_parameter",
      reason: "Vlan 20 is listed more than once in 'tagged_vlans'",
    });
  });
});

describe("canEditTags", () => {
  const rights = (who = superuser()) =>
    interfaceRights(who, group(), device(), noPolicy, iface(), new Set([10]), false);

  it("superusers by ALLOW_TAGS_EDIT (on by default); not when it is off", () => {
    expect(canEditTags(superuser(), rights(), noPolicy, iface())).toBeNull();
    expect(canEditTags(superuser(), rights(), { ...noPolicy, allow_tags_edit: false }, iface())).toMatchObject({
      status: 403,
      reason: "You can not manage this interface!",
    });
  });

  it("staff only with STAFF_ALLOW_TAGS_EDIT, and only while ALLOW_TAGS_EDIT is on; other users never", () => {
    expect(canEditTags(staff(), rights(staff()), noPolicy, iface())).not.toBeNull();
    expect(canEditTags(staff(), rights(staff()), { ...noPolicy, staff_allow_tags_edit: true }, iface())).toBeNull();
    expect(
      canEditTags(
        staff(),
        rights(staff()),
        { ...noPolicy, allow_tags_edit: false, staff_allow_tags_edit: true },
        iface(),
      ),
    ).not.toBeNull();
    expect(
      canEditTags(caller(), rights(caller()), { ...noPolicy, staff_allow_tags_edit: true }, iface()),
    ).not.toBeNull();
  });

  it("a member of a link aggregation keeps its VLANs: refused, superusers included", () => {
    const member = iface({ lag_member_of: "Po1" });
    const r = interfaceRights(superuser(), group(), device(), noPolicy, member, new Set([10]), false);
    expect(canEditTags(superuser(), r, noPolicy, iface())).toBeNull();
    expect(canEditTags(superuser(), r, noPolicy, member)).toMatchObject({ status: 403 });
  });

  it("an interface that is not manageable is refused, superusers included", () => {
    const routed = interfaceRights(superuser(), group(), device(), noPolicy, iface({ routed: true }), new Set(), false);
    expect(canEditTags(superuser(), routed, noPolicy, iface())).toMatchObject({
      reason: "You can not manage this interface!",
    });
  });
});

describe("tagVlans", () => {
  const vlans = [vlan(1), vlan(10), vlan(20)];
  it("superusers every VLAN; staff and others the group's list; an allow_all_vlans group every VLAN", () => {
    expect([...tagVlans(superuser(), group({ vlans: [] }), vlans)]).toEqual([1, 10, 20]);
    expect([...tagVlans(staff(), group({ vlans: [10, 99] }), vlans)]).toEqual([10]);
    expect([...tagVlans(caller(), group({ vlans: [20] }), vlans)]).toEqual([20]);
    expect([...tagVlans(staff(), group({ vlans: [], allow_all_vlans: true }), vlans)]).toEqual([1, 10, 20]);
  });
});

describe("planTagChange", () => {
  const device = [vlan(1), vlan(10), vlan(20), vlan(30), vlan(40)];
  const all = new Set([1, 10, 20, 30, 40]);
  const port = { untagged_vlan: 10, tagged_vlans: [20, 30] };
  const req = (untagged: number, tagged: number[], allowAll = false) => ({ untagged, tagged, allowAll });

  it("the change asked for, with allow_all's VLANs listed", () => {
    expect(planTagChange(req(10, [20, 40]), port, device, all)).toEqual(req(10, [20, 40]));
    expect(planTagChange(req(10, []), port, device, all)).toEqual(req(10, []));
    expect(planTagChange(req(20, [], true), port, device, all)).toEqual(req(20, [1, 10, 30, 40], true));
  });

  it("a VLAN the device does not have is 400 naming it", () => {
    expect(planTagChange(req(10, [20, 77]), port, device, all)).toMatchObject({
      status: 400,
      code: "invalid_parameter",
      reason: "Vlan 77 does not exist!",
    });
    expect(planTagChange(req(99, []), port, device, all)).toMatchObject({ reason: "Vlan 99 does not exist!" });
  });

  it("the same VLANs as now are 404 same_value", () => {
    expect(planTagChange(req(10, [30, 20]), port, device, all)).toEqual({
      ok: false,
      status: 404,
      code: "same_value",
      reason: "New vlans are the same, please change the vlans first!",
    });
  });

  it("only VLANs the caller may use are added or removed; a foreign tagged VLAN stays on the port", () => {
    const mine = new Set([10, 20, 40]);
    // 30 is not the caller's: leaving it out of the list keeps it on the port
    expect(planTagChange(req(10, [40]), port, device, mine)).toEqual(req(10, [30, 40]));
    expect(planTagChange(req(10, []), port, device, mine)).toEqual(req(10, [30]));
    // adding a VLAN that is not the caller's is refused, naming it
    expect(planTagChange(req(10, [1, 20, 30]), port, device, mine)).toMatchObject({
      status: 403,
      code: "vlan_not_allowed",
      reason: "You are not allowed to change vlan 1",
    });
    // removing only a foreign VLAN changes nothing: the same VLANs
    expect(planTagChange(req(10, [20]), port, device, mine)).toMatchObject({ status: 404, code: "same_value" });
  });

  it("the native VLAN may change only between VLANs the caller may use; allow_all needs every VLAN", () => {
    const mine = new Set([10, 20, 40]);
    expect(planTagChange(req(40, [20]), port, device, mine)).toEqual(req(40, [20, 30]));
    expect(planTagChange(req(1, [20]), port, device, mine)).toMatchObject({
      reason: "You are not allowed to change vlan 1",
    });
    expect(planTagChange(req(20, []), { untagged_vlan: 30, tagged_vlans: [] }, device, mine)).toMatchObject({
      reason: "You are not allowed to change vlan 30",
    });
    expect(planTagChange(req(10, [], true), port, device, mine)).toMatchObject({
      code: "vlan_not_allowed",
      reason: "You are not allowed to change vlan 1",
    });
  });
});

describe("tagsText", () => {
  it("shows runs of VLAN ids as ranges, an access port as 'none', allow_all as 'all'", () => {
    expect(tagsText(10, [20, 30])).toBe("untagged 10 tagged 20,30");
    expect(tagsText(10, [23, 20, 21, 22, 30, 31])).toBe("untagged 10 tagged 20-23,30,31");
    expect(tagsText(10, [])).toBe("untagged 10 tagged none");
    expect(tagsText(10, [1, 2, 3], true)).toBe("untagged 10 tagged all");
  });
});

describe("ALLOW_TAGS_EDIT and STAFF_ALLOW_TAGS_EDIT", () => {
  it("default to on and off, as in OpenL2M; the environment turns them", () => {
    expect(policyOf(loadConfig({}))).toMatchObject({
      always_allow_poe_toggle: false,
      allow_tags_edit: true,
      staff_allow_tags_edit: false,
    });
    expect(policyOf(loadConfig({ ALLOW_TAGS_EDIT: "off", STAFF_ALLOW_TAGS_EDIT: "on" }))).toMatchObject({
      allow_tags_edit: false,
      staff_allow_tags_edit: true,
    });
    expect(policyOf(loadConfig({ ALLOW_TAGS_EDIT: "0", STAFF_ALLOW_TAGS_EDIT: "true" }))).toMatchObject({
      allow_tags_edit: false,
      staff_allow_tags_edit: true,
    });
  });
});
