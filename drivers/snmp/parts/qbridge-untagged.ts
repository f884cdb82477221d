/**
 * Changing a port's untagged VLAN the Q-BRIDGE way, so that the tables stay consistent:
 * dot1qPvid.<port> = new VLAN, the port added to the new VLAN's static egress and
 * untagged bitmaps, and removed from the old VLAN's (only when it was an untagged member
 * there: a tagged membership of the old VLAN stays). Tagged memberships of other VLANs
 * are not touched.
 *
 * The current state (PVID and the static bitmaps of the old and new VLAN) comes from the
 * interface view the write's checks were made on: the device is not read again before
 * the change.
 *
 * All objects go in one SET PDU, ordered so that an agent applying them one by one never
 * sees an inconsistent state (add to new, move PVID, remove from old). An agent that
 * refuses the combined PDU for consistency reasons gets the same three steps as separate
 * PDUs. Everything written is read back. When a step fails or the device shows something
 * else, every object involved is put back to the value read at the start, not just what
 * the done steps wrote: an agent that moves a port's access VLAN by itself may have
 * changed more than it was told.
 */
import { qbridge } from "../../../mib/oids";
import {
  DeviceMismatch,
  DeviceOutcomeUnknown,
  DeviceRefused,
  DeviceUnreachable,
  NotSupported,
} from "../../../model/failures";
import { hasPort, withPort } from "../../../mib/portlist";
import { SetRefused, type SnmpSession } from "../session";
import { gaugeWrite, portListWrite, readBack, toVarbinds, type Write } from "../verified-write";

/** error-statuses after which the ordered steps may still succeed */
export const ORDER_SENSITIVE = new Set([
  "inconsistentValue",
  "wrongValue",
  "genErr",
  "commitFailed",
  "undoFailed",
  "resourceUnavailable",
  "tooBig",
]);

export interface Step {
  label: string;
  writes: Write[];
}

/** What the device showed for the port when the write was checked. */
export interface PortVlanState {
  /** the port's PVID, null when the agent has no dot1qPvid for it */
  pvid: number | null;
  /** static egress and untagged bitmaps per VLAN (null where the agent has none) */
  staticMembers: Map<number, { egress: Buffer | null; untagged: Buffer | null }>;
}

export async function changeUntaggedVlan(
  session: SnmpSession,
  port: number,
  vlan: number,
  state: PortVlanState,
): Promise<void> {
  const pvidOid = `${qbridge.dot1qPvid}.${port}`;
  const egress = (v: number) => `${qbridge.dot1qVlanStaticEgressPorts}.${v}`;
  const untagged = (v: number) => `${qbridge.dot1qVlanStaticUntaggedPorts}.${v}`;

  if (state.pvid === null) throw new NotSupported(`${session.where} has no dot1qPvid for bridge port ${port}`);
  const oldVlan = state.pvid;
  const bitmaps = (v: number) => state.staticMembers.get(v) ?? { egress: null, untagged: null };

  const steps: Step[] = [];
  const newEgress = bitmaps(vlan).egress;
  const newUntagged = bitmaps(vlan).untagged;
  const addWrites: Write[] = [];
  if (newEgress) addWrites.push(portListWrite(egress(vlan), withPort(newEgress, port, true)));
  if (newUntagged) addWrites.push(portListWrite(untagged(vlan), withPort(newUntagged, port, true)));
  if (addWrites.length) steps.push({ label: `adding port ${port} to vlan ${vlan}`, writes: addWrites });
  steps.push({ label: `setting the PVID of port ${port} to ${vlan}`, writes: [gaugeWrite(pvidOid, vlan)] });

  // the values read at the start, in an order that keeps untagged within egress at every
  // step: back into the old VLAN (egress, then untagged), the PVID, out of the new VLAN
  const originals: Write[] = [];

  if (oldVlan > 0 && oldVlan !== vlan) {
    const { egress: oldEgress, untagged: oldUntagged } = bitmaps(oldVlan);
    if (oldEgress) originals.push(portListWrite(egress(oldVlan), oldEgress));
    if (oldUntagged) originals.push(portListWrite(untagged(oldVlan), oldUntagged));
    // without an untagged bitmap the port is taken to be an untagged member of its PVID's VLAN
    const wasUntagged = oldUntagged ? hasPort(oldUntagged, port) : true;
    const removeWrites: Write[] = [];
    if (oldUntagged && wasUntagged)
      removeWrites.push(portListWrite(untagged(oldVlan), withPort(oldUntagged, port, false)));
    if (oldEgress && wasUntagged && hasPort(oldEgress, port)) {
      removeWrites.push(portListWrite(egress(oldVlan), withPort(oldEgress, port, false)));
    }
    if (removeWrites.length) steps.push({ label: `removing port ${port} from vlan ${oldVlan}`, writes: removeWrites });
  }
  originals.push(gaugeWrite(pvidOid, oldVlan));
  if (newUntagged) originals.push(portListWrite(untagged(vlan), newUntagged));
  if (newEgress) originals.push(portListWrite(egress(vlan), newEgress));

  const all = steps.flatMap((s) => s.writes);
  try {
    await session.set(toVarbinds(all));
  } catch (error) {
    if (!(error instanceof SetRefused) || !ORDER_SENSITIVE.has(error.status) || steps.length === 1) throw error;
    await runSteps(session, steps, originals, error);
  }

  // the device-wide bitmaps and the PVID now hold what was written: the next write of the
  // same learn (another port of a batch) builds on them (a failure above leaves them as read)
  // deferred (a batch): the batch's one read at its end compares
  const problems = session.deferReadBack ? [] : await readBack(session, all);
  if (problems.length === 0) {
    keepWritten(state, all);
    return;
  }
  const restored = await restore(session, originals);
  const message = `${session.where} accepted the vlan change but reads back otherwise: ${problems.join("; ")}; ${restored.text}`;
  throw restored.unknown ? new DeviceOutcomeUnknown(message) : new DeviceMismatch(message);
}

