import {
  allowedVlans,
  canAddVlan,
  canAdminister,
  canChangeVlan,
  canDeleteVlan,
  canEditDescription,
  canManageInterface,
  canRenameVlan,
  canTogglePoe,
  canWrite,
  pairInMenu,
  interfaceRights,
  offeredWrites,
  isReadOnly,
  menuGroups,
} from "../../domain/access";
import { caller, device, group, iface, noPolicy, staff, superuser, vlan } from "./domain-builders";

const deviceVlans = [vlan(1), vlan(10), vlan(20), vlan(30)];
const accessDenied = { status: 403, code: "access_denied", reason: "Access denied!" };

describe("canWrite: token, user, group and device read-only", () => {
  it("a write-enabled token of a plain user in a plain group may write", () => {
    expect(canWrite(caller(), group(), device())).toBeNull();
  });

  it("a web session (no token) may write", () => {
    expect(canWrite(caller({}, {}, null), group(), device())).toBeNull();
  });

  it("a read-only token: 403 This token cannot write!", () => {
    expect(canWrite(caller({}, {}, { write_enabled: false }), group(), device())).toEqual({
      status: 403,
      code: "token_read_only",
      reason: "This token cannot write!",
    });
  });

  it("the token check comes before the read-only flags", () => {
    const both = caller({}, { read_only: true }, { write_enabled: false });
    expect(canWrite(both, group(), device())?.code).toBe("token_read_only");
  });

  it.each([
    ["user profile", caller({}, { read_only: true }), group(), device()],
    ["group", caller(), group({ read_only: true }), device()],
    ["device", caller(), group(), device({ read_only: true })],
  ])("a read-only %s: 403 Access denied!", (_label, who, grp, dev) => {
    expect(canWrite(who, grp, dev)).toEqual(accessDenied);
    expect(isReadOnly(who, grp, dev)).toBe(true);
  });

  it("not even a superuser overrides a read-only device", () => {
    expect(canWrite(superuser(), group(), device({ read_only: true }))).toEqual(accessDenied);
  });
});

describe("allowedVlans", () => {
  it("a regular user gets the group's list limited to the device's VLANs", () => {
    const allowed = allowedVlans(caller(), group({ vlans: [10, 20, 99] }), deviceVlans);
    expect([...allowed].sort((a, b) => a - b)).toEqual([10, 20]);
  });

  it("a group without a list allows nothing", () => {
    expect(allowedVlans(caller(), group({ vlans: [] }), deviceVlans).size).toBe(0);
  });

  it.each([
    ["superuser", superuser(), group()],
    ["staff", staff(), group()],
    ["allow_all_vlans group", caller(), group({ allow_all_vlans: true, vlans: [] })],
  ])("%s: every VLAN of the device", (_label, who, grp) => {
    expect([...allowedVlans(who, grp, deviceVlans)].sort((a, b) => a - b)).toEqual([1, 10, 20, 30]);
  });
});

