/**
 * The resource tree of the lab's AOS-CX REST face, built from the lab model on every
 * request, and how a GET renders it: `depth` (each level expands one layer of references
 * into full objects; a collection at depth 1 is `{key: URI}`), `attributes=a,b` (only
 * those keys of the object, or of each item of a collection) and `selector` (`writable`:
 * the attributes a PUT takes; `configuration`, `status`, `statistics`), as the AOS-CX REST
 * guides describe them. URIs carry the API prefix the client used.
 */
import { switchportOf } from "../config";
import type { LabInterface, VirtualSwitch } from "../model";
import { formatMac } from "../hardware";

/** A reference to another resource: its URI, rendered as the resource itself with more depth. */
export class Ref {
  constructor(
    readonly uri: string,
    readonly node: () => ResourceNode,
  ) {}
}

export interface ObjectNode {
  kind: "object";
  uri: string;
  attrs: Record<string, unknown>;
  /** the attributes a PUT takes (selector=writable, and configuration) */
  writable: readonly string[];
}

export interface CollectionNode {
  kind: "collection";
  uri: string;
  items: Array<{ key: string; node: () => ObjectNode }>;
}

export type ResourceNode = ObjectNode | CollectionNode;

export type Selector = "configuration" | "status" | "statistics" | "writable";

export interface RenderOptions {
  depth: number;
  attributes?: readonly string[];
  selector?: Selector;
}

/** A request the face cannot take (400 with this text). */
export class BadQuery extends Error {}

/** The URI segment of a key: AOS-CX percent-encodes each part and joins compound keys with ",". */
export function keySegment(key: string): string {
  return key
    .split(",")
    .map((part) => encodeURIComponent(part))
    .join(",");
}

export function render(node: ResourceNode, options: RenderOptions): unknown {
  if (node.kind === "collection") {
    const out: Record<string, unknown> = {};
    for (const item of node.items) {
      out[item.key] =
        options.depth <= 1
          ? `${node.uri}/${keySegment(item.key)}`
          : renderObject(item.node(), options, options.depth - 1);
    }
    return out;
  }
  return renderObject(node, options, options.depth);
}

function renderObject(node: ObjectNode, options: RenderOptions, depth: number): Record<string, unknown> {
  const keys = Object.keys(node.attrs);
  if (options.attributes) {
    const unknown = options.attributes.filter((a) => !keys.includes(a));
    if (unknown.length > 0) throw new BadQuery(`Invalid attribute(s) for ${node.uri}: ${unknown.join(", ")}`);
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (options.attributes && !options.attributes.includes(key)) continue;
    const writable = node.writable.includes(key);
    if ((options.selector === "writable" || options.selector === "configuration") && !writable) continue;
    if ((options.selector === "status" || options.selector === "statistics") && writable) continue;
    out[key] = renderValue(node.attrs[key], depth);
  }
  return out;
}

function renderValue(value: unknown, depth: number): unknown {
  if (value instanceof Ref) return depth <= 1 ? value.uri : render(value.node(), { depth: depth - 1 });
  if (Array.isArray(value)) return value.map((v) => renderValue(v, depth));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderValue(v, depth);
    return out;
  }
  return value;
}

export const INTERFACE_WRITABLE = [
  "admin",
  "description",
  "user_config",
  "vlan_mode",
  "vlan_tag",
  "vlan_trunks",
  "routing",
];
export const VLAN_WRITABLE = ["name", "description", "admin", "voice"];
export const POE_WRITABLE = ["config"];

/** How one bridge port carries VLANs, as AOS-CX shows it (configured and applied). */
export interface PortVlans {
  trunk: boolean;
  /** access VLAN (access) or native VLAN (trunk), configured */
  tag: number;
  /** configured allowed list: "all" or the ids */
  allowed: number[] | "all";
  /** what the port does now */
  untagged: number;
  carried: number[];
}

