/**
 * The body of GET api/switches/<g>/<s>/ and .../details/ (CONTRACT.md section 4):
 * `{switch, vlans, interfaces}`, keys in the contract's order. Rights are worked out here
 * from the caller, the group of the URL and the device, so every handler shows the same.
 */
import type { AdminState, Capabilities, DeviceSnapshot, VlanStatus } from "../drivers/types";
import {
  Caller,
  DeviceRights,
  GroupRights,
  Policy,
  allowedVlans,
  interfaceRights,
  isReadOnly,
} from "./access";
import { InterfaceJson, interfaceJson } from "./interface-view";
import { naturalCompare } from "./natural-sort";
import type { DeviceRecord, GroupRecord } from "./records";
import { switchUrl } from "./urls";

export interface PowerSupplyJson {
  id: number;
  max_power: number;
  status: "On" | "Off" | "Fault";
  power_consumed: number;
  threshold: number;
}

export interface DevicePoeJson {
  enabled: boolean;
  max_power: number;
  power_consumed: number;
  "power-supplies": PowerSupplyJson[];
}

export interface SwitchSectionJson {
  hostname: string;
  vendor: string;
  driver: string;
  driver_info: Record<string, string | number>;
  name: string;
  id: number;
  group: string;
  group_id: number;
  read_only: boolean;
  primary_ipv4: string | null;
  primary_ipv6: string | null;
  change_admin_status: boolean;
  change_vlan: boolean;
  change_poe: boolean;
  change_description: boolean;
  edit_vlans: boolean;
  change_vlan_name: boolean;
  save_config: boolean;
  url: string;
  nms_id: string;
  poe: false | DevicePoeJson;
}

export interface VlanJson {
  id: number;
  name: string;
  state: AdminState;
  status: VlanStatus;
  igmp_snooping: boolean;
  vrf: string;
  allowed: boolean;
}

export interface SwitchJson {
  switch: SwitchSectionJson;
  /** keyed by VLAN id as a string, ascending */
  vlans: Record<string, VlanJson>;
  /** natural order of the id */
  interfaces: InterfaceJson[];
}

export interface SwitchViewInput {
  snapshot: DeviceSnapshot;
  device: DeviceRecord & DeviceRights;
  /** the group of the URL: it decides the rights */
  group: GroupRecord & GroupRights;
  caller: Caller;
  policy: Policy;
  /** the driver's `can` */
  capabilities: Capabilities;
  vendor: string;
  driver: string;
  baseUrl: string;
}

function devicePoeJson(snapshot: DeviceSnapshot): false | DevicePoeJson {
  const poe = snapshot.poe;
  if (!poe) return false;
  return {
    enabled: poe.enabled,
    max_power: poe.max_power,
    power_consumed: poe.power_consumed,
    "power-supplies": poe.supplies.map((supply) => ({
      id: supply.id,
      max_power: supply.max_power,
      status: supply.status,
      power_consumed: supply.power_consumed,
      threshold: supply.threshold,
    })),
  };
}

export function switchView(input: SwitchViewInput): SwitchJson {
  const { snapshot, device, group, caller, policy, capabilities: can } = input;
  const readOnly = isReadOnly(caller, group, device);
  const allowed = allowedVlans(caller, group, snapshot.vlans);

  const section: SwitchSectionJson = {
    // the name the device reports; the stored one only if it reported none
    hostname: snapshot.hostname || device.hostname,
    vendor: input.vendor,
    driver: input.driver,
    driver_info: { ...snapshot.driver_info },
    name: device.name,
    id: device.id,
    group: group.name,
    group_id: group.id,
    read_only: readOnly,
    primary_ipv4: device.primary_ipv4,
    primary_ipv6: device.primary_ipv6,
    change_admin_status: can.change_admin_status,
    change_vlan: can.change_vlan,
    change_poe: can.change_poe,
    change_description: can.change_description,
    edit_vlans: can.edit_vlans,
    change_vlan_name: can.change_vlan_name,
    save_config: can.save_config,
    url: switchUrl(input.baseUrl, group.id, device.id),
    nms_id: device.nms_id ?? "",
    poe: devicePoeJson(snapshot),
  };

  // Integer-like keys list in ascending numeric order in any JS object, as the contract wants.
  const vlans: Record<string, VlanJson> = {};
  for (const vlan of [...snapshot.vlans].sort((a, b) => a.id - b.id)) {
    vlans[String(vlan.id)] = {
      id: vlan.id,
      name: vlan.name,
      state: vlan.state,
      status: vlan.status,
      igmp_snooping: false,
      vrf: "",
      allowed: allowed.has(vlan.id),
    };
  }

  const interfaces = [...snapshot.interfaces]
    .sort((a, b) => naturalCompare(a.id, b.id))
    .map((iface) =>
      interfaceJson(iface, interfaceRights(caller, group, device, policy, iface, allowed, readOnly), snapshot.scope),
    );

  return { switch: section, vlans, interfaces };
}
