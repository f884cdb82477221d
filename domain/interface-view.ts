/**
 * One entry of the `interfaces` array of the switch view (docs/api-decisions.md), keys
 * in the spec's order, optional keys left out rather than null: `tagged_vlans` only in
 * Tagged mode, `vlan` only when there is one, `speed` only when known, `poe` only on PoE
 * ports, `unmanage_reason` only when not manageable, `mtu` only when the device says it.
 * `allow_poe_toggle`, `can_edit_description` and `can_edit_tags` go past OpenL2M's shape:
 * what the PoE, description and tags writes would allow this caller here.
 */
import type { InterfaceInfo, LldpNeighbor, LearnScope, MacEntry, PoePortInfo } from "../model/device";
import type { components } from "../generated/api";
import { offeredWrites, type InterfaceRights } from "./access";
import { formatMac, macVendor } from "./mac";

type Schemas = components["schemas"];
export type InterfaceMode = Schemas["Interface"]["mode"];
export type PoePortJson = Schemas["InterfacePoe"];
export type EthernetAddressJson = Schemas["EthernetAddress"];
export type NeighborJson = Schemas["Neighbor"];
export type InterfaceJson = Schemas["Interface"];

/** Routed wins over Tagged, Tagged over Access. */
export function interfaceMode(iface: Pick<InterfaceInfo, "routed" | "tagged_vlans">): InterfaceMode {
  if (iface.routed) return "Routed";
  return iface.tagged_vlans.length > 0 ? "Tagged" : "Access";
}

/** "591, 592": ascending, whatever order the driver found them in. */
export function taggedVlansText(vlans: readonly number[]): string {
  return [...vlans].sort((a, b) => a - b).join(", ");
}

function poeJson(poe: PoePortInfo): PoePortJson {
  return {
    admin_status: poe.admin_status,
    detect_status: poe.detect_status,
    power_consumption_supported: poe.power_consumption_supported,
    power_consumed: poe.power_consumed,
    power_available: poe.power_available,
    max_power_consumed: poe.max_power_consumed,
  };
}

export function ethernetAddressJson(entry: MacEntry): EthernetAddressJson {
  return {
    address: formatMac(entry.address),
    vlan: entry.vlan,
    ipv4: [...entry.ipv4],
    ipv6: [...entry.ipv6],
    // no DNS lookups: domain does no I/O, and OpenL2M leaves them off by default
    hostname: "",
    vendor: macVendor(entry.address),
  };
}

export function neighborJson(neighbor: LldpNeighbor): NeighborJson {
  return {
    port_name: neighbor.port_name,
    port_description: neighbor.port_description,
    system_name: neighbor.system_name,
    system_description: neighbor.system_description,
    hostname: neighbor.system_name,
    chassis_id: neighbor.chassis_id,
    chassis_type: neighbor.chassis_type,
    capabilities: neighbor.capabilities,
    management_address_v4: neighbor.management_address_v4,
    management_address_v6: neighbor.management_address_v6,
  };
}

/**
 * `scope` basic leaves the MAC and LLDP lists empty even when the driver filled them.
 * `mayWrite` is canWrite() for the caller, group and device (see offeredWrites());
 * `canEditTags` is offeredTagsEdit() for this interface.
 */
export function interfaceJson(
  iface: InterfaceInfo,
  rights: InterfaceRights,
  scope: LearnScope,
  mayWrite: boolean,
  canEditTags: boolean,
): InterfaceJson {
  const mode = interfaceMode(iface);
  const details = scope === "details";
  return {
    id: iface.id,
    name: iface.name,
    description: iface.description,
    mode,
    ...(mode === "Tagged" ? { tagged_vlans: taggedVlansText(iface.tagged_vlans) } : {}),
    ...(iface.untagged_vlan > 0 ? { vlan: iface.untagged_vlan } : {}),
    state: iface.admin_up ? "Enabled" : "Disabled",
    online: iface.oper_up,
    ...(iface.speed > 0 ? { speed: iface.speed } : {}),
    duplex: iface.duplex,
    ...(iface.mtu !== undefined && iface.mtu > 0 ? { mtu: iface.mtu } : {}),
    vrf: iface.vrf,
    ...(iface.poe ? { poe: poeJson(iface.poe) } : {}),
    manageable: rights.manageable,
    // also on a manageable member of a link aggregation: why its VLANs cannot change
    ...(rights.manageable && rights.unmanage_reason === undefined
      ? {}
      : { unmanage_reason: rights.unmanage_reason ?? "" }),
    ...offeredWrites(rights, mayWrite),
    can_edit_tags: canEditTags,
    ethernet_addresses: details ? iface.macs.map(ethernetAddressJson) : [],
    neighbors: details ? iface.neighbors.map(neighborJson) : [],
  };
}