/**
 * After a write the device accepted: the state shared by the views of one learn
 * (drivers/contract.ts, learnInterfaces) takes the written PortLists and PVID, so that a
 * later write to another port builds on this one instead of on the bitmaps as first read.
 */
export function keepWritten(state: PortVlanState, writes: Write[]): void {
  const egress = `${qbridge.dot1qVlanStaticEgressPorts}.`;
  const untagged = `${qbridge.dot1qVlanStaticUntaggedPorts}.`;
  for (const w of writes) {
    if (!Buffer.isBuffer(w.value)) {
      if (w.oid.startsWith(`${qbridge.dot1qPvid}.`) && typeof w.value === "number") state.pvid = w.value;
      continue;
    }
    const column = w.oid.startsWith(egress) ? "egress" : w.oid.startsWith(untagged) ? "untagged" : null;
    if (!column) continue;
    const vlan = Number(w.oid.slice((column === "egress" ? egress : untagged).length));
    const members = state.staticMembers.get(vlan) ?? { egress: null, untagged: null };
    members[column] = Buffer.from(w.value);
    state.staticMembers.set(vlan, members);
  }
}

/** The steps as separate PDUs; on a failure everything is put back as it was. */
export async function runSteps(
  session: SnmpSession,
  steps: Step[],
  originals: Write[],
  firstRefusal: SetRefused,
): Promise<void> {
  for (let i = 0; i < steps.length; i++) {
    try {
      await session.set(toVarbinds(steps[i].writes));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const restored = i === 0 ? { text: "nothing was changed", unknown: false } : await restore(session, originals);
      const message = `${firstRefusal.message}; trying step by step, ${steps[i].label} failed: ${reason}; ${restored.text}`;
      if (error instanceof DeviceOutcomeUnknown || restored.unknown) throw new DeviceOutcomeUnknown(message);
      throw error instanceof DeviceUnreachable ? new DeviceUnreachable(message) : new DeviceRefused(message);
    }
  }
}

/**
 * Puts every object back to the value read at the start, one PDU per object in the
 * given order, writing only what differs at that moment. A refused write does not stop
 * the others (on some agents a later write, such as the PVID, carries the earlier ones
 * along); the final read-back decides what the message says.
 */
export async function restore(session: SnmpSession, originals: Write[]): Promise<{ text: string; unknown: boolean }> {
  const refusals: string[] = [];
  try {
    for (const w of originals) {
      if ((await readBack(session, [w])).length === 0) continue;
      try {
        await session.set(toVarbinds([w]));
      } catch (error) {
        if (!(error instanceof DeviceRefused)) throw error;
        refusals.push(error.message);
      }
    }
    const problems = await readBack(session, originals);
    if (problems.length === 0) return { text: "the earlier values were restored", unknown: false };
    const why = refusals.length ? ` (${refusals.join("; ")})` : "";
    // what the read-back shows is the state the port was left in
    return {
      text: `restoring the earlier values did not take, the port is left with ${problems.join("; ")}${why}`,
      unknown: false,
    };
  } catch (error) {
    // the device stopped answering while being put back: its state is not known
    const unknown = error instanceof DeviceOutcomeUnknown || error instanceof DeviceUnreachable;
    return {
      text: `restoring the earlier values failed: ${error instanceof Error ? error.message : String(error)}`,
      unknown,
    };
  }
}
