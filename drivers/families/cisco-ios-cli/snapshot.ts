/**
 * The driver contract's shapes from parsed IOS output. Several commands describe one
 * interface, each in its own spelling of the name; they meet under the long name
 * (interface-names.ts). `show interfaces description` lists every interface and decides
 * which exist; the other commands add what they know.
 */
import type {
  DevicePoe,
  InterfaceInfo,
  LldpNeighbor,
  MacEntry,
  PoeDetect,
  PoePortInfo,
  VlanInfo,
} from "../../../model/device";
import { interfaceClass, longName, nameKey } from "./interface-names";
import type { DescriptionRow } from "./parse-interfaces-description";
import { duplexOf, speedMbps, type StatusRow } from "./parse-interfaces-status";
import type { ArpRow } from "./parse-ip-arp";
import type { IpBriefRow } from "./parse-ip-interface-brief";
import type { LldpRow } from "./parse-lldp-neighbors";
import type { MacRow } from "./parse-mac-table";
import type { PowerInline, PowerRow } from "./parse-power-inline";
import { expandVlanList, type SwitchportRow } from "./parse-switchport";
import type { VlanRow } from "./parse-vlan-brief";

export interface IosReadings {
  description: DescriptionRow[];
  status: StatusRow[];
  switchport: SwitchportRow[];
  power: PowerRow[];
  ipBrief: IpBriefRow[];
  /** details scope */
  macs?: MacRow[];
  arp?: ArpRow[];
  lldp?: LldpRow[];
}

/**
 * VLANs of `show vlan brief`. The Token Ring and FDDI defaults (1002-1005,
 * "act/unsup") exist on every IOS switch but no Ethernet port can use them.
 */
export function vlanInfos(rows: readonly VlanRow[]): VlanInfo[] {
  return rows
    .filter((r) => r.status !== "act/unsup")
    .map((r) => ({
      id: r.id,
      name: r.name,
      state: r.status === "active" ? ("Enabled" as const) : ("Disabled" as const),
      status: "Permanent" as const,
    }))
    .sort((a, b) => a.id - b.id);
}

function byName<T>(rows: readonly T[] | undefined, key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows ?? []) {
    const k = nameKey(key(row));
    out.set(k, [...(out.get(k) ?? []), row]);
  }
  return out;
}

const vlanNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : 0);

export function interfaceInfos(r: IosReadings, vlans: readonly VlanInfo[]): InterfaceInfo[] {
  const vlanIds = new Set(vlans.map((v) => v.id));
  const status = byName(r.status, (x) => x.port);
  const switchport = byName(r.switchport, (x) => x.interface);
  const power = byName(r.power, (x) => x.interface);
  const ip = byName(r.ipBrief, (x) => x.interface);
  const ipOf = new Map<string, string[]>();
  for (const a of r.arp ?? []) {
    const mac = colonMac(a.mac);
    ipOf.set(mac, [...(ipOf.get(mac) ?? []), a.ip]);
  }
  const macs = byName(r.macs, (x) => x.port);
  const lldp = byName(r.lldp, (x) => x.localInterface);

  return r.description.map((d) => {
    const key = nameKey(d.interface);
    const name = longName(d.interface);
    const { kind, ifType } = interfaceClass(name);
    const st = status.get(key)?.[0];
    const sp = switchport.get(key)?.[0];
    const adminUp = d.status !== "admin down" && d.status !== "deleted";
    const operUp = adminUp && d.protocol === "up";
    const vlan = switchportVlans(sp, vlanIds);
    const address = ip.get(key)?.[0]?.address ?? "unassigned";
    const info: InterfaceInfo = {
      id: name,
      name,
      description: d.description,
      kind,
      if_type: ifType,
      admin_up: adminUp,
      oper_up: operUp,
      speed: st ? speedMbps(st.speed) : 0,
      duplex: st && operUp ? duplexOf(st.duplex) : "Unknown",
      untagged_vlan: vlan.untagged,
      tagged_vlans: vlan.tagged,
      routed: address !== "unassigned" || st?.vlan === "routed",
      vrf: "",
      macs: (macs.get(key) ?? []).map((m): MacEntry => {
        const address = colonMac(m.mac);
        return { address, vlan: m.vlan, ipv4: ipOf.get(address) ?? [], ipv6: [] };
      }),
      neighbors: (lldp.get(key) ?? []).map(neighbor),
    };
    if (vlan.untagged > 0 && !vlanIds.has(vlan.untagged))
      info.disabled_reason = `Untagged vlan ${vlan.untagged} is NOT defined on switch`;
    const p = power.get(key)?.[0];
    if (p) info.poe = poePortInfo(p);
    return info;
  });
}

