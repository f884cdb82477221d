/** BRIDGE-MIB port map and MAC table, Q-BRIDGE-MIB base, PVIDs, VLAN-aware MAC table and VLAN tables. */
import { bridge, qbridge } from "../../../mib/oids";
import type { FdbEntry } from "../../hardware";
import type { VirtualSwitch } from "../../model";
import { portListOf } from "../../../mib/portlist";
import type { MibIndexBuilder } from "../mib-index";
import { gauge, integer, noSuchInstance, octets, timeTicks, type SnmpValue } from "../values";
import * as lab from "./lab-oids";

export function addBridge(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const ports = sw.bridgePorts;
  const self = (p: number) => [p];
  b.scalar(lab.dot1dBaseBridgeAddress, () => octets(sw.system.baseMac))
    .scalar(lab.dot1dBaseNumPorts, () => integer(ports.length))
    .scalar(lab.dot1dBaseType, () => integer(2))
    .column(lab.dot1dBasePort, ports, self, (p) => integer(p))
    .column(bridge.dot1dBasePortIfIndex, ports, self, (p) => integer(sw.interfaceOfBridgePort(p)!.ifIndex));

  // dot1dTpFdbTable is indexed by MAC alone: the first VLAN's entry wins.
  const seen = new Set<string>();
  const dot1d: FdbEntry[] = [];
  for (const e of sw.fdb) {
    const key = e.mac.toString("hex");
    if (!seen.has(key)) {
      seen.add(key);
      dot1d.push(e);
    }
  }
  const byMac = (e: FdbEntry) => [...e.mac];
  b.column(lab.dot1dTpFdbAddress, dot1d, byMac, (e) => octets(e.mac))
    .column(bridge.dot1dTpFdbPort, dot1d, byMac, (e) => integer(e.bridgePort))
    .column(lab.dot1dTpFdbStatus, dot1d, byMac, () => integer(3));

  b.scalar(lab.dot1qVlanVersionNumber, () => integer(1))
    .scalar(lab.dot1qMaxVlanId, () => integer(4094))
    .scalar(lab.dot1qMaxSupportedVlans, () => gauge(sw.profile.maxVlans))
    .scalar(qbridge.dot1qNumVlans, () => gauge(sw.activeVlanIds().length))
    .scalar(lab.dot1qGvrpStatus, () => integer(2));

  const byFdb = (e: FdbEntry) => [e.vlan, ...e.mac];
  b.column(qbridge.dot1qTpFdbPort, sw.fdb, byFdb, (e) => integer(e.bridgePort))
    .column(lab.dot1qTpFdbStatus, sw.fdb, byFdb, () => integer(3));

  b.column(qbridge.dot1qPvid, ports, self, (p) => gauge(sw.pvid(p) ?? 0))
    .column(lab.dot1qPortAcceptableFrameTypes, ports, self, () => integer(1))
    .column(lab.dot1qPortIngressFiltering, ports, self, () => integer(2));
}

/** The VLAN tables: their rows come and go with VLAN creation and deletion. */
export function addVlanTables(b: MibIndexBuilder, sw: VirtualSwitch): void {

  const len = sw.portListLength;
  const vlanValue = (id: number, f: (v: NonNullable<ReturnType<VirtualSwitch["vlan"]>>) => SnmpValue) => {
    const v = sw.vlan(id);
    return v ? f(v) : noSuchInstance;
  };
  // dot1qVlanCurrentTable: index timeMark(0).vlan, active VLANs only
  const current = sw.activeVlanIds();
  const byCurrent = (id: number) => [0, id];
  b.column(qbridge.dot1qVlanFdbId, current, byCurrent, (id) => gauge(id))
    .column(qbridge.dot1qVlanCurrentEgressPorts, current, byCurrent, (id) =>
      vlanValue(id, (v) => octets(portListOf(v.egress, len))),
    )
    .column(qbridge.dot1qVlanCurrentUntaggedPorts, current, byCurrent, (id) =>
      vlanValue(id, (v) => octets(portListOf(v.untagged, len))),
    )
    .column(qbridge.dot1qVlanStatus, current, byCurrent, () => integer(2))
    .column(lab.dot1qVlanCreationTime, current, byCurrent, () => timeTicks(0));

  // dot1qVlanStaticTable: index vlan, every row whatever its status
  const statics = sw.vlanIds();
  const byVlan = (id: number) => [id];
  const zeros = Buffer.alloc(len);
  b.column(qbridge.dot1qVlanStaticName, statics, byVlan, (id) => vlanValue(id, (v) => octets(v.name)))
    .column(qbridge.dot1qVlanStaticEgressPorts, statics, byVlan, (id) =>
      vlanValue(id, (v) => octets(portListOf(v.egress, len))),
    )
    .column(qbridge.dot1qVlanForbiddenEgressPorts, statics, byVlan, () => octets(zeros))
    .column(qbridge.dot1qVlanStaticUntaggedPorts, statics, byVlan, (id) =>
      vlanValue(id, (v) => octets(portListOf(v.untagged, len))),
    )
    .column(qbridge.dot1qVlanStaticRowStatus, statics, byVlan, (id) => vlanValue(id, (v) => integer(v.active ? 1 : 2)));
}
