/**
 * "Where is it plugged in?" (GET api/switches/find/, docs/api-decisions.md section 18): the
 * pure rules of the search. What a searched address may look like (a whole MAC address in
 * any common notation, or an IPv4 or IPv6 address; no prefixes), which MAC entries of a
 * device's details view match it, whether the port a MAC was seen on is an edge port or
 * an uplink, and the order of the answer (edge ports first).
 */
import { isIP } from "node:net";
import type { InterfaceInfo, MacEntry } from "../model/device";
import { naturalCompare } from "../model/natural-order";

/** what was asked for, in one spelling */
export type FindQuery = { kind: "mac"; mac: string } | { kind: "ipv4" | "ipv6"; ip: string };

/** the notations a MAC address is taken in (the 400's reason lists them) */
export const MAC_NOTATIONS = "aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff, aabbcc-ddeeff or aabbccddeeff";

/** the longest text looked at: an IPv6 address with an embedded IPv4 one is 45 characters */
const MAX_ADDRESS_LENGTH = 64;

const MAC_FORMS: readonly RegExp[] = [
  // six octets split by one kind of separator; an octet may drop its leading zero (0:1b:...)
  /^[0-9a-f]{1,2}(:[0-9a-f]{1,2}){5}$/,
  /^[0-9a-f]{1,2}(-[0-9a-f]{1,2}){5}$/,
  // Cisco's three groups of four
  /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/,
  // HPE ProCurve and Comware's two halves
  /^[0-9a-f]{6}-[0-9a-f]{6}$/,
  // bare hex
  /^[0-9a-f]{12}$/,
];

/** "00:1b:21:3a:4f:05" for a MAC in one of MAC_FORMS, else null */
export function normalMac(text: string): string | null {
  const t = text.trim().toLowerCase();
  if (!MAC_FORMS.some((re) => re.test(t))) return null;
  const octets = /[:-]/.test(t) && t.split(/[:-]/).length === 6 ? t.split(/[:-]/) : null;
  const hex = octets ? octets.map((o) => o.padStart(2, "0")).join("") : t.replace(/[.-]/g, "");
  return hex.match(/../g)!.join(":");
}

