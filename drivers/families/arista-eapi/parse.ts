/**
 * EOS's JSON answers (reference/api-drivers.md 2.6) read into the shapes of model/device.ts.
 * Every answer is untrusted input: a key that is missing or of another type is read as
 * absent, never trusted as it stands.
 *
 *   show interfaces [X]           name, status, speed, duplex, MTU, addresses, LAG membership
 *   show interfaces [X] switchport  mode, access VLAN, native VLAN (the untagged VLAN)
 *   show vlan                     VLANs and the interfaces that carry each (tagged VLANs)
 *   show mac address-table, show ip arp, show lldp neighbors detail   the details view
 */
import type { Duplex, InterfaceInfo, InterfaceKind, LldpNeighbor, MacEntry, VlanInfo } from "../../../model/device";
import { naturalCompare } from "../../../model/natural-order";

type Obj = Record<string, unknown>;

export function obj(value: unknown): Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** "0011.2233.4455" (or any 12 hex digits) -> "00:11:22:33:44:55"; other text as it is */
export function colonMac(text: string): string {
  const hex = text.replace(/[.:-]/g, "").toLowerCase();
  return /^[0-9a-f]{12}$/.test(hex) ? hex.replace(/(..)(?!$)/g, "$1:") : text;
}

export interface SwitchportRow {
  mode: string;
  access: number;
  native: number;
  /** "ALL", "NONE" or a range list */
  allowed: string;
}

/** show interfaces [X] switchport -> name -> row */
export function parseSwitchports(answer: unknown): Map<string, SwitchportRow> {
  const out = new Map<string, SwitchportRow>();
  for (const [name, row] of Object.entries(obj(obj(answer).switchports))) {
    const info = obj(obj(row).switchportInfo);
    if (obj(row).enabled === false) continue;
    out.set(name, {
      mode: str(info.mode),
      access: num(info.accessVlanId),
      native: num(info.trunkingNativeVlanId),
      allowed: str(info.trunkAllowedVlans),
    });
  }
  return out;
}

export const isTrunk = (row: SwitchportRow) => row.mode === "trunk";

export interface VlanTable {
  vlans: VlanInfo[];
  /** interface name -> the VLANs whose member list names it */
  members: Map<string, number[]>;
}

/** show vlan */
export function parseVlans(answer: unknown): VlanTable {
  const vlans: VlanInfo[] = [];
  const members = new Map<string, number[]>();
  for (const [key, row] of Object.entries(obj(obj(answer).vlans))) {
    const id = Number(key);
    if (!Number.isInteger(id) || id < 1 || id > 4094) continue;
    const r = obj(row);
    vlans.push({
      id,
      name: str(r.name),
      state: str(r.status) === "active" ? "Enabled" : "Disabled",
      status: r.dynamic === true ? "Dynamic" : "Permanent",
    });
    for (const name of Object.keys(obj(r.interfaces))) {
      const ids = members.get(name) ?? [];
      ids.push(id);
      members.set(name, ids);
    }
  }
  vlans.sort((a, b) => a.id - b.id);
  return { vlans, members };
}

function kindOf(hardware: string, name: string): { kind: InterfaceKind; ifType: number } {
  if (hardware === "portChannel" || name.startsWith("Port-Channel")) return { kind: "lag", ifType: 161 };
  if (hardware === "ethernet") return { kind: "ethernet", ifType: 6 };
  if (hardware === "vlan") return { kind: "other", ifType: 136 };
  if (hardware === "loopback") return { kind: "other", ifType: 24 };
  return { kind: "other", ifType: 0 };
}

function duplexOf(text: string): Duplex {
  if (text === "duplexFull") return "Full";
  if (text === "duplexHalf") return "Half";
  return "Unknown";
}

/**
 * show interfaces [X], with the switchports and VLAN memberships: the interface rows in
 * natural order. The untagged VLAN is a trunk's native VLAN or an access port's access
 * VLAN; the tagged VLANs those whose member list names the port, the untagged one aside.
 */
export function parseInterfaces(
  answer: unknown,
  switchports: Map<string, SwitchportRow>,
  vlans: VlanTable,
): InterfaceInfo[] {
  const rows: InterfaceInfo[] = [];
  for (const [name, raw] of Object.entries(obj(obj(answer).interfaces))) {
    const r = obj(raw);
    const { kind, ifType } = kindOf(str(r.hardware), name);
    const sp = switchports.get(name);
    const untagged = sp ? (isTrunk(sp) ? sp.native : sp.access) : 0;
    const tagged = sp ? (vlans.members.get(name) ?? []).filter((v) => v !== untagged).sort((a, b) => a - b) : [];
    const addresses = list(r.interfaceAddress).map((a) => str(obj(obj(a).primaryIp).address));
    const membership = /^Member of (\S+)$/.exec(str(r.interfaceMembership));
    rows.push({
      id: name,
      name,
      description: str(r.description),
      kind,
      if_type: ifType,
      admin_up: str(r.interfaceStatus) !== "disabled",
      oper_up: str(r.lineProtocolStatus) === "up",
      speed: Math.round(num(r.bandwidth) / 1_000_000),
      duplex: duplexOf(str(r.duplex)),
      ...(num(r.mtu) > 0 ? { mtu: num(r.mtu) } : {}),
      untagged_vlan: untagged,
      tagged_vlans: tagged,
      routed: addresses.some((a) => a !== "" && a !== "0.0.0.0"),
      vrf: "",
      ...(membership ? { lag_member_of: membership[1] } : {}),
      macs: [],
      neighbors: [],
    });
  }
  return rows.sort((a, b) => naturalCompare(a.name, b.name));
}

