import { menuGroups } from "../../domain/access";
import { apiRootView, menuGroupsJson, menuJson, menuView, searchView, switchView } from "../../domain/views";
import type { SwitchViewInput } from "../../domain/views";
import { capabilities, caller, device, group, iface, noPolicy, snapshot, superuser, vlan } from "./domain-builders";

const baseUrl = "https://nms.example.org/";

function viewInput(overrides: Partial<SwitchViewInput> = {}): SwitchViewInput {
  return {
    snapshot: snapshot(),
    device: device(),
    group: group(),
    caller: caller(),
    policy: noPolicy,
    capabilities: capabilities(),
    vendor: "HPE (Comware)",
    driver: "snmp-comware",
    baseUrl,
    ...overrides,
  };
}

describe("switchView: the switch section", () => {
  it("has the contract's keys in the contract's order", () => {
    const body = switchView(viewInput());
    expect(Object.keys(body)).toEqual(["switch", "vlans", "interfaces"]);
    expect(Object.keys(body.switch)).toEqual([
      "hostname",
      "vendor",
      "driver",
      "driver_info",
      "name",
      "id",
      "group",
      "group_id",
      "read_only",
      "primary_ipv4",
      "primary_ipv6",
      "change_admin_status",
      "change_vlan",
      "change_poe",
      "change_description",
      "edit_vlans",
      "change_vlan_name",
      "save_config",
      "change_tags",
      "url",
      "nms_id",
      "poe",
    ]);
  });

  it("takes hostname from the device, names and ids from the records, flags from the driver", () => {
    const section = switchView(
      viewInput({ capabilities: capabilities({ change_poe: false, save_config: true }) }),
    ).switch;
    expect(section).toMatchObject({
      hostname: "TEST-LAB-5130",
      vendor: "HPE (Comware)",
      driver: "snmp-comware",
      driver_info: { model: "HPE 5130", serial: "CN123" },
      name: "TEST-LAB 5130",
      id: 272,
      group: "Test-Group",
      group_id: 35,
      read_only: false,
      primary_ipv4: "10.100.100.100",
      primary_ipv6: null,
      change_poe: false,
      save_config: true,
      url: "https://nms.example.org/api/switches/35/272/",
      nms_id: "",
      poe: false,
    });
  });

  it("nms_id is always a string", () => {
    expect(switchView(viewInput({ device: device({ nms_id: null }) })).switch.nms_id).toBe("");
    expect(switchView(viewInput({ device: device({ nms_id: "4711" }) })).switch.nms_id).toBe("4711");
  });

  it.each([
    ["device", { device: device({ read_only: true }) }],
    ["group", { group: group({ read_only: true }) }],
    ["user profile", { caller: caller({}, { read_only: true }) }],
  ])("read_only is true when the %s is read-only", (_label, overrides) => {
    expect(switchView(viewInput(overrides)).switch.read_only).toBe(true);
  });

  it("device PoE becomes an object with power-supplies", () => {
    const poe = {
      enabled: true,
      max_power: 370,
      power_consumed: 3,
      supplies: [{ id: 4, max_power: 370, status: "On" as const, power_consumed: 3, threshold: 80 }],
    };
    expect(switchView(viewInput({ snapshot: snapshot({ poe }) })).switch.poe).toEqual({
      enabled: true,
      max_power: 370,
      power_consumed: 3,
      "power-supplies": [{ id: 4, max_power: 370, status: "On", power_consumed: 3, threshold: 80 }],
    });
  });
});

describe("switchView: vlans", () => {
  it("is keyed by id strings in numeric order with the allowed flag for this caller", () => {
    const vlans = [vlan(100), vlan(2), vlan(10), vlan(1)];
    const body = switchView(viewInput({ snapshot: snapshot({ vlans }), group: group({ vlans: [10, 100] }) }));
    expect(Object.keys(body.vlans)).toEqual(["1", "2", "10", "100"]);
    expect(body.vlans["10"]).toEqual({
      id: 10,
      name: "VLAN 10",
      state: "Enabled",
      status: "Permanent",
      igmp_snooping: false,
      vrf: "",
      allowed: true,
      allowed_tagged: true,
    });
    expect(body.vlans["2"].allowed).toBe(false);
    expect(JSON.stringify(Object.keys(JSON.parse(JSON.stringify(body.vlans))))).toBe('["1","2","10","100"]');
  });

  it("every VLAN is allowed for the superuser", () => {
    const body = switchView(viewInput({ caller: superuser() }));
    expect(Object.values(body.vlans).every((entry) => entry.allowed)).toBe(true);
  });
});

