/**
 * Bounds how many requests are in flight to one device (so a switch's CPU is not
 * flooded) and keeps the bookkeeping for "round trips on the critical path": a request
 * that had to wait for a free slot cannot start before the request that freed it
 * finished, so it inherits that request's depth.
 */
export class RequestGate {
  private inFlight = 0;
  private readonly waiting: Array<(releasedDepth: number) => void> = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError("limit must be at least 1");
  }

  /** Resolves with the depth of the request that handed over its slot (0 if none waited). */
  acquire(): Promise<number> {
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return Promise.resolve(0);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiter, passing on the finished request's depth. */
  release(depth: number): void {
    const next = this.waiting.shift();
    if (next) next(depth);
    else this.inFlight--;
  }
}