/**
 * Untagged and tagged VLANs of a switchport. A trunk sends its native VLAN untagged and
 * the allowed VLANs tagged; an access port its access VLAN untagged and its voice VLAN
 * (if any) tagged. A routed port ("Switchport: Disabled") has none.
 */
export function switchportVlans(
  sp: SwitchportRow | undefined,
  vlanIds: ReadonlySet<number>,
): { untagged: number; tagged: number[]; trunk: boolean } {
  if (!sp || sp.switchport !== "Enabled") return { untagged: 0, tagged: [], trunk: false };
  const trunk = isTrunk(sp);
  if (trunk) {
    const native = vlanNumber(sp.nativeVlan);
    return { untagged: native, tagged: expandVlanList(sp.trunkingVlans, vlanIds).filter((v) => v !== native), trunk };
  }
  const access = vlanNumber(sp.accessVlan);
  const voice = vlanNumber(sp.voiceVlan);
  return { untagged: access, tagged: voice > 0 && voice !== access ? [voice] : [], trunk };
}

export function isTrunk(sp: SwitchportRow): boolean {
  return sp.adminMode === "trunk" || sp.operMode.startsWith("trunk");
}

const detectOf: Record<string, PoeDetect> = {
  on: "Delivering",
  off: "Searching",
  faulty: "Fault",
  "power-deny": "Fault",
  "err-disable": "Fault",
};

export function poePortInfo(p: PowerRow): PoePortInfo {
  // "never" shows as Admin "off"; "auto" and "static" both supply power
  const enabled = p.admin !== "off";
  return {
    admin_status: enabled ? "Enabled" : "Disabled",
    detect_status: enabled ? (detectOf[p.oper] ?? "Unknown Fault") : "Disabled",
    power_consumption_supported: true,
    power_consumed: Math.round(p.power * 1000),
    power_available: Math.round(p.max * 1000),
    max_power_consumed: Math.round(p.max * 1000),
  };
}

export function devicePoe(power: PowerInline | null): DevicePoe | null {
  if (!power || (power.budgets.length === 0 && power.ports.length === 0)) return null;
  const supplies = power.budgets.map((b) => ({
    id: b.module,
    max_power: Math.round(b.available),
    status: "On" as const,
    power_consumed: Math.round(b.used),
    threshold: 0,
  }));
  return {
    enabled: true,
    max_power: supplies.reduce((s, x) => s + x.max_power, 0),
    power_consumed: supplies.reduce((s, x) => s + x.power_consumed, 0),
    supplies,
  };
}

const DOTTED_MAC = /^([0-9a-f]{4})\.([0-9a-f]{4})\.([0-9a-f]{4})$/i;
const COLON_MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;

/** 0050.5600.0001 -> 00:50:56:00:00:01 */
export function colonMac(dotted: string): string {
  const m = DOTTED_MAC.exec(dotted);
  if (!m) return dotted.toLowerCase();
  return (m[1] + m[2] + m[3]).toLowerCase().match(/../g)!.join(":");
}

/** an LLDP id: MAC addresses in colon form, anything else as printed */
function idText(text: string): { text: string; mac: boolean } {
  if (DOTTED_MAC.test(text)) return { text: colonMac(text), mac: true };
  if (COLON_MAC.test(text)) return { text: text.toLowerCase().replace(/-/g, ":"), mac: true };
  return { text, mac: false };
}

// IOS capability letters, in LLDP-MIB bit order (as the SNMP drivers name them)
const CAPABILITIES: Array<[string, string]> = [
  ["O", "Other"],
  ["r", "Repeater"],
  ["B", "Switch"],
  ["W", "Wireless AP"],
  ["R", "Router"],
  ["T", "Phone"],
  ["C", "Docsis"],
  ["S", "Station"],
];

function capabilityNames(letters: string): string {
  const have = new Set(letters.split(/[,\s]+/).filter(Boolean));
  return CAPABILITIES.filter(([l]) => have.has(l))
    .map(([, n]) => n)
    .join(", ");
}

function neighbor(n: LldpRow): LldpNeighbor {
  const chassis = idText(n.chassisId);
  const port = idText(n.portId);
  return {
    port_name: port.text,
    port_description: n.portDescription,
    system_name: n.systemName,
    system_description: n.systemDescription.replace(/\n/g, " "),
    chassis_id: chassis.text,
    // LLDP chassis id subtypes: 4 macAddress, 5 networkAddress, 7 local
    chassis_type: chassis.mac ? 4 : /^\d+\.\d+\.\d+\.\d+$/.test(n.chassisId) ? 5 : 7,
    capabilities: capabilityNames(n.enabledCapabilities || n.capabilities),
    management_address_v4: n.managementIpv4,
    management_address_v6: n.managementIpv6,
  };
}
