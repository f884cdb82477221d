/**
 * The audit log keeps LOG_MAX_AGE days (OpenL2M's setting, 180 by default); the service
 * removes older rows itself. Every serving instance runs this on its own timer, a first
 * time a while after the start and then every interval, with a random part so that
 * instances started together do not run together. A run deletes a batch at a time
 * (db/audit-retention.ts: one bounded, idempotent statement, safe when instances run at
 * the same moment), at most a number of batches, and pauses between batches so that the
 * audit rows of requests in flight are not held up; what is left waits for the next run.
 * A batch that loses a lock race to another instance ends the run quietly. Each run that
 * removed rows says how many in the log; /metrics counts them
 * (switchdesk_audit_rows_removed_total).
 */
import { Counter, type Registry } from "prom-client";
import { deleteAuditBatch } from "../db/audit-retention";
import type { Store } from "../db/connect";
import { isWriteConflict } from "../db/errors";
import type { AuditRetentionConfig } from "./protection-config";
import type { Logger } from "./telemetry";

const DAY_MS = 86_400_000;
/** pause between two batches of one run */
const PAUSE_MS = 50;

export class AuditRetention {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private stopped = false;
  private readonly removed: Counter | null;

  constructor(
    private readonly store: Pick<Store, "db" | "dialect">,
    readonly settings: AuditRetentionConfig,
    private readonly log: Pick<Logger, "info" | "warn" | "debug">,
    registry?: Registry,
  ) {
    this.removed = registry
      ? new Counter({
          name: "switchdesk_audit_rows_removed_total",
          help: "Audit log rows removed because they were older than LOG_MAX_AGE days",
          registers: [registry],
        })
      : null;
  }

  /** The time before which rows go, or null when LOG_MAX_AGE is 0 (rows are kept). */
  cutoff(now = Date.now()): string | null {
    return this.settings.maxAgeDays > 0 ? new Date(now - this.settings.maxAgeDays * DAY_MS).toISOString() : null;
  }

  /**
   * One run: batches until one comes back short (nothing older is left), the run's batch
   * limit is reached, or another instance holds the rows. How many rows it removed.
   */
  async runOnce(now = Date.now()): Promise<number> {
    const olderThan = this.cutoff(now);
    if (olderThan === null) return 0;
    const { batchRows, maxBatchesPerRun } = this.settings;
    let total = 0;
    for (let batch = 0; batch < maxBatchesPerRun && !this.stopped; batch++) {
      let removed: number;
      try {
        removed = await deleteAuditBatch(this.store.db, this.store.dialect, olderThan, batchRows);
      } catch (e) {
        if (!isWriteConflict(e)) throw e;
        // another instance is deleting the same rows: what is left waits for the next run
        this.log.debug(
          { removed: total },
          "audit log retention: another instance is removing old rows; stopping this run",
        );
        break;
      }
      total += removed;
      this.removed?.inc(removed);
      if (removed < batchRows) break;
      if (batch + 1 < maxBatchesPerRun) await new Promise((r) => setTimeout(r, PAUSE_MS));
    }
    if (total > 0)
      this.log.info(
        { removed: total, olderThan, maxAgeDays: this.settings.maxAgeDays },
        `audit log retention: removed ${total} rows older than ${this.settings.maxAgeDays} days (LOG_MAX_AGE)`,
      );
    return total;
  }

  /** Runs on a timer until stop(); nothing when LOG_MAX_AGE is 0. One run at a time. */
  start(): void {
    if (this.settings.maxAgeDays === 0 || this.timer) return;
    const { firstRunDelayMs, intervalMs } = this.settings;
    const next = (delay: number) => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.running = this.runOnce()
          .catch((err: unknown) => {
            this.log.warn({ err }, "audit log retention: a run failed; the next one tries again");
            return 0;
          })
          .finally(() => {
            this.running = null;
            next(intervalMs * (0.9 + Math.random() * 0.2));
          });
      }, delay);
      this.timer.unref();
    };
    next(firstRunDelayMs * (0.5 + Math.random()));
  }

  /** Stops the timer and waits for a run in progress (it ends after its current batch). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/** The serving process's retention, on its store, logger and metrics. */
export function startAuditRetention(services: {
  store: Pick<Store, "db" | "dialect">;
  config: { auditRetention: AuditRetentionConfig };
  log: Pick<Logger, "info" | "warn" | "debug">;
  telemetry: { registry: Registry };
}): AuditRetention {
  const retention = new AuditRetention(
    services.store,
    services.config.auditRetention,
    services.log,
    services.telemetry.registry,
  );
  retention.start();
  return retention;
}
