/**
 * POWER-ETHERNET-MIB -> per-port PoE state and the device's power supplies.
 *
 * RFC 3621 indexes ports by group.port and leaves their link to interfaces to the vendor.
 * The rule used here, first match wins:
 *  1. `port` is the ifIndex of a bridge port (or of any interface when the device has no
 *     bridge port table): Linksys, Cisco SB and HP number PoE ports by ifIndex;
 *  2. group 1 and `port` is a bridge port number: that bridge port's interface;
 *  3. the interface whose ifName ends in "<group>/<port>" after a non-digit (the
 *     OpenL2M's rule; fits names such as "Gi1/5" with group 1 port 5).
 */
import { poe } from "../../../mib/oids";
import {
  POE_DETECT_NAMES,
  type DevicePoe,
  type PoeDetect,
  type PoePortInfo,
  type PowerSupplyInfo,
} from "../../../model/device";
import { type BridgePorts, interfaceOfPort } from "./bridge-ports";
import type { Columns } from "../session";
import { asInt } from "../varbind-values";

export interface PoeRow {
  /** "group.port", the pethPsePortTable index */
  index: string;
  group: number;
  port: number;
  admin: number;
  /** null when the agent has no pethPsePortDetectionStatus */
  detection: number | null;
}

export function poeRows(table: Columns | undefined): PoeRow[] {
  const admin = table?.get(poe.pethPsePortAdminEnable);
  const detection = table?.get(poe.pethPsePortDetectionStatus);
  const indexes = new Set([...(admin?.keys() ?? []), ...(detection?.keys() ?? [])]);
  const rows: PoeRow[] = [];
  for (const index of indexes) {
    const [group, port] = index.split(".").map(Number);
    if (!Number.isInteger(group) || !Number.isInteger(port)) continue;
    const d = detection?.get(index);
    rows.push({ index, group, port, admin: asInt(admin?.get(index)), detection: d ? asInt(d) : null });
  }
  return rows;
}

export interface InterfaceFacts {
  ifIndexes: Set<number>;
  names: Map<number, string>;
  bridge: BridgePorts;
}

function bySuffix(row: PoeRow, names: Map<number, string>): number | null {
  const suffix = `${row.group}/${row.port}`;
  for (const [ifIndex, name] of names) {
    if (!name.endsWith(suffix)) continue;
    const before = name.charAt(name.length - suffix.length - 1);
    if (before === "" || !/\d/.test(before)) return ifIndex;
  }
  return null;
}

/** ifIndex -> its PoE row, by the rule in the file comment. */
export function poeByInterface(rows: PoeRow[], facts: InterfaceFacts): Map<number, PoeRow> {
  const out = new Map<number, PoeRow>();
  const isBridgeInterface = (ifIndex: number) =>
    facts.ifIndexes.has(ifIndex) && (facts.bridge.assumed || facts.bridge.ifToPort.has(ifIndex));
  for (const row of rows) {
    let ifIndex: number | null = null;
    if (isBridgeInterface(row.port)) ifIndex = row.port;
    else if (row.group === 1 && !facts.bridge.assumed) ifIndex = interfaceOfPort(facts.bridge, row.port);
    if (ifIndex === null || !facts.ifIndexes.has(ifIndex)) ifIndex = bySuffix(row, facts.names);
    if (ifIndex !== null && !out.has(ifIndex)) out.set(ifIndex, row);
  }
  return out;
}

export function poePortInfo(row: PoeRow): PoePortInfo {
  const enabled = row.admin === 1;
  // without a detection status, an enabled port is taken to be looking for a device
  const detect: PoeDetect =
    row.detection === null
      ? enabled
        ? "Searching"
        : "Disabled"
      : (POE_DETECT_NAMES[row.detection] ?? "Unknown Fault");
  return {
    admin_status: enabled ? "Enabled" : "Disabled",
    detect_status: detect,
    power_consumption_supported: false,
    power_consumed: 0,
    power_available: 0,
    max_power_consumed: 0,
  };
}

const supplyStatus: Record<number, PowerSupplyInfo["status"]> = { 1: "On", 2: "Off", 3: "Fault" };

/** The device-level PoE view; null when the device shows neither supplies nor PoE ports. */
export function devicePoe(pseTable: Columns | undefined, portRows: number): DevicePoe | null {
  const power = pseTable?.get(poe.pethMainPsePower);
  const oper = pseTable?.get(poe.pethMainPseOperStatus);
  const consumed = pseTable?.get(poe.pethMainPseConsumptionPower);
  const threshold = pseTable?.get(poe.pethMainPseUsageThreshold);
  const groups = new Set([...(power?.keys() ?? []), ...(oper?.keys() ?? [])]);
  const supplies: PowerSupplyInfo[] = [...groups]
    .map((group) => ({
      id: Number(group),
      max_power: asInt(power?.get(group)),
      status: supplyStatus[asInt(oper?.get(group))] ?? "Off",
      power_consumed: asInt(consumed?.get(group)),
      threshold: asInt(threshold?.get(group)),
    }))
    .sort((a, b) => a.id - b.id);
  if (supplies.length === 0 && portRows === 0) return null;
  return {
    // ports without any supply row: the agent only shows ports, PoE is there
    enabled: supplies.length === 0 ? true : supplies.some((s) => s.status === "On"),
    max_power: supplies.reduce((sum, s) => sum + s.max_power, 0),
    power_consumed: supplies.reduce((sum, s) => sum + s.power_consumed, 0),
    supplies,
  };
}
