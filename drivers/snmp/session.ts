/**
 * Promise-based SNMP client for one device, and the read plan engine.
 *
 * A read plan names, per table, the columns a driver needs. The columns of one table go
 * into one GETBULK per round (one varbind per column, each continuing from its own last
 * OID); a column is dropped as soon as an answer leaves it, so no request is sent past
 * its end. Independent tables run concurrently, bounded per session by a RequestGate and
 * per device, across all sessions, by the service's device gates (../device-gate.ts).
 * Every request is counted, together with the depth of the longest chain of requests
 * that had to wait for each other (the round trips on the critical path).
 *
 * Requests adapt to the agent (see walk()): a GETBULK answered with tooBig, or not at all
 * while the smallest request is answered, is asked again with half the max-repetitions,
 * then with the columns split; the shape that worked is remembered per device
 * (request-size.ts) for later sessions. Agents that cap an answer at a number of values
 * are followed from each column's last OID.
 */
import { DeviceBusy, DeviceError, DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
import { errorStatusName, isException, type PduSession, type SetVarbind, type Varbind } from "./net-snmp-api";
import { compareOidTexts } from "../../mib/oid-arcs";
import { indexOf, isUnder, oidName } from "./oid";
import { DeviceGates, snmpGateKey } from "../device-gate";
import { RequestGate } from "./request-gate";
import { deviceSizeKey, readSizeKey, requestSizes, type DeviceSizeMemory, type RequestShape } from "./request-size";
import { openSnmpSession } from "./security";

/** column OID -> instance index -> varbind */
export type Columns = Map<string, Map<string, Varbind>>;
/** requested OID -> varbind, or null when the agent has no such object/instance */
export type Scalars = Map<string, Varbind | null>;

export interface ColumnRead {
  /** what is being read, for error messages ("ifTable") */
  label?: string;
  columns: string[];
  /** first max-repetitions guess (rows per column) */
  rows?: number;
  /**
   * The rows this table is indexed by ("ifIndex", "bridgePort", "vlan"): reads of one plan
   * with the same value have about as many rows, so the driver walks them in one GETBULK
   * (drivers/snmp/driver.ts read()).
   */
  rowsLike?: string;
}
export interface ScalarRead {
  label?: string;
  scalars: string[];
}
export type PlanRead = ColumnRead | ScalarRead;

/**
 * What a read plan's reads returned, by key: the columns of each walk, the values of each
 * GET. The two are kept apart, so a reader asks for the kind it planned and gets that type.
 */
export class Tables {
  private readonly walked = new Map<string, Columns>();
  private readonly got = new Map<string, Scalars>();

  /** tables from answers at hand (tests, a part's own reads) */
  static of(answers: { columns?: Record<string, Columns>; scalars?: Record<string, Scalars> }): Tables {
    const tables = new Tables();
    for (const [key, columns] of Object.entries(answers.columns ?? {})) tables.setColumns(key, columns);
    for (const [key, values] of Object.entries(answers.scalars ?? {})) tables.setScalars(key, values);
    return tables;
  }

  /** the columns walked under `key` (undefined when the plan had no such walk) */
  columns(key: string): Columns | undefined {
    return this.walked.get(key);
  }

  /** every walk's columns by key (a part's reads under keys it made up, e.g. one per VLAN) */
  allColumns(): IterableIterator<[string, Columns]> {
    return this.walked.entries();
  }

  /** the values read under `key` by a GET (undefined when the plan had no such GET) */
  scalars(key: string): Scalars | undefined {
    return this.got.get(key);
  }

  setColumns(key: string, columns: Columns): this {
    this.walked.set(key, columns);
    return this;
  }

  setScalars(key: string, values: Scalars): this {
    this.got.set(key, values);
    return this;
  }

  /** adds the answers of a later round of reads */
  add(more: Tables): this {
    for (const [key, columns] of more.walked) this.walked.set(key, columns);
    for (const [key, values] of more.got) this.got.set(key, values);
    return this;
  }
}

export interface SessionCounters {
  /**
   * requests sent: one per PDU (net-snmp's retries of the same PDU are not counted
   * again; the smaller requests sent after a failed one are, and are round trips too)
   */
  requests: number;
  /** round trips on the critical path since the last reset */
  roundTrips: number;
  /** varbinds received */
  values: number;
  /** requests that got no answer within their tries */
  timeouts: number;
  /** answers with error-status tooBig */
  tooBig: number;
}

export interface SessionOptions {
  /** the device's name in the inventory, for messages */
  name?: string;
  /** requests in flight to this device at most (default: the gates' concurrency) */
  concurrency?: number;
  /**
   * The service's per-device gates (../device-gate.ts) every session of its calls shares;
   * without them the session has gates of its own, bounding only itself.
   */
  gates?: DeviceGates;
  /** ceiling of values asked for in one GETBULK (columns x max-repetitions) */
  maxValuesPerRequest?: number;
  /**
   * Where the GETBULK shapes that worked for this device are remembered between sessions:
   * by default its part of the process-wide store (request-size.ts); null: this session
   * learns for itself only.
   */
  sizeMemory?: DeviceSizeMemory | null;
  /**
   * The call this session belongs to was already admitted by the device's gate (a
   * context session of a driver): its requests wait, they are never refused as busy.
   */
  admitted?: boolean;
}

/**
 * First max-repetitions guess: port tables of switches up to 48 ports plus their few
 * virtual interfaces end within one answer (an answer must also show the row after the
 * last to end a column). Too big costs bytes, too small costs a round trip.
 */
const DEFAULT_FIRST_ROWS = 64;
/**
 * max-repetitions at most: a column of a 1,000-port chassis in one request when the rows
 * are known (the values per request stay within DEFAULT_MAX_VALUES anyway)
 */
const MAX_REPETITIONS = 1000;
/**
 * Values asked for in one GETBULK at most: the interface tables of a 384-port switch
 * (9 columns walked together) in four requests. An agent whose answers cannot be that
 * large says tooBig (or nothing) and the walk shrinks; the shape that worked is kept.
 */
const DEFAULT_MAX_VALUES = 1000;
/**
 * Safety net for agents that never leave a column; far above any real table. Counted in
 * requests of the first shape: a walk that had to ask for fewer rows or fewer columns
 * per request is allowed proportionally more requests.
 */
const MAX_ROUNDS_PER_READ = 2000;

/** A SET answered with an error-status; `status` is its RFC name (notWritable...). */
export class SetRefused extends DeviceRefused {
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
  }
}

