/** Runtime fault injection of one agent and its traffic counters (see LabFaults / LabCounters in lab/index.ts). */
import { ErrorStatus, type ErrorStatusName } from "./error-status";
import { isPrefixOf, parseOid, type Oid } from "./oid";

/** error-status and error-index of a SET the faults refuse */
export interface SetRefusal {
  status: number;
  index: number;
}

function statusNumber(name: ErrorStatusName): number {
  // callers from plain JavaScript (or a cast) could pass any string, or noError
  const status: number | undefined = ErrorStatus[name];
  if (typeof status !== "number" || status === ErrorStatus.noError)
    throw new RangeError(`not an SNMP error-status: ${name}`);
  return status;
}

/** What an agent does with an answer larger than its response limit. */
export type OversizeMode = "tooBig" | "silent";

/** The response limit an agent starts with (and returns to on reset()). */
export interface ResponseLimit {
  maxResponseBytes: number | null;
  oversize: OversizeMode;
}

export class AgentFaults {
  latencyMs: number;
  drop = false;
  /** largest answer (whole message) sent as it is; null: none besides UDP's */
  maxResponseBytes: number | null;
  /** a larger answer to a read becomes tooBig with no varbinds, or nothing at all */
  oversize: OversizeMode;
  refuseSets: false | ErrorStatusName = false;
  lieOnSet = false;
  /** a SET is applied at once and its answer sent this much later (a slow change) */
  setAnswerDelayMs = 0;
  /** answers left before dropping everything; null = no limit */
  private answersLeft: number | null = null;
  /**
   * The device goes silent at the next SET with write access, which it still applies:
   * "answered" sends the SET's answer first, "unanswered" not even that.
   */
  goneAfterSet: false | "answered" | "unanswered" = false;
  /** a SET was applied while goneAfterSet was armed: the agent acts on it after processing */
  private goneNow = false;
  /** SETs with write access seen so far: the clock of refuseNthSet */
  private setsSeen = 0;
  /** SET number (of setsSeen) -> error-status to refuse it with */
  private readonly nthRefusals = new Map<number, number>();
  private readonly prefixRefusals: Array<{ prefix: Oid; status: number }> = [];
  private readonly prefixLies: Oid[] = [];

  constructor(
    private readonly defaultLatencyMs: number,
    private readonly onRestart: () => void,
    private readonly defaultLimit: ResponseLimit = { maxResponseBytes: null, oversize: "tooBig" },
  ) {
    this.latencyMs = defaultLatencyMs;
    this.maxResponseBytes = defaultLimit.maxResponseBytes;
    this.oversize = defaultLimit.oversize;
  }

  dropAfter(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("dropAfter needs a count >= 0");
    this.answersLeft = n;
  }

  /** decides, on receipt, whether a request will be answered */
  admit(): boolean {
    if (this.drop) return false;
    if (this.answersLeft !== null) {
      if (this.answersLeft <= 0) return false;
      this.answersLeft--;
    }
    return true;
  }

  refuseSetsMatching(oidPrefix: string, status: ErrorStatusName): void {
    const prefix = parseOid(oidPrefix);
    if (prefix.length === 0) throw new RangeError("refuseSetsMatching needs an OID prefix");
    this.prefixRefusals.push({ prefix, status: statusNumber(status) });
  }

  lieOnSetsMatching(oidPrefix: string): void {
    const prefix = parseOid(oidPrefix);
    if (prefix.length === 0) throw new RangeError("lieOnSetsMatching needs an OID prefix");
    this.prefixLies.push(prefix);
  }

  /** whether a SET that was not refused is answered noError and not applied */
  liesAbout(oids: readonly Oid[]): boolean {
    return this.lieOnSet || oids.some((oid) => this.prefixLies.some((p) => isPrefixOf(p, oid)));
  }

  refuseNthSet(n: number, status: ErrorStatusName): void {
    if (!Number.isInteger(n) || n < 1) throw new RangeError("refuseNthSet needs a count >= 1");
    this.nthRefusals.set(this.setsSeen + n, statusNumber(status));
  }

  /**
   * Decides whether one SET with write access is refused before the agent tries it;
   * called once per such SET (it advances the refuseNthSet clock). null: not refused.
   */
  refusalOf(oids: readonly Oid[]): SetRefusal | null {
    const nth = ++this.setsSeen;
    if (this.goneAfterSet) this.goneNow = true;
    const counted = this.nthRefusals.get(nth);
    this.nthRefusals.delete(nth);
    if (this.refuseSets) return { status: statusNumber(this.refuseSets), index: 1 };
    if (counted !== undefined) return { status: counted, index: 1 };
    for (let i = 0; i < oids.length; i++) {
      const rule = this.prefixRefusals.find((r) => isPrefixOf(r.prefix, oids[i]));
      if (rule) return { status: rule.status, index: i + 1 };
    }
    return null;
  }

  /**
   * After a message was processed: whether its answer is sent. A SET under goneAfterSet
   * makes the device silent from then on (its own answer sent only when "answered").
   */
  release(): boolean {
    if (!this.goneNow) return true;
    this.goneNow = false;
    const send = this.goneAfterSet === "answered";
    this.goneAfterSet = false;
    this.drop = true;
    return send;
  }

  restart(): void {
    this.onRestart();
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.maxResponseBytes = this.defaultLimit.maxResponseBytes;
    this.oversize = this.defaultLimit.oversize;
    this.drop = false;
    this.refuseSets = false;
    this.lieOnSet = false;
    this.setAnswerDelayMs = 0;
    this.goneAfterSet = false;
    this.goneNow = false;
    this.answersLeft = null;
    this.nthRefusals.clear();
    this.prefixRefusals.length = 0;
    this.prefixLies.length = 0;
  }
}

/** One request as the agent saw it: its kind, which manager socket sent it, and when. */
export interface JournalEntry {
  type: "get" | "getNext" | "getBulk" | "set";
  /** address:port of the sender; one driver session keeps one socket */
  from: string;
  /** when the agent processed it (ms since the epoch, fractional); after any injected latency */
  at?: number;
  /** SETs: the OIDs set (dotted) */
  oids?: string[];
}

/** The journal keeps this many requests at most (a ring). */
const JOURNAL_SIZE = 20_000;

export class AgentCounters {
  requests = 0;
  values = 0;
  responses = 0;
  /** answers over the response limit: sent as tooBig, or not at all */
  oversize = 0;
  byType = { get: 0, getNext: 0, getBulk: 0, set: 0, other: 0 };
  /** requests received and not yet answered or dropped (latency makes them wait) */
  inFlight = 0;
  /** the most requests in flight at one moment since the last reset */
  maxInFlight = 0;
  /** the last requests in arrival order, oldest first (bounded) */
  readonly journal: JournalEntry[] = [];

  record(entry: JournalEntry): void {
    if (this.journal.length >= JOURNAL_SIZE) this.journal.shift();
    this.journal.push(entry);
  }

  reset(): void {
    this.requests = 0;
    this.values = 0;
    this.responses = 0;
    this.oversize = 0;
    this.byType = { get: 0, getNext: 0, getBulk: 0, set: 0, other: 0 };
    this.maxInFlight = this.inFlight;
    this.journal.length = 0;
  }
}