describe("switchView: interfaces", () => {
  it("come in natural order of the id", () => {
    const ids = ["10", "2", "1", "1/1/10", "1/1/2"];
    const body = switchView(viewInput({ snapshot: snapshot({ interfaces: ids.map((id) => iface({ id })) }) }));
    expect(body.interfaces.map((entry) => entry.id)).toEqual(["1", "1/1/2", "1/1/10", "2", "10"]);
  });

  it("an access port has the contract's keys in order, without the optional ones", () => {
    const body = switchView(viewInput());
    expect(Object.keys(body.interfaces[0])).toEqual([
      "id",
      "name",
      "description",
      "mode",
      "vlan",
      "state",
      "online",
      "speed",
      "duplex",
      "vrf",
      "manageable",
      "allow_poe_toggle",
      "can_edit_description",
      "can_edit_tags",
      "ethernet_addresses",
      "neighbors",
    ]);
    expect(body.interfaces[0]).toMatchObject({
      mode: "Access",
      vlan: 10,
      state: "Enabled",
      online: true,
      speed: 1000,
      manageable: true,
    });
  });

  it("allow_poe_toggle and can_edit_description follow unmanage_reason and say what the writes would allow", () => {
    const ports = [iface({ id: "1" }), iface({ id: "2", untagged_vlan: 30 })];
    const [open, closed] = switchView(
      viewInput({ snapshot: snapshot({ interfaces: ports }), group: group({ allow_poe_toggle: true }) }),
    ).interfaces;
    expect(open).toMatchObject({ manageable: true, allow_poe_toggle: true, can_edit_description: true });
    const keys = Object.keys(closed);
    expect(keys.slice(keys.indexOf("manageable"), keys.indexOf("manageable") + 4)).toEqual([
      "manageable",
      "unmanage_reason",
      "allow_poe_toggle",
      "can_edit_description",
    ]);
    expect(closed).toMatchObject({ manageable: false, allow_poe_toggle: true, can_edit_description: false });
  });

  it("a read-only token is offered neither write; manageable keeps OpenL2M's meaning", () => {
    const body = switchView(viewInput({ caller: caller({}, {}, { write_enabled: false }) }));
    expect(body.interfaces[0]).toMatchObject({
      manageable: true,
      allow_poe_toggle: false,
      can_edit_description: false,
    });
  });

  it("mtu comes after duplex when the device says it, and is left out when it does not", () => {
    const [known, unknown] = switchView(
      viewInput({ snapshot: snapshot({ interfaces: [iface({ id: "1", mtu: 9216 }), iface({ id: "2" })] }) }),
    ).interfaces;
    const keys = Object.keys(known);
    expect(keys.indexOf("mtu")).toBe(keys.indexOf("duplex") + 1);
    expect(known.mtu).toBe(9216);
    expect("mtu" in unknown).toBe(false);
  });

  it("can_edit_tags: superusers by ALLOW_TAGS_EDIT, staff only with STAFF_ALLOW_TAGS_EDIT too, never others", () => {
    const tagsFor = (who: SwitchViewInput["caller"], policy = noPolicy) =>
      switchView(viewInput({ caller: who, policy })).interfaces[0].can_edit_tags;
    expect(tagsFor(superuser())).toBe(true);
    expect(tagsFor(superuser(), { ...noPolicy, allow_tags_edit: false })).toBe(false);
    expect(tagsFor(caller({ is_staff: true }))).toBe(false);
    expect(tagsFor(caller({ is_staff: true }), { ...noPolicy, staff_allow_tags_edit: true })).toBe(true);
    expect(
      tagsFor(caller({ is_staff: true }), { ...noPolicy, allow_tags_edit: false, staff_allow_tags_edit: true }),
    ).toBe(false);
    expect(tagsFor(caller(), { ...noPolicy, staff_allow_tags_edit: true })).toBe(false);
    // a read-only token or device is offered no write
    expect(tagsFor(caller({ is_superuser: true }, {}, { write_enabled: false }))).toBe(false);
    expect(
      switchView(viewInput({ caller: superuser(), device: device({ read_only: true }) })).interfaces[0].can_edit_tags,
    ).toBe(false);
  });

  it("allowed_tagged: every VLAN for superusers; the group's list for staff, unlike allowed", () => {
    const vlans = [vlan(1), vlan(10), vlan(20)];
    const staffView = switchView(
      viewInput({ caller: caller({ is_staff: true }), snapshot: snapshot({ vlans }), group: group({ vlans: [10] }) }),
    ).vlans;
    expect(Object.values(staffView).map((v) => [v.id, v.allowed, v.allowed_tagged])).toEqual([
      [1, true, false],
      [10, true, true],
      [20, true, false],
    ]);
    const rootView = switchView(
      viewInput({ caller: superuser(), snapshot: snapshot({ vlans }), group: group() }),
    ).vlans;
    expect(Object.values(rootView).every((v) => v.allowed_tagged)).toBe(true);
    const allGroup = switchView(
      viewInput({ snapshot: snapshot({ vlans }), group: group({ vlans: [], allow_all_vlans: true }) }),
    ).vlans;
    expect(Object.values(allGroup).every((v) => v.allowed_tagged)).toBe(true);
  });

  it("a tagged port lists its tagged VLANs ascending as one string", () => {
    const port = iface({ tagged_vlans: [592, 20, 591] });
    const entry = switchView(viewInput({ snapshot: snapshot({ interfaces: [port] }) })).interfaces[0];
    expect(entry.mode).toBe("Tagged");
    expect(entry.tagged_vlans).toBe("20, 591, 592");
    expect(Object.keys(entry).indexOf("tagged_vlans")).toBe(Object.keys(entry).indexOf("mode") + 1);
  });

  it("Routed wins over Tagged and then carries no tagged_vlans", () => {
    const port = iface({ routed: true, tagged_vlans: [20] });
    const entry = switchView(viewInput({ snapshot: snapshot({ interfaces: [port] }) })).interfaces[0];
    expect(entry.mode).toBe("Routed");
    expect(entry).not.toHaveProperty("tagged_vlans");
    expect(entry.unmanage_reason).toBe("Access denied: interface in routed mode!");
  });

  it("vlan and speed are left out when 0; state Disabled when admin down", () => {
    const port = iface({ untagged_vlan: 0, speed: 0, admin_up: false, oper_up: false });
    const entry = switchView(viewInput({ snapshot: snapshot({ interfaces: [port] }) })).interfaces[0];
    expect(entry).not.toHaveProperty("vlan");
    expect(entry).not.toHaveProperty("speed");
    expect(entry).toMatchObject({ state: "Disabled", online: false });
  });

  it("poe only on PoE ports, with its six keys", () => {
    const poe = {
      admin_status: "Enabled" as const,
      detect_status: "Delivering" as const,
      power_consumption_supported: true,
      power_consumed: 4200,
      power_available: 15400,
      max_power_consumed: 5000,
    };
    const body = switchView(viewInput({ snapshot: snapshot({ interfaces: [iface({ poe }), iface({ id: "2" })] }) }));
    expect(body.interfaces[0].poe).toEqual(poe);
    expect(Object.keys(body.interfaces[0])).toContain("poe");
    expect(body.interfaces[1]).not.toHaveProperty("poe");
  });

  it("unmanage_reason only on unmanageable ports", () => {
    const ports = [iface({ id: "1" }), iface({ id: "2", untagged_vlan: 30 })];
    const [open, closed] = switchView(viewInput({ snapshot: snapshot({ interfaces: ports }) })).interfaces;
    expect(open).not.toHaveProperty("unmanage_reason");
    expect(closed).toMatchObject({
      manageable: false,
      unmanage_reason: "Interface access denied: you do not have access to the interface vlan!",
    });
  });

  it("a read-only device makes every port unmanageable", () => {
    const body = switchView(viewInput({ device: device({ read_only: true }) }));
    expect(body.interfaces[0]).toMatchObject({ manageable: false, unmanage_reason: "Access denied!" });
  });

  describe("ethernet_addresses and neighbors", () => {
    const port = iface({
      macs: [
        { address: "00-50-56-AA-BB-CC", vlan: 10, ipv4: ["10.0.0.5"], ipv6: [] },
        { address: "0100.5e00.0001", vlan: 10, ipv4: [], ipv6: [] },
        { address: "52:54:00:12:34:56", vlan: 20, ipv4: [], ipv6: ["fe80::1"] },
        { address: "00:11:22:33:44:55", vlan: 20, ipv4: [], ipv6: [] },
      ],
      neighbors: [
        {
          port_name: "Gi0/1",
          port_description: "uplink",
          system_name: "core-1",
          system_description: "Cisco IOS",
          chassis_id: "00:00:0c:01:02:03",
          chassis_type: 4,
          capabilities: "Bridge, Router",
          management_address_v4: "10.0.0.1",
          management_address_v6: "",
        },
      ],
    });

    it("are empty in the basic view even when the driver read them", () => {
      const entry = switchView(viewInput({ snapshot: snapshot({ interfaces: [port], scope: "basic" }) })).interfaces[0];
      expect(entry.ethernet_addresses).toEqual([]);
      expect(entry.neighbors).toEqual([]);
    });

    it("are filled in the details view: one MAC spelling, vendor, multicast and local flags", () => {
      const entry = switchView(viewInput({ snapshot: snapshot({ interfaces: [port], scope: "details" }) }))
        .interfaces[0];
      expect(entry.ethernet_addresses).toEqual([
        { address: "00:50:56:aa:bb:cc", vlan: 10, ipv4: ["10.0.0.5"], ipv6: [], hostname: "", vendor: "VMware" },
        { address: "01:00:5e:00:00:01", vlan: 10, ipv4: [], ipv6: [], hostname: "", vendor: "MultiCast" },
        {
          address: "52:54:00:12:34:56",
          vlan: 20,
          ipv4: [],
          ipv6: ["fe80::1"],
          hostname: "",
          vendor: "Locally Administered",
        },
        { address: "00:11:22:33:44:55", vlan: 20, ipv4: [], ipv6: [], hostname: "", vendor: "" },
      ]);
      expect(Object.keys(entry.neighbors[0])).toEqual([
        "port_name",
        "port_description",
        "system_name",
        "system_description",
        "hostname",
        "chassis_id",
        "chassis_type",
        "capabilities",
        "management_address_v4",
        "management_address_v6",
      ]);
      expect(entry.neighbors[0].hostname).toBe("core-1");
    });
  });
});

