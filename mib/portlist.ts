/**
 * Q-BRIDGE PortList bitmaps (RFC 4363 PortList): one bit per bridge port, the most
 * significant bit of the first octet is port 1. Agents answer with a fixed length;
 * managers may send shorter lists (missing trailing octets mean "not a member"). Shared
 * by the SNMP drivers and the lab agent.
 */

export function hasPort(list: Buffer, port: number): boolean {
  if (port < 1) return false;
  const byte = Math.floor((port - 1) / 8);
  return byte < list.length && (list[byte] & (0x80 >> ((port - 1) % 8))) !== 0;
}

/** A copy with the port's bit set or cleared, grown with zero octets when too short. */
export function withPort(list: Buffer, port: number, member: boolean): Buffer {
  const byte = Math.floor((port - 1) / 8);
  const out = Buffer.alloc(Math.max(list.length, byte + 1));
  list.copy(out);
  const mask = 0x80 >> ((port - 1) % 8);
  out[byte] = member ? out[byte] | mask : out[byte] & ~mask;
  return out;
}

/** Bridge ports whose bit is set, ascending. */
export function portsOf(list: Buffer): number[] {
  const ports: number[] = [];
  for (let byte = 0; byte < list.length; byte++) {
    const value = list[byte];
    if (value === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (value & (0x80 >> bit)) ports.push(byte * 8 + bit + 1);
  }
  return ports;
}

/** The bitmap of a set of ports, `lengthBytes` long (ports beyond it are left out). */
export function portListOf(ports: Iterable<number>, lengthBytes: number): Buffer {
  const out = Buffer.alloc(lengthBytes);
  for (const p of ports)
    if (p >= 1 && Math.floor((p - 1) / 8) < lengthBytes) out[Math.floor((p - 1) / 8)] |= 0x80 >> ((p - 1) % 8);
  return out;
}

/** Same membership, whatever the length (agents pad or trim trailing zero octets). */
export function sameMembers(a: Buffer, b: Buffer): boolean {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return false;
  return true;
}

/** Octets needed for ports 1..highestPort. */
export function portListLength(highestPort: number): number {
  return Math.ceil(highestPort / 8);
}
