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

/** Whether `text` is plain dotted decimal (a leading dot allowed): arcs of 1 to 10 digits up to 2^32-1. */
function isPlainOid(text: string, from: number): boolean {
  let i = from === 0 && text.charCodeAt(0) === 46 ? 1 : from;
  if (i === text.length) return false;
  for (;;) {
    let arc = 0;
    const start = i;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 46) break;
      if (c < 48 || c > 57) return false;
      arc = arc * 10 + (c - 48);
    }
    if (i === start || i - start > 10 || arc > 0xffffffff) return false;
    if (i === text.length) return true;
    i++; // the dot
    if (i === text.length) return false;
  }
}

/**
 * The sign of compareOids of two dotted OIDs, read in place: no arrays, no strings (a walk compares
 * every value it receives with the one before). Anything but plain dotted decimal goes
 * through parseOid, which throws on what is not an OID, as comparing parsed forms did.
 * `from`: where an arc starts in both texts, everything before it the same plain arcs in
 * both (a column both OIDs lie under): only the rest is read.
 */
export function compareOidTexts(a: string, b: string, from = 0): number {
  if (!isPlainOid(a, from) || !isPlainOid(b, from)) return compareOids(parseOid(a), parseOid(b));
  let i = from === 0 && a.charCodeAt(0) === 46 ? 1 : from;
  let j = from === 0 && b.charCodeAt(0) === 46 ? 1 : from;
  for (;;) {
    let x = 0;
    for (; i < a.length; i++) {
      const c = a.charCodeAt(i);
      if (c === 46) break;
      x = x * 10 + (c - 48);
    }
    let y = 0;
    for (; j < b.length; j++) {
      const c = b.charCodeAt(j);
      if (c === 46) break;
      y = y * 10 + (c - 48);
    }
    if (x !== y) return x - y;
    const aEnd = i === a.length;
    const bEnd = j === b.length;
    if (aEnd || bEnd) return aEnd === bEnd ? 0 : aEnd ? -1 : 1;
    i++;
    j++;
  }
}