interface PlanState {
  /** the first read of the plan that failed: the others stop sending */
  error: Error | null;
}

/** net-snmp's callback-style call of one PDU */
type Sender<T> = (cb: (error: Error | null, result: T) => void) => void;
/** sends one PDU with this many tries, inside a slot of the gate */
type Send = <T>(send: Sender<T>, tries: number) => Promise<T>;

/** How one GETBULK of a walk ended (a failure to reach the device is thrown instead). */
type BulkStep =
  | { kind: "answer"; varbinds: Varbind[][] }
  /** the agent answered tooBig */
  | { kind: "tooBig" }
  /** no answer, but one value of the first column was: `probe` is that answer */
  | { kind: "silent"; probe: Varbind[][] };

interface Cursor {
  column: string;
  /** the last OID received in this column (the column itself before the first) */
  last: string;
}

/** A walk's columns, the depth it ended at, and its largest answer when the agent limited it (else null). */
interface Walked {
  result: Columns;
  depth: number;
  largest: number | null;
}

/** No answer within `tries` tries of one slot (the tries of the smaller request included). */
class NoAnswer extends Error {
  override readonly name = "RequestTimedOutError";
  constructor(readonly tries: number) {
    super("Request timed out");
  }
}

export class SnmpSession {
  readonly where: string;
  readonly counters: SessionCounters = { requests: 0, roundTrips: 0, values: 0, timeouts: 0, tooBig: 0 };
  private readonly snmp: PduSession;
  private readonly gate: RequestGate;
  private readonly maxValues: number;
  private readonly tries: number;
  private readonly sizes: DeviceSizeMemory | null;
  /** the device has answered something in this session */
  private answered = false;
  /** a SET of this session was sent: from then on, no answer leaves its outcome unknown */
  private changeSent = false;
  /**
   * A batch's writes (Driver.verifyWrites "deferred"): the setters send their SETs and do
   * not read each one back; the batch reads everything once at its end.
   */
  deferReadBack = false;
  private closed = false;
  /** passed the device gate's admission (drivers/device-gate.ts): never refused as busy again */
  private admitted: boolean;
  private readonly gateKey: string;
  /** the per-device gates this session's requests go through */
  readonly gates: DeviceGates;
  /** releases of the device gate's slots held by requests still out */
  private readonly heldSlots = new Set<() => void>();

