/**
 * The per-device bound, shared by every session of one service: at most `concurrency`
 * SNMP requests (or sessions of API calls over SSH, NETCONF or HTTPS: DeviceGates.hold)
 * in flight to one device, whichever API call sent them, and at most `queueLimit` waiting
 * behind them. A new call that finds the queue full is refused at once with DeviceBusy
 * (the API's 503 device_busy) before anything is sent; a call already admitted is never
 * refused halfway (a write's read-back must not be turned away after its SET). Waiting
 * happens before a request is sent, so the wait never counts against the request's timeout.
 *
 * There is no process-wide set of gates: the service builds one DeviceGates with its
 * limits (app/startup.ts) and hands it to the drivers it opens (DriverSpec.gates), so two
 * services in one process keep their own limits. A session opened without one (a test or
 * a tool driving one device) gets a set of its own that bounds only itself.
 *
 * Gates are keyed by address (`snmp host:port`, `ssh host:port`, `https host:port`) and
 * kept only while something is in flight or waiting, so the map stays as small as the set
 * of busy devices.
 */
import { DeviceBusy } from "../model/failures";

export interface DeviceGateLimits {
  /** requests (SSH: connections) in flight to one device at most */
  concurrency: number;
  /** requests that may wait for a free slot at one device; a new call beyond it is busy */
  queueLimit: number;
}

export interface DeviceGateStats {
  key: string;
  inFlight: number;
  waiting: number;
}

/** What every gate has seen since the last reset (bench, tests, metrics). */
export interface DeviceGateCounters {
  /** slots handed out */
  acquired: number;
  /** calls refused because the queue was full */
  busy: number;
  /** the most requests seen in flight at one device */
  maxInFlight: number;
  /** the most requests seen waiting at one device */
  maxWaiting: number;
}

const DEFAULT_LIMITS: DeviceGateLimits = { concurrency: 4, queueLimit: 100 };
/** a request's expected duration before any was measured (ms) */
const FIRST_GUESS_MS = 50;

export class DeviceGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];
  /** smoothed duration of one slot's use, for Retry-After */
  private averageMs = FIRST_GUESS_MS;

  constructor(
    readonly key: string,
    private readonly registry: DeviceGates,
  ) {}

  get stats(): DeviceGateStats {
    return { key: this.key, inFlight: this.inFlight, waiting: this.waiting.length };
  }

  /**
   * A new call's admission: throws DeviceBusy when the queue is full. Seconds to wait:
   * the queue ahead drained `concurrency` at a time at the measured pace, at least 1.
   */
  admit(): void {
    const { concurrency, queueLimit } = this.registry.limits;
    if (this.waiting.length < queueLimit || this.inFlight < concurrency) return;
    this.registry.counters.busy++;
    const seconds = Math.max(1, Math.ceil((((this.waiting.length + 1) / concurrency) * this.averageMs) / 1000));
    throw new DeviceBusy(seconds);
  }

  /** Waits for a slot (FIFO); call release() exactly once afterwards. */
  async acquire(): Promise<void> {
    if (this.inFlight < this.registry.limits.concurrency && this.waiting.length === 0) this.inFlight++;
    else {
      const c = this.registry.counters;
      // release() hands the slot over: it is counted in inFlight before the waiter runs
      const handedOver = new Promise<void>((resolve) => this.waiting.push(resolve));
      if (this.waiting.length > c.maxWaiting) c.maxWaiting = this.waiting.length;
      await handedOver;
    }
    const c = this.registry.counters;
    c.acquired++;
    if (this.inFlight > c.maxInFlight) c.maxInFlight = this.inFlight;
  }

  /** Gives the slot back, with how long it was used (ms) for the Retry-After estimate. */
  release(usedMs?: number): void {
    if (usedMs !== undefined && usedMs >= 0) this.averageMs = this.averageMs * 0.8 + usedMs * 0.2;
    this.inFlight--;
    // a lowered limit (configure) drains the queue without handing out more slots
    while (this.waiting.length > 0 && this.inFlight < this.registry.limits.concurrency) {
      this.inFlight++;
      this.waiting.shift()!();
    }
    this.registry.forgetIfIdle(this);
  }

  get idle(): boolean {
    return this.inFlight === 0 && this.waiting.length === 0;
  }
}

/** One service's gates, one per busy device address, under one set of limits. */
export class DeviceGates {
  limits: DeviceGateLimits = { ...DEFAULT_LIMITS };
  readonly counters: DeviceGateCounters = { acquired: 0, busy: 0, maxInFlight: 0, maxWaiting: 0 };
  private readonly gates = new Map<string, DeviceGate>();

  constructor(limits: Partial<DeviceGateLimits> = {}) {
    this.configure(limits);
  }

  /** Sets the bound (DEVICE_CONCURRENCY, DEVICE_QUEUE_LIMIT); applies to every device from now on. */
  configure(limits: Partial<DeviceGateLimits>): void {
    const next = { ...this.limits, ...limits };
    if (!(Number.isInteger(next.concurrency) && next.concurrency >= 1))
      throw new RangeError("device concurrency must be at least 1");
    if (!(Number.isInteger(next.queueLimit) && next.queueLimit >= 0))
      throw new RangeError("device queue limit must be 0 or more");
    this.limits = next;
  }

  forKey(key: string): DeviceGate {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new DeviceGate(key, this);
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** Devices with requests in flight or waiting now (the per-device queue depth). */
  busy(): DeviceGateStats[] {
    return [...this.gates.values()].map((g) => g.stats).filter((s) => s.inFlight > 0 || s.waiting > 0);
  }

  resetCounters(): void {
    Object.assign(this.counters, { acquired: 0, busy: 0, maxInFlight: 0, maxWaiting: 0 });
  }

  /** internal: a gate with nothing in flight or waiting is dropped */
  forgetIfIdle(gate: DeviceGate): void {
    if (gate.idle && this.gates.get(gate.key) === gate) this.gates.delete(gate.key);
  }

  /**
   * One slot of a device held for a whole session (an SSH session of one API call): admits
   * (DeviceBusy when the queue is full), waits for the slot, and gives back its release.
   */
  async hold(key: string): Promise<() => void> {
    const gate = this.forKey(key);
    gate.admit();
    await gate.acquire();
    const started = Date.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      gate.release(Date.now() - started);
    };
  }
}

export function snmpGateKey(host: string, port: number): string {
  return `snmp ${host.toLowerCase()}:${port}`;
}

export function sshGateKey(host: string, port: number): string {
  return `ssh ${host.toLowerCase()}:${port}`;
}

export function httpsGateKey(host: string, port: number): string {
  return `https ${host.toLowerCase()}:${port}`;
}
