/** Fault injection of the lab's SSH face and its counters (see LabSshFaults in server.ts). */

export type CommandVerdict =
  { kind: "answer" } | { kind: "drop" } | { kind: "hang" } | { kind: "refuse"; message: string };

export class SshFaults {
  /** delay before each command's answer, milliseconds */
  latencyMs: number;
  /** commands get no answer at all (the session stays open): a device that stopped answering */
  hang = false;
  /** configuration commands are answered as usual but change nothing: a write that reads back different */
  lieOnWrite = false;
  /** commands answered before the connection is dropped; null = no limit */
  private answersLeft: number | null = null;
  private readonly refusals: Array<{ pattern: RegExp; message: string }> = [];

  constructor(private readonly defaultLatencyMs: number) {
    this.latencyMs = defaultLatencyMs;
  }

  /** answer n more commands, then drop the connection on the next one (without answering it) */
  dropAfter(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("dropAfter needs a count >= 0");
    this.answersLeft = n;
  }

  /**
   * Answer command lines that match (a RegExp, or a string the line starts with) with
   * "% <message>" and change nothing. Rules add up until reset().
   */
  refuseCommands(match: RegExp | string, message = "Command rejected by the lab"): void {
    const pattern =
      typeof match === "string" ? new RegExp(`^${match.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "i") : match;
    this.refusals.push({ pattern, message });
  }

  /** decides what happens to one command line (called once per line entered) */
  verdict(line: string): CommandVerdict {
    if (this.hang) return { kind: "hang" };
    if (this.answersLeft !== null) {
      if (this.answersLeft <= 0) return { kind: "drop" };
      this.answersLeft--;
    }
    const refusal = this.refusals.find((r) => r.pattern.test(line.trim()));
    return refusal ? { kind: "refuse", message: refusal.message } : { kind: "answer" };
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.hang = false;
    this.lieOnWrite = false;
    this.answersLeft = null;
    this.refusals.length = 0;
  }
}

export class SshCounters {
  /** successful logins */
  logins = 0;
  /** command lines entered (blank lines not counted) */
  commands = 0;
  /** the command lines, latest last (at most the last 1000) */
  readonly log: string[] = [];

  record(line: string): void {
    this.commands++;
    this.log.push(line);
    if (this.log.length > 1000) this.log.shift();
  }

  reset(): void {
    this.logins = 0;
    this.commands = 0;
    this.log.length = 0;
  }
}
