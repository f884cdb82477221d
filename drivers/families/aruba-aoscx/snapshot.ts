/**
 * The AOS-CX REST answers (JSON) turned into the shapes of model/device.ts: interface rows
 * from `system/interfaces` (with attribute selection), VLANs from `system/vlans`, PoE from
 * `poe_interface`, LLDP neighbours, the MAC table per VLAN and the ARP table. Nothing here
 * trusts the JSON's shape: a value of an unexpected type reads as absent.
 */
import type {
  DevicePoe,
  Duplex,
  InterfaceInfo,
  LldpNeighbor,
  MacEntry,
  PoeDetect,
  PoePortInfo,
  VlanInfo,
} from "../../../model/device";
import { naturalCompare } from "../../../model/natural-order";

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

export function objectOf(v: unknown): Json {
  return isObject(v) ? v : {};
}

function str(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
}

/** the attributes read for an interface row */
export const INTERFACE_ATTRIBUTES = [
  "name",
  "type",
  "description",
  "admin",
  "user_config",
  "link_state",
  "link_speed",
  "duplex",
  "mtu",
  "hw_intf_info",
  "ip4_address",
  "vlan_mode",
  "applied_vlan_mode",
  "applied_vlan_tag",
  "applied_vlan_trunks",
  "poe_interface",
].join(",");

export const VLAN_ATTRIBUTES = "id,name,type,admin";

/** VLAN ids of a reference map ({"10": "/rest/.../vlans/10"}), ascending */
export function vlanIdsOf(refs: unknown): number[] {
  return Object.keys(objectOf(refs))
    .filter((k) => /^\d+$/.test(k))
    .map(Number)
    .sort((a, b) => a - b);
}

