/**
 * The instances serving one database know how many of them are alive, and share the
 * per-device bound between them (README "Scale-out").
 *
 * Each serving process keeps a lease row `instance:<id>` in device_leases and renews it
 * every beat; a row not renewed for a lifetime belongs to an instance that is gone and no
 * longer counts (rows long expired are deleted by whichever instance sees them). On every
 * beat an instance counts the live rows and takes its share of DEVICE_CONCURRENCY: at most
 * floor(total / live) requests in flight to one device, and at least one. So N instances
 * together keep a device at DEVICE_CONCURRENCY requests in flight, or at N when there are
 * more instances than that. The count lags by at most one beat when an instance starts,
 * and by a lifetime when one dies (its share stays unused until then). A starting
 * instance counts itself alone until its first beat, a few milliseconds in.
 */
import os from "node:os";
import crypto from "node:crypto";
import type { LeaseRepo } from "../db/leases";
import type { Repos } from "../db/repos";
import type { DeviceGates } from "../drivers/device-gate";
import type { Config } from "./config";

/**
 * A new service's name among the instances: host, pid and a random part (pids repeat, and
 * one process may run more than one service: tests, the bench).
 */
export function instanceName(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
}

export interface PresenceSettings {
  /** how often an instance renews its row and recounts */
  beatMs: number;
  /** a row not renewed for this long no longer counts */
  ttlMs: number;
}

export const DEFAULT_PRESENCE: PresenceSettings = { beatMs: 2_000, ttlMs: 10_000 };

const PREFIX = "instance:";
/** expired rows older than this are deleted (kept a while so that a late beat finds its row) */
const PRUNE_AFTER_MS = 60_000;

/** Each instance's share of a per-device bound: floor(total / live), at least 1. */
export function shareOf(total: number, live: number): number {
  return Math.max(1, Math.floor(total / Math.max(1, live)));
}

export class InstancePresence {
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  /** live instances at the last beat (this one included) */
  live = 1;

  constructor(
    private readonly leases: LeaseRepo,
    /** the bound for all instances together (DEVICE_CONCURRENCY) */
    readonly total: number,
    /** takes this instance's share (the device gates' concurrency) */
    private readonly apply: (share: number) => void,
    readonly settings: PresenceSettings = DEFAULT_PRESENCE,
    readonly instance: string = instanceName(),
  ) {}

  get share(): number {
    return shareOf(this.total, this.live);
  }

  /**
   * Registers this instance and takes its share at once, in the background (the start
   * does not wait for it: until it is done the instance counts itself alone), then beats
   * until stop().
   */
  start(): void {
    const tick = () => {
      // one beat at a time; a database hiccup keeps the last count until the next beat
      this.beating ??= this.beat()
        .catch(() => undefined)
        .finally(() => (this.beating = null));
    };
    tick();
    this.timer = setInterval(tick, this.settings.beatMs);
    this.timer.unref();
  }

  /** Renews (or re-creates) this instance's row, counts the live ones and applies the share. */
  async beat(now = Date.now()): Promise<void> {
    const name = PREFIX + this.instance;
    if (!(await this.leases.renew(name, this.instance, this.settings.ttlMs, now))) {
      await this.leases.take(name, this.instance, this.settings.ttlMs, now);
    }
    // at least this one, even when its own row could not be written just now
    this.live = Math.max(1, await this.leases.countLive(PREFIX, now));
    this.apply(this.share);
    await this.leases.drop(PREFIX, { expiredBefore: now - PRUNE_AFTER_MS });
  }

  /** Stops beating and deletes this instance's row, so that the others' shares grow at their next beat. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.leases.drop(PREFIX + this.instance, { owner: this.instance }).catch(() => undefined);
  }
}

/** A serving service's presence: its share of DEVICE_CONCURRENCY goes to its own device gates. */
export function startInstancePresence(service: {
  repos: Pick<Repos, "deviceLeases">;
  config: Pick<Config, "deviceConcurrency">;
  gates: Pick<DeviceGates, "configure">;
  instance: string;
}): InstancePresence {
  const presence = new InstancePresence(
    service.repos.deviceLeases,
    service.config.deviceConcurrency,
    (share) => service.gates.configure({ concurrency: share }),
    undefined,
    service.instance,
  );
  presence.start();
  return presence;
}
