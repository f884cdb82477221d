/**
 * IF-MIB rows (walked as tables or fetched by one GET) -> InterfaceInfo, joined with
 * the bridge port map, PVIDs, VLAN membership bitmaps, IP addresses and PoE.
 */
import { dot3StatsDuplexStatus, ifTable, ifXTable } from "../../mib/oids";
import type { Duplex, InterfaceInfo, InterfaceKind } from "../../model/device";
import { type BridgePorts, portOfInterface } from "./bridge-ports";
import type { Varbind } from "./net-snmp-api";
import { poePortInfo, type PoeRow } from "./poe-tables";
import { hasPort } from "../../mib/portlist";
import type { Columns, Scalars } from "./session";
import { asInt, asText } from "./values";
import type { VlanMembers } from "./vlan-tables";

export interface IfRow {
  ifIndex: number;
  descr: string;
  type: number;
  /** bit/s (ifSpeed) */
  speed: number;
  admin: number;
  oper: number;
  name: string;
  /** Mbit/s (ifHighSpeed), null when the agent has none */
  highSpeed: number | null;
  alias: string;
  duplex: number;
}

type Pick = (column: string) => Varbind | null | undefined;

function rowOf(ifIndex: number, pick: Pick): IfRow {
  const high = pick(ifXTable.ifHighSpeed);
  return {
    ifIndex,
    descr: asText(pick(ifTable.ifDescr)),
    type: asInt(pick(ifTable.ifType)),
    speed: asInt(pick(ifTable.ifSpeed)),
    admin: asInt(pick(ifTable.ifAdminStatus)),
    oper: asInt(pick(ifTable.ifOperStatus)),
    name: asText(pick(ifXTable.ifName)),
    highSpeed: high ? asInt(high) : null,
    alias: asText(pick(ifXTable.ifAlias)),
    duplex: asInt(pick(dot3StatsDuplexStatus)),
  };
}

/** Every interface either ifTable or ifXTable has a row for. */
export function ifRowsFromTables(...tables: Array<Columns | undefined>): IfRow[] {
  const merged = new Map<string, Map<string, Varbind>>();
  for (const table of tables) for (const [column, cells] of table ?? []) merged.set(column, cells);
  const indexes = new Set<number>();
  for (const column of [ifTable.ifDescr, ifTable.ifType, ifTable.ifAdminStatus, ifXTable.ifName]) {
    for (const index of merged.get(column)?.keys() ?? []) if (/^\d+$/.test(index)) indexes.add(Number(index));
  }
  return [...indexes].map((ifIndex) => rowOf(ifIndex, (column) => merged.get(column)?.get(String(ifIndex))));
}

/** One row from a GET of `${column}.${ifIndex}` objects; null when the interface does not exist. */
export function ifRowFromGet(values: Scalars, ifIndex: number): IfRow | null {
  const pick: Pick = (column) => values.get(`${column}.${ifIndex}`);
  const exists = [ifTable.ifDescr, ifTable.ifType, ifTable.ifAdminStatus, ifXTable.ifName].some((c) => pick(c));
  return exists ? rowOf(ifIndex, pick) : null;
}

export function interfaceKind(ifType: number): InterfaceKind {
  // ethernetCsmacd, gigabitEthernet, fastEther, fastEtherFX; ieee8023adLag
  if (ifType === 6 || ifType === 117 || ifType === 62 || ifType === 69) return "ethernet";
  if (ifType === 161) return "lag";
  return "other";
}

const duplexNames: Record<number, Duplex> = { 2: "Half", 3: "Full" };

export interface MembershipFacts {
  bridge: BridgePorts;
  /** bridge port -> PVID */
  pvids: Map<number, number>;
  members: Map<number, VlanMembers>;
  vlanIds: Set<number>;
  routedIfIndexes: Set<number>;
  poe: Map<number, PoeRow>;
}

export function interfaceInfo(row: IfRow, facts: MembershipFacts): InterfaceInfo {
  const port = portOfInterface(facts.bridge, row.ifIndex);
  const pvid = port === null ? 0 : (facts.pvids.get(port) ?? 0);
  const tagged: number[] = [];
  if (port !== null) {
    for (const [vlan, members] of facts.members) {
      // an untagged member of a VLAN other than its PVID is not tagged there either
      const untagged = members.untagged !== null && hasPort(members.untagged, port);
      if (vlan !== pvid && !untagged && hasPort(members.egress, port)) tagged.push(vlan);
    }
  }
  tagged.sort((a, b) => a - b);
  const speed = row.highSpeed !== null && row.highSpeed > 0 ? row.highSpeed : Math.floor(row.speed / 1_000_000);
  const info: InterfaceInfo = {
    id: String(row.ifIndex),
    name: row.name || row.descr || `ifIndex ${row.ifIndex}`,
    description: row.alias,
    kind: interfaceKind(row.type),
    if_type: row.type,
    admin_up: row.admin === 1,
    oper_up: row.oper === 1,
    speed,
    duplex: duplexNames[row.duplex] ?? "Unknown",
    untagged_vlan: pvid,
    tagged_vlans: tagged,
    routed: facts.routedIfIndexes.has(row.ifIndex),
    vrf: "",
    macs: [],
    neighbors: [],
  };
  if (pvid > 0 && !facts.vlanIds.has(pvid)) info.disabled_reason = `Untagged vlan ${pvid} is NOT defined on switch`;
  const poe = facts.poe.get(row.ifIndex);
  if (poe) info.poe = poePortInfo(poe);
  return info;
}

/** ipAdEntIfIndex values: interfaces that hold an IPv4 address. */
export function routedInterfaces(table: Columns | undefined, column: string): Set<number> {
  const out = new Set<number>();
  for (const vb of table?.get(column)?.values() ?? []) out.add(asInt(vb));
  return out;
}
