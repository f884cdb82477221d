/**
 * What the lab's eAPI face answers to show commands: the JSON models of Arista EOS
 * (keys as EOS's eAPI returns them, reference/api-drivers.md 2.6) and the text of the
 * running and startup configuration (EOS-style blocks indented by three blanks, which
 * pyeapi's resource modules cut into sections), all made from the lab model at the
 * moment of the command, so a change through any face shows at once.
 */
import { switchportOf, type SwitchConfig } from "../config";
import type { LabInterface, VirtualSwitch } from "../model";

/** "0011.2233.4455", as EOS writes MAC addresses */
export function eosMac(mac: Buffer): string {
  const hex = mac.toString("hex").padEnd(12, "0");
  return `${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`;
}

export interface EosPortMode {
  trunk: boolean;
  /** the VLAN its untagged frames belong to now */
  untagged: number;
  access: number;
  native: number;
  allowed: number[] | "all";
}

/**
 * How a bridge port is configured: a trunk when configured so, or when it carries VLANs
 * besides its untagged one (a port the generator made a member of several VLANs).
 */
export function eosPortMode(model: VirtualSwitch, iface: LabInterface, cfg: SwitchConfig = model.running): EosPortMode {
  const bp = iface.bridgePort!;
  const untagged = cfg.pvid.get(bp) ?? 1;
  const carried = [...cfg.vlans.keys()].filter((id) => cfg.vlans.get(id)!.egress.has(bp)).sort((a, b) => a - b);
  const configured = cfg.portModes.get(bp) === "trunk";
  const trunk = configured || carried.some((id) => id !== untagged);
  if (trunk && !configured) return { trunk, untagged, access: 1, native: untagged, allowed: carried };
  const s = switchportOf(cfg, bp);
  const allowed = s.allowed === "all" ? "all" : [...s.allowed].sort((a, b) => a - b);
  return { trunk, untagged, access: s.access, native: s.native, allowed };
}

/** 1,10,20-22: consecutive ids as ranges, as EOS prints VLAN lists */
export function vlanRanges(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(j > i ? `${ids[i]}-${ids[j]}` : `${ids[i]}`);
    i = j;
  }
  return parts.join(",");
}

function hardware(i: LabInterface): string {
  if (i.ifType === 161) return "portChannel";
  if (i.ifType === 136) return "vlan";
  if (i.ifType === 24) return "loopback";
  return "ethernet";
}

function interfaceStatus(model: VirtualSwitch, i: LabInterface): string {
  if (!model.adminUp(i.ifIndex)) return "disabled";
  return model.operUp(i.ifIndex) ? "connected" : "notconnect";
}

function maskLength(mask: string): number {
  return mask.split(".").reduce((n, octet) => n + Number(octet).toString(2).replace(/0/g, "").length, 0);
}

function forwardingModel(i: LabInterface): string {
  if (i.ipv4) return "routed";
  return i.bridgePort !== null ? "bridged" : "routed";
}

function interfaceRow(model: VirtualSwitch, i: LabInterface) {
  const up = model.operUp(i.ifIndex);
  const address = i.ipv4
    ? [
        {
          name: i.name,
          primaryIp: { address: i.ipv4.address, maskLen: maskLength(i.ipv4.mask) },
          secondaryIps: {},
          secondaryIpsOrderedList: [],
          broadcastAddress: "255.255.255.255",
          virtualIp: { address: "0.0.0.0", maskLen: 0 },
        },
      ]
    : forwardingModel(i) === "routed"
      ? [{ name: i.name, primaryIp: { address: "0.0.0.0", maskLen: 0 }, secondaryIps: {}, secondaryIpsOrderedList: [] }]
      : [];
  const ethernet = i.ifType === 6;
  return {
    name: i.name,
    forwardingModel: forwardingModel(i),
    lineProtocolStatus: up ? "up" : "down",
    interfaceStatus: interfaceStatus(model, i),
    hardware: hardware(i),
    interfaceAddress: address,
    physicalAddress: i.mac.length === 6 ? eosMac(i.mac) : "0000.0000.0000",
    burnedInAddress: i.mac.length === 6 ? eosMac(i.mac) : "0000.0000.0000",
    description: model.alias(i.ifIndex),
    bandwidth: i.speedMbps * 1_000_000,
    mtu: i.mtu,
    l3MtuConfigured: false,
    duplex: ethernet && up ? (i.duplex === "half" ? "duplexHalf" : "duplexFull") : "duplexUnknown",
    autoNegotiate: ethernet ? "success" : "unknown",
    lastStatusChangeTimestamp: Math.floor(Date.now() / 1000) - 3600,
    ...(i.lagMemberOf !== undefined
      ? { interfaceMembership: `Member of ${model.interface(i.lagMemberOf)?.name ?? "Port-Channel1"}` }
      : {}),
  };
}