export function portVlans(model: VirtualSwitch, bp: number): PortVlans {
  const untagged = model.pvid(bp) ?? 1;
  const carried = model.vlanIds().filter((id) => model.vlan(id)!.egress.has(bp));
  const configured = model.running.portModes.get(bp) === "trunk";
  // a port that carries other VLANs (written over SNMP, say) is a trunk whatever its mode says
  const trunk = configured || carried.some((id) => id !== untagged);
  if (trunk && !configured) return { trunk, tag: untagged, allowed: carried, untagged, carried };
  const s = switchportOf(model.running, bp);
  const allowed = s.allowed === "all" ? "all" : [...s.allowed].sort((a, b) => a - b);
  return { trunk, tag: trunk ? s.native : untagged, allowed, untagged, carried };
}

const LLDP_CAPABILITIES: Array<[number, string]> = [
  [0x20, "Bridge"],
  [0x10, "WLAN Access Point"],
  [0x08, "Router"],
  [0x04, "Telephone"],
];

function ifType(i: LabInterface): string {
  if (i.ifType === 6) return "system";
  if (i.ifType === 161) return "lag";
  if (i.ifType === 24) return "loopback";
  return "vlan";
}

/** The resource tree of one model under one API prefix ("/rest/v10.16"). */
export class AoscxTree {
  constructor(
    private readonly model: VirtualSwitch,
    private readonly prefix: string,
  ) {}

  private vlanRefs(ids: readonly number[]): Record<string, Ref> {
    const out: Record<string, Ref> = {};
    for (const id of ids) out[String(id)] = new Ref(`${this.prefix}/system/vlans/${id}`, () => this.vlan(id)!);
    return out;
  }

  private interfaceUri(i: LabInterface): string {
    return `${this.prefix}/system/interfaces/${encodeURIComponent(i.name)}`;
  }

  private interfaceRef(i: LabInterface): Record<string, Ref> {
    return { [i.name]: new Ref(this.interfaceUri(i), () => this.interface(i.name)!) };
  }

  firmware(): ObjectNode {
    const v = this.model.system.softwareVersion;
    return {
      kind: "object",
      uri: `${this.prefix}/firmware`,
      attrs: { current_version: v, primary_version: v, secondary_version: v, booted_image: "primary" },
      writable: [],
    };
  }

  system(): ObjectNode {
    const m = this.model;
    const bootTime = Math.floor(Date.now() / 1000 - m.uptimeTicks() / 100);
    return {
      kind: "object",
      uri: `${this.prefix}/system`,
      attrs: {
        hostname: m.system.sysName,
        platform_name: m.system.model.split(" ")[1] ?? m.system.model,
        software_version: m.system.softwareVersion,
        software_info: { build_date: "2026-01-01 00:00:00 UTC" },
        boot_time: bootTime,
        system_mac: formatMac(m.system.baseMac),
        other_config: { system_contact: m.system.sysContact, system_location: m.system.sysLocation },
        subsystems: new Ref(`${this.prefix}/system/subsystems`, () => this.subsystems()),
        interfaces: new Ref(`${this.prefix}/system/interfaces`, () => this.interfaces()),
        vlans: new Ref(`${this.prefix}/system/vlans`, () => this.vlans()),
        vrfs: new Ref(`${this.prefix}/system/vrfs`, () => this.vrfs()),
      },
      writable: [],
    };
  }

  subsystems(): CollectionNode {
    const m = this.model;
    const uri = `${this.prefix}/system/subsystems`;
    const chassis = (): ObjectNode => ({
      kind: "object",
      uri: `${uri}/chassis,1`,
      attrs: {
        name: "1",
        type: "chassis",
        state: "ready",
        product_info: {
          product_name: m.system.model,
          part_number: m.system.model.split(" ")[0],
          serial_number: m.system.serial,
          product_description: m.system.sysDescr,
        },
        poe_power: m.poeMain
          ? {
              available_power: m.poeMain.maxPowerW,
              drawn_power: m.poeConsumedW(),
              threshold_percent: m.poeMain.thresholdPct,
            }
          : null,
      },
      writable: [],
    });
    return { kind: "collection", uri, items: [{ key: "chassis,1", node: chassis }] };
  }

  interfaces(): CollectionNode {
    return {
      kind: "collection",
      uri: `${this.prefix}/system/interfaces`,
      items: this.model.interfaces.map((i) => ({ key: i.name, node: () => this.interfaceNode(i) })),
    };
  }

