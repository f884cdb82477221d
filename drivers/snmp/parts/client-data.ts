/**
 * The details scope: forwarding table entries, ARP, and LLDP neighbours, each attached to
 * the interface it was seen on.
 */
import { bridge, ip, lldp, qbridge } from "../../../mib/oids";
import type { LldpNeighbor, MacEntry } from "../../../model/device";
import { type BridgePorts, interfaceOfPort } from "./bridge-ports";
import type { Columns } from "../session";
import { asBytes, asInt, asText, macFromArcs, macText } from "../varbind-values";

/** ifIndex -> MAC entries, from dot1qTpFdbPort (or dot1dTpFdbPort, no VLAN then). */
export function macsByInterface(
  qFdb: Columns | undefined,
  dFdb: Columns | undefined,
  ports: BridgePorts,
  vlanOfFdb: Map<number, number>,
  ipv4ByMac: Map<string, string[]>,
): Map<number, MacEntry[]> {
  const out = new Map<number, MacEntry[]>();
  const add = (port: number, mac: string, vlan: number) => {
    // port 0: the switch's own or a static address, not seen on a port
    const ifIndex = port > 0 ? interfaceOfPort(ports, port) : null;
    if (ifIndex === null) return;
    const list = out.get(ifIndex) ?? [];
    list.push({ address: mac, vlan, ipv4: ipv4ByMac.get(mac) ?? [], ipv6: [] });
    out.set(ifIndex, list);
  };
  const q = qFdb?.get(qbridge.dot1qTpFdbPort);
  if (q && q.size > 0) {
    for (const [index, vb] of q) {
      const arcs = index.split(".");
      if (arcs.length !== 7) continue;
      const fdbId = Number(arcs[0]);
      add(asInt(vb), macFromArcs(arcs.slice(1)), vlanOfFdb.get(fdbId) ?? fdbId);
    }
    return out;
  }
  for (const [index, vb] of dFdb?.get(bridge.dot1dTpFdbPort) ?? []) {
    const arcs = index.split(".");
    if (arcs.length === 6) add(asInt(vb), macFromArcs(arcs), 0);
  }
  return out;
}

/** MAC -> IPv4 addresses, from ipNetToMediaPhysAddress (index ifIndex.a.b.c.d). */
export function ipv4ByMac(arp: Columns | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [index, vb] of arp?.get(ip.ipNetToMediaPhysAddress) ?? []) {
    const arcs = index.split(".");
    if (arcs.length !== 5) continue;
    const bytes = asBytes(vb);
    if (bytes.length !== 6) continue;
    const mac = macText(bytes);
    const list = out.get(mac) ?? [];
    const address = arcs.slice(1).join(".");
    if (!list.includes(address)) list.push(address);
    out.set(mac, list);
  }
  return out;
}

// LLDP-MIB LldpSystemCapabilitiesMap bit order (bit 0 = MSB of the first octet)
const capabilityNames = ["Other", "Repeater", "Switch", "Wireless AP", "Router", "Phone", "Docsis", "Station"];

function capabilities(bytes: Buffer): string {
  const names: string[] = [];
  capabilityNames.forEach((name, bit) => {
    if (bytes.length > 0 && bytes[0] & (0x80 >> bit)) names.push(name);
  });
  if (bytes.length > 1 && bytes[1] & 0x80) names.push("C-VLAN");
  if (bytes.length > 1 && bytes[1] & 0x40) names.push("S-VLAN");
  return names.join(", ");
}

function printable(bytes: Buffer): boolean {
  return bytes.length > 0 && [...bytes].every((b) => b >= 0x20 && b < 0x7f);
}

/** chassis / port ids: MAC subtypes as MAC, text as text, anything else as hex. */
function idText(subtype: number, bytes: Buffer, macSubtype: number): string {
  if (subtype === macSubtype && bytes.length === 6) return macText(bytes);
  if (printable(bytes) || bytes.length === 0) return bytes.toString("latin1");
  return macText(bytes);
}

/** RFC 5952 text: lowercase hex, the longest run of two or more zero groups as "::". */
function ipv6Text(bytes: number[]): string {
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      best = i;
      bestLength = j - i;
    }
    i = j > i ? j : i + 1;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(":");
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}

/** lldpRemManAddrTable index: timeMark.localPort.remIndex.subtype.length.address... */
function managementAddresses(table: Columns | undefined): Map<string, { v4: string; v6: string }> {
  const out = new Map<string, { v4: string; v6: string }>();
  for (const index of table?.get(lldp.lldpRemManAddrIfSubtype)?.keys() ?? []) {
    const arcs = index.split(".").map(Number);
    if (arcs.length < 5) continue;
    const key = arcs.slice(0, 3).join(".");
    const [subtype, length] = arcs.slice(3, 5);
    const address = arcs.slice(5, 5 + length);
    const entry = out.get(key) ?? { v4: "", v6: "" };
    if (subtype === 1 && address.length === 4 && !entry.v4) entry.v4 = address.join(".");
    if (subtype === 2 && address.length === 16 && !entry.v6) entry.v6 = ipv6Text(address);
    out.set(key, entry);
  }
  return out;
}

/**
 * ifIndex -> neighbours. The remote table's local port number is the bridge port number
 * on most agents (LLDP-MIB: lldpPortNumber), mapped through the bridge port table.
 */
export function neighborsByInterface(
  rem: Columns | undefined,
  manAddr: Columns | undefined,
  ports: BridgePorts,
  ifIndexes: Set<number>,
): Map<number, LldpNeighbor[]> {
  const out = new Map<number, LldpNeighbor[]>();
  const col = (c: string) => rem?.get(c);
  const addresses = managementAddresses(manAddr);
  const rows = new Set([...(col(lldp.lldpRemChassisId)?.keys() ?? []), ...(col(lldp.lldpRemPortId)?.keys() ?? [])]);
  for (const index of rows) {
    const arcs = index.split(".");
    if (arcs.length !== 3) continue;
    const localPort = Number(arcs[1]);
    const mapped = interfaceOfPort(ports, localPort);
    const ifIndex = mapped !== null && ifIndexes.has(mapped) ? mapped : ifIndexes.has(localPort) ? localPort : null;
    if (ifIndex === null) continue;
    const chassisType = asInt(col(lldp.lldpRemChassisIdSubtype)?.get(index));
    const portType = asInt(col(lldp.lldpRemPortIdSubtype)?.get(index));
    const address = addresses.get(index);
    const neighbor: LldpNeighbor = {
      // subtypes: chassis 4 = macAddress, port 3 = macAddress
      port_name: idText(portType, asBytes(col(lldp.lldpRemPortId)?.get(index)), 3),
      port_description: asText(col(lldp.lldpRemPortDesc)?.get(index)),
      system_name: asText(col(lldp.lldpRemSysName)?.get(index)),
      system_description: asText(col(lldp.lldpRemSysDesc)?.get(index)),
      chassis_id: idText(chassisType, asBytes(col(lldp.lldpRemChassisId)?.get(index)), 4),
      chassis_type: chassisType,
      capabilities: capabilities(asBytes(col(lldp.lldpRemSysCapEnabled)?.get(index))),
      management_address_v4: address?.v4 ?? "",
      management_address_v6: address?.v6 ?? "",
    };
    const list = out.get(ifIndex) ?? [];
    list.push(neighbor);
    out.set(ifIndex, list);
  }
  return out;
}