/** show interfaces [X] */
export function showInterfaces(model: VirtualSwitch, only?: LabInterface) {
  const list = only ? [only] : model.interfaces;
  return { interfaces: Object.fromEntries(list.map((i) => [i.name, interfaceRow(model, i)])) };
}

/** the interfaces `show interfaces status` lists: Ethernet, Port-Channel and Management ports */
function statusListed(i: LabInterface): boolean {
  return i.ifType === 6 || i.ifType === 161;
}

/** show interfaces [X] status */
export function showInterfacesStatus(model: VirtualSwitch, only?: LabInterface) {
  const list = (only ? [only] : model.interfaces).filter(statusListed);
  return {
    interfaceStatuses: Object.fromEntries(
      list.map((i) => {
        const row = interfaceRow(model, i);
        const mode = i.bridgePort !== null && !i.ipv4 ? eosPortMode(model, i) : null;
        return [
          i.name,
          {
            linkStatus: row.interfaceStatus,
            lineProtocolStatus: row.lineProtocolStatus,
            description: row.description,
            bandwidth: row.bandwidth,
            interfaceType: i.ifType === 161 ? "N/A" : i.speedMbps >= 10000 ? "10GBASE-T" : "1000BASE-T",
            duplex: row.duplex,
            autoNegotiateActive: i.ifType === 6,
            vlanInformation: mode
              ? mode.trunk
                ? { interfaceMode: "trunk", interfaceForwardingModel: "bridged" }
                : { interfaceMode: "bridged", vlanId: mode.untagged, interfaceForwardingModel: "bridged" }
              : { interfaceMode: "routed", interfaceForwardingModel: "routed" },
          },
        ];
      }),
    ),
  };
}

/** show interfaces [X] description */
export function showInterfacesDescription(model: VirtualSwitch, only?: LabInterface) {
  const list = only ? [only] : model.interfaces;
  return {
    interfaceDescriptions: Object.fromEntries(
      list.map((i) => [
        i.name,
        {
          description: model.alias(i.ifIndex),
          lineProtocolStatus: model.operUp(i.ifIndex) ? "up" : "down",
          interfaceStatus: !model.adminUp(i.ifIndex) ? "adminDown" : model.operUp(i.ifIndex) ? "up" : "down",
        },
      ]),
    ),
  };
}

function vlanName(model: VirtualSwitch, id: number): string {
  return model.vlan(id)?.name ?? "inactive";
}

/** show interfaces [X] switchport: bridge ports without an address only */
export function showInterfacesSwitchport(model: VirtualSwitch, only?: LabInterface) {
  const list = (only ? [only] : model.interfaces).filter((i) => i.bridgePort !== null && !i.ipv4);
  return {
    switchports: Object.fromEntries(
      list.map((i) => {
        const m = eosPortMode(model, i);
        return [
          i.name,
          {
            enabled: true,
            switchportInfo: {
              mode: m.trunk ? "trunk" : "access",
              accessVlanId: m.access,
              accessVlanName: vlanName(model, m.access),
              trunkingNativeVlanId: m.native,
              trunkingNativeVlanName: vlanName(model, m.native),
              trunkAllowedVlans: m.allowed === "all" ? "ALL" : m.allowed.length === 0 ? "NONE" : vlanRanges(m.allowed),
              macLearning: true,
              tpid: "0x8100",
              tpidStatus: true,
              staticTrunkGroups: [],
              dynamicTrunkGroups: [],
              dynamicAllowedVlans: {},
            },
          },
        ];
      }),
    ),
  };
}