describe("menuView", () => {
  const sources = [
    {
      group: group({ id: 35, name: "Zeta" }),
      devices: [
        { ...device({ id: 9, name: "b-switch" }), status: "active" as const },
        {
          ...device({ id: 272, name: "a-switch", driver_info: '{"model": "x"}', nms_id: null }),
          status: "active" as const,
        },
      ],
    },
    {
      group: group({ id: 12, name: "Alpha", display_name: "A" }),
      devices: [{ ...device({ id: 5, name: "core" }), status: "active" as const }],
    },
  ];

  it("shows the user's profile flags", () => {
    const who = caller({}, { vlan_edit: true });
    expect(menuView(who, menuGroups(who, sources, [35, 12]), baseUrl).user).toEqual({
      name: "jdoe",
      read_only: false,
      vlan_edit: true,
      allow_poe_toggle: false,
      edit_if_descr: true,
    });
  });

  it("keeps groups and members in name order on the wire, although the ids are numbers", () => {
    const body = menuView(superuser(), menuGroups(superuser(), sources, []), baseUrl);
    const wire = JSON.stringify(body);
    expect(wire.indexOf('"12":')).toBeLessThan(wire.indexOf('"35":'));
    expect(Object.keys(body.groups)).toEqual(["12", "35"]);
    expect(Object.keys(body.groups["35"].members)).toEqual(["272", "9"]);
    expect(wire.indexOf('"272":')).toBeLessThan(wire.indexOf('"9":'));
  });

  it("members have the contract's fields, url absolute, driver_info as stored text, nms_id a string", () => {
    const body = menuView(superuser(), menuGroups(superuser(), sources, []), baseUrl);
    const member = body.groups["35"].members["272"];
    expect(Object.keys(member)).toEqual([
      "name",
      "hostname",
      "description",
      "default_view",
      "default_view_name",
      "url",
      "connector_type",
      "connector_type_name",
      "read_only",
      "primary_ipv4",
      "comments",
      "driver_info",
      "nms_id",
    ]);
    expect(member).toMatchObject({
      default_view_name: "Basic",
      connector_type_name: "SNMP",
      url: "https://nms.example.org/api/switches/35/272/",
      driver_info: '{"model": "x"}',
      nms_id: "",
    });
    expect(Object.keys(body.groups["12"])).toEqual([
      "name",
      "description",
      "display_name",
      "read_only",
      "comments",
      "members",
    ]);
  });
});

