/**
 * IF-MIB rows (walked as tables or fetched by one GET) -> InterfaceInfo, joined with what
 * the family's parts found for each port (VLANs, PoE) and the IP addresses (routed).
 */
import { dot3StatsDuplexStatus, ifTable, ifXTable } from "../../../mib/oids";
import type { Duplex, InterfaceInfo, InterfaceKind, PoePortInfo } from "../../../model/device";
import type { Varbind } from "../net-snmp-api";
import type { Columns, Scalars } from "../session";
import { asInt, asText } from "../varbind-values";

export interface IfRow {
  ifIndex: number;
  descr: string;
  type: number;
  /** bit/s (ifSpeed) */
  speed: number;
  /** ifMtu, null when the agent has none */
  mtu: number | null;
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
  const mtu = pick(ifTable.ifMtu);
  return {
    ifIndex,
    descr: asText(pick(ifTable.ifDescr)),
    type: asInt(pick(ifTable.ifType)),
    speed: asInt(pick(ifTable.ifSpeed)),
    mtu: mtu ? asInt(mtu) : null,
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

/** What the parts found for one interface: its VLANs and its PoE port. */
export interface PortFacts {
  vlans?: { untagged: number; tagged: number[] };
  poe?: PoePortInfo;
  routed: boolean;
  /** the device's VLAN ids (an untagged VLAN outside them disables the port) */
  vlanIds: ReadonlySet<number>;
}

export function interfaceInfo(row: IfRow, facts: PortFacts): InterfaceInfo {
  const untagged = facts.vlans?.untagged ?? 0;
  const tagged = [...(facts.vlans?.tagged ?? [])].sort((a, b) => a - b);
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
    untagged_vlan: untagged,
    tagged_vlans: tagged,
    routed: facts.routed,
    vrf: "",
    macs: [],
    neighbors: [],
  };
  if (untagged > 0 && !facts.vlanIds.has(untagged))
    info.disabled_reason = `Untagged vlan ${untagged} is NOT defined on switch`;
  if (row.mtu !== null && row.mtu > 0) info.mtu = row.mtu;
  if (facts.poe) info.poe = facts.poe;
  return info;
}

/** ipAdEntIfIndex values: interfaces that hold an IPv4 address. */
export function routedInterfaces(table: Columns | undefined, column: string): Set<number> {
  const out = new Set<number>();
  for (const vb of table?.get(column)?.values() ?? []) out.add(asInt(vb));
  return out;
}