/** show vlan [N]: the VLANs with the interfaces that carry them */
export function showVlan(model: VirtualSwitch, only?: number) {
  const ids = only === undefined ? model.vlanIds() : [only];
  const byBridgePort = new Map(model.interfaces.filter((i) => i.bridgePort !== null).map((i) => [i.bridgePort!, i]));
  return {
    sourceDetail: "",
    vlans: Object.fromEntries(
      ids.map((id) => {
        const v = model.vlan(id)!;
        const members = [...v.egress]
          .map((bp) => byBridgePort.get(bp))
          .filter((i): i is LabInterface => i !== undefined)
          .sort((a, b) => a.ifIndex - b.ifIndex);
        return [
          String(id),
          {
            name: v.name,
            status: v.active ? "active" : "suspended",
            interfaces: Object.fromEntries(members.map((i) => [i.name, { privatePromoted: false }])),
            dynamic: false,
          },
        ];
      }),
    ),
  };
}

export function showVersion(model: VirtualSwitch) {
  const s = model.system;
  const uptime = model.uptimeTicks() / 100;
  return {
    mfgName: "Arista",
    modelName: s.model,
    hardwareRevision: "11.01",
    serialNumber: s.serial,
    systemMacAddress: [...s.baseMac].map((b) => b.toString(16).padStart(2, "0")).join(":"),
    hwMacAddress: [...s.baseMac].map((b) => b.toString(16).padStart(2, "0")).join(":"),
    configMacAddress: "00:00:00:00:00:00",
    version: s.softwareVersion,
    architecture: "i686",
    internalVersion: `${s.softwareVersion}-lab`,
    internalBuildId: "00000000-0000-0000-0000-000000000000",
    imageFormatVersion: "1.0",
    isIntlVersion: false,
    memTotal: 3_893_316,
    memFree: 2_147_484,
    bootupTimestamp: Date.now() / 1000 - uptime,
    uptime,
  };
}

export function showVersionText(model: VirtualSwitch): string {
  const v = showVersion(model);
  return [
    `Arista ${v.modelName}`,
    `Hardware version:    ${v.hardwareRevision}`,
    `Serial number:       ${v.serialNumber}`,
    `System MAC address:  ${eosMac(model.system.baseMac)}`,
    "",
    `Software image version: ${v.version}`,
    `Architecture:           ${v.architecture}`,
    `Internal build version: ${v.internalVersion}`,
    "",
    `Uptime:                 ${Math.floor(v.uptime / 60)} minutes`,
    `Total memory:           ${v.memTotal} kB`,
    `Free memory:            ${v.memFree} kB`,
    "",
  ].join("\n");
}

export function showHostname(model: VirtualSwitch) {
  return { hostname: model.system.sysName, fqdn: model.system.sysName };
}

const CAPABILITY_BITS: Array<[number, string]> = [
  [0x80, "other"],
  [0x40, "repeater"],
  [0x20, "bridge"],
  [0x10, "wlanAccessPoint"],
  [0x08, "router"],
  [0x04, "telephone"],
  [0x02, "docsisCableDevice"],
  [0x01, "stationOnly"],
];

const CHASSIS_TYPES: Record<number, string> = {
  1: "chassisComponent",
  2: "interfaceAlias",
  3: "portComponent",
  4: "macAddress",
  5: "networkAddress",
  6: "interfaceName",
  7: "local",
};
const PORT_TYPES: Record<number, string> = {
  1: "interfaceAlias",
  2: "portComponent",
  3: "macAddress",
  4: "networkAddress",
  5: "interfaceName",
  6: "agentCircuitId",
  7: "local",
};