/** an IPv6 address in one canonical spelling (the URL standard's: lower case, the longest zero run as "::"), else null */
export function normalIpv6(text: string): string | null {
  const t = text.trim();
  if (isIP(t) !== 6 || t.includes("%")) return null;
  try {
    return new URL(`http://[${t}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** an IPv4 address in dotted decimal without leading zeros (010.0.0.1 is ambiguous and refused), else null */
function normalIpv4(text: string): string | null {
  const t = text.trim();
  return isIP(t) === 4 && t.split(".").every((p) => p === "0" || !p.startsWith("0")) ? t : null;
}

/**
 * The searched address, or the reason it is not one: the 400's text. A partial MAC
 * address (an OUI, the last digits from a label) is refused rather than searched: a
 * prefix matches every device of a maker on every switch, and the answer would have no bound.
 */
export function parseFindAddress(raw: string): { query: FindQuery } | { reason: string } {
  const text = raw.trim();
  if (text === "") return { reason: "Missing or invalid parameter: 'address' is required!" };
  if (text.length > MAX_ADDRESS_LENGTH)
    return { reason: `'address' is not a MAC or IP address (${text.length} characters)` };
  const mac = normalMac(text);
  if (mac) return { query: { kind: "mac", mac } };
  const v4 = normalIpv4(text);
  if (v4) return { query: { kind: "ipv4", ip: v4 } };
  const v6 = normalIpv6(text);
  if (v6) return { query: { kind: "ipv6", ip: v6 } };
  // hex digits in a MAC's groups, fewer than twelve: a partial MAC (digits and dots alone read as an IPv4 address)
  const hexDigits = text.replace(/[:.-]/g, "");
  const looksLikeMac =
    (/^[0-9a-f]{2,11}$/i.test(text) || /^[0-9a-f]{1,4}([:.-][0-9a-f]{1,4})+$/i.test(text)) && !/^[\d.]+$/.test(text);
  if (looksLikeMac && hexDigits.length < 12)
    return {
      reason: `'${text}' is not a whole MAC address: give all 12 hex digits (${MAC_NOTATIONS}); prefixes are not searched`,
    };
  return {
    reason: `'${text}' is not a MAC address (${MAC_NOTATIONS}) or an IPv4 or IPv6 address`,
  };
}

/** the ids of a `switches` parameter ("7,12, 31"), or the reason they are not */
export function parseDeviceIds(raw: string, max: number): { ids: number[] } | { reason: string } {
  const parts = raw
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) return { reason: "'switches' must list device ids separated by commas, such as 7,12" };
  const bad = parts.find((p) => !/^[1-9]\d{0,8}$/.test(p));
  if (bad !== undefined) return { reason: `'switches' must list device ids separated by commas: '${bad}' is not one` };
  const ids = [...new Set(parts.map(Number))];
  if (ids.length > max)
    return { reason: `'switches' lists ${ids.length} devices; at most ${max} are searched in one call` };
  return { ids };
}

/**
 * The MAC addresses an IP address stands for, from the ARP entries the devices' details
 * views attach to their MAC entries (a device shows an IP beside a MAC when its ARP table
 * maps it to one its MAC table holds).
 */
export function macsOfIp(query: FindQuery, entries: Iterable<MacEntry>): Set<string> {
  const out = new Set<string>();
  if (query.kind === "mac") return out;
  for (const e of entries) {
    const ips = query.kind === "ipv4" ? e.ipv4 : e.ipv6.map((x) => normalIpv6(x) ?? x);
    if (ips.includes(query.ip)) out.add(e.address.toLowerCase());
  }
  return out;
}

export type PortRole = "edge" | "uplink";
/** why a port counts as an uplink: a network device's LLDP neighbour on it, or many MACs */
export type UplinkReason = "lldp_neighbor" | "many_macs";

/** a neighbour that forwards for others: a bridge (switch), router or repeater, or one that says nothing of itself */
const NETWORK_DEVICE = /\b(switch|bridge|router|repeater|c-vlan|s-vlan)\b/i;

/**
 * Edge or uplink. An uplink: an LLDP neighbour on the port that is a network device (its
 * capabilities name a bridge, switch, router or repeater, or name nothing: a neighbour
 * that does not say what it is counts as one), or more than `uplinkMacs` MAC addresses
 * learned on the port. A phone or access point neighbour alone leaves the port an edge.
 */
export function portRole(
  iface: Pick<InterfaceInfo, "macs" | "neighbors">,
  uplinkMacs: number,
): { role: PortRole; because: UplinkReason | null } {
  if (iface.neighbors.some((n) => n.capabilities.trim() === "" || NETWORK_DEVICE.test(n.capabilities)))
    return { role: "uplink", because: "lldp_neighbor" };
  if (iface.macs.length > uplinkMacs) return { role: "uplink", because: "many_macs" };
  return { role: "edge", because: null };
}

/** what orders a match: its port's role, then the group, device and interface names */
export interface MatchOrder {
  role: PortRole;
  group: string;
  switch: string;
  interface: string;
  vlan: number;
}

/** edge ports first; then by group, device (names, without regard to case) and interface (natural order) */
export function compareMatches(a: MatchOrder, b: MatchOrder): number {
  if (a.role !== b.role) return a.role === "edge" ? -1 : 1;
  const byName = (x: string, y: string) => x.localeCompare(y, "en", { sensitivity: "base" });
  return (
    byName(a.group, b.group) ||
    byName(a.switch, b.switch) ||
    naturalCompare(a.interface, b.interface) ||
    a.vlan - b.vlan
  );
}
