/**
 * Junos operational replies (NETCONF, XML) into the shapes of model/device.ts: the
 * interface list (`get-interface-information`, physical interfaces with their units),
 * VLANs and their members (`get-vlan-information` in the ELS `l2ng-...` shape or the
 * older EX `vlan-information` shape), PoE, the Ethernet switching table (both shapes),
 * ARP and LLDP. Element names follow Juniper's XML output as PyEZ's and NAPALM's tables
 * read it; parsers look elements up by name, never by position.
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
import { childOf, childrenOf, childText, descendantsOf, type XmlElement } from "../../../model/xml";

export type SwitchStyle = "els" | "legacy";

/** one VLAN and how each member interface (the physical name) carries it */
export interface VlanReading {
  vlans: VlanInfo[];
  /** physical interface -> its memberships */
  members: Map<string, { untagged: number[]; tagged: number[]; trunk: boolean }>;
  style: SwitchStyle;
}

/** "ge-0/0/1.0*" -> "ge-0/0/1" (the unit and the active marker go) */
export function physicalName(member: string): string {
  const name = member.trim().replace(/\*$/, "");
  const dot = name.lastIndexOf(".");
  return dot > 0 && /^\d+$/.test(name.slice(dot + 1)) ? name.slice(0, dot) : name;
}

const num = (text: string): number | null => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** The reply of get-vlan-information (with <extensive/>): ELS or the older shape, told apart by its root. */
export function parseVlans(reply: XmlElement): VlanReading {
  const members: VlanReading["members"] = new Map();
  const vlans: VlanInfo[] = [];
  const add = (member: string, id: number, tagged: boolean, trunk: boolean) => {
    const name = physicalName(member);
    if (!name) return;
    const m = members.get(name) ?? { untagged: [], tagged: [], trunk: false };
    (tagged ? m.tagged : m.untagged).push(id);
    m.trunk ||= trunk;
    members.set(name, m);
  };
  const els = descendantsOf(reply, "l2ng-l2ald-vlan-instance-group");
  const legacy = els.length === 0 ? descendantsOf(reply, "vlan").filter((v) => childOf(v, "vlan-name")) : [];
  const style: SwitchStyle =
    els.length > 0 || descendantsOf(reply, "l2ng-l2ald-vlan-instance-information").length > 0 ? "els" : "legacy";
  for (const g of els) {
    const id = num(childText(g, "l2ng-l2rtb-vlan-tag"));
    if (id === null) continue; // a VLAN without an id (none on a switch port) is nothing the API can show
    vlans.push({ id, name: childText(g, "l2ng-l2rtb-vlan-name"), state: "Enabled", status: "Permanent" });
    for (const m of childrenOf(g, "l2ng-l2rtb-vlan-member")) {
      add(
        childText(m, "l2ng-l2rtb-vlan-member-interface"),
        id,
        childText(m, "l2ng-l2rtb-vlan-member-tagness") === "tagged",
        childText(m, "l2ng-l2rtb-vlan-member-interface-mode") === "trunk",
      );
    }
  }
  for (const v of legacy) {
    const id = num(childText(v, "vlan-tag"));
    if (id === null) continue;
    const status = childText(v, "vlan-status");
    vlans.push({
      id,
      name: childText(v, "vlan-name"),
      state: status && status !== "Enabled" ? "Disabled" : "Enabled",
      status: "Permanent",
    });
    for (const m of descendantsOf(v, "vlan-member")) {
      add(
        childText(m, "vlan-member-interface"),
        id,
        childText(m, "vlan-member-tagness") === "tagged",
        childText(m, "vlan-member-port-mode") === "trunk",
      );
    }
  }
  vlans.sort((a, b) => a.id - b.id);
  return { vlans, members, style };
}

/** "1000mbps", "10Gbps", "100Mbps" -> Mbps; "Auto", "Unspecified", "Unlimited" -> 0 */
export function speedMbps(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([mg])bps$/i.exec(text.trim());
  if (!m) return 0;
  return Math.round(Number(m[1]) * (m[2].toLowerCase() === "g" ? 1000 : 1));
}

const ETHERNET = /^(fe|ge|xe|et|mge|ce)-/;

function hasInet(logical: XmlElement): boolean {
  return childrenOf(logical, "address-family").some(
    (f) => childText(f, "address-family-name") === "inet" && childOf(f, "interface-address") !== undefined,
  );
}

function bundleOf(logical: XmlElement): string | undefined {
  const family = childrenOf(logical, "address-family").find((f) => childText(f, "address-family-name") === "aenet");
  const bundle = family ? childText(family, "ae-bundle-name") : "";
  return bundle ? physicalName(bundle) : undefined;
}

function baseRow(name: string): InterfaceInfo {
  return {
    id: name,
    name,
    description: "",
    kind: "other",
    if_type: 0,
    admin_up: false,
    oper_up: false,
    speed: 0,
    duplex: "Unknown",
    untagged_vlan: 0,
    tagged_vlans: [],
    routed: false,
    vrf: "",
    macs: [],
    neighbors: [],
  };
}