/** show lldp neighbors */
export function showLldpNeighbors(model: VirtualSwitch) {
  return {
    tablesLastChangeTime: Date.now() / 1000 - 600,
    tablesAgeOuts: 0,
    tablesInserts: model.lldp.length,
    tablesDeletes: 0,
    tablesDrops: 0,
    lldpNeighbors: model.lldp.flatMap((n) => {
      const local = model.interfaceOfBridgePort(n.localPort);
      if (!local) return [];
      return [
        {
          port: local.name,
          neighborDevice: n.sysName,
          neighborPort: n.portIdSubtype === 3 ? eosMac(n.portId) : n.portId.toString(),
          ttl: 120,
        },
      ];
    }),
  };
}

/** show lldp neighbors detail: every Ethernet port, those without a neighbour with an empty list */
export function showLldpNeighborsDetail(model: VirtualSwitch) {
  const out: Record<string, { lldpNeighborInfo: unknown[] }> = {};
  for (const i of model.ethernetPorts) out[i.name] = { lldpNeighborInfo: [] };
  for (const n of model.lldp) {
    const local = model.interfaceOfBridgePort(n.localPort);
    if (!local) continue;
    const portId = n.portIdSubtype === 3 ? eosMac(n.portId) : n.portId.toString();
    const capabilities = Object.fromEntries(
      CAPABILITY_BITS.filter(([bit]) => n.capSupported & bit).map(([bit, name]) => [name, (n.capEnabled & bit) !== 0]),
    );
    (out[local.name] ??= { lldpNeighborInfo: [] }).lldpNeighborInfo.push({
      chassisIdType: CHASSIS_TYPES[n.chassisIdSubtype] ?? "local",
      chassisId: n.chassisIdSubtype === 4 ? eosMac(n.chassisId) : n.chassisId.toString(),
      systemName: n.sysName,
      systemDescription: n.sysDesc,
      systemCapabilities: capabilities,
      managementAddresses: n.mgmtIpv4
        ? [{ addressType: "ipv4", address: n.mgmtIpv4, interfaceNumType: "ifIndex", interfaceNum: 1, oidString: "" }]
        : [],
      ttl: 120,
      lastChangeTime: Date.now() / 1000 - 600,
      lastContactTime: Date.now() / 1000 - 10,
      neighborDiscoveryTime: Date.now() / 1000 - 600,
      neighborInterfaceInfo: {
        interfaceIdType: PORT_TYPES[n.portIdSubtype] ?? "local",
        // EOS quotes the id in this key; the newer key has it plain
        interfaceId: `"${portId}"`,
        interfaceId_v2: portId,
        interfaceDescription: n.portDesc,
      },
    });
  }
  return { lldpNeighbors: out };
}

/** show mac address-table */
export function showMacAddressTable(model: VirtualSwitch) {
  const entries = model.fdb.flatMap((e) => {
    const i = model.interfaceOfBridgePort(e.bridgePort);
    if (!i) return [];
    return [
      {
        vlanId: e.vlan,
        macAddress: eosMac(e.mac),
        interface: i.name,
        entryType: "dynamic",
        moves: 1,
        lastMove: Date.now() / 1000 - 300,
      },
    ];
  });
  return { unicastTable: { tableEntries: entries }, multicastTable: { tableEntries: [] } };
}

/** show ip arp: "Vlan1, Ethernet5" where the MAC table knows the port behind the VLAN interface */
export function showIpArp(model: VirtualSwitch) {
  const neighbours = model.arp.map((a) => {
    const on = model.interface(a.ifIndex);
    const vlan = on && on.ifType === 136 ? Number(/\d+$/.exec(on.name)?.[0] ?? 0) : 0;
    const behind = model.fdb.find((e) => e.mac.equals(a.mac) && (vlan === 0 || e.vlan === vlan));
    const port = behind ? model.interfaceOfBridgePort(behind.bridgePort) : undefined;
    const where = on ? (port && on.ifType === 136 ? `${on.name}, ${port.name}` : on.name) : "";
    return { address: a.ip, hwAddress: eosMac(a.mac), interface: where, age: 0 };
  });
  return {
    totalEntries: neighbours.length,
    dynamicEntries: neighbours.length,
    staticEntries: 0,
    notLearnedEntries: 0,
    ipV4Neighbors: neighbours,
  };
}

