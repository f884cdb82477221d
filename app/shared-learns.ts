/**
 * Concurrent reads of one device share a learn. A read that arrives while a learn of the
 * same device and scope is under way does not start its own: it waits for the NEXT learn,
 * which starts when the running one ends and answers every read that arrived meanwhile.
 * So no answer is older than its request (every call still relearns the device), nothing
 * is kept between calls, and however many readers arrive, one device sees at most one
 * learn per scope at a time plus one queued behind it.
 */

/** learns started and reads answered by a learn another read started (bench, tests) */
export interface SharedLearnCounters {
  learns: number;
  joined: number;
}

interface Batch<T> {
  promise: Promise<T>;
  /** starts the batch's learn (when the running one ends) */
  launch: () => void;
}

export class SharedLearns {
  readonly counters: SharedLearnCounters = { learns: 0, joined: 0 };
  /** key -> the learn under way */
  private readonly running = new Map<string, Promise<unknown>>();
  /** key -> the reads waiting for the next learn */
  private readonly waiting = new Map<string, Batch<unknown>>();

  /** The answer of a learn that starts no earlier than this call. */
  run<T>(key: string, learn: () => Promise<T>): Promise<T> {
    if (!this.running.has(key)) return this.start(key, learn);
    const queued = this.waiting.get(key) as Batch<T> | undefined;
    if (queued) {
      this.counters.joined++;
      return queued.promise;
    }
    let resolve!: (v: T) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    this.waiting.set(key, {
      promise,
      launch: () => void this.start(key, learn).then(resolve, reject),
    });
    return promise;
  }

  private start<T>(key: string, learn: () => Promise<T>): Promise<T> {
    this.counters.learns++;
    const promise = Promise.resolve().then(learn);
    this.running.set(key, promise);
    const ended = () => {
      // in one step: the queued reads' learn becomes the running one, so a read that
      // arrives now waits for the learn after it
      const next = this.waiting.get(key);
      this.waiting.delete(key);
      if (this.running.get(key) === promise) this.running.delete(key);
      next?.launch();
    };
    promise.then(ended, ended);
    return promise;
  }
}