function logicalRow(l: XmlElement): InterfaceInfo {
  const row = baseRow(childText(l, "name"));
  row.if_type = 53;
  row.description = childText(l, "description");
  // a unit without its own status follows its interface (terse answers always carry it)
  row.admin_up = (childText(l, "admin-status") || "up") === "up";
  row.oper_up = (childText(l, "oper-status") || "up") === "up";
  row.routed = hasInet(l);
  return row;
}

/**
 * The rows of get-interface-information: each physical interface, then its units; a unit
 * standing alone (the answer for one unit) is a row too. Interfaces that carry VLANs get
 * their memberships from `vlans`, PoE ports their PoE state.
 */
export function parseInterfaces(reply: XmlElement, vlans: VlanReading, poe: Map<string, PoePortInfo>): InterfaceInfo[] {
  const root = descendantsOf(reply, "interface-information")[0] ?? reply;
  const rows: InterfaceInfo[] = [];
  for (const el of root.children) {
    if (el.name === "logical-interface") {
      rows.push(logicalRow(el));
      continue;
    }
    if (el.name !== "physical-interface") continue;
    const name = childText(el, "name");
    const row = baseRow(name);
    const units = childrenOf(el, "logical-interface");
    const ethernet = ETHERNET.test(name);
    row.kind = ethernet ? "ethernet" : /^ae\d+$/.test(name) ? "lag" : "other";
    row.if_type = ethernet ? 6 : row.kind === "lag" ? 161 : name.startsWith("lo") ? 24 : 1;
    row.description = childText(el, "description");
    row.admin_up = childText(el, "admin-status") === "up";
    row.oper_up = childText(el, "oper-status") === "up";
    row.speed = speedMbps(childText(el, "speed"));
    const mtu = num(childText(el, "mtu"));
    if (mtu !== null) row.mtu = mtu;
    if (ethernet && row.oper_up) {
      const mode = (
        childText(el, "link-mode") ||
        childText(childOf(childOf(el, "ethernet-autonegotiation"), "local-info"), "local-link-duplexity")
      ).toLowerCase();
      row.duplex = mode.startsWith("full") ? "Full" : mode.startsWith("half") ? "Half" : "Unknown";
    }
    row.routed = units.some(hasInet);
    const bundle = units.map(bundleOf).find((b) => b !== undefined);
    if (bundle) row.lag_member_of = bundle;
    const member = vlans.members.get(name);
    if (member) {
      const untagged = member.untagged[0] ?? 0;
      row.untagged_vlan = untagged;
      row.tagged_vlans = [...new Set(member.tagged)].filter((v) => v !== untagged).sort((a, b) => a - b);
    }
    const power = poe.get(name);
    if (power) row.poe = power;
    rows.push(row);
    for (const u of units) {
      if (childText(u, "name")) rows.push(logicalRow(u));
    }
  }
  return rows;
}

/** "6.5W", "15.40W", "370.00W" -> milliwatts */
function milliwatts(text: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*W?$/i.exec(text.trim());
  return m ? Math.round(Number(m[1]) * 1000) : 0;
}

const DETECT: Record<string, PoeDetect> = {
  on: "Delivering",
  off: "Searching",
  searching: "Searching",
  disabled: "Disabled",
  fault: "Fault",
  faulted: "Fault",
};

/** get-poe-interface-information: interface name -> its PoE state */
export function parsePoeInterfaces(reply: XmlElement): Map<string, PoePortInfo> {
  const out = new Map<string, PoePortInfo>();
  for (const row of descendantsOf(reply, "interface-information")) {
    const name = childText(row, "interface-name");
    if (!name) continue;
    const status = childText(row, "interface-status");
    const enabled = childText(row, "interface-enabled");
    const admin = enabled ? enabled.toLowerCase() === "enabled" : status.toLowerCase() !== "disabled";
    const consumed = milliwatts(childText(row, "interface-power"));
    out.set(name, {
      admin_status: admin ? "Enabled" : "Disabled",
      detect_status: admin ? (DETECT[status.toLowerCase()] ?? "Unknown Fault") : "Disabled",
      power_consumption_supported: true,
      power_consumed: consumed,
      power_available: milliwatts(childText(row, "interface-power-limit")),
      max_power_consumed: consumed,
    });
  }
  return out;
}

/** get-poe-controller-information: the switch's PoE budget (watts) */
export function parsePoeControllers(reply: XmlElement): DevicePoe | null {
  const controllers = descendantsOf(reply, "controller-information");
  if (controllers.length === 0) return null;
  const supplies = controllers.map((c, i) => {
    const number = num(childText(c, "controller-number"));
    return {
      id: (number ?? i) + 1,
      max_power: Math.round(milliwatts(childText(c, "controller-maxpower")) / 1000),
      status: "On" as const,
      power_consumed: Math.round(milliwatts(childText(c, "controller-power")) / 1000),
      threshold: 0,
    };
  });
  return {
    enabled: true,
    max_power: supplies.reduce((s, x) => s + x.max_power, 0),
    power_consumed: supplies.reduce((s, x) => s + x.power_consumed, 0),
    supplies,
  };
}