/**
 * The configuration as `show running-config [all]` prints it; `all` adds the lines of
 * settings left at their defaults (which pyeapi's resource modules look for).
 */
export function configText(model: VirtualSwitch, cfg: SwitchConfig, all: boolean, command: string): string {
  const lines: string[] = [
    `! Command: ${command}`,
    `! device: ${model.system.sysName} (${model.system.model}, EOS-${model.system.softwareVersion})`,
    "!",
    `hostname ${model.system.sysName}`,
    "!",
  ];
  for (const id of [...cfg.vlans.keys()].sort((a, b) => a - b)) {
    const v = cfg.vlans.get(id)!;
    if (id === 1 && !all) continue;
    lines.push(`vlan ${id}`);
    if (all || v.name !== defaultVlanName(id)) lines.push(`   name ${v.name}`);
    if (all || !v.active) lines.push(`   state ${v.active ? "active" : "suspend"}`);
    lines.push("!");
  }
  for (const i of model.interfaces) lines.push(...interfaceBlock(model, cfg, i, all), "!");
  lines.push("end");
  return lines.join("\n") + "\n";
}

/** EOS's name for a VLAN created without one */
export function defaultVlanName(id: number): string {
  return id === 1 ? "default" : `VLAN${String(id).padStart(4, "0")}`;
}

export function interfaceBlock(model: VirtualSwitch, cfg: SwitchConfig, i: LabInterface, all: boolean): string[] {
  const port = cfg.ports.get(i.ifIndex);
  const out = [`interface ${i.name}`];
  const alias = port?.alias ?? "";
  if (alias) out.push(`   description ${alias}`);
  else if (all) out.push("   no description");
  if (!(port?.adminUp ?? true)) out.push("   shutdown");
  else if (all) out.push("   no shutdown");
  if (i.bridgePort !== null && !i.ipv4) {
    const m = eosPortMode(model, i, cfg);
    if (all || m.access !== 1) out.push(`   switchport access vlan ${m.access}`);
    if (all || m.native !== 1) out.push(`   switchport trunk native vlan ${m.native}`);
    const allowed = m.allowed === "all" ? "1-4094" : m.allowed.length === 0 ? "none" : vlanRanges(m.allowed);
    if (all || m.allowed !== "all") out.push(`   switchport trunk allowed vlan ${allowed}`);
    if (all || m.trunk) out.push(`   switchport mode ${m.trunk ? "trunk" : "access"}`);
    if (all) out.push("   switchport");
  } else if (i.ifType === 6 || i.ifType === 161) {
    out.push("   no switchport");
  }
  if (i.ipv4) out.push(`   ip address ${i.ipv4.address}/${maskLength(i.ipv4.mask)}`);
  if (i.poe && !(port?.poeEnabled ?? true)) out.push("   poe disabled");
  else if (i.poe && all) out.push("   no poe disabled");
  return out;
}

/**
 * The JSON form of a configuration text as EOS gives it for `show running-config`:
 * each line a key of `cmds`, a block's indented lines in its own `cmds`.
 */
export function configJson(text: string) {
  type Node = { cmds: Record<string, Node | null>; comments: string[] };
  const root: Node = { cmds: {}, comments: [] };
  const header: string[] = [];
  let block: Node | null = null;
  for (const line of text.split("\n")) {
    if (line.startsWith("! ")) {
      if (!block) header.push(line);
      continue;
    }
    if (line === "" || line === "!" || line === "end") {
      block = null;
      continue;
    }
    if (/^\s/.test(line)) {
      if (block) block.cmds[line.trim()] = null;
      continue;
    }
    const node: Node = { cmds: {}, comments: [] };
    root.cmds[line] = node;
    block = node;
  }
  // a line without sub-commands is a key with null, as EOS gives it
  for (const [key, node] of Object.entries(root.cmds))
    if (node && Object.keys(node.cmds).length === 0) root.cmds[key] = null;
  return { header, cmds: root.cmds };
}
