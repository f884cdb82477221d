/**
 * Q-BRIDGE VLAN tables -> the VLAN list and memberships. A VLAN exists when either the
 * static table (configured VLANs) or the current table (VLANs in use, dynamic ones too)
 * has a row for it; some agents fill only one of the two.
 */
import { qbridge } from "../../../mib/oids";
import type { VlanInfo, VlanStatus } from "../../../model/device";
import type { Varbind } from "../net-snmp-api";
import type { Columns } from "../session";
import { asBytes, asInt, asText } from "../varbind-values";

type Column = Map<string, Varbind> | undefined;

/** dot1qVlanCurrentTable is indexed timeMark.vlanIndex: the VLAN is the last arc. */
function vlanOfCurrentIndex(index: string): number {
  return Number(index.slice(index.lastIndexOf(".") + 1));
}

const statusNames: Record<number, VlanStatus> = { 1: "Other", 2: "Permanent", 3: "Dynamic" };

export function vlanList(
  staticTable: Columns | undefined,
  currentTable: Columns | undefined,
  currentEgress?: Column,
): VlanInfo[] {
  const names: Column = staticTable?.get(qbridge.dot1qVlanStaticName);
  const rowStatus: Column = staticTable?.get(qbridge.dot1qVlanStaticRowStatus);
  const status: Column = currentTable?.get(qbridge.dot1qVlanStatus);
  const vlans = new Map<number, VlanInfo>();
  const add = (id: number): VlanInfo => {
    let vlan = vlans.get(id);
    if (!vlan) {
      vlan = { id, name: "", state: "Enabled", status: "Permanent" };
      vlans.set(id, vlan);
    }
    return vlan;
  };
  for (const [index, vb] of names ?? []) add(Number(index)).name = asText(vb);
  for (const [index, vb] of rowStatus ?? []) {
    // RowStatus notInService(2) / notReady(3): configured but not forwarding
    const value = asInt(vb);
    add(Number(index)).state = value === 2 || value === 3 ? "Disabled" : "Enabled";
  }
  // rows of the current table's bitmaps (read when the static table had none) are VLANs too
  for (const index of currentEgress?.keys() ?? []) add(vlanOfCurrentIndex(index));
  // the current table says how the VLAN came to be (configured, built in, learned by GVRP)
  for (const [index, vb] of status ?? []) {
    const vlan = add(vlanOfCurrentIndex(index));
    vlan.status = statusNames[asInt(vb)] ?? vlan.status;
  }
  return [...vlans.values()].filter((v) => v.id >= 1 && v.id <= 4094).sort((a, b) => a.id - b.id);
}

export interface VlanMembers {
  egress: Buffer;
  /** null when the agent has no untagged bitmap for the VLAN */
  untagged: Buffer | null;
}

/**
 * Egress and untagged bitmaps per VLAN: the static (configured) ones, or when the device
 * has none the current ones (the fallback read, a Columns of the current table).
 */
export function membersByVlan(
  staticTable: Columns | undefined,
  currentTable: Columns | undefined,
): Map<number, VlanMembers> {
  const out = new Map<number, VlanMembers>();
  const staticEgress = staticTable?.get(qbridge.dot1qVlanStaticEgressPorts);
  if (staticEgress && staticEgress.size > 0) {
    const untagged = staticTable?.get(qbridge.dot1qVlanStaticUntaggedPorts);
    for (const [index, vb] of staticEgress) {
      const u = untagged?.get(index);
      out.set(Number(index), { egress: asBytes(vb), untagged: u ? asBytes(u) : null });
    }
    return out;
  }
  const untagged = currentTable?.get(qbridge.dot1qVlanCurrentUntaggedPorts);
  for (const [index, vb] of currentTable?.get(qbridge.dot1qVlanCurrentEgressPorts) ?? []) {
    const u = untagged?.get(index);
    out.set(vlanOfCurrentIndex(index), { egress: asBytes(vb), untagged: u ? asBytes(u) : null });
  }
  return out;
}

/** dot1qPvid: bridge port -> untagged VLAN */
export function pvidByPort(column: Column): Map<number, number> {
  const out = new Map<number, number>();
  for (const [index, vb] of column ?? []) out.set(Number(index), asInt(vb));
  return out;
}

/** fdbId -> VLAN, where exactly one VLAN uses the filtering database (IVL switches). */
export function vlanByFdbId(currentTable: Columns | undefined): Map<number, number> {
  const fdbIds = currentTable?.get(qbridge.dot1qVlanFdbId);
  const byFdb = new Map<number, number | null>();
  for (const [index, vb] of fdbIds ?? []) {
    const fdb = asInt(vb);
    const vlan = vlanOfCurrentIndex(index);
    byFdb.set(fdb, byFdb.has(fdb) && byFdb.get(fdb) !== vlan ? null : vlan);
  }
  const out = new Map<number, number>();
  for (const [fdb, vlan] of byFdb) if (vlan !== null) out.set(fdb, vlan);
  return out;
}

/**
 * Does the first read need the current table's bitmaps as a fallback? Yes when the device
 * has static VLAN rows but no static bitmaps (memberships come from the current table
 * then), or no dot1qVlanStatus (VLANs that exist only in the current table, such as a
 * built-in VLAN 1, are seen through its bitmaps then). A device without Q-BRIDGE static
 * rows costs nothing extra.
 */
export function needsCurrentTable(staticTable: Columns | undefined, currentTable: Columns | undefined): boolean {
  const hasStaticRows =
    (staticTable?.get(qbridge.dot1qVlanStaticName)?.size ?? 0) > 0 ||
    (staticTable?.get(qbridge.dot1qVlanStaticRowStatus)?.size ?? 0) > 0;
  if (!hasStaticRows) return false;
  const staticEgress = staticTable?.get(qbridge.dot1qVlanStaticEgressPorts);
  const noStaticBitmaps = staticEgress !== undefined && staticEgress.size === 0;
  const noStatus = (currentTable?.get(qbridge.dot1qVlanStatus)?.size ?? 0) === 0;
  return noStaticBitmaps || noStatus;
}
