/**
 * Port bounces and PoE power cycles on the device (issue 20; docs/api-decisions.md,
 * "Helpdesk writes"): off, a wait, on (the batch's one read at its end shows the port on;
 * a driver without deferred writes reads each step back in its setter). Before
 * the port goes off a row in `pending_port_ups` (db/pending-ups.ts) says that it must come
 * on again, under the write lease of the write that switches it off; the row goes once it
 * is on. Before switching on, the write checks that it still holds the device's lease:
 * an instance that lost it (its database went away, it was stopped) sends nothing more.
 *
 * The row left by an instance that stopped in between is found by whoever holds the
 * device's write lease next, on any instance (every device write calls
 * switchOnLeftovers() first, and the sweep below takes the lease of a device with such a
 * row when no write comes): it switches the port (or its PoE) on and writes an audit row
 * with the batch id of the cut-off bounce. A holder never takes over its own rows, and a
 * row of another holding is from one that has ended (the lease has one holder at a time),
 * as for pending audit rows (app/write-lease.ts).
 */
import type { Driver } from "../drivers/contract";
import type { InterfaceView } from "../model/device";
import { DeviceError } from "../model/failures";
import type { Services } from "./services";
import type { DeviceFull } from "./devices";
import { ApiError, deviceFailure } from "./errors";
import * as msg from "../domain/messages";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a cycle runs under: the device, its write lease, the batch. */
export interface CycleContext {
  s: Services;
  device: { id: number; name: string };
  lease: string;
  batchId: string | null;
  username: string;
}

/** Does the holding `lease` still hold the device's lease (false too when the database cannot say)? */
async function stillHolding(s: Services, deviceId: number, lease: string): Promise<boolean> {
  try {
    const holder = await s.repos.deviceLeases.holder(`switch:${deviceId}`);
    return holder !== null && holder.owner === lease && holder.expires_ms > Date.now();
  } catch {
    return false;
  }
}

/**
 * Off, wait, on: a bounce (admin state) or a power cycle (PoE). The port's row in
 * pending_port_ups is written first (a database that cannot take it stops the cycle
 * before anything is sent) and removed once the port is on again, or once switching it
 * on failed on the device (the answer says so; nobody would do better later).
 */
export async function cyclePort(
  c: CycleContext,
  driver: Driver,
  view: InterfaceView,
  kind: "bounce" | "poe_cycle",
  waitSeconds: number,
): Promise<void> {
  const id = await c.s.repos.pendingUps.add({
    switch_id: c.device.id,
    interface_id: view.interface.id,
    interface_name: view.interface.name,
    kind,
    write_lease: c.lease,
    batch_id: c.batchId,
    username: c.username,
  });
  const set = (on: boolean) => (kind === "bounce" ? driver.setAdminState(view, on) : driver.setPoe(view, on));
  try {
    await set(false);
  } catch (e) {
    // not switched off (or not known): switching it on is what a retry or the next holder would do anyway
    await set(true).catch(() => undefined);
    await c.s.repos.pendingUps.remove(id).catch(() => undefined);
    throw e;
  }
  await sleep(waitSeconds * 1000);
  if (!(await stillHolding(c.s, c.device.id, c.lease))) {
    // the lease is gone: another holder may be writing now; it switches the port on (the row stays)
    throw new ApiError(424, "device_outcome_unknown", msg.outcomeUnknown(c.device.name, cycleWhat(kind, view)));
  }
  try {
    await set(true);
  } finally {
    await c.s.repos.pendingUps.remove(id).catch(() => undefined);
  }
}

function cycleWhat(kind: "bounce" | "poe_cycle", view: InterfaceView): string {
  return kind === "bounce"
    ? `the bounce of ${view.interface.name} (it was switched off; the next write to the device switches it on)`
    : `the PoE power cycle of ${view.interface.name} (PoE was switched off; the next write to the device switches it on)`;
}

/**
 * For the device's write lease holder `lease`, with its driver open: every port another
 * (ended) holding switched off and did not switch on again is switched on now, each with
 * its audit row. Never throws: a port that cannot be switched on keeps its row (the next
 * holder tries again) and its failure is in the log; the holder's own write goes on.
 */
export async function switchOnLeftovers(
  s: Services,
  device: { id: number; name: string },
  lease: string,
  driver: Driver,
): Promise<number> {
  let rows;
  try {
    rows = await s.repos.pendingUps.leftOf(device.id, lease);
  } catch {
    return 0; // the database is away: the write itself will say so
  }
  let done = 0;
  for (const row of rows) {
    const action = row.kind === "bounce" ? "port_bounce" : "poe_cycle";
    const message = msg.switchedBackOn(row.interface_name, row.kind, row.username, row.created);
    try {
      const view = await driver.learnInterface(row.interface_id);
      if (!view) {
        // the interface is gone (another module, another driver choice): nothing to switch on
        await s.repos.pendingUps.remove(row.id);
        await s.audit.switchedBackOn({
          switch: device,
          interface: row.interface_name,
          action,
          outcome: "failure",
          code: "interface_not_found",
          message: `${message}; the interface is not there any more`,
          batch_id: row.batch_id,
        });
        continue;
      }
      if (row.kind === "bounce") {
        if (!view.interface.admin_up) await driver.setAdminState(view, true);
      } else if (view.interface.poe && view.interface.poe.admin_status !== "Enabled") {
        await driver.setPoe(view, true);
      }
      await s.repos.pendingUps.remove(row.id);
      await s.audit.switchedBackOn({
        switch: device,
        interface: row.interface_name,
        action,
        outcome: "success",
        code: null,
        message,
        batch_id: row.batch_id,
      });
      done++;
    } catch (e) {
      if (!(e instanceof DeviceError)) continue; // the database: the row stays for the next holder
      const err = deviceFailure(e, device);
      await s.audit.switchedBackOn({
        switch: device,
        interface: row.interface_name,
        action,
        outcome: err.code === "device_outcome_unknown" ? "unknown" : "failure",
        code: err.code,
        message: `${message}; switching it on failed: ${err.reason}`,
        batch_id: row.batch_id,
      });
    }
  }
  return done;
}

/**
 * The sweep: devices with a port left off whose write lease nobody holds now get their
 * lease taken by this instance, which switches the ports on (switchOnLeftovers). Run on
 * a timer by the serving service (server/start-service.ts); bounded: at most 100 devices
 * a round, one at a time.
 */
export async function sweepLeftovers(s: Services, byId: (id: number) => Promise<DeviceFull | null>): Promise<number> {
  let switched = 0;
  let devices: number[];
  try {
    devices = await s.repos.pendingUps.devices();
  } catch {
    return 0;
  }
  for (const id of devices) {
    const holder = await s.repos.deviceLeases.holder(`switch:${id}`).catch(() => undefined);
    // held by a live holding: that holding switches its own port on (or its successor will)
    if (holder === undefined || (holder && holder.owner !== "" && holder.expires_ms > Date.now())) continue;
    const device = await byId(id).catch(() => null);
    if (!device) continue;
    try {
      switched += await s.devices.exclusive(id, (lease) =>
        s.devices.use(device, (driver) => switchOnLeftovers(s, device, lease, driver)),
      );
    } catch {
      // the device did not answer or is busy: the next round (or the next write) tries again
    }
  }
  return switched;
}

/** Runs the sweep every `everyMs` until stopped. */
export function startLeftoverSweep(s: Services, everyMs = 10_000): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => sweepLeftovers(s, (id) => s.devices.byId(id))).catch(() => undefined);
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
