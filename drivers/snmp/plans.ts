/**
 * The read plans of the generic driver: per scope, every table it reads and, per table,
 * only the columns something in the snapshot is built from. Tables in one plan are
 * independent and run concurrently; a fallback that depends on an answer (static VLAN
 * bitmaps missing -> current ones) is a second, usually empty, plan.
 */
import { bridge, dot3StatsDuplexStatus, ifTable, ifXTable, ip, lldp, poe, qbridge, system } from "../../mib/oids";
import type { ColumnRead, ScalarRead } from "./session";

export const systemScalars = [
  system.sysDescr,
  system.sysObjectID,
  system.sysUpTime,
  system.sysContact,
  system.sysName,
  system.sysLocation,
].map((oid) => `${oid}.0`);

const systemRead = { label: "system group", scalars: systemScalars } satisfies ScalarRead;

/** ifTable columns used by the snapshot (ifSpeed only where ifHighSpeed is missing). */
export const ifTableColumns = [ifTable.ifDescr, ifTable.ifType, ifTable.ifSpeed, ifTable.ifAdminStatus, ifTable.ifOperStatus];
export const ifXTableColumns = [ifXTable.ifName, ifXTable.ifHighSpeed, ifXTable.ifAlias];

const interfaceReads = {
  ifTable: { label: "ifTable", columns: ifTableColumns },
  ifXTable: { label: "ifXTable", columns: ifXTableColumns },
  duplex: { label: "dot3StatsTable", columns: [dot3StatsDuplexStatus] },
} satisfies Record<string, ColumnRead>;

/** bridge port -> ifIndex; absent on devices without BRIDGE-MIB (port == ifIndex then) */
const bridgePortsRead = { label: "dot1dBasePortTable", columns: [bridge.dot1dBasePortIfIndex] } satisfies ColumnRead;

/** VLAN list: names and row state from the static table, status from the current one */
const vlanListReads = {
  vlanStatic: {
    label: "dot1qVlanStaticTable",
    columns: [qbridge.dot1qVlanStaticName, qbridge.dot1qVlanStaticRowStatus],
    rows: 32,
  },
  vlanCurrent: { label: "dot1qVlanCurrentTable", columns: [qbridge.dot1qVlanStatus], rows: 32 },
} satisfies Record<string, ColumnRead>;

/** VLAN list plus static egress and untagged bitmaps (tagged = egress, not untagged, not PVID) */
const vlanMemberReads = {
  vlanStatic: {
    label: "dot1qVlanStaticTable",
    columns: [
      qbridge.dot1qVlanStaticName,
      qbridge.dot1qVlanStaticRowStatus,
      qbridge.dot1qVlanStaticEgressPorts,
      qbridge.dot1qVlanStaticUntaggedPorts,
    ],
    rows: 32,
  },
  vlanCurrent: vlanListReads.vlanCurrent,
} satisfies Record<string, ColumnRead>;

const ipAddrRead = { label: "ipAddrTable", columns: [ip.ipAdEntIfIndex], rows: 16 } satisfies ColumnRead;

const poePortsRead = {
  label: "pethPsePortTable",
  columns: [poe.pethPsePortAdminEnable, poe.pethPsePortDetectionStatus],
} satisfies ColumnRead;

const poeReads = {
  pse: {
    label: "pethMainPseTable",
    columns: [poe.pethMainPsePower, poe.pethMainPseOperStatus, poe.pethMainPseConsumptionPower, poe.pethMainPseUsageThreshold],
    rows: 4,
  },
  psePorts: poePortsRead,
} satisfies Record<string, ColumnRead>;

export const basicPlan = {
  system: systemRead,
  ...interfaceReads,
  bridgePorts: bridgePortsRead,
  ...vlanMemberReads,
  pvid: { label: "dot1qPortVlanTable", columns: [qbridge.dot1qPvid] },
  ipAddr: ipAddrRead,
  ...poeReads,
} satisfies Record<string, ColumnRead | ScalarRead>;

/** details = basic + forwarding table, ARP, LLDP neighbours; fdb ids resolve to VLANs */
export const detailsPlan = {
  ...basicPlan,
  vlanCurrent: {
    label: "dot1qVlanCurrentTable",
    columns: [qbridge.dot1qVlanStatus, qbridge.dot1qVlanFdbId],
    rows: 32,
  },
  fdb: { label: "dot1qTpFdbTable", columns: [qbridge.dot1qTpFdbPort], rows: 100 },
  arp: { label: "ipNetToMediaTable", columns: [ip.ipNetToMediaPhysAddress], rows: 50 },
  lldpRem: {
    label: "lldpRemTable",
    columns: [
      lldp.lldpRemChassisIdSubtype,
      lldp.lldpRemChassisId,
      lldp.lldpRemPortIdSubtype,
      lldp.lldpRemPortId,
      lldp.lldpRemPortDesc,
      lldp.lldpRemSysName,
      lldp.lldpRemSysDesc,
      lldp.lldpRemSysCapEnabled,
    ],
    rows: 16,
  },
  lldpManAddr: { label: "lldpRemManAddrTable", columns: [lldp.lldpRemManAddrIfSubtype], rows: 16 },
} satisfies Record<string, ColumnRead | ScalarRead>;

/** Fallbacks, read only when the first plan came back without them. */
export const currentMembersRead = {
  label: "dot1qVlanCurrentTable",
  columns: [qbridge.dot1qVlanCurrentEgressPorts, qbridge.dot1qVlanCurrentUntaggedPorts],
  rows: 32,
} satisfies ColumnRead;
export const bridgeFdbRead = { label: "dot1dTpFdbTable", columns: [bridge.dot1dTpFdbPort], rows: 100 } satisfies ColumnRead;

/** What a write to one interface checks: VLAN list + memberships, routed, PoE, bridge map. */
export const interfaceContextPlan = {
  ...vlanMemberReads,
  ipAddr: ipAddrRead,
  psePorts: poePortsRead,
} satisfies Record<string, ColumnRead | ScalarRead>;

export const vlanListPlan = vlanListReads;

export { bridgePortsRead, poePortsRead };

/** The GET of one interface row (plus the guesses that save a round trip, see generic.ts). */
export function interfaceRowOids(ifIndex: number): string[] {
  return [...ifTableColumns, ...ifXTableColumns, dot3StatsDuplexStatus].map((column) => `${column}.${ifIndex}`);
}
