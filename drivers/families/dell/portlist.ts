/**
 * PortList octets as Dell agents hand them over. A PortList is a bitmap (mib/portlist.ts);
 * the recorded Dell Networking OS9 answers for its long lists hold the first 16 octets
 * raw and the rest as net-snmp's hex dump text ("\n00 00 80 00 ... \n..."), lines of hex
 * pairs each followed by a space. Such a value is read as the bitmap it spells; anything
 * else is taken as it is.
 */

const DUMP_TAIL = /^(?:\n(?:[0-9A-Fa-f]{2} )+)+$/;

export function portListBytes(raw: Buffer): Buffer {
  const newline = raw.indexOf(0x0a);
  if (newline < 0) return raw;
  const tail = raw.subarray(newline).toString("latin1");
  if (!DUMP_TAIL.test(tail)) return raw;
  const pairs = tail.match(/[0-9A-Fa-f]{2}/g) ?? [];
  return Buffer.concat([raw.subarray(0, newline), Buffer.from(pairs.join(""), "hex")]);
}
