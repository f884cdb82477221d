/**
 * The agent's sorted OID index: one entry per served instance, ascending OID order,
 * each with its OID already BER-encoded and a getter that reads the live value. GET is
 * a binary search, GETNEXT a binary search for the insertion point, and each further
 * GETBULK repetition of a column is the next array slot: O(log n) per request varbind,
 * O(1) per repeated value, never a tree scan.
 */
import { encodeOid } from "../../mib/ber";
import { compareOids, formatOid, parseOid, type Oid } from "./oid";
import type { SnmpValue } from "../../mib/smi-values";

export interface MibEntry {
  oid: readonly number[];
  /** the OID as a BER TLV, encoded once */
  oidTlv: Buffer;
  read(): SnmpValue;
}

export class MibIndex {
  readonly entries: readonly MibEntry[];
  /** OIDs of the objects (scalars and columns) served, even while a table is empty */
  private readonly objects: Set<string>;
  private readonly maxObjectLength: number;

  constructor(entries: MibEntry[], objects: Iterable<string>, alreadySorted = false) {
    if (!alreadySorted) entries.sort((a, b) => compareOids(a.oid, b.oid));
    for (let i = 1; i < entries.length; i++) {
      if (compareOids(entries[i - 1].oid, entries[i].oid) === 0) {
        throw new Error(`duplicate OID in lab index: ${formatOid(entries[i].oid)}`);
      }
    }
    this.entries = entries;
    this.objects = new Set(objects);
    let max = 0;
    for (const o of this.objects) max = Math.max(max, o.split(".").length);
    this.maxObjectLength = max;
  }

  /** One index from two, by a linear merge: lets a large fixed part be reused while a small part is rebuilt. */
  static merge(a: MibIndex, b: MibIndex): MibIndex {
    const x = a.entries;
    const y = b.entries;
    const out = new Array<MibEntry>(x.length + y.length);
    let i = 0;
    let j = 0;
    let k = 0;
    while (i < x.length && j < y.length) out[k++] = compareOids(x[i].oid, y[j].oid) <= 0 ? x[i++] : y[j++];
    while (i < x.length) out[k++] = x[i++];
    while (j < y.length) out[k++] = y[j++];
    return new MibIndex(out, [...a.objects, ...b.objects], true);
  }

  get size(): number {
    return this.entries.length;
  }

  /** position of the exact OID, or -1 */
  find(oid: Oid): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareOids(this.entries[mid].oid, oid);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** position of the first entry strictly after oid (entries.length when none) */
  nextAfter(oid: Oid): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareOids(this.entries[mid].oid, oid) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** whether oid names an instance of an object this agent serves (noSuchInstance vs noSuchObject) */
  isInstanceOfKnownObject(oid: Oid): boolean {
    const limit = Math.min(oid.length - 1, this.maxObjectLength);
    for (let len = limit; len >= 1; len--) {
      if (this.objects.has(oid.slice(0, len).join("."))) return true;
    }
    return false;
  }
}

/** Collects entries for a MibIndex: scalars get instance .0, columns one entry per row. */
export class MibIndexBuilder {
  private readonly entries: MibEntry[] = [];
  private readonly objects = new Set<string>();

  scalar(object: string, read: () => SnmpValue): this {
    this.objects.add(object);
    this.add([...parseOid(object), 0], read);
    return this;
  }

  /** declares a column even when it has no rows */
  object(object: string): this {
    this.objects.add(object);
    return this;
  }

  /** one column: an entry per row index, the getter gets the row index */
  column<R>(
    object: string,
    rows: Iterable<R>,
    index: (row: R) => readonly number[],
    read: (row: R) => SnmpValue,
  ): this {
    this.objects.add(object);
    const base = parseOid(object);
    for (const row of rows) {
      const oid = base.concat(index(row));
      this.add(oid, () => read(row));
    }
    return this;
  }

  add(oid: number[], read: () => SnmpValue): this {
    this.entries.push({ oid, oidTlv: encodeOid(oid), read });
    return this;
  }

  build(): MibIndex {
    return new MibIndex(this.entries, this.objects);
  }
}
