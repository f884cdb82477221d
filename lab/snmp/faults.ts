/** Runtime fault injection of one agent and its traffic counters (see LabFaults / LabCounters in lab/index.ts). */
import type { ErrorStatusName } from "./error-status";

export class AgentFaults {
  latencyMs: number;
  drop = false;
  refuseSets: false | ErrorStatusName = false;
  lieOnSet = false;
  /** answers left before dropping everything; null = no limit */
  private answersLeft: number | null = null;

  constructor(
    private readonly defaultLatencyMs: number,
    private readonly onRestart: () => void,
  ) {
    this.latencyMs = defaultLatencyMs;
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

  restart(): void {
    this.onRestart();
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.drop = false;
    this.refuseSets = false;
    this.lieOnSet = false;
    this.answersLeft = null;
  }
}

export class AgentCounters {
  requests = 0;
  values = 0;
  responses = 0;
  byType = { get: 0, getNext: 0, getBulk: 0, set: 0, other: 0 };

  reset(): void {
    this.requests = 0;
    this.values = 0;
    this.responses = 0;
    this.byType = { get: 0, getNext: 0, getBulk: 0, set: 0, other: 0 };
  }
}
