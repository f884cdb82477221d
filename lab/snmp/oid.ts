/** OIDs as arrays of sub-identifiers: parsing, printing and the lexicographic order SNMP walks in. */

export type Oid = readonly number[];

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

export function formatOid(oid: Oid): string {
  return oid.join(".");
}

/** Negative when a sorts before b, in SNMP (lexicographic, shorter-prefix-first) order. */
export function compareOids(a: Oid, b: Oid): number {
  const n = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < n; i++) {
    const d = a[i] - b[i];
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function isPrefixOf(prefix: Oid, oid: Oid): boolean {
  if (prefix.length > oid.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== oid[i]) return false;
  return true;
}
