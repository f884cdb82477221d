/**
 * Writes to one device, one at a time across every instance on the database.
 *
 * Within an instance the writes to a device queue in arrival order; the head of the queue
 * then takes the device's lease row (db/leases.ts) and holds it while the write runs,
 * renewing it every third of its lifetime. Another instance's writes wait for the row;
 * when the holder died (killed, its machine gone), its renewals stop, the lease expires
 * and the next writer takes it over, writing an audit row that says a write was cut off
 * and that its effect on the device is not known. Waiting is bounded: past it the answer
 * is 503 device_busy with Retry-After. The same rows work on SQLite (one file, so one
 * host), where they cost a few statements per write.
 *
 * Each holding has its own owner name (`<instance>#<n>`), which a device write stores in
 * its pending audit row. Whoever takes a device's lease first settles that device's
 * pending rows of other owners as unknown: their writes ran under an earlier holding that
 * has ended (released, or expired because its holder stopped renewing), so none of them
 * can still be settled by a live lease holder (docs/architecture.md, "Pending audit rows").
 * Those rows, and the row of a write cut off by its instance's death, are written by the
 * audit writer (app/audit.ts). A lease whose release failed (the database was lost)
 * belongs to a write of this instance that has ended; this instance's next write takes it
 * without waiting for it to expire.
 *
 * One WriteLeases belongs to one service (app/startup.ts builds it) and holds all its
 * state: the local queues, the holdings' counter and the holdings running now. Its
 * instance name is the service's own, so two services in one process are two instances
 * to each other, as two processes would be.
 */
import type { Repos } from "../db/repos";
import type { AuditWriter } from "./audit";
import { ApiError } from "./errors";
import * as msg from "../domain/messages";

export interface WriteLeaseSettings {
  /** a holder that stops renewing loses the lease after this long */
  leaseMs: number;
  /** the longest a write waits for its turn (queue and lease together) */
  waitMs: number;
}

export const DEFAULT_WRITE_LEASE: WriteLeaseSettings = { leaseMs: 15_000, waitMs: 30_000 };

/** first and longest pause between tries of a held lease */
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 250;

type LeaseRepos = Pick<Repos, "deviceLeases" | "inventory">;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `p` settled before the deadline? (its outcome does not matter here) */
async function settledBefore(p: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([
      p.then(
        () => true as const,
        () => true as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export class WriteLeases {
  /** tail of the local queue of writes per device id */
  private readonly queues = new Map<number, Promise<void>>();
  /** holdings so far (a counter for unique owner names), and the ones running now */
  private holdings = 0;
  private readonly running = new Set<string>();

  constructor(
    private readonly repos: LeaseRepos,
    /** writes the rows of writes cut off (pending rows of ended holdings, a dead instance's write) */
    private readonly audit: Pick<AuditWriter, "settleLeftovers" | "cutOff">,
    /** this service among the instances on the database: its lease owner names start with it */
    readonly instance: string,
    readonly settings: WriteLeaseSettings = DEFAULT_WRITE_LEASE,
    /** the JSON log; stderr without it */
    private readonly log?: { error(line: string): void },
  ) {}

  /** Runs `fn` holding the device's lease; `fn` gets the holding's owner name. */
  async run<T>(deviceId: number, fn: (lease: string) => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.settings.waitMs;
    const before = this.queues.get(deviceId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((r) => (done = r));
    // who comes next waits for everyone before, even when this write gives up early
    const tail = before.then(() => mine);
    this.queues.set(deviceId, tail);
    try {
      if (!(await settledBefore(before, deadline))) throw await this.busy(deviceId);
      const owner = `${this.instance}#${++this.holdings}`;
      this.running.add(owner);
      try {
        await this.take(deviceId, owner, deadline);
        return await this.holding(deviceId, owner, () => fn(owner));
      } finally {
        this.running.delete(owner);
      }
    } finally {
      done();
      if (this.queues.get(deviceId) === tail) this.queues.delete(deviceId);
    }
  }

  /** Polls for the lease until the deadline (backing off), else device_busy. */
  private async take(deviceId: number, owner: string, deadline: number): Promise<void> {
    const name = `switch:${deviceId}`;
    let pause = POLL_FIRST_MS;
    while (Date.now() <= deadline) {
      const r = await this.repos.deviceLeases.take(name, owner, this.settings.leaseMs, Date.now(), (holder) =>
        this.endedHere(holder),
      );
      if (r.taken) {
        const dead = r.tookOverFrom && !this.endedHere(r.tookOverFrom.owner) ? r.tookOverFrom : null;
        // the device's pending rows of ended holdings are called unknown; a dead holder
        // that left none gets a row of its own (neither write stops this one when it fails)
        const settled = await this.audit.settleLeftovers(deviceId, owner);
        if (dead && !settled.includes(dead.owner)) {
          const device = await this.repos.inventory.get("switches", deviceId).catch(() => undefined);
          await this.audit.cutOff({ id: deviceId, name: device?.name ?? `#${deviceId}` }, dead);
        }
        return;
      }
      await sleep(Math.min(pause * (0.5 + Math.random()), Math.max(0, deadline - Date.now())));
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
    throw await this.busy(deviceId);
  }

  private async holding<T>(deviceId: number, owner: string, fn: () => Promise<T>): Promise<T> {
    const name = `switch:${deviceId}`;
    const renewal = setInterval(() => {
      this.repos.deviceLeases.renew(name, owner, this.settings.leaseMs).then(
        (mine) => {
          if (!mine)
            this.error(
              `write lease of switch ${deviceId} was lost while writing (renewals were late); another write may run at the same time`,
            );
        },
        () => undefined, // a database hiccup: the next renewal tries again before the expiry
      );
    }, this.settings.leaseMs / 3);
    renewal.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renewal);
      await this.repos.deviceLeases.release(name, owner).catch(() => undefined);
    }
  }

  /** A holder of this instance that is not running: its write ended and its release failed. */
  private endedHere(holder: string): boolean {
    return holder.startsWith(`${this.instance}#`) && !this.running.has(holder);
  }

  private error(line: string): void {
    if (this.log) this.log.error(line);
    else console.error(line);
  }

  private async busy(deviceId: number): Promise<ApiError> {
    const device = await this.repos.inventory.get("switches", deviceId).catch(() => undefined);
    const seconds = Math.max(1, Math.ceil(this.settings.leaseMs / 1000));
    return new ApiError(503, "device_busy", msg.deviceBusy(device?.name ?? `#${deviceId}`, seconds), {
      "Retry-After": String(seconds),
    });
  }
}
