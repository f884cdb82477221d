/**
 * The usage counters behind api/stats/ (API calls per hour, user and switch), kept in this
 * instance's memory and added to the database at most once a second, in one statement, to
 * rows that carry this instance's name (db/audit.ts UsageRepo.add): a call itself writes
 * nothing, and two instances never write the same row.
 *
 * What a crash may lose: the calls counted since the last write, at most about one second
 * of them (a clean stop writes them). A write that fails keeps its counts for the next one;
 * past MAX_PENDING keys (a database down for long) the oldest hours are dropped first.
 */
import type { UsageCount, UsageRepo } from "../db/audit";
import { hourBucket } from "../db/audit";

/** counts waiting for the database, at most this many keys (hour, user, switch) */
const MAX_PENDING = 50_000;

export class UsageCounter {
  private pending = new Map<string, UsageCount>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly repo: UsageRepo,
    private readonly instance: string,
    private readonly warn: (err: unknown) => void,
    /** how long counts wait in memory before they are written */
    readonly intervalMs = 1000,
  ) {}

  /** one API call by a user, on a switch or not (null) */
  count(userId: number, switchId: number | null): void {
    const hour = hourBucket();
    const sw = switchId ?? 0;
    const key = `${hour}|${userId}|${sw}`;
    const c = this.pending.get(key);
    if (c) c.calls++;
    else {
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      this.pending.set(key, { hour, user_id: userId, switch_id: sw, calls: 1 });
    }
    this.schedule();
  }

  /** calls counted and not written yet */
  get waiting(): number {
    let n = 0;
    for (const c of this.pending.values()) n += c.calls;
    return n;
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Writes the counts waiting (after any write under way); a failed write keeps them for the next. */
  flush(): Promise<void> {
    // what is counted from now on waits its full interval again
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.writing = this.writing.then(async () => {
      if (this.pending.size === 0) return;
      const taken = this.pending;
      this.pending = new Map();
      try {
        await this.repo.add(this.instance, [...taken.values()]);
      } catch (err) {
        this.warn(err);
        // put them back in front of anything counted meanwhile
        for (const [key, c] of this.pending) {
          const old = taken.get(key);
          if (old) old.calls += c.calls;
          else taken.set(key, c);
        }
        while (taken.size > MAX_PENDING) taken.delete(taken.keys().next().value!);
        this.pending = taken;
        this.schedule();
      }
    });
    return this.writing;
  }

  /** No more timed writes; the counts waiting are written now (a clean stop loses nothing). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}