  constructor(target: SnmpTarget, options: SessionOptions = {}) {
    const address = target.host.includes(":") ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
    this.where = options.name ? `${options.name} (${address})` : address;
    this.tries = target.retries + 1;
    this.gates = options.gates ?? new DeviceGates();
    this.gate = new RequestGate(options.concurrency ?? this.gates.limits.concurrency);
    this.gateKey = snmpGateKey(target.host, target.port);
    this.admitted = options.admitted ?? false;
    this.maxValues = options.maxValuesPerRequest ?? DEFAULT_MAX_VALUES;
    this.sizes = options.sizeMemory === undefined ? requestSizes.forDevice(deviceSizeKey(target)) : options.sizeMemory;
    this.snmp = openSnmpSession(target);
    // socket errors surface through the request callbacks; keep the emitter quiet
    this.snmp.on("error", () => undefined);
  }

  resetCounters(): void {
    this.counters.requests = 0;
    this.counters.roundTrips = 0;
    this.counters.values = 0;
    this.counters.timeouts = 0;
    this.counters.tooBig = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const release of [...this.heldSlots]) release();
    this.snmp.close();
  }

  /** One GET of full OIDs (column + instance, or scalar + ".0"). */
  async get(oids: string[], label?: string): Promise<Scalars> {
    return (await this.getAfter(oids, label ?? describe(oids), this.counters.roundTrips)).result;
  }

  /** One SET PDU; an error-status becomes DeviceRefused naming the object. */
  async set(varbinds: SetVarbind[]): Promise<void> {
    const what = describe(varbinds.map((vb) => vb.oid));
    this.changeSent = true;
    try {
      await this.inSlot(this.counters.roundTrips, (send) =>
        send<Varbind[]>((cb) => this.snmp.set(varbinds, cb), this.tries),
      );
    } catch (error) {
      throw this.translate(error, `setting ${what}`, true);
    }
  }

  /** Walk several columns of one table together (see the file comment). */
  async readColumns(columns: string[], options: { label?: string; rows?: number } = {}): Promise<Columns> {
    const state: PlanState = { error: null };
    const read = { columns, label: options.label, rows: options.rows };
    return (await this.walk(read, this.counters.roundTrips, state)).result;
  }

  /** Run independent reads concurrently (bounded by the gate); all of them or an error. */
  async readPlan(plan: Record<string, PlanRead>): Promise<Tables> {
    const start = this.counters.roundTrips;
    const state: PlanState = { error: null };
    const out = new Tables();
    await Promise.all(
      Object.entries(plan).map(async ([key, read]) => {
        try {
          if ("scalars" in read)
            out.setScalars(key, (await this.getAfter(read.scalars, read.label ?? key, start, state)).result);
          else out.setColumns(key, (await this.walkRead({ ...read, label: read.label ?? key }, start, state)).result);
        } catch (error) {
          // the first failure stops the other reads from sending more requests
          if (!state.error) state.error = asError(error);
          throw error;
        }
      }),
    );
    return out;
  }

  private async getAfter(oids: string[], label: string, after: number, state?: PlanState) {
    if (state?.error) throw state.error;
    try {
      const { value: result, depth } = await this.inSlot(after, (send) =>
        send<Varbind[]>((cb) => this.snmp.get(oids, cb), this.tries),
      );
      this.counters.values += result.length;
      const out: Scalars = new Map();
      oids.forEach((oid, i) => {
        const vb = result[i];
        out.set(oid, vb && !isException(vb) ? vb : null);
      });
      return { result: out, depth };
    } catch (error) {
      throw this.translate(error, `reading ${label}`, false);
    }
  }

  /**
   * Walks one read of a plan, planned from what the last session saw of it: when its rows
   * are known (request-size.ts) and its columns do not fit one request at that many rows,
   * the columns go in groups that each fit one request (rows + 1, so that the answer shows
   * each column's end), and the groups are walked concurrently, bounded by the gates like
   * every other request of the plan. A group is an ordinary walk: it adapts and remembers
   * its own shape. Without known rows the read is one walk. Its rows are kept afterwards
   * (a table that grew costs a request more next time, one that shrank a few bytes).
   */
  private async walkRead(read: ColumnRead, after: number, state: PlanState): Promise<Walked> {
    const key = readSizeKey(read.columns);
    const known = this.sizes?.rowsOf(key);
    /** the largest answer of an agent that limited the last walk: no request asks for more */
    const allowed = this.sizes?.valuesOf(key);
    let walked: Walked;
    const budget = Math.min(this.maxValues, allowed ?? Infinity);
    const perColumn = known === undefined ? 0 : Math.min(known + 1, MAX_REPETITIONS);
    const groupWidth = perColumn > 0 ? Math.max(1, Math.floor(budget / perColumn)) : read.columns.length;
    if (known !== undefined && read.columns.length > groupWidth && this.sizes?.shapeOf(key) === undefined) {
      const groups = splitEvenly(read.columns, Math.ceil(read.columns.length / groupWidth));
      const parts = await Promise.all(
        groups.map((columns) => this.walk({ ...read, columns, rows: perColumn }, after, state, allowed)),
      );
      const limits = parts.map((p) => p.largest).filter((v): v is number => v !== null);
      walked = {
        result: new Map(parts.flatMap((p) => [...p.result])),
        depth: Math.max(after, ...parts.map((p) => p.depth)),
        largest: limits.length > 0 ? Math.max(...limits) : null,
      };
    } else {
      const rows = known === undefined ? read.rows : Math.max(1, known + 1);
      walked = await this.walk({ ...read, rows }, after, state, allowed);
    }
    const rows = Math.max(0, ...[...walked.result.values()].map((m) => m.size));
    this.sizes?.rememberTableRows(key, rows, walked.largest);
    return walked;
  }

  /**
   * Walks the columns of one read. Each request asks `rows` repetitions of the first
   * `width` live columns (all of them unless a failure split them), continuing each
   * column from its last OID and dropping a column as soon as an answer leaves it.
   *
   * Adapting to the agent:
   * - a short answer means the agent caps its answers at a number of values: rows are
   *   fitted to that cap from then on (snmpsimd: 64, net-snmp's snmpd: 100);
   * - tooBig, or no answer where the smallest request is answered (bulkStep), means the
   *   answer did not fit the agent's message: halve the rows; at one row, split the
   *   columns into halves; one value that does not fit is refused. After such a failure
   *   the shape never grows again in this walk;
   * - otherwise, while every column came back full, the rows double.
   *
   * What is remembered for the device (request-size.ts) is the first shape that works
   * after the walk's first failure: the largest known to work below the one that failed.
   * A later walk of the same read starts there and does not grow. Failures after that
   * shrink only the walk: the last request of a column reads past its end into the next
   * column, whose values may be much larger (a name column is followed by a PortList
   * column), and that says nothing about the rows of the table. Only when the remembered
   * shape fails before it has worked once in a walk does the memory go down. With the
   * shape the read's row count is kept: a later walk asks at the end of the rows it saw
   * for what is left plus one row, so it does not run into the next column again.
   */
  private async walk(read: ColumnRead, after: number, state: PlanState, budget?: number): Promise<Walked> {
    const label = read.label ?? describe(read.columns);
    const result: Columns = new Map(read.columns.map((c) => [c, new Map<string, Varbind>()]));
    let cursors: Cursor[] = read.columns.map((column) => ({ column, last: column }));
    const sizeKey = readSizeKey(read.columns);
    const remembered = this.sizes?.shapeOf(sizeKey);
    /** the rows this read had last time, kept with a remembered shape */
    const knownRows = remembered ? this.sizes?.rowsOf(sizeKey) : undefined;
    let rows = remembered?.rows ?? read.rows ?? DEFAULT_FIRST_ROWS;
    let width = remembered?.columns ?? Number.POSITIVE_INFINITY;
    /** a larger shape failed (here or in an earlier session): do not grow */
    let limited = remembered !== undefined;
    /** a failure happened and no shape has worked since */
    let failed = false;
    /** what the memory holds has worked in this walk (or was just written): leave it */
    let settled = false;
    /** values per answer the agent allows: its cap, or (from an earlier walk) its largest answer */
    let agentCap: number | null = budget ?? null;
    /** the agent limited this walk's answers (a cap, tooBig or silence): the largest answer tells by how much */
    let agentLimited = budget !== undefined;
    let largest = 0;
    /** the shape of the last answered request, and what the walk's first failure was */
    let worked: RequestShape | null = null;
    let firstFailure: { asked: number; collected: Map<string, number>; before: RequestShape | null } | null = null;
    let depth = after;

    const firstRows = rows;
    /** requests so far, each weighted by its share of a first-shape request */
    let rounds = 0;
    while (cursors.length > 0) {
      if (state.error) throw state.error;
      if (rounds >= MAX_ROUNDS_PER_READ) {
        throw new DeviceRefused(
          `${this.where} never ended ${label} (more than ${MAX_ROUNDS_PER_READ} requests' worth of rows)`,
        );
      }
      const group = cursors.slice(0, width);
      let asked = this.fitRows(rows, group.length, agentCap);
      if (knownRows !== undefined) {
        // near the end of the rows seen last time: ask what is left and one more
        const left = Math.max(...group.map((c) => knownRows - result.get(c.column)!.size));
        asked = Math.max(1, Math.min(asked, left + 1));
      }
      rounds += Math.min(1, (asked * group.length) / (firstRows * read.columns.length));
      let step: BulkStep;
      try {
        const sent = await this.bulkStep(group, asked, depth);
        step = sent.value;
        depth = sent.depth;
      } catch (error) {
        throw this.translate(error, `reading ${label}`, false);
      }

      if (step.kind !== "answer") {
        firstFailure ??= {
          asked,
          collected: new Map(group.map((c) => [c.column, result.get(c.column)!.size])),
          before: worked,
        };
        if (step.kind === "silent") {
          // the small request's value counts: it continues the first column
          this.counters.values += step.probe[0]?.length ?? 0;
          if (this.follow(group[0], step.probe[0] ?? [], result).ended) cursors = cursors.filter((c) => c !== group[0]);
        }
        if (asked > 1) rows = Math.max(1, Math.floor(asked / 2));
        else if (group.length > 1) width = Math.ceil(group.length / 2);
        else throw new DeviceRefused(`${this.where} cannot fit one value of ${label} into an answer (tooBig)`);
        limited = true;
        failed = true;
        agentLimited = true;
        continue;
      }

      let received = 0;
      let allFull = true;
      const ended = new Set<Cursor>();
      group.forEach((cursor, i) => {
        const varbinds = step.varbinds[i] ?? [];
        received += varbinds.length;
        if (this.follow(cursor, varbinds, result).ended) ended.add(cursor);
        else if (varbinds.length < asked) allFull = false;
      });
      this.counters.values += received;
      if (received === 0) throw new DeviceRefused(`${this.where} answered the read of ${label} with no values`);
      worked = { rows: asked, columns: group.length };
      if (failed && !settled)
        this.sizes?.remember(sizeKey, { rows: asked, columns: Number.isFinite(width) ? width : read.columns.length });
      if (failed || remembered) settled = true;
      failed = false;
      // an agent that answers with fewer values than asked caps its answers: remember it
      largest = Math.max(largest, received);
      if (received < group.length * asked) {
        agentCap = Math.max(agentCap ?? 0, received);
        agentLimited = true;
      } else if (allFull && agentCap === null && !limited) rows = asked * 2;
      cursors = cursors.filter((c) => !ended.has(c));
    }
    const tableRows = Math.max(0, ...[...result.values()].map((m) => m.size));
    // a first failure that asked past a column's end may say nothing about the table's own
    // rows (see above): keep the shape that worked before it, and the rows, so the next
    // walk asks at the end only for what is left
    if (!remembered && firstFailure?.before) {
      const ranPastEnd = [...firstFailure.collected].some(
        ([column, had]) => result.get(column)!.size - had < firstFailure.asked,
      );
      if (ranPastEnd) this.sizes?.remember(sizeKey, firstFailure.before);
    }
    if (remembered || firstFailure) this.sizes?.rememberRows(sizeKey, tableRows);
    // a limit carried over stays until the store forgets it (request-size.ts: ttlMs)
    return { result, depth, largest: agentLimited ? Math.max(largest, budget ?? 0) : null };
  }

  /** Takes a column's values from an answer; leaving the column, an exception or going backwards ends it. */
  private follow(cursor: Cursor, varbinds: Varbind[], result: Columns): { ended: boolean } {
    const cells = result.get(cursor.column)!;
    // both OIDs lie under the column: only the instance parts are compared (the column
    // itself, before the first value, sorts before everything under it)
    const from = cursor.column.length + 1;
    for (const vb of varbinds) {
      if (
        isException(vb) ||
        !isUnder(vb.oid, cursor.column) ||
        (cursor.last !== cursor.column && compareOidTexts(vb.oid, cursor.last, from) <= 0)
      )
        return { ended: true };
      cells.set(indexOf(vb.oid, cursor.column), vb);
      cursor.last = vb.oid;
    }
    return { ended: false };
  }

  /**
   * One GETBULK of a walk, and what to do when it gets no answer.
   *
   * An agent whose answer would not fit one datagram may send nothing at all (snmpsimd
   * does), which looks exactly like a dead device. So a request for more than one value
   * goes out with ONE try, and when it gets no answer the smallest request (one value of
   * its first column) follows in the same slot of the gate with the remaining tries: an
   * answer to it means the device is alive and the first answer was too big (the walk
   * then asks for less); no answer means the device is unreachable. The tries are shared,
   * not added: a dead device is given up after timeout x tries, as before, and the
   * smaller request is not queued behind other reads waiting for the gate. With no retries
   * configured (one try) the small request is sent only when the device has answered in
   * this session, so a dead device still costs a single timeout.
   */
  private async bulkStep(group: Cursor[], rows: number, after: number): Promise<{ value: BulkStep; depth: number }> {
    const oids = group.map((c) => c.last);
    const big = oids.length * rows > 1;
    return this.inSlot<BulkStep>(after, async (send) => {
      try {
        const varbinds = await send<Varbind[][]>((cb) => this.snmp.getBulk(oids, 0, rows, cb), big ? 1 : this.tries);
        return { kind: "answer", varbinds };
      } catch (error) {
        if (isTooBig(error)) {
          this.counters.tooBig++;
          return { kind: "tooBig" };
        }
        const left = this.tries - 1;
        if (!big || !isTimeout(error) || (left === 0 && !this.answered)) throw error;
        const probe = await send<Varbind[][]>((cb) => this.snmp.getBulk([oids[0]], 0, 1, cb), Math.max(1, left));
        return { kind: "silent", probe };
      }
    });
  }

  /** max-repetitions so that columns x rows stays within our ceiling and the agent's cap. */
  private fitRows(rows: number, columns: number, agentCap: number | null): number {
    const budget = Math.min(this.maxValues, agentCap ?? Infinity);
    return Math.max(1, Math.min(rows, MAX_REPETITIONS, Math.floor(budget / columns)));
  }

  /**
   * Holds one slot of the gate while `work` sends its PDUs one after another, and keeps
   * the counters: every PDU is a request and a round trip on the critical path.
   */
  private async inSlot<T>(after: number, work: (send: Send) => Promise<T>): Promise<{ value: T; depth: number }> {
    if (this.closed) throw new Error("session closed");
    const handedOver = await this.gate.acquire();
    // the device's bound across sessions; waiting there is not a round trip of this call
    // and does not count against the request's timeout (nothing is sent before)
    const device = this.gates.forKey(this.gateKey);
    try {
      if (!this.admitted) device.admit();
    } catch (busy) {
      this.gate.release(handedOver);
      throw busy;
    }
    this.admitted = true;
    await device.acquire();
    if (this.closed) {
      device.release();
      this.gate.release(handedOver);
      throw new Error("session closed");
    }
    const started = Date.now();
    // the slot goes back once: when the request ends, or when the session is closed with
    // the request still out (net-snmp then never calls back; the device's slot must not leak)
    let released = false;
    const releaseDevice = () => {
      if (released) return;
      released = true;
      this.heldSlots.delete(releaseDevice);
      device.release(Date.now() - started);
    };
    this.heldSlots.add(releaseDevice);
    let depth = Math.max(after, handedOver);
    let triesUsed = 0;
    const send: Send = <R>(sender: Sender<R>, tries: number) => {
      depth++;
      this.counters.requests++;
      return new Promise<R>((resolve, reject) => {
        // net-snmp copies the session's retries into a request when it creates it, which
        // send() does at once; set them for this PDU only
        const retries = this.snmp.retries;
        this.snmp.retries = tries - 1;
        try {
          sender((error, value) => {
            if (!error) {
              this.answered = true;
              resolve(value);
            } else if (isTimeout(error)) {
              this.counters.timeouts++;
              triesUsed += tries;
              reject(new NoAnswer(triesUsed));
            } else {
              // an error-status is an answer too
              if ((error as { name?: string }).name === "RequestFailedError") this.answered = true;
              reject(error);
            }
          });
        } catch (error) {
          reject(asError(error));
        } finally {
          this.snmp.retries = retries;
        }
      });
    };
    try {
      return { value: await work(send), depth };
    } finally {
      if (depth > this.counters.roundTrips) this.counters.roundTrips = depth;
      releaseDevice();
      this.gate.release(depth);
    }
  }

  /** net-snmp's errors -> the driver contract's typed errors, naming what failed. */
  private translate(error: unknown, doing: string, isSet: boolean): DeviceError | DeviceBusy {
    // busy is the service's own queue, never the device's failure
    if (error instanceof DeviceError || error instanceof DeviceBusy) return error;
    const err = error as Error & { status?: number };
    if (err?.name === "RequestTimedOutError") {
      const n = error instanceof NoAnswer ? error.tries : this.tries;
      const tries = n === 1 ? "1 try" : `${n} tries`;
      const text = `No answer from ${this.where} while ${doing} (timeout after ${tries})`;
      // a change was sent: whether the device applied it cannot be told
      if (isSet || this.changeSent)
        return new DeviceOutcomeUnknown(`${text}; a change was sent and may have been applied`);
      return new DeviceUnreachable(text);
    }
    if (err?.name === "RequestFailedError") {
      const status = errorStatusName(err.status);
      // net-snmp puts the error-index's OID after the status; name it when the PDU had several
      const at = /:\s*([\d.]+)\s*$/.exec(err.message ?? "");
      const name = at ? oidName(at[1]) : "";
      const object = name && doing !== `setting ${name}` && doing !== `reading ${name}` ? ` (${name})` : "";
      if (isSet) return new SetRefused(`${this.where} refused ${doing}: ${status}${object}`, status);
      return new DeviceRefused(`${this.where} answered with an error while ${doing}: ${status}${object}`);
    }
    return new DeviceUnreachable(
      `No usable answer from ${this.where} while ${doing}: ${err?.message ?? String(error)}`,
    );
  }
}

/** `items` in `n` consecutive groups whose sizes differ by one at most */
function splitEvenly<T>(items: readonly T[], n: number): T[][] {
  const groups: T[][] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const size = Math.floor(items.length / n) + (i < items.length % n ? 1 : 0);
    groups.push(items.slice(at, at + size));
    at += size;
  }
  return groups.filter((g) => g.length > 0);
}

/** what was thrown, as an Error (net-snmp throws Errors; anything else is wrapped) */
function asError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}

function isTooBig(error: unknown): boolean {
  const err = error as { name?: string; status?: number } | null;
  return err?.name === "RequestFailedError" && err.status === 1;
}

function isTimeout(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === "RequestTimedOutError";
}

/** "ifAlias.5" or "ifAdminStatus.5, ifAlias.5 and 2 more" for messages. */
function describe(oids: string[]): string {
  const names = oids.slice(0, 3).map(oidName);
  return oids.length > 3 ? `${names.join(", ")} and ${oids.length - 3} more` : names.join(", ");
}