  interface(name: string): ObjectNode | null {
    const i = this.model.interfaces.find((x) => x.name === name);
    return i ? this.interfaceNode(i) : null;
  }

  private interfaceNode(i: LabInterface): ObjectNode {
    const m = this.model;
    const uri = this.interfaceUri(i);
    const adminUp = m.adminUp(i.ifIndex);
    const up = m.operUp(i.ifIndex);
    const ports = i.bridgePort === null ? null : portVlans(m, i.bridgePort);
    const mode = ports ? (ports.trunk ? "native-untagged" : "access") : null;
    const trunks = (p: PortVlans) => (p.allowed === "all" ? {} : this.vlanRefs(p.allowed));
    const alias = m.alias(i.ifIndex);
    return {
      kind: "object",
      uri,
      attrs: {
        name: i.name,
        type: ifType(i),
        description: alias === "" ? null : alias,
        // as observed on the firmware: null when not shut down
        admin: adminUp ? null : "down",
        user_config: { admin: adminUp ? "up" : "down" },
        admin_state: adminUp ? "up" : "down",
        link_state: up ? "up" : "down",
        link_speed: up ? i.speedMbps * 1_000_000 : 0,
        duplex: up && i.ifType === 6 ? i.duplex : null,
        mtu: i.mtu,
        hw_intf_info: i.ifType === 6 ? { max_speed: String(i.speedMbps), mac_addr: formatMac(i.mac) } : {},
        routing: ports === null,
        ip4_address: i.ipv4 ? `${i.ipv4.address}/${maskBits(i.ipv4.mask)}` : null,
        vrf:
          ports === null
            ? { default: new Ref(`${this.prefix}/system/vrfs/default`, () => this.vrf("default")!) }
            : null,
        vlan_mode: mode,
        vlan_tag: ports ? this.vlanRefs([ports.tag]) : null,
        vlan_trunks: ports ? (ports.trunk ? trunks(ports) : {}) : null,
        applied_vlan_mode: mode,
        applied_vlan_tag: ports ? this.vlanRefs([ports.untagged]) : null,
        applied_vlan_trunks: ports ? (ports.trunk ? this.vlanRefs(ports.carried) : {}) : null,
        other_config: {},
        poe_interface: i.poe ? new Ref(`${uri}/poe_interface`, () => this.poe(i.name)!) : null,
        lldp_neighbors: new Ref(`${uri}/lldp_neighbors`, () => this.lldpNeighbors(i.name)!),
      },
      writable: INTERFACE_WRITABLE,
    };
  }

  poe(name: string): ObjectNode | null {
    const i = this.model.interfaces.find((x) => x.name === name);
    const state = i ? this.model.poeState(i.ifIndex) : null;
    if (!i || !state) return null;
    const detection = ["unknown", "disabled", "searching", "delivering", "fault", "test", "other-fault"][
      state.detection
    ];
    return {
      kind: "object",
      uri: `${this.interfaceUri(i)}/poe_interface`,
      attrs: {
        config: {
          admin_disable: !state.enabled,
          priority: "low",
          allocate_by_method: "usage",
          cfg_assigned_class: "class4",
          pd_class_override: false,
          pre_standard_detect: false,
        },
        status: { detection_status: detection },
        measurements: { power_drawn: state.powerMw / 1000 },
      },
      writable: POE_WRITABLE,
    };
  }

  lldpNeighbors(name: string): CollectionNode | null {
    const i = this.model.interfaces.find((x) => x.name === name);
    if (!i) return null;
    const uri = `${this.interfaceUri(i)}/lldp_neighbors`;
    const rows = this.model.lldp.filter((n) => i.bridgePort !== null && n.localPort === i.bridgePort);
    return {
      kind: "collection",
      uri,
      items: rows.map((n) => {
        const chassisId = n.chassisIdSubtype === 4 ? formatMac(n.chassisId) : n.chassisId.toString();
        const portId = n.portIdSubtype === 3 ? formatMac(n.portId) : n.portId.toString();
        const key = `${chassisId},${portId}`;
        return {
          key,
          node: (): ObjectNode => ({
            kind: "object",
            uri: `${uri}/${keySegment(key)}`,
            attrs: {
              chassis_id: chassisId,
              port_id: portId,
              neighbor_info: {
                chassis_name: n.sysName,
                chassis_description: n.sysDesc,
                port_description: n.portDesc,
                chassis_id_subtype: n.chassisIdSubtype === 4 ? "link_local_addr" : "local",
                port_id_subtype:
                  n.portIdSubtype === 3 ? "link_local_addr" : n.portIdSubtype === 5 ? "if_name" : "local",
                chassis_capability_available: capabilities(n.capSupported),
                chassis_capability_enabled: capabilities(n.capEnabled),
                mgmt_ip_list: n.mgmtIpv4 ?? "",
              },
            },
            writable: [],
          }),
        };
      }),
    };
  }

