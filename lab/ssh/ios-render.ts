/**
 * The lab switch's state printed the way Cisco IOS prints its show commands (column
 * layouts as on real Catalyst switches; see the recorded outputs the driver's parsers
 * are tested with). Read at the moment of the command, so a change made over SNMP
 * shows at once.
 *
 * A port is a trunk when it is configured as one (`switchport mode trunk`, the model's
 * port mode) or, on the Q-BRIDGE profiles that have no port modes, when it sends VLANs
 * besides its PVID's. What it keeps configured (access VLAN, native VLAN, allowed list,
 * for the mode it is in and the other) are the model's switchport settings.
 */
import { switchportOf } from "../config";
import type { LabInterface, VirtualSwitch } from "../model";
import { PoeDetection } from "../model";
import { type IosInterface, iosInterfaces } from "./ios-names";

export interface PortMode {
  trunk: boolean;
  /** PVID */
  untagged: number;
  /** VLANs the port sends (egress), ascending */
  carried: number[];
  /** the configured access VLAN (used while an access port) */
  access: number;
  /** the configured native VLAN (used while a trunk) */
  native: number;
  /** the configured allowed list: VLAN ids ascending, or "all" */
  allowed: number[] | "all";
}

/** The short and long name of the link aggregation a port is a member of, and its channel-group number. */
function bundleOf(model: VirtualSwitch, iface: LabInterface): { short: string; long: string; group: string } | null {
  if (iface.lagMemberOf === undefined) return null;
  const aggregate = iosInterfaces(model).find((x) => x.iface.ifIndex === iface.lagMemberOf);
  if (!aggregate) return null;
  return { short: aggregate.short, long: aggregate.long, group: /(\d+)$/.exec(aggregate.long)?.[1] ?? "1" };
}

export function portMode(model: VirtualSwitch, iface: LabInterface): PortMode | null {
  if (iface.bridgePort === null) return null;
  const bp = iface.bridgePort;
  const untagged = model.pvid(bp) ?? 1;
  const carried = model.vlanIds().filter((id) => model.vlan(id)!.egress.has(bp));
  const configured = model.running.portModes.get(bp) === "trunk";
  const trunk = configured || carried.some((id) => id !== untagged);
  if (trunk && !configured) return { trunk, untagged, carried, access: 1, native: untagged, allowed: carried };
  const s = switchportOf(model.running, bp);
  const allowed = s.allowed === "all" ? "all" : [...s.allowed].sort((a, b) => a - b);
  return { trunk, untagged, carried, access: s.access, native: s.native, allowed };
}

/** an allowed list as IOS prints it: "ALL", "NONE" or ranges */
export function allowedText(allowed: number[] | "all"): string {
  if (allowed === "all") return "ALL";
  return allowed.length === 0 ? "NONE" : compressVlans(allowed);
}

const pad = (text: string, width: number) => (text.length >= width ? `${text} ` : text.padEnd(width));
const lpad = (text: string, width: number) => text.padStart(width);

function vlanLabel(model: VirtualSwitch, id: number): string {
  const v = model.vlan(id);
  return v ? `${id} (${v.name})` : `${id} (Inactive)`;
}

/** 1,10,20-22,99: consecutive ids as ranges */
export function compressVlans(ids: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    parts.push(j > i + 1 ? `${ids[i]}-${ids[j]}` : j === i + 1 ? `${ids[i]},${ids[j]}` : `${ids[i]}`);
    i = j;
  }
  return parts.join(",");
}

function dotted(mac: Buffer): string {
  const hex = mac.toString("hex");
  return `${hex.slice(0, 4)}.${hex.slice(4, 8)}.${hex.slice(8, 12)}`;
}

