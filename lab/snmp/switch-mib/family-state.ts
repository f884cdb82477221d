/**
 * Helpers for the state families keep beside the switch configuration: a value that SETs
 * stage and commit whole (see StagedState), and timers for operations that take a while
 * on a real device (a config copy goes waiting -> running -> successful).
 */
import type { StagedState } from "./writable";

export class FamilyState<S> implements StagedState<S> {
  constructor(
    public value: S,
    private readonly copier: (s: S) => S,
    /** the keys of the table rows the state holds: a change of them is a structural change */
    private readonly rowsKey: (s: S) => string,
  ) {}

  current(): S {
    return this.value;
  }

  copy(s: S): S {
    return this.copier(s);
  }

  commit(s: S): boolean {
    const structural = this.rowsKey(s) !== this.rowsKey(this.value);
    this.value = s;
    return structural;
  }
}

/** Phases of a copy job: how long it waits and runs before it completes, milliseconds. */
export const JOB_WAIT_MS = 100;
export const JOB_RUN_MS = 200;

/** Timers of one agent's jobs, all ended by clear() (reboot, stop). */
export class JobTimers {
  private readonly timers = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    // a job still waiting must not keep a test process alive
    t.unref();
    this.timers.add(t);
  }

  /**
   * Runs a job in three phases: `running` after JOB_WAIT_MS, `complete` JOB_RUN_MS later.
   * Each callback looks its row up again (it may have been destroyed or restarted).
   */
  job(running: () => void, complete: () => void): void {
    this.after(JOB_WAIT_MS, () => {
      running();
      this.after(JOB_RUN_MS, complete);
    });
  }

  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
