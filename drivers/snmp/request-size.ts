/**
 * What the SNMP engine learned about the GETBULK requests a device can answer, kept
 * between sessions: per device and per read (the columns of one table), the shape that
 * worked (max-repetitions and columns per request) after a larger one was answered with
 * tooBig or not at all. The next session to the device starts that read at this shape
 * and does not grow past it, so it does not pay for the failure again (a silent agent
 * costs a timeout per failure).
 *
 * With a shape, the number of rows the read had is kept too: the last request of a column
 * reads past its end into the next column, whose values may be far larger (a column of
 * FDB ids is followed by 512-octet PortLists), and at a remembered size it would fail the
 * same way on every call. Knowing the rows, the next walk asks at the end for what is
 * left plus one row (the one that shows the column ended).
 *
 * The rows of every read are kept, with or without a shape:
 * the next session plans the read from them (its columns in groups walked concurrently,
 * each group in one request when the agent allows).
 *
 * Shapes are kept per read rather than one per device: a row of dot1qVlanStaticTable
 * with two 512-octet PortLists is fifty times a row of ifTable, so the shape that fits
 * the one would make the other cost fifty times the requests.
 *
 * Bounded: at most `maxDevices` devices (the least recently used leave first), at most
 * `maxReadsPerDevice` reads each, and a shape is forgotten after `ttlMs`: a timeout caused
 * by a lost datagram looks like an answer too big to send, and such a limit should not
 * stay for the life of the process. Device keys are SHA-256 digests of the address and
 * the SNMP identity (community, or v3 user and context), so no community is held in
 * plain text here.
 */
import { createHash } from "node:crypto";
import type { SnmpTarget } from "../../model/targets";

export interface RequestShape {
  /** max-repetitions */
  rows: number;
  /** columns (varbinds) per GETBULK */
  columns: number;
}

/** One device's part of the store, as a session uses it. */
export interface DeviceSizeMemory {
  shapeOf(read: string): RequestShape | undefined;
  remember(read: string, shape: RequestShape): void;
  /** rows the read had when it was last walked (with a shape, or alone: rememberTableRows) */
  rowsOf(read: string): number | undefined;
  /** keeps the rows of a read that has a shape (nothing when it has none) */
  rememberRows(read: string, rows: number): void;
  /**
   * Keeps the rows of a read whether or not it has a shape: a later session plans the read
   * from them (its columns split into groups walked concurrently, session.ts).
   */
  rememberTableRows(read: string, rows: number, largestAnswer?: number | null): void;
  /**
   * The most values one answer of the read carried when the agent limited the walk (capped
   * its answers, said tooBig or nothing): a later walk asks for no more in one request.
   */
  valuesOf(read: string): number | undefined;
  /** every read known for the device (its key: the columns in request order), with its rows (bench) */
  reads(): Array<{ read: string; rows?: number; values?: number }>;
}

interface Learned {
  /** absent: only the read's rows are known (a read that needed more than one request) */
  shape?: RequestShape;
  rows?: number;
  /** the largest answer when the agent limited the read's answers */
  values?: number;
  atMs: number;
}

export interface RequestSizeStoreOptions {
  maxDevices?: number;
  maxReadsPerDevice?: number;
  ttlMs?: number;
  /** clock, for tests */
  now?: () => number;
}

export class RequestSizeStore {
  readonly maxDevices: number;
  readonly maxReadsPerDevice: number;
  readonly ttlMs: number;
  private readonly now: () => number;
  /** Map order is recency: the first key is the least recently used device */
  private readonly devices = new Map<string, Map<string, Learned>>();

  constructor(options: RequestSizeStoreOptions = {}) {
    this.maxDevices = options.maxDevices ?? 4096;
    this.maxReadsPerDevice = options.maxReadsPerDevice ?? 32;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.now = options.now ?? Date.now;
    if (!(this.maxDevices >= 1 && this.maxReadsPerDevice >= 1))
      throw new RangeError("the store must hold at least one shape");
  }

  /** devices with at least one shape or row count */
  get size(): number {
    return this.devices.size;
  }

  clear(): void {
    this.devices.clear();
  }

  forDevice(key: string): DeviceSizeMemory {
    return {
      shapeOf: (read) => this.learned(key, read)?.shape,
      remember: (read, shape) => this.store(key, read, shape),
      rowsOf: (read) => this.learned(key, read)?.rows,
      rememberRows: (read, rows) => {
        const entry = this.devices.get(key)?.get(read);
        if (entry?.shape) entry.rows = rows;
      },
      rememberTableRows: (read, rows, largestAnswer) => this.storeRows(key, read, rows, largestAnswer ?? undefined),
      valuesOf: (read) => this.learned(key, read)?.values,
      reads: () =>
        [...(this.devices.get(key) ?? new Map<string, Learned>())].map(([read, l]) => ({
          read,
          rows: l.rows,
          values: l.values,
        })),
    };
  }

  private learned(key: string, read: string): { shape?: RequestShape; rows?: number; values?: number } | undefined {
    const reads = this.devices.get(key);
    if (!reads) return undefined;
    this.devices.delete(key);
    this.devices.set(key, reads);
    const learned = reads.get(read);
    if (!learned) return undefined;
    if (this.now() - learned.atMs > this.ttlMs) {
      reads.delete(read);
      if (reads.size === 0) this.devices.delete(key);
      return undefined;
    }
    return { shape: learned.shape ? { ...learned.shape } : undefined, rows: learned.rows, values: learned.values };
  }

  private storeRows(key: string, read: string, rows: number, values: number | undefined): void {
    const reads = this.devices.get(key) ?? new Map<string, Learned>();
    this.devices.delete(key);
    this.devices.set(key, reads);
    const entry = reads.get(read);
    reads.delete(read);
    // a shape keeps its own age (it is forgotten after ttlMs however often the rows change)
    reads.set(read, entry ? { ...entry, rows, values } : { rows, values, atMs: this.now() });
    this.trim(reads);
  }

  private trim(reads: Map<string, Learned>): void {
    while (reads.size > this.maxReadsPerDevice) reads.delete(reads.keys().next().value as string);
    while (this.devices.size > this.maxDevices) this.devices.delete(this.devices.keys().next().value as string);
  }

  private store(key: string, read: string, shape: RequestShape): void {
    const reads = this.devices.get(key) ?? new Map<string, Learned>();
    this.devices.delete(key);
    this.devices.set(key, reads);
    const rows = reads.get(read)?.rows;
    reads.delete(read);
    reads.set(read, { shape: { rows: shape.rows, columns: shape.columns }, rows, atMs: this.now() });
    this.trim(reads);
  }
}

/** The process-wide store every session uses unless told otherwise. */
export const requestSizes = new RequestSizeStore();

/** Forgets every learned shape (tests). */
export function resetRequestSizes(): void {
  requestSizes.clear();
}

/** The store's key of a device: host, port and SNMP identity, hashed. */
export function deviceSizeKey(target: SnmpTarget): string {
  const identity =
    target.version === "3" ? ["3", target.username ?? "", target.context ?? ""] : ["2c", target.community ?? "public"];
  return createHash("sha256")
    .update(JSON.stringify([target.host.toLowerCase(), target.port, ...identity]))
    .digest("hex");
}

/** The store's key of a read: its columns in request order. */
export function readSizeKey(columns: readonly string[]): string {
  return columns.join(" ");
}
