/**
 * The body of GET api/switches/<g>/<s>/ and .../details/ (docs/api-decisions.md, reads):
 * `{switch, vlans, interfaces}`, keys in the contract's order. Rights are worked out here
 * from the caller, the group of the URL and the device, so every handler shows the same.
 */
import type { DeviceSnapshot } from "../model/device";
import type { components } from "../generated/api";
import type { Capabilities } from "../model/capabilities";
import {
  Caller,
  DeviceRights,
  GroupRights,
  Policy,
  allowedVlans,
  canWrite,
  interfaceRights,
  isReadOnly,
  offeredTagsEdit,
  tagVlans,
} from "./access";
import { interfaceJson } from "./interface-view";
import { isHidden, NO_PORT_PROTECTION } from "./port-protection";
import { naturalSortBy } from "../model/natural-order";
import type { DeviceRecord, GroupRecord } from "./records";
import { switchUrl } from "./urls";

type Schemas = components["schemas"];
export type PowerSupplyJson = Schemas["PowerSupply"];
export type DevicePoeJson = Schemas["DevicePoe"];
export type SwitchSectionJson = Schemas["Device"];
export type VlanJson = Schemas["Vlan"];
/** {switch, vlans (keyed by VLAN id, ascending), interfaces (natural order of the id)} */
export type SwitchJson = Schemas["SwitchInfo"];

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
  const mayTag = tagVlans(caller, group, snapshot.vlans);
  const mayWrite = canWrite(caller, group, device) === null;

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
    change_tags: can.change_tags,
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
      allowed_tagged: mayTag.has(vlan.id),
    };
  }

  // the one place interfaces are put in natural order of their id: drivers return them as found
  // HIDE_NONE_ETHERNET_INTERFACES leaves what is not Ethernet out (domain/port-protection.ts)
  const shown = snapshot.interfaces.filter((iface) => !isHidden(iface, policy.protection ?? NO_PORT_PROTECTION));
  const interfaces = naturalSortBy(shown, (iface) => iface.id).map((iface) => {
    const rights = interfaceRights(caller, group, device, policy, iface, allowed, readOnly);
    return interfaceJson(
      iface,
      rights,
      snapshot.scope,
      mayWrite,
      offeredTagsEdit(caller, rights, policy, mayWrite, iface),
    );
  });

  return { switch: section, vlans, interfaces };
}