export function showVersion(model: VirtualSwitch): string {
  const s = model.system;
  const minutes = Math.floor(model.uptimeTicks() / 6000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mac = [...s.baseMac].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  return [
    `Cisco IOS Software, switchdesk lab (${s.model}), Version ${s.softwareVersion}, RELEASE SOFTWARE (lab)`,
    "Copyright (c) the switchdesk lab",
    "",
    "ROM: lab bootstrap",
    "",
    `${s.sysName} uptime is ${days} days, ${hours} hours, ${minutes % 60} minutes`,
    "System returned to ROM by power-on",
    'System image file is "flash:lab-image.bin"',
    "",
    `cisco ${s.model} (lab) processor with 524288K bytes of memory.`,
    `Processor board ID ${s.serial}`,
    `${model.portCount} Gigabit Ethernet interfaces`,
    `Base ethernet MAC Address       : ${mac}`,
    `Model number                    : ${s.model}`,
    `System serial number            : ${s.serial}`,
  ].join("\n");
}

function statusWord(model: VirtualSwitch, i: LabInterface): string {
  if (!model.adminUp(i.ifIndex)) return "disabled";
  return model.operUp(i.ifIndex) ? "connected" : "notconnect";
}

function speedWord(model: VirtualSwitch, i: LabInterface): { duplex: string; speed: string } {
  if (!model.operUp(i.ifIndex) || i.speedMbps === 0) return { duplex: "auto", speed: "auto" };
  const speed = i.speedMbps >= 10000 && i.speedMbps % 1000 === 0 ? `${i.speedMbps / 1000}G` : String(i.speedMbps);
  return { duplex: `a-${i.duplex}`, speed: `a-${speed}` };
}

/** switch ports: Ethernet ports and LAGs */
const switchPorts = (all: IosInterface[]) => all.filter((x) => x.iface.bridgePort !== null);

export function showInterfacesStatus(model: VirtualSwitch, only?: IosInterface): string {
  const rows = (only ? [only] : switchPorts(iosInterfaces(model))).filter((x) => x.iface.bridgePort !== null);
  const lines = ["", "Port      Name               Status       Vlan       Duplex  Speed Type"];
  for (const { iface, short } of rows) {
    const mode = portMode(model, iface)!;
    const { duplex, speed } = speedWord(model, iface);
    const type = iface.portNumber === null ? "" : iface.speedMbps >= 10000 ? "SFP-10GBase-SR" : "10/100/1000BaseTX";
    const vlan = mode.trunk ? "trunk" : String(mode.untagged);
    lines.push(
      (
        pad(short, 10) +
        pad(model.alias(iface.ifIndex).slice(0, 18), 19) +
        pad(statusWord(model, iface), 13) +
        pad(vlan, 11) +
        lpad(duplex, 6) +
        " " +
        lpad(speed, 6) +
        " " +
        type
      ).trimEnd(),
    );
  }
  return lines.join("\n");
}

export function showInterfacesDescription(model: VirtualSwitch, only?: IosInterface): string {
  const lines = ["Interface                      Status         Protocol Description"];
  for (const { iface, short } of only ? [only] : iosInterfaces(model)) {
    const admin = model.adminUp(iface.ifIndex);
    const oper = model.operUp(iface.ifIndex);
    const status = !admin ? "admin down" : oper ? "up" : "down";
    lines.push(
      (pad(short, 31) + pad(status, 15) + pad(oper ? "up" : "down", 9) + model.alias(iface.ifIndex)).trimEnd(),
    );
  }
  return lines.join("\n");
}

/** the trunk list wrapped as IOS wraps it: continuation lines indented by five blanks */
function wrappedList(label: string, list: string): string[] {
  const out: string[] = [];
  let line = label;
  let first = true;
  for (const part of list.split(",")) {
    const piece = first ? part : `,${part}`;
    first = false;
    if (line.length + piece.length > 78) {
      out.push(`${line},`);
      line = `     ${part}`;
    } else {
      line += piece;
    }
  }
  out.push(line);
  return out;
}

export function showInterfacesSwitchport(model: VirtualSwitch, only?: IosInterface): string {
  const lines: string[] = [];
  for (const { iface, short } of only ? [only] : switchPorts(iosInterfaces(model))) {
    const mode = portMode(model, iface);
    lines.push(`Name: ${short}`);
    if (!mode) {
      lines.push("Switchport: Disabled", "");
      continue;
    }
    const oper = model.operUp(iface.ifIndex);
    const bundle = bundleOf(model, iface);
    const operMode = !oper ? "down" : mode.trunk ? "trunk" : "static access";
    lines.push(
      "Switchport: Enabled",
      `Administrative Mode: ${mode.trunk ? "trunk" : "static access"}`,
      `Operational Mode: ${operMode}${bundle ? ` (${oper ? "" : "suspended "}member of bundle ${bundle.short})` : ""}`,
      "Administrative Trunking Encapsulation: dot1q",
      ...(oper ? [`Operational Trunking Encapsulation: ${mode.trunk ? "dot1q" : "native"}`] : []),
      "Negotiation of Trunking: Off",
      `Access Mode VLAN: ${vlanLabel(model, mode.access)}`,
      `Trunking Native Mode VLAN: ${vlanLabel(model, mode.native)}`,
      "Administrative Native VLAN tagging: enabled",
      "Voice VLAN: none",
      "Administrative private-vlan host-association: none",
      "Administrative private-vlan mapping: none",
      "Operational private-vlan: none",
      ...wrappedList("Trunking VLANs Enabled: ", allowedText(mode.allowed)),
      "Pruning VLANs Enabled: 2-1001",
      "Capture Mode Disabled",
      "Capture VLANs Allowed: ALL",
      "",
      "Protected: false",
      "Unknown unicast blocked: disabled",
      "Unknown multicast blocked: disabled",
      "Appliance trust: none",
      "",
    );
  }
  return lines.join("\n");
}

export function showVlanBrief(model: VirtualSwitch): string {
  const lines = [
    "",
    "VLAN Name                             Status    Ports",
    "---- -------------------------------- --------- -------------------------------",
  ];
  const all = switchPorts(iosInterfaces(model));
  for (const id of model.vlanIds()) {
    const v = model.vlan(id)!;
    // IOS lists access ports only; trunks carry VLANs without being listed
    const ports = all
      .filter(({ iface }) => {
        const m = portMode(model, iface)!;
        return !m.trunk && m.untagged === id;
      })
      .map((x) => x.short);
    const chunks: string[] = [];
    for (let k = 0; k < ports.length; k += 4) chunks.push(ports.slice(k, k + 4).join(", "));
    lines.push(
      (pad(String(id), 5) + pad(v.name, 33) + pad(v.active ? "active" : "suspended", 10) + (chunks[0] ?? "")).trimEnd(),
    );
    for (const more of chunks.slice(1)) lines.push(" ".repeat(48) + more);
  }
  return lines.join("\n");
}

const DEVICE_NAMES = { phone: "IP Phone 8841", ap: "AIR-AP2802I-E-K9", camera: "Ieee PD" } as const;

/** null when the switch has no PoE at all (IOS does not know the command there) */
export function showPowerInline(model: VirtualSwitch, only?: IosInterface): string | null {
  if (!model.poeMain) return null;
  const lines: string[] = [];
  if (!only) {
    const max = model.poeMain.maxPowerW;
    const used = model.poeConsumedW();
    lines.push(
      "",
      "Module   Available     Used     Remaining",
      "          (Watts)     (Watts)    (Watts)",
      "------   ---------   --------   ---------",
      `1${lpad(max.toFixed(1), 16)}${lpad(used.toFixed(1), 11)}${lpad((max - used).toFixed(1), 12)}`,
    );
  }
  lines.push(
    "Interface Admin  Oper       Power   Device              Class Max",
    "                            (Watts)",
    "--------- ------ ---------- ------- ------------------- ----- ----",
  );
  const rows = (only ? [only] : iosInterfaces(model)).filter((x) => x.iface.poe);
  for (const { iface, short } of rows) {
    const state = model.poeState(iface.ifIndex)!;
    const delivering = state.detection === PoeDetection.deliveringPower;
    const device = delivering && iface.poe!.device ? DEVICE_NAMES[iface.poe!.device.kind] : "n/a";
    const cls = delivering && iface.poe!.device ? String(iface.poe!.device.powerClass) : "n/a";
    lines.push(
      pad(short, 10) +
        pad(state.enabled ? "auto" : "off", 7) +
        pad(delivering ? "on" : "off", 11) +
        pad((state.powerMw / 1000).toFixed(1), 8) +
        pad(device, 20) +
        pad(cls, 6) +
        "30.0",
    );
  }
  return lines.join("\n");
}

export function showIpInterfaceBrief(model: VirtualSwitch, only?: IosInterface): string {
  const lines = ["Interface              IP-Address      OK? Method Status                Protocol"];
  for (const { iface, long } of only ? [only] : iosInterfaces(model)) {
    const admin = model.adminUp(iface.ifIndex);
    const oper = model.operUp(iface.ifIndex);
    const address = iface.ipv4?.address ?? "unassigned";
    lines.push(
      pad(long, 23) +
        pad(address, 16) +
        "YES " +
        pad(iface.ipv4 ? "NVRAM" : "unset", 7) +
        pad(!admin ? "administratively down" : oper ? "up" : "down", 22) +
        (oper ? "up" : "down"),
    );
  }
  return lines.join("\n");
}

export function showMacAddressTable(model: VirtualSwitch): string {
  const byPort = new Map(switchPorts(iosInterfaces(model)).map((x) => [x.iface.bridgePort!, x.short]));
  const lines = [
    "          Mac Address Table",
    "-------------------------------------------",
    "",
    "Vlan    Mac Address       Type        Ports",
    "----    -----------       --------    -----",
  ];
  const entries = [...model.fdb].sort((a, b) => a.vlan - b.vlan || a.bridgePort - b.bridgePort);
  for (const e of entries) {
    lines.push(`${lpad(String(e.vlan), 4)}    ${dotted(e.mac)}    DYNAMIC     ${byPort.get(e.bridgePort) ?? "CPU"}`);
  }
  lines.push(`Total Mac Addresses for this criterion: ${entries.length}`);
  return lines.join("\n");
}

export function showIpArp(model: VirtualSwitch): string {
  const names = new Map(iosInterfaces(model).map((x) => [x.iface.ifIndex, x.long]));
  const lines = ["Protocol  Address          Age (min)  Hardware Addr   Type   Interface"];
  for (const a of model.arp) {
    lines.push(`Internet  ${pad(a.ip, 16)} ${lpad("3", 9)}   ${dotted(a.mac)}  ARPA   ${names.get(a.ifIndex) ?? ""}`);
  }
  return lines.join("\n");
}

function capabilityLetters(bits: number): string {
  const letters: string[] = [];
  if (bits & 0x20) letters.push("B");
  if (bits & 0x10) letters.push("W");
  if (bits & 0x08) letters.push("R");
  if (bits & 0x04) letters.push("T");
  return letters.join(",");
}

export function showLldpNeighborsDetail(model: VirtualSwitch): string {
  const byPort = new Map(switchPorts(iosInterfaces(model)).map((x) => [x.iface.bridgePort!, x.short]));
  const lines: string[] = [];
  for (const n of model.lldp) {
    const chassis = n.chassisIdSubtype === 4 ? dotted(n.chassisId) : n.chassisId.toString();
    const port = n.portIdSubtype === 3 ? dotted(n.portId) : n.portId.toString();
    lines.push(
      "------------------------------------------------",
      `Local Intf: ${byPort.get(n.localPort) ?? ""}`,
      `Chassis id: ${chassis}`,
      `Port id: ${port}`,
      `Port Description: ${n.portDesc}`,
      `System Name: ${n.sysName}`,
      "",
      "System Description:",
      n.sysDesc,
      "",
      "Time remaining: 105 seconds",
      `System Capabilities: ${capabilityLetters(n.capSupported)}`,
      `Enabled Capabilities: ${capabilityLetters(n.capEnabled)}`,
      ...(n.mgmtIpv4 ? ["Management Addresses:", `    IP: ${n.mgmtIpv4}`] : ["Management Addresses - not advertised"]),
      "Auto Negotiation - supported, enabled",
      "Physical media capabilities:",
      "    1000baseT(FD)",
      "Media Attachment Unit type: 30",
      "Vlan ID: - not advertised",
      "",
    );
  }
  lines.push("", `Total entries displayed: ${model.lldp.length}`);
  return lines.join("\n");
}

export function showRunningInterface(model: VirtualSwitch, x: IosInterface): string {
  const block = [...interfaceConfig(model, x), "end"].join("\n");
  return ["Building configuration...", "", `Current configuration : ${block.length + 1} bytes`, "!", block, ""].join(
    "\n",
  );
}

/** `show running-config`: the interfaces' blocks (what the lab has of a configuration), "!" between them */
export function showRunningConfig(model: VirtualSwitch): string {
  const blocks = iosInterfaces(model).map((x) => interfaceConfig(model, x).join("\n"));
  const text = ["!", `hostname ${model.system.sysName}`, "!", ...blocks.flatMap((b) => [b, "!"]), "end"].join("\n");
  return ["Building configuration...", "", `Current configuration : ${text.length + 1} bytes`, text, ""].join("\n");
}

function interfaceConfig(model: VirtualSwitch, x: IosInterface): string[] {
  const { iface, long } = x;
  const body: string[] = [];
  const alias = model.alias(iface.ifIndex);
  if (alias) body.push(` description ${alias}`);
  const mode = portMode(model, iface);
  // IOS leaves out what is at its default: access and native VLAN 1, all VLANs allowed
  if (mode) {
    if (mode.access !== 1) body.push(` switchport access vlan ${mode.access}`);
    if (mode.native !== 1) body.push(` switchport trunk native vlan ${mode.native}`);
    if (mode.allowed !== "all") body.push(` switchport trunk allowed vlan ${allowedText(mode.allowed)}`);
    body.push(mode.trunk ? " switchport mode trunk" : " switchport mode access");
  }
  if (iface.ipv4) body.push(` ip address ${iface.ipv4.address} ${iface.ipv4.mask}`);
  if (iface.dot1x) body.push(" authentication port-control auto", " dot1x pae authenticator");
  const bundle = bundleOf(model, iface);
  if (bundle) body.push(` channel-group ${bundle.group} mode active`);
  if (iface.poe && !model.poeState(iface.ifIndex)!.enabled) body.push(" power inline never");
  if (!model.adminUp(iface.ifIndex)) body.push(" shutdown");
  return [`interface ${long}`, ...body];
}