describe("menuJson: the menu written as text", () => {
  const sources = [
    {
      group: group({ id: 35, name: "Zeta", comments: 'quote " and \\ and é' }),
      devices: [
        { ...device({ id: 9, name: "b-switch" }), status: "active" as const },
        {
          ...device({ id: 272, name: "a-switch", driver_info: '{"model": "x"}', nms_id: null }),
          status: "active" as const,
        },
        { ...device({ id: 3, name: "off" }), status: "inactive" as const },
      ],
    },
    {
      group: group({ id: 12, name: "Alpha", display_name: "A" }),
      devices: [{ ...device({ id: 5, name: "core" }), status: "active" as const }],
    },
    {
      group: group({ id: 40, name: "Only-inactive" }),
      devices: [{ ...device({ id: 6, name: "gone" }), status: "inactive" as const }],
    },
  ];

  it("is byte for byte what JSON.stringify writes of menuView, for everyone and for a member of some groups", () => {
    for (const [who, groups] of [
      [superuser(), []],
      [caller({}, { vlan_edit: true }), [35, 40]],
      [caller(), []],
    ] as const) {
      const menu = menuGroups(who, sources, groups);
      const text = menuJson(who, menuGroupsJson(menu, baseUrl));
      expect(text).toBe(JSON.stringify(menuView(who, menu, baseUrl)));
    }
    // the text keeps name order where a parse would not: "12" before "35", "272" before "9"
    const text = menuJson(superuser(), menuGroupsJson(menuGroups(superuser(), sources, []), baseUrl));
    expect(text.indexOf('"12":')).toBeLessThan(text.indexOf('"35":'));
    expect(text.indexOf('"272":')).toBeLessThan(text.indexOf('"9":'));
    expect(text).toContain(
      '"40":{"name":"Only-inactive","description":"Test Group Description!","display_name":"","read_only":false,"comments":"","members":{}}',
    );
  });
});

