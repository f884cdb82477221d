/**
 * The tables a learn read -> DeviceSnapshot. Pure: no I/O, so the joins can be checked
 * without an agent.
 */
import { bridge as bridgeMib, ip, qbridge, system } from "../../mib/oids";
import type { DeviceSnapshot, LearnScope } from "../../model/device";
import { bridgePortsFrom } from "./bridge-ports";
import { ipv4ByMac, macsByInterface, neighborsByInterface } from "./client-data";
import { ifRowsFromTables, interfaceInfo, routedInterfaces } from "./interface-rows";
import { devicePoe, poeByInterface, poeRows } from "./poe-tables";
import type { Columns, Scalars } from "./session";
import { asInt, asText, uptimeText } from "./values";
import { membersByVlan, pvidByPort, vlanByFdbId, vlanList } from "./vlan-tables";

/** Everything a learn may have read, by plan key (details-only tables absent in basic). */
export interface LearnedTables {
  system: Scalars;
  ifTable?: Columns;
  ifXTable?: Columns;
  duplex?: Columns;
  bridgePorts?: Columns;
  vlanStatic?: Columns;
  vlanCurrent?: Columns;
  /** fallback: current egress/untagged bitmaps when the static table has none */
  currentMembers?: Columns;
  pvid?: Columns;
  ipAddr?: Columns;
  pse?: Columns;
  psePorts?: Columns;
  fdb?: Columns;
  /** fallback: dot1dTpFdbPort when there is no dot1qTpFdbTable */
  bridgeFdb?: Columns;
  arp?: Columns;
  lldpRem?: Columns;
  lldpManAddr?: Columns;
}

export function driverInfo(values: Scalars): Record<string, string | number> {
  const text = (oid: string) => asText(values.get(`${oid}.0`));
  const descr = text(system.sysDescr);
  const ticks = asInt(values.get(`${system.sysUpTime}.0`));
  return {
    model: descr.split(/\r?\n/)[0].trim(),
    sysDescr: descr,
    sysObjectID: text(system.sysObjectID),
    uptime: uptimeText(ticks),
    uptime_seconds: Math.floor(ticks / 100),
    contact: text(system.sysContact),
    location: text(system.sysLocation),
  };
}

export function buildSnapshot(t: LearnedTables, scope: LearnScope): DeviceSnapshot {
  const bridge = bridgePortsFrom(t.bridgePorts?.get(bridgeMib.dot1dBasePortIfIndex));
  const currentEgress = t.currentMembers?.get(qbridge.dot1qVlanCurrentEgressPorts);
  const vlans = vlanList(t.vlanStatic, t.vlanCurrent, currentEgress);
  const rows = ifRowsFromTables(t.ifTable, t.ifXTable, t.duplex);
  const ifIndexes = new Set(rows.map((r) => r.ifIndex));
  const pse = poeRows(t.psePorts);
  const facts = {
    bridge,
    pvids: pvidByPort(t.pvid?.get(qbridge.dot1qPvid)),
    members: membersByVlan(t.vlanStatic, t.currentMembers),
    vlanIds: new Set(vlans.map((v) => v.id)),
    routedIfIndexes: routedInterfaces(t.ipAddr, ip.ipAdEntIfIndex),
    poe: poeByInterface(pse, { ifIndexes, bridge, names: new Map(rows.map((r) => [r.ifIndex, r.name || r.descr])) }),
  };
  const interfaces = rows.map((row) => interfaceInfo(row, facts));

  if (scope === "details") {
    const macs = macsByInterface(t.fdb, t.bridgeFdb, bridge, vlanByFdbId(t.vlanCurrent), ipv4ByMac(t.arp));
    const neighbors = neighborsByInterface(t.lldpRem, t.lldpManAddr, bridge, ifIndexes);
    for (const iface of interfaces) {
      iface.macs = macs.get(Number(iface.id)) ?? [];
      iface.neighbors = neighbors.get(Number(iface.id)) ?? [];
    }
  }

  return {
    hostname: asText(t.system.get(`${system.sysName}.0`)),
    driver_info: driverInfo(t.system),
    vlans,
    interfaces,
    poe: devicePoe(t.pse, pse),
    scope,
  };
}
