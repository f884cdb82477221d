/**
 * OIDs as arrays of arcs: parsing dotted text and the lexicographic order SNMP walks in
 * (GETNEXT, GETBULK). Shared by the SNMP drivers (following a column) and the lab agent
 * (answering in that order).
 */

export type Oid = readonly number[];

/** The arcs of a dotted OID ("1.3.6.1", a leading dot allowed); throws on anything else. */
export function parseOid(text: string): number[] {
  const trimmed = text.startsWith(".") ? text.slice(1) : text;
  if (trimmed === "") return [];
  const parts = trimmed.split(".");
  const oid = new Array<number>(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const n = Number(parts[i]);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff || parts[i] === "") {
      throw new Error(`bad OID: ${text}`);
    }
    oid[i] = n;
  }
  return oid;
}

/** Negative when a sorts before b, in SNMP order: arc by arc, a prefix before everything below it. */
export function compareOids(a: Oid, b: Oid): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const d = a[i] - b[i];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
