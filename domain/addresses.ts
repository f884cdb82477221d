/**
 * Client addresses: lists of addresses and CIDR networks (METRICS_ALLOW, TRUSTED_PROXIES)
 * read and matched one way, and the client of a request that came through proxies.
 *
 * The client behind proxies: X-Forwarded-For is read from the right, and only while the
 * hop that wrote an entry is a trusted proxy. The socket's peer must be one to begin with
 * (else the header is the client's own text and is ignored); each trusted entry passes
 * the walk one hop to the left; the first entry that is not a trusted proxy is the client.
 * Entries to its left were written by the client (or by hops nobody vouches for) and are
 * never read. When every entry is trusted, the left-most is the client. An entry that is
 * not an address stops the walk: the trusted hop that passed it on is the client then.
 */
import { BlockList, isIP } from "node:net";

/** one entry of a list: an address, or a network in CIDR form */
export interface AddressEntry {
  address: string;
  /** prefix length; undefined for a single address */
  prefix?: number;
  family: 4 | 6;
}

/**
 * A comma-separated list of addresses and networks ("127.0.0.1, 10.0.0.0/8, fd00::/8"),
 * or the text of the first entry that is neither.
 */
export function parseAddressList(text: string): { entries: AddressEntry[] } | { bad: string } {
  const entries: AddressEntry[] = [];
  for (const raw of text
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [address, prefix, extra] = raw.split("/");
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra !== undefined) return { bad: raw };
    entries.push({
      address,
      family: family === 6 ? 6 : 4,
      ...(prefix === undefined ? {} : { prefix: Number(prefix) }),
    });
  }
  return { entries };
}

/** "::ffff:10.1.2.3" (an IPv4 peer on a dual-stack socket) as "10.1.2.3"; other text as it is */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/**
 * A matcher of addresses for a list (as parseAddressList reads it; a bad entry throws);
 * an address that does not parse never matches.
 */
export function addressMatcher(list: readonly string[]): (address: string) => boolean {
  const parsed = parseAddressList(list.join(","));
  if ("bad" in parsed) throw new Error(`not an address or network: "${parsed.bad}"`);
  const entries = parsed.entries;
  if (entries.length === 0) return () => false;
  const blocks = new BlockList();
  for (const e of entries) {
    const type = e.family === 6 ? "ipv6" : "ipv4";
    if (e.prefix === undefined) blocks.addAddress(e.address, type);
    else blocks.addSubnet(e.address, e.prefix, type);
  }
  return (address) => {
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && blocks.check(plain, family === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * One X-Forwarded-For entry as an address, or null: a bare IPv4 or IPv6 address, IPv4
 * with a port ("192.0.2.1:51234") or IPv6 in brackets with or without one, as some load
 * balancers write them.
 */
export function forwardedAddress(entry: string): string | null {
  const text = entry.trim();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/i.exec(text);
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(text);
  const address = bracketed ? bracketed[1] : withPort ? withPort[1] : text;
  return isIP(address) ? plainAddress(address) : null;
}

/**
 * The client's address: `peer` is the socket's remote address, `forwardedFor` the
 * X-Forwarded-For header (entries separated by commas, the nearest hop right-most).
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | undefined,
  trusted: (address: string) => boolean,
): string {
  let client = plainAddress(peer);
  if (!trusted(client) || !forwardedFor) return client;
  const entries = forwardedFor
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean);
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = forwardedAddress(entries[i]);
    if (address === null) return client;
    client = address;
    if (!trusted(address)) return client;
  }
  return client;
}

/**
 * The value a trusted proxy set in a forwarded header (X-Forwarded-Proto, -Host): the
 * right-most one, written by the nearest hop; a value the client sent stays to its left.
 */
export function nearestForwarded(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header.join(",") : header;
  if (text === undefined) return undefined;
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length ? parts[parts.length - 1] : undefined;
}
