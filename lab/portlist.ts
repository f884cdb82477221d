/**
 * Q-BRIDGE PortList bitmaps: octet 0 bit 7 (0x80) is bridge port 1, bit 6 port 2, and so
 * on. Agents answer with a fixed length; managers may send shorter lists (missing
 * trailing octets mean "not a member").
 */

export function encodePortList(ports: Iterable<number>, lengthBytes: number): Buffer {
  const out = Buffer.alloc(lengthBytes);
  for (const p of ports) {
    const byte = (p - 1) >> 3;
    if (p >= 1 && byte < lengthBytes) out[byte] |= 0x80 >> ((p - 1) & 7);
  }
  return out;
}

export function decodePortList(bitmap: Buffer): number[] {
  const ports: number[] = [];
  for (let i = 0; i < bitmap.length; i++) {
    const b = bitmap[i];
    if (b === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (b & (0x80 >> bit)) ports.push(i * 8 + bit + 1);
  }
  return ports;
}

export function portListLength(highestPort: number): number {
  return Math.ceil(highestPort / 8);
}
