/**
 * Failed-login throttling, per username and per client address: each failure adds a
 * short delay to the next attempt; after `maxFailures` inside the window (four times
 * that for an address) the key is refused until its oldest counted failure leaves the
 * window. Pure state machine with
 * an injectable clock, so it is unit tested without timers.
 */
export interface ThrottleVerdict {
  allowed: boolean;
  /** seconds until another attempt is accepted (when refused) */
  retryAfter: number;
  /** ms to wait before answering (slows guessing before the hard limit) */
  delayMs: number;
}

export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /** per earlier failure, capped at 2 s */
    private readonly stepMs = 200,
  ) {}

  private recent(key: string): number[] {
    const t = this.now();
    const list = (this.failures.get(key) ?? []).filter((x) => t - x < this.windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  /** a client address may serve many people (NAT): it gets this many times the limit */
  static readonly ADDRESS_FACTOR = 4;

  private limit(key: string): number {
    return key.startsWith("ip:") ? this.maxFailures * LoginThrottle.ADDRESS_FACTOR : this.maxFailures;
  }

  check(keys: string[]): ThrottleVerdict {
    let worst: ThrottleVerdict = { allowed: true, retryAfter: 0, delayMs: 0 };
    for (const key of keys) {
      const list = this.recent(key);
      const max = this.limit(key);
      if (max > 0 && list.length >= max) {
        const oldest = list[list.length - max];
        const retryAfter = Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000));
        if (!worst.allowed) worst.retryAfter = Math.max(worst.retryAfter, retryAfter);
        else worst = { allowed: false, retryAfter, delayMs: 0 };
      } else if (worst.allowed) {
        worst.delayMs = Math.max(worst.delayMs, Math.min(2000, list.length * this.stepMs));
      }
    }
    return worst;
  }

  fail(keys: string[]): void {
    const t = this.now();
    for (const key of keys) {
      const list = this.recent(key);
      list.push(t);
      // bounded memory: only the failures that can still matter are kept
      this.failures.set(key, list.slice(-Math.max(1, this.limit(key))));
    }
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.failures.delete(key);
  }
}