/** "00:1B:54:aa:bb:cc" or "001b.54aa.bbcc" -> "00:1b:54:aa:bb:cc"; other text unchanged */
export function normalMac(text: string): string {
  const hex = text.trim().toLowerCase().replace(/[:.-]/g, "");
  if (!/^[0-9a-f]{12}$/.test(hex) || !/^[0-9a-fA-F:.-]+$/.test(text.trim())) return text.trim();
  return hex.match(/../g)!.join(":");
}

/** The Ethernet switching table (ELS or older) as MAC entries by physical interface. */
export function parseSwitchingTable(reply: XmlElement, vlans: VlanInfo[]): Map<string, MacEntry[]> {
  const byName = new Map(vlans.map((v) => [v.name, v.id]));
  const out = new Map<string, MacEntry[]>();
  const add = (iface: string, address: string, vlanText: string, vlanName: string) => {
    const mac = normalMac(address);
    if (!/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(mac)) return; // flood entries ("*") and the like
    const vlan = num(vlanText) ?? byName.get(vlanName) ?? 0;
    const name = physicalName(iface);
    if (!name) return;
    out.set(name, [...(out.get(name) ?? []), { address: mac, vlan, ipv4: [], ipv6: [] }]);
  };
  const visit = (el: XmlElement, inheritedVlan: string) => {
    const vlanHere = childText(el, "l2ng-l2-vlan-id") || inheritedVlan;
    if (childOf(el, "l2ng-l2-mac-address")) {
      add(
        childText(el, "l2ng-l2-mac-logical-interface"),
        childText(el, "l2ng-l2-mac-address"),
        vlanHere,
        childText(el, "l2ng-l2-mac-vlan-name"),
      );
    }
    for (const c of el.children) visit(c, vlanHere);
  };
  visit(reply, "");
  for (const e of descendantsOf(reply, "mac-table-entry")) {
    const iface = childText(e, "mac-interface") || childText(childOf(e, "mac-interfaces-list"), "mac-interfaces");
    add(iface, childText(e, "mac-address"), childText(e, "mac-vlan-tag"), childText(e, "mac-vlan"));
  }
  return out;
}

/** get-arp-table-information: MAC -> IPv4 addresses */
export function parseArp(reply: XmlElement): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of descendantsOf(reply, "arp-table-entry")) {
    const mac = normalMac(childText(e, "mac-address"));
    const ip = childText(e, "ip-address");
    if (mac && ip) out.set(mac, [...(out.get(mac) ?? []), ip]);
  }
  return out;
}

const CHASSIS_TYPES: Record<string, number> = {
  "chassis component": 1,
  "interface alias": 2,
  "port component": 3,
  "mac address": 4,
  "network address": 5,
  "interface name": 6,
  "locally assigned": 7,
};

/** The neighbours of get-lldp-neighbors-information or get-lldp-interface-neighbors, by local interface. */
export function parseLldp(reply: XmlElement): Array<{ local: string; neighbor: LldpNeighbor }> {
  return descendantsOf(reply, "lldp-neighbor-information").map((n) => {
    const local = physicalName(childText(n, "lldp-local-port-id") || childText(n, "lldp-local-interface"));
    const addresses = childrenOf(n, "lldp-remote-management-address").map((a) => a.text.trim());
    const subtype = childText(n, "lldp-remote-chassis-id-subtype").toLowerCase();
    const chassis = childText(n, "lldp-remote-chassis-id");
    return {
      local,
      neighbor: {
        port_name: childText(n, "lldp-remote-port-id"),
        port_description: childText(n, "lldp-remote-port-description"),
        system_name: childText(n, "lldp-remote-system-name"),
        system_description:
          childText(childOf(n, "lldp-system-description"), "lldp-remote-system-description") ||
          childText(n, "lldp-remote-system-description"),
        chassis_id: subtype === "mac address" ? normalMac(chassis) : chassis,
        chassis_type: CHASSIS_TYPES[subtype] ?? 0,
        capabilities: childText(n, "lldp-remote-system-capabilities-enabled"),
        management_address_v4: addresses.find((a) => /^\d{1,3}(\.\d{1,3}){3}$/.test(a)) ?? "",
        management_address_v6: addresses.find((a) => a.includes(":")) ?? "",
      },
    };
  });
}

/** get-software-information: host name, model, version (the first routing engine's) */
export function parseSoftware(reply: XmlElement): { hostname: string; model: string; version: string } {
  const info = descendantsOf(reply, "software-information")[0];
  const pkg = childrenOf(info, "package-information").find((p) => childText(p, "name") === "junos");
  const fromComment = /\[([^\]]+)\]/.exec(childText(pkg, "comment"))?.[1] ?? "";
  return {
    hostname: childText(info, "host-name"),
    model: childText(info, "product-model"),
    version: childText(info, "junos-version") || fromComment,
  };
}