describe("searchView", () => {
  const core = { ...device({ id: 5, name: "Core-1", hostname: "core-1.example.org" }), status: "active" as const };
  const edge = { ...device({ id: 6, name: "edge", hostname: "edge.example.org" }), status: "active" as const };
  const menu = menuGroups(
    superuser(),
    [
      { group: group({ id: 27, name: "b-group" }), devices: [core] },
      { group: group({ id: 12, name: "a-group" }), devices: [core, edge] },
    ],
    [],
  );

  it("finds a device by name or hostname, case-insensitively, exact only", () => {
    expect(searchView(menu, "core-1", baseUrl)?.switch.id).toBe("5");
    expect(searchView(menu, "EDGE.example.ORG", baseUrl)?.switch.id).toBe("6");
    expect(searchView(menu, "core", baseUrl)).toBeNull();
  });

  it("answers the member fields without url plus a string id, and every group holding it", () => {
    const body = searchView(menu, "Core-1", baseUrl);
    expect(body?.switch).not.toHaveProperty("url");
    expect(body?.switch).toMatchObject({ name: "Core-1", hostname: "core-1.example.org", id: "5" });
    expect(Object.keys(body?.groups ?? {})).toEqual(["12", "27"]);
    expect(body?.groups["27"]).toEqual({
      name: "b-group",
      description: "Test Group Description!",
      id: "27",
      read_only: false,
      switch_url: "https://nms.example.org/api/switches/27/5/",
    });
  });

  it("only searches the caller's menu", () => {
    const mine = menuGroups(caller(), [{ group: group({ id: 12 }), devices: [edge] }], []);
    expect(searchView(mine, "edge", baseUrl)).toBeNull();
  });
});

describe("apiRootView", () => {
  it("absolute links; admin only for superusers", () => {
    expect(apiRootView(caller(), "http://h:8080")).toEqual({
      switches: "http://h:8080/api/switches/",
      stats: "http://h:8080/api/stats/",
      environment: "http://h:8080/api/environment/",
      schema: "http://h:8080/api/schema/",
    });
    expect(apiRootView(superuser(), "http://h/nms/").admin).toBe("http://h/nms/api/admin/");
  });
});
