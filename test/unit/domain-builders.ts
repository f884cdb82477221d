/**
 * Plain-data builders for the domain unit tests: a regular user in a plain group on a
 * plain device, changed per test by overrides so each test shows only what it varies.
 */
import type { Capabilities } from "../../model/capabilities";
import type { DeviceSnapshot, InterfaceInfo, VlanInfo } from "../../model/device";
import type { Caller, DeviceRights, GroupRights, Policy } from "../../domain/access";
import type { DeviceRecord, GroupRecord } from "../../domain/records";

type Profile = Caller["user"]["profile"];

export function caller(
  user: Partial<Omit<Caller["user"], "profile">> = {},
  profile: Partial<Profile> = {},
  token: Caller["token"] = { write_enabled: true },
): Caller {
  return {
    user: {
      id: 7,
      username: "jdoe",
      is_superuser: false,
      is_staff: false,
      ...user,
      profile: { read_only: false, vlan_edit: false, allow_poe_toggle: false, edit_if_descr: true, ...profile },
    },
    token,
  };
}

export const superuser = (profile: Partial<Profile> = {}, token: Caller["token"] = { write_enabled: true }) =>
  caller({ is_superuser: true, username: "root" }, profile, token);
export const staff = (profile: Partial<Profile> = {}) => caller({ is_staff: true, username: "staffer" }, profile);

export function group(overrides: Partial<GroupRecord & GroupRights> = {}): GroupRecord & GroupRights {
  return {
    id: 35,
    name: "Test-Group",
    description: "Test Group Description!",
    display_name: "",
    comments: "",
    read_only: false,
    allow_poe_toggle: false,
    edit_if_descr: true,
    allow_all_vlans: false,
    vlans: [10, 20],
    ...overrides,
  };
}

export function device(overrides: Partial<DeviceRecord & DeviceRights> = {}): DeviceRecord & DeviceRights {
  return {
    id: 272,
    name: "TEST-LAB 5130",
    hostname: "test-lab-5130",
    description: "",
    comments: "Test switch",
    nms_id: "",
    primary_ipv4: "10.100.100.100",
    primary_ipv6: null,
    read_only: false,
    default_view: 0,
    connector_type: 0,
    driver_info: "",
    allow_poe_toggle: false,
    edit_if_descr: true,
    ...overrides,
  };
}

/** nothing widened; tags as OpenL2M's defaults (ALLOW_TAGS_EDIT on, STAFF_ALLOW_TAGS_EDIT off) */
export const noPolicy: Policy = { always_allow_poe_toggle: false, allow_tags_edit: true, staff_allow_tags_edit: false };

export function iface(overrides: Partial<InterfaceInfo> = {}): InterfaceInfo {
  return {
    id: "1",
    name: "GigabitEthernet1/0/1",
    description: "",
    kind: "ethernet",
    if_type: 6,
    admin_up: true,
    oper_up: true,
    speed: 1000,
    duplex: "Full",
    untagged_vlan: 10,
    tagged_vlans: [],
    routed: false,
    vrf: "",
    macs: [],
    neighbors: [],
    ...overrides,
  };
}

export function vlan(id: number, name = `VLAN ${id}`): VlanInfo {
  return { id, name, state: "Enabled", status: "Permanent" };
}

export function snapshot(overrides: Partial<DeviceSnapshot> = {}): DeviceSnapshot {
  return {
    hostname: "TEST-LAB-5130",
    driver_info: { model: "HPE 5130", serial: "CN123" },
    vlans: [vlan(1), vlan(10), vlan(20), vlan(30)],
    interfaces: [iface()],
    poe: null,
    scope: "basic",
    ...overrides,
  };
}

export function capabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  return {
    change_admin_status: true,
    change_vlan: true,
    change_poe: true,
    change_description: true,
    edit_vlans: true,
    change_vlan_name: true,
    save_config: false,
    change_tags: true,
    client_data: true,
    max_description_length: 64,
    max_description_bytes: 64,
    max_vlan_name_length: 32,
    max_vlan_name_bytes: 32,
    ...overrides,
  };
}