describe("interfaceRights", () => {
  const allowed = new Set([10, 20]);
  const rights = (
    who = caller(),
    port = iface(),
    opts: {
      grp?: ReturnType<typeof group>;
      dev?: ReturnType<typeof device>;
      readOnly?: boolean;
      always?: boolean;
    } = {},
  ) =>
    interfaceRights(
      who,
      opts.grp ?? group(),
      opts.dev ?? device(),
      { ...noPolicy, always_allow_poe_toggle: opts.always ?? false },
      port,
      allowed,
      opts.readOnly ?? false,
    );

  it("an Ethernet access port in an allowed VLAN is manageable, description editable", () => {
    expect(rights()).toEqual({ manageable: true, allow_poe_toggle: false, can_edit_description: true });
  });

  it("untagged VLAN not allowed: not manageable, with the contract's reason", () => {
    expect(rights(caller(), iface({ untagged_vlan: 30 }))).toEqual({
      manageable: false,
      unmanage_reason: "Interface access denied: you do not have access to the interface vlan!",
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it("a port without an untagged VLAN (0) is not manageable for a regular user", () => {
    expect(rights(caller(), iface({ untagged_vlan: 0 })).manageable).toBe(false);
  });

  it("staff manage what the allow-list allows (all VLANs come through allowedVlans)", () => {
    const staffAllowed = allowedVlans(staff(), group(), deviceVlans);
    const result = interfaceRights(
      staff(),
      group(),
      device(),
      noPolicy,
      iface({ untagged_vlan: 30 }),
      staffAllowed,
      false,
    );
    expect(result.manageable).toBe(true);
    expect(result.allow_poe_toggle).toBe(false); // PoE flags follow the regular rules for staff
  });

  it("superuser: any Ethernet port, even in a VLAN outside every list, with PoE and description", () => {
    expect(
      rights(superuser({ edit_if_descr: false }), iface({ untagged_vlan: 30 }), {
        grp: group({ edit_if_descr: false }),
      }),
    ).toEqual({
      manageable: true,
      allow_poe_toggle: true,
      can_edit_description: true,
    });
  });

  it("the driver's disabled_reason comes first, even for the superuser", () => {
    const port = iface({ disabled_reason: "Untagged vlan 5 is NOT defined on switch", kind: "other", routed: true });
    expect(rights(superuser(), port)).toEqual({
      manageable: false,
      unmanage_reason: "Untagged vlan 5 is NOT defined on switch",
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it("read-only: nothing allowed, even with PoE flags", () => {
    expect(rights(caller({}, { allow_poe_toggle: true }), iface(), { readOnly: true })).toEqual({
      manageable: false,
      unmanage_reason: "Access denied!",
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it.each([
    ["lag", "lag" as const],
    ["other", "other" as const],
  ])("a %s interface is not an Ethernet interface, not even for the superuser", (_label, kind) => {
    for (const who of [caller(), superuser()]) {
      expect(rights(who, iface({ kind }))).toEqual({
        manageable: false,
        unmanage_reason: "Access denied: not an Ethernet interface!",
        allow_poe_toggle: false,
        can_edit_description: false,
      });
    }
  });

  it("a routed port is not manageable, not even for the superuser", () => {
    for (const who of [caller(), superuser()]) {
      expect(rights(who, iface({ routed: true }))).toMatchObject({
        manageable: false,
        unmanage_reason: "Access denied: interface in routed mode!",
      });
    }
  });

  describe("PoE toggle: profile OR group OR device OR policy", () => {
    const locked = iface({ untagged_vlan: 30 }); // unmanageable for a regular user
    it.each([
      ["profile", caller({}, { allow_poe_toggle: true }), {}],
      ["group", caller(), { grp: group({ allow_poe_toggle: true }) }],
      ["device", caller(), { dev: device({ allow_poe_toggle: true }) }],
      ["global policy", caller(), { always: true }],
    ])("set on the %s: allowed even on an unmanageable port", (_label, who, opts) => {
      const result = rights(who, locked, opts);
      expect(result.manageable).toBe(false);
      expect(result.allow_poe_toggle).toBe(true);
      expect(canTogglePoe(result)).toBeNull();
    });

    it("no flag anywhere: not on an unmanageable port, yes on a manageable one", () => {
      expect(canTogglePoe(rights(caller(), locked))).toEqual({
        ...accessDenied,
        reason: "You can not manage this interface!",
      });
      expect(canTogglePoe(rights(caller(), iface()))).toBeNull();
    });
  });

  describe("description edit: profile AND group AND device AND manageable", () => {
    it.each([
      ["profile", caller({}, { edit_if_descr: false }), {}],
      ["group", caller(), { grp: group({ edit_if_descr: false }) }],
      ["device", caller(), { dev: device({ edit_if_descr: false }) }],
    ])("off on the %s: 403 not allowed to change the description", (_label, who, opts) => {
      const result = rights(who, iface(), opts);
      expect(result).toMatchObject({ manageable: true, can_edit_description: false });
      expect(canEditDescription(result)).toEqual({
        status: 403,
        code: "access_denied",
        reason: "You are not allowed to change the interface description!",
      });
    });

    it("all three on but the port not manageable: cannot manage this interface", () => {
      const result = rights(caller(), iface({ untagged_vlan: 30 }));
      expect(result.can_edit_description).toBe(false);
      expect(canEditDescription(result)?.reason).toBe("You can not manage this interface!");
    });

    it("all three on and manageable: allowed", () => {
      expect(canEditDescription(rights())).toBeNull();
    });
  });

  it("state and vlan writes need a manageable port", () => {
    expect(canManageInterface(rights())).toBeNull();
    expect(canManageInterface(rights(caller(), iface({ routed: true })))).toEqual({
      status: 403,
      code: "access_denied",
      reason: "You can not manage this interface!",
    });
  });
});

describe("offeredWrites: what the interface view announces", () => {
  const allowed = new Set([10, 20]);
  const offered = (who = caller(), port = iface(), grp = group(), dev = device()) =>
    offeredWrites(
      interfaceRights(who, grp, dev, noPolicy, port, allowed, isReadOnly(who, grp, dev)),
      canWrite(who, grp, dev) === null,
    );

  it("a manageable port without any PoE flag: PoE may be toggled (the write allows it), the description edited", () => {
    // the raw flag says no: the view must not
    expect(interfaceRights(caller(), group(), device(), noPolicy, iface(), allowed, false)).toMatchObject({
      manageable: true,
      allow_poe_toggle: false,
    });
    expect(offered()).toEqual({ allow_poe_toggle: true, can_edit_description: true });
  });

  it("a PoE flag on the group opens PoE on an unmanageable port, not the description", () => {
    expect(offered(caller(), iface({ untagged_vlan: 30 }), group({ allow_poe_toggle: true }))).toEqual({
      allow_poe_toggle: true,
      can_edit_description: false,
    });
    expect(offered(caller(), iface({ untagged_vlan: 30 }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it("edit_if_descr off on the device: no description on a manageable port", () => {
    expect(offered(caller(), iface(), group(), device({ edit_if_descr: false }))).toEqual({
      allow_poe_toggle: true,
      can_edit_description: false,
    });
  });

  it("a read-only token, user, group or device is offered nothing", () => {
    expect(offered(caller({}, {}, { write_enabled: false }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
    expect(offered(caller({}, { read_only: true }))).toEqual({ allow_poe_toggle: false, can_edit_description: false });
    expect(offered(superuser(), iface(), group({ read_only: true }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
    expect(offered(superuser(), iface(), group(), device({ read_only: true }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it("a superuser: both on Ethernet ports, neither on a routed or non-Ethernet one", () => {
    expect(offered(superuser(), iface({ untagged_vlan: 99 }))).toEqual({
      allow_poe_toggle: true,
      can_edit_description: true,
    });
    expect(offered(superuser(), iface({ routed: true }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
    expect(offered(superuser(), iface({ kind: "other" }))).toEqual({
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });
});

describe("VLAN add, rename, delete and admin rights", () => {
  it("add: superuser or profile vlan_edit; staff alone is not enough", () => {
    expect(canAddVlan(superuser())).toBeNull();
    expect(canAddVlan(caller({}, { vlan_edit: true }))).toBeNull();
    expect(canAddVlan(caller())).toEqual(accessDenied);
    expect(canAddVlan(staff())).toEqual(accessDenied);
    expect(canAddVlan(staff({ vlan_edit: true }))).toBeNull();
  });

  it("rename follows the add rule", () => {
    expect(canRenameVlan(caller())).toEqual(accessDenied);
    expect(canRenameVlan(caller({}, { vlan_edit: true }))).toBeNull();
    expect(canRenameVlan(superuser())).toBeNull();
  });

  it("delete: superuser only, even staff with vlan_edit is refused", () => {
    const refusal = {
      status: 403,
      code: "access_denied",
      reason: "Access Denied: you need to be SuperUser to delete a VLAN",
    };
    expect(canDeleteVlan(superuser())).toBeNull();
    expect(canDeleteVlan(staff({ vlan_edit: true }))).toEqual(refusal);
    expect(canDeleteVlan(caller({}, { vlan_edit: true }))).toEqual(refusal);
  });

  it("the VLAN id of add, rename or delete: one the group allows, all for superuser, staff and allow_all_vlans", () => {
    const notAllowed = (id: number) => ({
      status: 403,
      code: "vlan_not_allowed",
      reason: `You are not allowed to change vlan ${id}`,
    });
    const ten = group({ vlans: [10] });
    const vlanEditor = caller({}, { vlan_edit: true });
    expect(canChangeVlan(vlanEditor, ten, 10)).toBeNull();
    expect(canChangeVlan(vlanEditor, ten, 99)).toEqual(notAllowed(99));
    expect(canChangeVlan(vlanEditor, group({ vlans: [] }), 888)).toEqual(notAllowed(888));
    expect(canChangeVlan(vlanEditor, group({ allow_all_vlans: true, vlans: [] }), 888)).toBeNull();
    expect(canChangeVlan(staff({ vlan_edit: true }), group({ vlans: [] }), 888)).toBeNull();
    expect(canChangeVlan(superuser(), group({ vlans: [] }), 4094)).toBeNull();
  });

  it("user administration: superuser only", () => {
    expect(canAdminister(superuser(), true)).toBeNull();
    expect(canAdminister(staff(), false)).toEqual({
      status: 403,
      code: "forbidden",
      reason: "You do not have permission to perform this action.",
    });
  });

  it("administration with a read-only token or profile only reads", () => {
    const readOnlyToken = superuser({}, { write_enabled: false });
    const readOnlyProfileToken = superuser({ read_only: true });
    const readOnlySession = superuser({ read_only: true }, null);
    const cannotWrite = { status: 403, code: "token_read_only", reason: "This token cannot write!" };
    expect(canAdminister(readOnlyToken, false)).toBeNull();
    expect(canAdminister(readOnlyToken, true)).toEqual(cannotWrite);
    // a token made while the profile could write, used after it became read-only
    expect(canAdminister(readOnlyProfileToken, true)).toEqual(cannotWrite);
    expect(canAdminister(readOnlySession, true)).toEqual(accessDenied);
    expect(canAdminister(readOnlySession, false)).toBeNull();
  });
});

describe("menuGroups", () => {
  const active = (id: number, name: string) => ({ id, name, status: "active" as const });
  const inactive = (id: number, name: string) => ({ id, name, status: "inactive" as const });
  const all = [
    { group: { id: 3, name: "zeta" }, devices: [active(30, "sw-10"), active(31, "sw-2"), inactive(32, "sw-1")] },
    { group: { id: 1, name: "Alpha" }, devices: [active(10, "core")] },
    { group: { id: 2, name: "beta" }, devices: [inactive(20, "old")] },
    { group: { id: 4, name: "empty" }, devices: [] },
  ];

  it("a regular user sees only the groups they belong to", () => {
    const menu = menuGroups(caller(), all, [3]);
    expect(menu.map((entry) => entry.group.id)).toEqual([3]);
  });

  it.each([
    ["superuser", superuser()],
    ["staff", staff()],
  ])("%s sees every group with at least one device, sorted by name", (_label, who) => {
    expect(menuGroups(who, all, []).map((entry) => entry.group.name)).toEqual(["Alpha", "beta", "zeta"]);
  });

  it("only active devices are listed, sorted by name", () => {
    const zeta = menuGroups(superuser(), all, []).find((entry) => entry.group.id === 3);
    expect(zeta?.members.map((member) => member.name)).toEqual(["sw-10", "sw-2"]);
    const beta = menuGroups(superuser(), all, []).find((entry) => entry.group.id === 2);
    expect(beta?.members).toEqual([]);
  });

  it("a member of an empty group does not see it", () => {
    expect(menuGroups(caller(), all, [4])).toEqual([]);
  });

  it("pairInMenu answers for one (group, device) pair exactly what the whole menu says", () => {
    const devicesOf = new Map(all.map((entry) => [entry.group.id, entry.devices]));
    for (const who of [caller(), staff(), superuser()]) {
      for (const memberOf of [[], [1, 3], [2, 4]]) {
        const menu = menuGroups(who, all, memberOf);
        for (const { group } of all) {
          for (const device of all.flatMap((entry) => entry.devices)) {
            const listed = menu.some(
              (entry) => entry.group.id === group.id && entry.members.some((m) => m.id === device.id),
            );
            const pair = {
              deviceInGroup: devicesOf.get(group.id)!.some((d) => d.id === device.id),
              deviceActive: device.status === "active",
              callerInGroup: memberOf.includes(group.id),
            };
            expect({ group: group.id, device: device.id, in: pairInMenu(who, pair) }).toEqual({
              group: group.id,
              device: device.id,
              in: listed,
            });
          }
        }
      }
    }
  });
});