/** show ip arp: MAC -> its IPv4 addresses */
export function parseArp(answer: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const n of list(obj(answer).ipV4Neighbors)) {
    const mac = colonMac(str(obj(n).hwAddress));
    const ip = str(obj(n).address);
    if (!mac || !ip) continue;
    out.set(mac, [...(out.get(mac) ?? []), ip]);
  }
  return out;
}

/** show mac address-table: interface name -> its MAC entries (the router's own entries left out) */
export function parseMacTable(answer: unknown, arp: Map<string, string[]>): Map<string, MacEntry[]> {
  const out = new Map<string, MacEntry[]>();
  for (const e of list(obj(obj(answer).unicastTable).tableEntries)) {
    const r = obj(e);
    const where = str(r.interface);
    if (!where || where === "Router") continue;
    const address = colonMac(str(r.macAddress));
    const entry: MacEntry = { address, vlan: num(r.vlanId), ipv4: arp.get(address) ?? [], ipv6: [] };
    out.set(where, [...(out.get(where) ?? []), entry]);
  }
  return out;
}

const CHASSIS_SUBTYPES: Record<string, number> = {
  chassisComponent: 1,
  interfaceAlias: 2,
  portComponent: 3,
  macAddress: 4,
  networkAddress: 5,
  interfaceName: 6,
  local: 7,
};

const CAPABILITY_NAMES: Array<[string, string]> = [
  ["other", "Other"],
  ["repeater", "Repeater"],
  ["bridge", "Bridge"],
  ["wlanAccessPoint", "WLAN access point"],
  ["router", "Router"],
  ["telephone", "Phone"],
  ["docsisCableDevice", "DOCSIS cable device"],
  ["stationOnly", "Station"],
];

/** show lldp neighbors detail: local interface name -> its neighbours */
export function parseLldpDetail(answer: unknown): Map<string, LldpNeighbor[]> {
  const out = new Map<string, LldpNeighbor[]>();
  for (const [local, entry] of Object.entries(obj(obj(answer).lldpNeighbors))) {
    const neighbours = list(obj(entry).lldpNeighborInfo).map((raw): LldpNeighbor => {
      const n = obj(raw);
      const port = obj(n.neighborInterfaceInfo);
      // the newer key has the port id plain; the older one wraps it in quotes
      const portId = str(port.interfaceId_v2) || str(port.interfaceId).replace(/^"(.*)"$/, "$1");
      const chassisType = str(n.chassisIdType);
      const addresses = list(n.managementAddresses).map(obj);
      const capabilities = obj(n.systemCapabilities);
      return {
        port_name: str(port.interfaceIdType) === "macAddress" ? colonMac(portId) : portId,
        port_description: str(port.interfaceDescription),
        system_name: str(n.systemName),
        system_description: str(n.systemDescription),
        chassis_id: chassisType === "macAddress" ? colonMac(str(n.chassisId)) : str(n.chassisId),
        chassis_type: CHASSIS_SUBTYPES[chassisType] ?? 0,
        capabilities: CAPABILITY_NAMES.filter(([key]) => capabilities[key] === true)
          .map(([, label]) => label)
          .join(", "),
        management_address_v4: str(addresses.find((a) => str(a.addressType) === "ipv4")?.address),
        management_address_v6: str(addresses.find((a) => str(a.addressType) === "ipv6")?.address),
      };
    });
    if (neighbours.length > 0) out.set(local, neighbours);
  }
  return out;
}

export interface VersionFacts {
  model: string;
  serial: string;
  version: string;
  uptime_seconds: number;
}

export function parseVersion(answer: unknown): VersionFacts {
  const v = obj(answer);
  return {
    model: str(v.modelName),
    serial: str(v.serialNumber),
    version: str(v.version),
    uptime_seconds: Math.floor(num(v.uptime)),
  };
}

/** "N days, HH:MM:SS" as the other drivers show an uptime */
export function uptimeText(seconds: number): string {
  const days = Math.floor(seconds / 86400);
  const rest = seconds % 86400;
  const hh = String(Math.floor(rest / 3600)).padStart(2, "0");
  const mm = String(Math.floor((rest % 3600) / 60)).padStart(2, "0");
  const ss = String(rest % 60).padStart(2, "0");
  return `${days} days, ${hh}:${mm}:${ss}`;
}

export function parseHostname(answer: unknown): string {
  return str(obj(answer).hostname);
}
