/**
 * BRIDGE-MIB port map and MAC table, Q-BRIDGE-MIB base, PVIDs, VLAN-aware MAC table and
 * VLAN tables. Families serve different parts of these (Cisco IOS no Q-BRIDGE at all,
 * AOS-CX only PVIDs and the MAC table, Junos comma lists instead of bitmaps), so each
 * part is its own function with the family's choices as options.
 */
import { bridge, qbridge } from "../../../mib/oids";
import type { FdbEntry } from "../../hardware";
import type { VirtualSwitch } from "../../model";
import { portListOf } from "../../../mib/portlist";
import type { MibIndexBuilder } from "../mib-index";
import { gauge, integer, noSuchInstance, octets, timeTicks, type SnmpValue } from "../../../mib/smi-values";
import * as lab from "./lab-oids";

/** dot1dBase scalars and the port map, for the given bridge ports (a VLAN context shows some only). */
export function addBridgePorts(b: MibIndexBuilder, sw: VirtualSwitch, ports: readonly number[] = sw.bridgePorts): void {
  const self = (p: number) => [p];
  b.scalar(lab.dot1dBaseBridgeAddress, () => octets(sw.system.baseMac))
    .scalar(lab.dot1dBaseNumPorts, () => integer(ports.length))
    .scalar(lab.dot1dBaseType, () => integer(2))
    .column(lab.dot1dBasePort, ports, self, (p) => integer(p))
    .column(bridge.dot1dBasePortIfIndex, ports, self, (p) => integer(sw.interfaceOfBridgePort(p)!.ifIndex));
}

/** dot1dTpFdbTable, indexed by MAC alone: the first VLAN's entry of a MAC wins. */
export function addDot1dFdb(b: MibIndexBuilder, entries: readonly FdbEntry[]): void {
  const seen = new Set<string>();
  const dot1d: FdbEntry[] = [];
  for (const e of entries) {
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
}

export interface QBridgeBaseView {
  /** serve dot1qPvid and the rest of dot1qPortVlanTable */
  pvid: boolean;
  /** the dot1qFdbId a VLAN learns into (default: the VLAN id) */
  fdbId?: (vlan: number) => number;
}

/** dot1qBase scalars, the VLAN-aware MAC table and (when served) the PVIDs. */
export function addQBridgeBase(b: MibIndexBuilder, sw: VirtualSwitch, view: QBridgeBaseView = { pvid: true }): void {
  const ports = sw.bridgePorts;
  const self = (p: number) => [p];
  b.scalar(lab.dot1qVlanVersionNumber, () => integer(1))
    .scalar(lab.dot1qMaxVlanId, () => integer(4094))
    .scalar(lab.dot1qMaxSupportedVlans, () => gauge(sw.profile.maxVlans))
    .scalar(qbridge.dot1qNumVlans, () => gauge(sw.activeVlanIds().length))
    .scalar(lab.dot1qGvrpStatus, () => integer(2));

  const fdbId = view.fdbId ?? ((vlan: number) => vlan);
  const byFdb = (e: FdbEntry) => [fdbId(e.vlan), ...e.mac];
  b.column(qbridge.dot1qTpFdbPort, sw.fdb, byFdb, (e) => integer(e.bridgePort)).column(
    lab.dot1qTpFdbStatus,
    sw.fdb,
    byFdb,
    () => integer(3),
  );

  if (view.pvid) {
    b.column(qbridge.dot1qPvid, ports, self, (p) => gauge(sw.pvid(p) ?? 0))
      .column(lab.dot1qPortAcceptableFrameTypes, ports, self, () => integer(1))
      .column(lab.dot1qPortIngressFiltering, ports, self, () => integer(2));
  }
}

export type StaticColumn = "name" | "egress" | "forbidden" | "untagged" | "rowStatus";

/** Which VLAN tables a family serves and how. */
export interface VlanTablesView {
  /** dot1qVlanCurrentTable; `trimmed`: PortLists without their trailing zero octets (EOS) */
  current: false | { trimmed?: boolean };
  /** the dot1qVlanStaticTable columns served */
  staticColumns: readonly StaticColumn[];
  /** egress and untagged as text, comma-separated bridge port numbers (ELS Junos) instead of bitmaps */
  commaLists?: boolean;
  /** the name as the agent shows it */
  displayName?: (id: number, name: string) => string;
}

export const FULL_QBRIDGE: VlanTablesView = {
  current: {},
  staticColumns: ["name", "egress", "forbidden", "untagged", "rowStatus"],
};

function trim(list: Buffer): Buffer {
  let end = list.length;
  while (end > 0 && list[end - 1] === 0) end--;
  return list.subarray(0, end);
}

/** The VLAN tables: their rows come and go with VLAN creation and deletion. */
export function addVlanTables(b: MibIndexBuilder, sw: VirtualSwitch, view: VlanTablesView = FULL_QBRIDGE): void {
  const len = sw.portListLength;
  const vlanValue = (id: number, f: (v: NonNullable<ReturnType<VirtualSwitch["vlan"]>>) => SnmpValue) => {
    const v = sw.vlan(id);
    return v ? f(v) : noSuchInstance;
  };
  const bitmap = (ports: Set<number>, trimmed = false) =>
    view.commaLists
      ? octets([...ports].sort((x, y) => x - y).join(","))
      : octets(trimmed ? trim(portListOf(ports, len)) : portListOf(ports, len));

  if (view.current) {
    // dot1qVlanCurrentTable: index timeMark(0).vlan, active VLANs only
    const trimmed = view.current.trimmed ?? false;
    const current = sw.activeVlanIds();
    const byCurrent = (id: number) => [0, id];
    b.column(qbridge.dot1qVlanFdbId, current, byCurrent, (id) => gauge(id))
      .column(qbridge.dot1qVlanCurrentEgressPorts, current, byCurrent, (id) =>
        vlanValue(id, (v) => bitmap(v.egress, trimmed)),
      )
      .column(qbridge.dot1qVlanCurrentUntaggedPorts, current, byCurrent, (id) =>
        vlanValue(id, (v) => bitmap(v.untagged, trimmed)),
      )
      .column(qbridge.dot1qVlanStatus, current, byCurrent, () => integer(2))
      .column(lab.dot1qVlanCreationTime, current, byCurrent, () => timeTicks(0));
  }

  // dot1qVlanStaticTable: index vlan, every row whatever its status
  const statics = sw.vlanIds();
  const byVlan = (id: number) => [id];
  const zeros = Buffer.alloc(len);
  const show = view.displayName ?? ((_id: number, name: string) => name);
  const served = new Set(view.staticColumns);
  if (served.has("name"))
    b.column(qbridge.dot1qVlanStaticName, statics, byVlan, (id) => vlanValue(id, (v) => octets(show(id, v.name))));
  if (served.has("egress"))
    b.column(qbridge.dot1qVlanStaticEgressPorts, statics, byVlan, (id) => vlanValue(id, (v) => bitmap(v.egress)));
  if (served.has("forbidden")) b.column(qbridge.dot1qVlanForbiddenEgressPorts, statics, byVlan, () => octets(zeros));
  if (served.has("untagged"))
    b.column(qbridge.dot1qVlanStaticUntaggedPorts, statics, byVlan, (id) => vlanValue(id, (v) => bitmap(v.untagged)));
  if (served.has("rowStatus")) {
    b.column(qbridge.dot1qVlanStaticRowStatus, statics, byVlan, (id) =>
      vlanValue(id, (v) => integer(v.active ? 1 : 2)),
    );
  }
}