export function vlanInfos(answer: unknown): VlanInfo[] {
  const out: VlanInfo[] = [];
  for (const [key, raw] of Object.entries(objectOf(answer))) {
    const v = objectOf(raw);
    const id = typeof v.id === "number" ? v.id : Number(key);
    if (!Number.isInteger(id) || id < 1 || id > 4094) continue;
    if (v.type === "internal") continue; // the switch's own, not a manager's
    out.push({ id, name: str(v.name), state: v.admin === "down" ? "Disabled" : "Enabled", status: "Permanent" });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** whether the interface is shut down: `admin` "down" (null when enabled), or its user_config says so */
export function adminUpOf(attrs: Json): boolean {
  const user = objectOf(attrs.user_config).admin;
  if (user === "down" || user === "up") return user === "up";
  return attrs.admin !== "down";
}

const IF_TYPES: Record<string, number> = { system: 6, lag: 161, vlan: 53, loopback: 24 };

/** what a port carries: applied mode, untagged VLAN and tagged VLANs ({} on a trunk: every VLAN) */
export function portVlansOf(attrs: Json, allVlans: readonly number[]): { untagged: number; tagged: number[] } | null {
  const mode = attrs.applied_vlan_mode;
  if (typeof mode !== "string") return null;
  const untagged = vlanIdsOf(attrs.applied_vlan_tag)[0] ?? 0;
  if (mode === "access") return { untagged, tagged: [] };
  const trunks = vlanIdsOf(attrs.applied_vlan_trunks);
  const carried = trunks.length > 0 ? trunks : allVlans;
  return { untagged, tagged: carried.filter((v) => v !== untagged) };
}

const DETECTION: Record<string, PoeDetect> = {
  disabled: "Disabled",
  searching: "Searching",
  delivering: "Delivering",
  fault: "Fault",
  test: "Test",
  "other-fault": "Unknown Fault",
};

export function poeOf(answer: unknown): PoePortInfo | undefined {
  if (!isObject(answer)) return undefined;
  const config = objectOf(answer.config);
  const disabled = config.admin_disable === true;
  const drawn = Number(objectOf(answer.measurements).power_drawn ?? 0) || 0;
  const reported = DETECTION[str(objectOf(answer.status).detection_status)];
  const detect: PoeDetect = disabled ? "Disabled" : (reported ?? (drawn > 0 ? "Delivering" : "Searching"));
  return {
    admin_status: disabled ? "Disabled" : "Enabled",
    detect_status: detect,
    power_consumption_supported: true,
    power_consumed: Math.round(drawn * 1000),
    power_available: 0,
    max_power_consumed: 0,
  };
}

export function interfaceInfo(
  attrs: Json,
  fallbackName: string,
  allVlans: readonly number[],
  poe: PoePortInfo | undefined,
): InterfaceInfo {
  const name = str(attrs.name) || fallbackName;
  const type = str(attrs.type);
  const up = attrs.link_state === "up";
  const ethernet = type === "system";
  const speedBps = Number(attrs.link_speed) || 0;
  const maxMbps = Number(objectOf(attrs.hw_intf_info).max_speed) || 0;
  const duplexText = str(attrs.duplex).toLowerCase();
  const duplex: Duplex =
    ethernet && up ? (duplexText === "full" ? "Full" : duplexText === "half" ? "Half" : "Unknown") : "Unknown";
  const vlans = portVlansOf(attrs, allVlans);
  const info: InterfaceInfo = {
    id: name,
    name,
    description: str(attrs.description),
    kind: ethernet ? "ethernet" : type === "lag" ? "lag" : "other",
    if_type: IF_TYPES[type] ?? 0,
    admin_up: adminUpOf(attrs),
    oper_up: up,
    speed: up && speedBps > 0 ? Math.round(speedBps / 1_000_000) : maxMbps,
    duplex,
    untagged_vlan: vlans?.untagged ?? 0,
    tagged_vlans: vlans?.tagged ?? [],
    routed: typeof attrs.ip4_address === "string" && attrs.ip4_address !== "",
    vrf: "",
    macs: [],
    neighbors: [],
  };
  if (typeof attrs.mtu === "number") info.mtu = attrs.mtu;
  if (poe) info.poe = poe;
  return info;
}

/** every interface of a `system/interfaces?depth=2` answer, in the switch's natural order */
export function interfaceInfos(
  answer: unknown,
  allVlans: readonly number[],
  poe: ReadonlyMap<string, PoePortInfo>,
): InterfaceInfo[] {
  return Object.entries(objectOf(answer))
    .map(([key, raw]) => interfaceInfo(objectOf(raw), key, allVlans, poe.get(str(objectOf(raw).name) || key)))
    .sort((a, b) => naturalCompare(a.name, b.name));
}

/** `system/interfaces/*\/poe_interface?depth=2`: PoE by interface name */
export function poeByInterface(answer: unknown): Map<string, PoePortInfo> {
  const out = new Map<string, PoePortInfo>();
  for (const [name, raw] of Object.entries(objectOf(answer))) {
    const poe = poeOf(raw);
    if (poe) out.set(name, poe);
  }
  return out;
}

export function devicePoe(subsystems: unknown): DevicePoe | null {
  const supplies: DevicePoe["supplies"] = [];
  for (const [key, raw] of Object.entries(objectOf(subsystems))) {
    const power = objectOf(objectOf(raw).poe_power);
    if (!("available_power" in power)) continue;
    const id = Number(key.split(",")[1]) || supplies.length + 1;
    supplies.push({
      id,
      max_power: Number(power.available_power) || 0,
      status: "On",
      power_consumed: Number(power.drawn_power) || 0,
      threshold: Number(power.threshold_percent) || 0,
    });
  }
  if (supplies.length === 0) return null;
  return {
    enabled: true,
    max_power: supplies.reduce((s, x) => s + x.max_power, 0),
    power_consumed: supplies.reduce((s, x) => s + x.power_consumed, 0),
    supplies,
  };
}

/** the chassis' product facts from `system/subsystems` */
export function productInfo(subsystems: unknown): { model: string; serial: string } {
  for (const raw of Object.values(objectOf(subsystems))) {
    const p = objectOf(objectOf(raw).product_info);
    if (p.product_name || p.serial_number) return { model: str(p.product_name), serial: str(p.serial_number) };
  }
  return { model: "", serial: "" };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const IPV6 = /^[0-9a-f:]+:[0-9a-f:.]*$/i;

/** `system/interfaces/*\/lldp_neighbors?depth=2`: neighbours by interface name */
export function neighboursByInterface(answer: unknown): Map<string, LldpNeighbor[]> {
  const out = new Map<string, LldpNeighbor[]>();
  for (const [name, rows] of Object.entries(objectOf(answer))) {
    const list: LldpNeighbor[] = [];
    for (const raw of Object.values(objectOf(rows))) {
      const n = objectOf(raw);
      const info = objectOf(n.neighbor_info);
      const addresses = (
        Array.isArray(info.mgmt_ip_list) ? info.mgmt_ip_list.map(str) : str(info.mgmt_ip_list).split(",")
      )
        .map((a) => a.trim())
        .filter((a) => a !== "");
      list.push({
        port_name: str(n.port_id),
        port_description: str(info.port_description),
        system_name: str(info.chassis_name),
        system_description: str(info.chassis_description),
        chassis_id: str(n.chassis_id),
        chassis_type: info.chassis_id_subtype === "link_local_addr" ? 4 : 7,
        capabilities: str(info.chassis_capability_enabled),
        management_address_v4: addresses.find((a) => IPV4.test(a)) ?? "",
        management_address_v6: addresses.find((a) => IPV6.test(a)) ?? "",
      });
    }
    out.set(name, list);
  }
  return out;
}

/** `system/vrfs/default/neighbors?depth=2`: addresses by MAC */
export function addressesByMac(answer: unknown): Map<string, { v4: string[]; v6: string[] }> {
  const out = new Map<string, { v4: string[]; v6: string[] }>();
  for (const raw of Object.values(objectOf(answer))) {
    const n = objectOf(raw);
    const mac = str(n.mac).toLowerCase();
    const ip = str(n.ip_address);
    if (!mac || !ip) continue;
    const entry = out.get(mac) ?? { v4: [], v6: [] };
    if (str(n.address_family).toLowerCase() === "ipv6" || IPV6.test(ip)) entry.v6.push(ip);
    else entry.v4.push(ip);
    out.set(mac, entry);
  }
  return out;
}

/** `system/vlans/*\/macs?depth=2`: MAC entries by interface name */
export function macsByInterface(
  answer: unknown,
  addresses: ReadonlyMap<string, { v4: string[]; v6: string[] }>,
): Map<string, MacEntry[]> {
  const out = new Map<string, MacEntry[]>();
  for (const [vlanKey, rows] of Object.entries(objectOf(answer))) {
    const vlan = Number(vlanKey);
    if (!Number.isInteger(vlan)) continue;
    for (const raw of Object.values(objectOf(rows))) {
      const e = objectOf(raw);
      const port = Object.keys(objectOf(e.port))[0];
      const address = str(e.mac_addr).toLowerCase();
      if (!port || !address) continue;
      const ips = addresses.get(address);
      const list = out.get(port) ?? [];
      list.push({ address, vlan, ipv4: ips?.v4 ?? [], ipv6: ips?.v6 ?? [] });
      out.set(port, list);
    }
  }
  return out;
}