  vlans(): CollectionNode {
    return {
      kind: "collection",
      uri: `${this.prefix}/system/vlans`,
      items: this.model.vlanIds().map((id) => ({ key: String(id), node: () => this.vlan(id)! })),
    };
  }

  vlan(id: number): ObjectNode | null {
    const v = this.model.vlan(id);
    if (!v) return null;
    const uri = `${this.prefix}/system/vlans/${id}`;
    return {
      kind: "object",
      uri,
      attrs: {
        id,
        name: v.name,
        type: id === 1 ? "default" : "static",
        admin: v.active ? "up" : "down",
        oper_state: v.active && v.egress.size > 0 ? "up" : "down",
        description: null,
        voice: false,
        macs: new Ref(`${uri}/macs`, () => this.macs(id)!),
        static_macs: new Ref(`${uri}/static_macs`, () => ({
          kind: "collection",
          uri: `${uri}/static_macs`,
          items: [],
        })),
      },
      writable: VLAN_WRITABLE,
    };
  }

  macs(vlan: number): CollectionNode | null {
    if (!this.model.vlan(vlan)) return null;
    const uri = `${this.prefix}/system/vlans/${vlan}/macs`;
    const items: CollectionNode["items"] = [];
    for (const e of this.model.fdb) {
      const port = this.model.interfaceOfBridgePort(e.bridgePort);
      if (e.vlan !== vlan || !port) continue;
      const key = `dynamic,${formatMac(e.mac)}`;
      items.push({
        key,
        node: () => ({
          kind: "object",
          uri: `${uri}/${keySegment(key)}`,
          attrs: { from: "dynamic", mac_addr: formatMac(e.mac), port: this.interfaceRef(port) },
          writable: [],
        }),
      });
    }
    return { kind: "collection", uri, items };
  }

  vrfs(): CollectionNode {
    return {
      kind: "collection",
      uri: `${this.prefix}/system/vrfs`,
      items: [{ key: "default", node: () => this.vrf("default")! }],
    };
  }

  vrf(name: string): ObjectNode | null {
    if (name !== "default") return null;
    const uri = `${this.prefix}/system/vrfs/default`;
    return {
      kind: "object",
      uri,
      attrs: { name, rd: null, neighbors: new Ref(`${uri}/neighbors`, () => this.neighbors(name)!) },
      writable: [],
    };
  }

  /** the ARP (and ND) table of a VRF */
  neighbors(vrf: string): CollectionNode | null {
    if (vrf !== "default") return null;
    const uri = `${this.prefix}/system/vrfs/default/neighbors`;
    return {
      kind: "collection",
      uri,
      items: this.model.arp.flatMap((a) => {
        const port = this.model.interface(a.ifIndex);
        if (!port) return [];
        const key = `${a.ip},${port.name}`;
        return [
          {
            key,
            node: (): ObjectNode => ({
              kind: "object",
              uri: `${uri}/${keySegment(key)}`,
              attrs: {
                ip_address: a.ip,
                mac: formatMac(a.mac),
                address_family: "ipv4",
                state: "reachable",
                from: "arp",
                port: this.interfaceRef(port),
              },
              writable: [],
            }),
          },
        ];
      }),
    };
  }
}

function capabilities(bits: number): string {
  return LLDP_CAPABILITIES.filter(([bit]) => bits & bit)
    .map(([, name]) => name)
    .join(", ");
}

function maskBits(mask: string): number {
  return mask
    .split(".")
    .map((o) => Number(o).toString(2))
    .join("")
    .replace(/0/g, "").length;
}
