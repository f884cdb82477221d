/**
 * Promise-based SNMP client for one device, and the read plan engine.
 *
 * A read plan names, per table, the columns a driver needs. The columns of one table go
 * into one GETBULK per round (one varbind per column, each continuing from its own last
 * OID); a column is dropped as soon as an answer leaves it, so no request is sent past
 * its end. Independent tables run concurrently, bounded per device by a RequestGate.
 * Every request is counted, together with the depth of the longest chain of requests
 * that had to wait for each other (the round trips on the critical path).
 */
import { DeviceError, DeviceRefused, DeviceUnreachable } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
import { errorStatusName, isException, type NetSnmpSession, type SetVarbind, type Varbind } from "./net-snmp-api";
import { compareOids, indexOf, isUnder, oidName } from "./oid";
import { RequestGate } from "./request-gate";
import { openNetSnmpSession } from "./security";

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
}
export interface ScalarRead {
  label?: string;
  scalars: string[];
}
export type PlanRead = ColumnRead | ScalarRead;
export type PlanResult<P extends Record<string, PlanRead>> = {
  [K in keyof P]: P[K] extends ScalarRead ? Scalars : Columns;
};

export interface SessionCounters {
  /** requests sent (one per PDU; retries of the same PDU are not counted again) */
  requests: number;
  /** round trips on the critical path since the last reset */
  roundTrips: number;
  /** varbinds received */
  values: number;
}

export interface SessionOptions {
  /** the device's name in the inventory, for messages */
  name?: string;
  /** requests in flight to this device at most */
  concurrency?: number;
  /** ceiling of values asked for in one GETBULK (columns x max-repetitions) */
  maxValuesPerRequest?: number;
}

/**
 * First max-repetitions guess: port tables of switches up to 48 ports plus their few
 * virtual interfaces end within one answer (an answer must also show the row after the
 * last to end a column). Too big costs bytes, too small costs a round trip.
 */
const DEFAULT_FIRST_ROWS = 64;
const MAX_REPETITIONS = 250;
const DEFAULT_MAX_VALUES = 500;
/** Safety net for agents that never leave a column; far above any real table. */
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
  error: unknown;
}

export class SnmpSession {
  readonly where: string;
  readonly counters: SessionCounters = { requests: 0, roundTrips: 0, values: 0 };
  private readonly snmp: NetSnmpSession;
  private readonly gate: RequestGate;
  private readonly maxValues: number;
  private readonly tries: number;
  private closed = false;

  constructor(target: SnmpTarget, options: SessionOptions = {}) {
    const address = target.host.includes(":") ? `[${target.host}]:${target.port}` : `${target.host}:${target.port}`;
    this.where = options.name ? `${options.name} (${address})` : address;
    this.tries = target.retries + 1;
    this.gate = new RequestGate(options.concurrency ?? 4);
    this.maxValues = options.maxValuesPerRequest ?? DEFAULT_MAX_VALUES;
    this.snmp = openNetSnmpSession(target);
    // socket errors surface through the request callbacks; keep the emitter quiet
    this.snmp.on("error", () => undefined);
  }

  resetCounters(): void {
    this.counters.requests = 0;
    this.counters.roundTrips = 0;
    this.counters.values = 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.snmp.close();
  }

  /** One GET of full OIDs (column + instance, or scalar + ".0"). */
  async get(oids: string[], label?: string): Promise<Scalars> {
    return (await this.getAfter(oids, label ?? describe(oids), this.counters.roundTrips)).result;
  }

