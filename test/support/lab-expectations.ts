/**
 * What a lab switch's model says a driver must report: the expected interface rows,
 * VLANs and configurations the conformance suite and driver-specific tests compare with.
 */
import { cloneConfig, type SwitchConfig } from "../../lab/config";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import { POE_DETECT_NAMES, type InterfaceInfo, type VlanInfo } from "../../model/device";

export const mac = (b: Buffer) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(":");

/** The parts of an InterfaceInfo the model decides, as the model says they are. */
export function expectedInterface(model: VirtualSwitch, i: LabInterface, id: string) {
  const ethernet = i.ifType === 6;
  const pvid = i.bridgePort === null ? 0 : (model.pvid(i.bridgePort) ?? 0);
  const tagged =
    i.bridgePort === null
      ? []
      : [...model.running.vlans]
          .filter(([vid, v]) => vid !== pvid && v.egress.has(i.bridgePort!))
          .map(([vid]) => vid)
          .sort((a, b) => a - b);
  const poe = model.poeState(i.ifIndex);
  return {
    id,
    name: i.name,
    description: model.alias(i.ifIndex),
    kind: ethernet ? "ethernet" : i.ifType === 161 ? "lag" : "other",
    admin_up: model.adminUp(i.ifIndex),
    oper_up: model.operUp(i.ifIndex),
    speed: i.speedMbps,
    duplex: ethernet && model.operUp(i.ifIndex) ? (i.duplex === "half" ? "Half" : "Full") : "Unknown",
    untagged_vlan: pvid,
    tagged_vlans: tagged,
    routed: i.ipv4 !== null,
    poe: poe
      ? { admin_status: poe.enabled ? "Enabled" : "Disabled", detect_status: POE_DETECT_NAMES[poe.detection] }
      : null,
  };
}

export function actualInterface(iface: InterfaceInfo) {
  return {
    id: iface.id,
    name: iface.name,
    description: iface.description,
    kind: iface.kind,
    admin_up: iface.admin_up,
    oper_up: iface.oper_up,
    speed: iface.speed,
    duplex: iface.duplex,
    untagged_vlan: iface.untagged_vlan,
    tagged_vlans: iface.tagged_vlans,
    routed: iface.routed,
    poe: iface.poe ? { admin_status: iface.poe.admin_status, detect_status: iface.poe.detect_status } : null,
  };
}

type ClientRow = { address: string; vlan: number; ipv4: string[] };
type NeighbourRow = { system_name: string; chassis_id: string; port_name: string; management_address_v4: string };
const byVlanAndAddress = (a: ClientRow, b: ClientRow) =>
  `${a.vlan}/${a.address}`.localeCompare(`${b.vlan}/${b.address}`);

/** The MAC table (with ARP addresses) and LLDP neighbours of one interface, as the model has them. */
export function expectedClients(
  model: VirtualSwitch,
  i: LabInterface,
): { macs: ClientRow[]; neighbors: NeighbourRow[] } {
  const ipOf = new Map<string, string[]>();
  for (const a of model.arp) ipOf.set(mac(a.mac), [...(ipOf.get(mac(a.mac)) ?? []), a.ip]);
  const macs = model.fdb
    .filter((e) => i.bridgePort !== null && e.bridgePort === i.bridgePort)
    .map((e) => ({ address: mac(e.mac), vlan: e.vlan, ipv4: ipOf.get(mac(e.mac)) ?? [] }));
  const neighbors = model.lldp
    .filter((n) => n.localPort === i.bridgePort)
    .map((n) => ({
      system_name: n.sysName,
      chassis_id: n.chassisIdSubtype === 4 ? mac(n.chassisId) : n.chassisId.toString(),
      port_name: n.portIdSubtype === 3 ? mac(n.portId) : n.portId.toString(),
      management_address_v4: n.mgmtIpv4 ?? "",
    }));
  return { macs: macs.sort(byVlanAndAddress), neighbors };
}

/** The same parts of what a driver reported for the interface. */
export function actualClients(iface: InterfaceInfo): { macs: ClientRow[]; neighbors: NeighbourRow[] } {
  return {
    macs: iface.macs.map(({ address, vlan, ipv4 }) => ({ address, vlan, ipv4 })).sort(byVlanAndAddress),
    neighbors: iface.neighbors.map(({ system_name, chassis_id, port_name, management_address_v4 }) => ({
      system_name,
      chassis_id,
      port_name,
      management_address_v4,
    })),
  };
}

export function expectedVlans(model: VirtualSwitch): Array<Pick<VlanInfo, "id" | "name" | "state">> {
  return model.vlanIds().map((id) => {
    const v = model.vlan(id)!;
    return { id, name: v.name, state: v.active ? "Enabled" : "Disabled" };
  });
}

export const vlanView = (vlans: VlanInfo[]) => vlans.map(({ id, name, state }) => ({ id, name, state }));

/**
 * What a consistent untagged-VLAN change of bridge port `bp` to `vlan` leaves, from the
 * configuration before: the PVID is `vlan`; the port is in its egress and untagged sets;
 * it left its old PVID VLAN's untagged set, and that VLAN's egress set too unless it only
 * carried that VLAN tagged (then it stays a tagged member); everything else as it was.
 */
export function expectedUntaggedMove(before: SwitchConfig, bp: number, vlan: number): SwitchConfig {
  const after = cloneConfig(before);
  const oldId = before.pvid.get(bp);
  const old = oldId === undefined || oldId === vlan ? undefined : after.vlans.get(oldId);
  if (old?.untagged.has(bp)) {
    old.untagged.delete(bp);
    old.egress.delete(bp);
  }
  const target = after.vlans.get(vlan)!;
  target.egress.add(bp);
  target.untagged.add(bp);
  after.pvid.set(bp, vlan);
  return after;
}

/** A configuration as plain sorted data, so a failed comparison shows which port or VLAN differs. */
export function configView(c: SwitchConfig) {
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    ports: [...c.ports].sort(([a], [b]) => a - b),
    pvid: [...c.pvid].sort(([a], [b]) => a - b),
    vlans: [...c.vlans]
      .sort(([a], [b]) => a - b)
      .map(([id, v]) => ({
        id,
        name: v.name,
        active: v.active,
        egress: sorted(v.egress),
        untagged: sorted(v.untagged),
      })),
  };
}

/**
 * What a trunk change of bridge port `bp` leaves, from the configuration before: the PVID
 * is `native`; the port is an untagged member of `native` and of no other VLAN; it is in
 * the egress set of `native` and of each VLAN of `tagged`, and of no other; every other
 * port and VLAN as it was. With `tagged` empty this is an access port on `native`.
 */
export function expectedTrunk(
  before: SwitchConfig,
  bp: number,
  native: number,
  tagged: readonly number[],
): SwitchConfig {
  const after = cloneConfig(before);
  for (const [id, v] of after.vlans) {
    if (id === native || tagged.includes(id)) v.egress.add(bp);
    else v.egress.delete(bp);
    if (id === native) v.untagged.add(bp);
    else v.untagged.delete(bp);
  }
  after.pvid.set(bp, native);
  return after;
}