  /** One SET PDU; an error-status becomes DeviceRefused naming the object. */
  async set(varbinds: SetVarbind[]): Promise<void> {
    const what = describe(varbinds.map((vb) => vb.oid));
    try {
      await this.request<Varbind[]>(this.counters.roundTrips, (cb) => this.snmp.set(varbinds, cb));
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
  async readPlan<P extends Record<string, PlanRead>>(plan: P): Promise<PlanResult<P>> {
    const start = this.counters.roundTrips;
    const state: PlanState = { error: null };
    const keys = Object.keys(plan);
    const results = await Promise.all(
      keys.map(async (key) => {
        const read = plan[key];
        try {
          if ("scalars" in read) return (await this.getAfter(read.scalars, read.label ?? key, start, state)).result;
          return (await this.walk({ ...read, label: read.label ?? key }, start, state)).result;
        } catch (error) {
          // the first failure stops the other reads from sending more requests
          if (!state.error) state.error = error;
          throw error;
        }
      }),
    );
    const out: Record<string, Scalars | Columns> = {};
    keys.forEach((key, i) => (out[key] = results[i]));
    return out as PlanResult<P>;
  }

  private async getAfter(oids: string[], label: string, after: number, state?: PlanState) {
    if (state?.error) throw state.error;
    try {
      const { result, depth } = await this.request<Varbind[]>(after, (cb) => this.snmp.get(oids, cb));
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

  private async walk(read: ColumnRead, after: number, state: PlanState): Promise<{ result: Columns; depth: number }> {
    const label = read.label ?? describe(read.columns);
    const result: Columns = new Map(read.columns.map((c) => [c, new Map<string, Varbind>()]));
    let cursors = read.columns.map((column) => ({ column, last: column }));
    let agentCap: number | null = null;
    let rows = this.fitRows(read.rows ?? DEFAULT_FIRST_ROWS, cursors.length, agentCap);
    let depth = after;

    for (let round = 0; cursors.length > 0; round++) {
      if (state.error) throw state.error;
      if (round >= MAX_ROUNDS_PER_READ) {
        throw new DeviceRefused(`${this.where} never ended ${label} (more than ${MAX_ROUNDS_PER_READ} requests)`);
      }
      let answer: Varbind[][];
      try {
        const oids = cursors.map((c) => c.last);
        const sent = await this.request<Varbind[][]>(depth, (cb) => this.snmp.getBulk(oids, 0, rows, cb));
        answer = sent.result;
        depth = sent.depth;
      } catch (error) {
        if (isTooBig(error) && rows > 1) {
          // the answer would not fit in a message: ask for fewer rows, same cursors
          rows = Math.max(1, Math.floor(rows / 2));
          agentCap = rows * cursors.length;
          depth += 1; // that request was a round trip too
          continue;
        }
        throw this.translate(error, `reading ${label}`, false);
      }

      let received = 0;
      let allFull = true;
      const next: typeof cursors = [];
      cursors.forEach((cursor, i) => {
        const varbinds = answer[i] ?? [];
        received += varbinds.length;
        let ended = false;
        for (const vb of varbinds) {
          // leaving the column, an exception, or an agent going backwards all end it
          if (isException(vb) || !isUnder(vb.oid, cursor.column) || compareOids(vb.oid, cursor.last) <= 0) {
            ended = true;
            break;
          }
          result.get(cursor.column)!.set(indexOf(vb.oid, cursor.column), vb);
          cursor.last = vb.oid;
        }
        if (!ended) {
          next.push(cursor);
          if (varbinds.length < rows) allFull = false;
        }
      });
      this.counters.values += received;
      if (received === 0) throw new DeviceRefused(`${this.where} answered the read of ${label} with no values`);
      // an agent that answers with fewer values than asked caps its answers: remember it
      if (received < cursors.length * rows) agentCap = Math.max(agentCap ?? 0, received);
      else if (allFull && agentCap === null) rows *= 2;
      cursors = next;
      if (cursors.length > 0) rows = this.fitRows(rows, cursors.length, agentCap);
    }
    return { result, depth };
  }

  /** max-repetitions so that columns x rows stays within our ceiling and the agent's cap. */
  private fitRows(rows: number, columns: number, agentCap: number | null): number {
    const budget = Math.min(this.maxValues, agentCap ?? Infinity);
    return Math.max(1, Math.min(rows, MAX_REPETITIONS, Math.floor(budget / columns)));
  }

  /** Send one PDU through the gate and keep the counters. */
  private async request<T>(after: number, send: (cb: (error: Error | null, result: T) => void) => void) {
    if (this.closed) throw new Error("session closed");
    const handedOver = await this.gate.acquire();
    const depth = Math.max(after, handedOver) + 1;
    this.counters.requests++;
    try {
      const result = await new Promise<T>((resolve, reject) => {
        try {
          send((error, value) => (error ? reject(error) : resolve(value)));
        } catch (error) {
          reject(error);
        }
      });
      return { result, depth };
    } finally {
      if (depth > this.counters.roundTrips) this.counters.roundTrips = depth;
      this.gate.release(depth);
    }
  }

  /** net-snmp's errors -> the driver contract's typed errors, naming what failed. */
  private translate(error: unknown, doing: string, isSet: boolean): DeviceError {
    if (error instanceof DeviceError) return error;
    const err = error as Error & { status?: number };
    if (err?.name === "RequestTimedOutError") {
      const tries = this.tries === 1 ? "1 try" : `${this.tries} tries`;
      const maybe = isSet ? "; the change may or may not have been applied" : "";
      return new DeviceUnreachable(`No answer from ${this.where} while ${doing} (timeout after ${tries})${maybe}`);
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
    return new DeviceUnreachable(`No usable answer from ${this.where} while ${doing}: ${err?.message ?? String(error)}`);
  }
}

function isTooBig(error: unknown): boolean {
  const err = error as { name?: string; status?: number } | null;
  return err?.name === "RequestFailedError" && err.status === 1;
}

/** "ifAlias.5" or "ifAdminStatus.5, ifAlias.5 and 2 more" for messages. */
function describe(oids: string[]): string {
  const names = oids.slice(0, 3).map(oidName);
  return oids.length > 3 ? `${names.join(", ")} and ${oids.length - 3} more` : names.join(", ");
}
