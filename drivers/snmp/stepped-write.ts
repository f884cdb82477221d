/**
 * A change of several objects of one port that must not leave the port cut off (a trunk
 * made or changed, a trunk made an access port): everything in one SET PDU, in an order
 * an agent applying the varbinds one by one goes through safely; an agent that refuses
 * the combined PDU for a reason an order can cure (an instance that only exists once an
 * earlier object is set, a value inconsistent until another one changes) gets the same
 * change as separate steps. Then the family checks what the device shows. When a step
 * fails, or the device shows something else, every object is put back to the value read
 * at the start, in the order the family gives, and the error says whether that took.
 */
import { DeviceMismatch, DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable } from "../../model/failures";
import type { Varbind } from "./net-snmp-api";
import { SetRefused, type SnmpSession } from "./session";
import { compare as compareWrite, toVarbinds, type Write } from "./verified-write";

/** error-statuses after which the steps, one PDU each, may still succeed */
const RETRY_IN_STEPS = new Set([
  "inconsistentValue",
  "inconsistentName",
  "noCreation",
  "wrongValue",
  "genErr",
  "commitFailed",
  "undoFailed",
  "resourceUnavailable",
  "tooBig",
]);

export interface Step {
  /** what the step does, for messages ("making the port a trunk") */
  label: string;
  writes: Write[];
}

export interface SteppedChange {
  /** the change in words, for messages ("the trunk change of interface 10101") */
  what: string;
  /** the one PDU tried first */
  combined: Write[];
  /** the same change as separate PDUs, tried when the combined one is refused */
  steps: Step[];
  /** the values read at the start, in the order they are put back */
  originals: Write[];
  /** what the device shows that differs from what the change wanted ([] when it took) */
  verify: () => Promise<string[]>;
  /** how an original compares with what the device shows (default: the value exactly) */
  compare?: (write: Write, vb: Varbind | null) => string | null;
}

export async function writeInSteps(session: SnmpSession, change: SteppedChange): Promise<void> {
  if (change.combined.length === 0) return;
  try {
    await session.set(toVarbinds(change.combined));
  } catch (error) {
    if (!(error instanceof SetRefused) || !RETRY_IN_STEPS.has(error.status) || change.steps.length < 2) throw error;
    await runSteps(session, change, error);
  }
  const problems = await change.verify();
  if (problems.length === 0) return;
  const restored = await restore(session, change);
  const message = `${session.where} accepted ${change.what} but reads back otherwise: ${problems.join("; ")}; ${restored.text}`;
  throw restored.unknown ? new DeviceOutcomeUnknown(message) : new DeviceMismatch(message);
}

async function runSteps(session: SnmpSession, change: SteppedChange, firstRefusal: SetRefused): Promise<void> {
  for (let i = 0; i < change.steps.length; i++) {
    const step = change.steps[i];
    try {
      await session.set(toVarbinds(step.writes));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const restored = i === 0 ? { text: "nothing was changed", unknown: false } : await restore(session, change);
      const message = `${firstRefusal.message}; trying step by step, ${step.label} failed: ${reason}; ${restored.text}`;
      if (error instanceof DeviceOutcomeUnknown || restored.unknown) throw new DeviceOutcomeUnknown(message);
      throw error instanceof DeviceUnreachable ? new DeviceUnreachable(message) : new DeviceRefused(message);
    }
  }
}

/**
 * Every original back, one PDU per object in the given order, writing only what differs
 * at that moment; a refused write does not stop the others. The final read decides what
 * the message says.
 */
async function restore(session: SnmpSession, change: SteppedChange): Promise<{ text: string; unknown: boolean }> {
  const compare = change.compare ?? compareWrite;
  const differences = async (writes: Write[]): Promise<string[]> => {
    const values = await session.get(writes.map((w) => w.oid));
    return writes.flatMap((w) => compare(w, values.get(w.oid) ?? null) ?? []);
  };
  const refusals: string[] = [];
  try {
    for (const w of change.originals) {
      if ((await differences([w])).length === 0) continue;
      try {
        await session.set(toVarbinds([w]));
      } catch (error) {
        if (!(error instanceof DeviceRefused)) throw error;
        refusals.push(error.message);
      }
    }
    const left = change.originals.length ? await differences(change.originals) : [];
    if (left.length === 0) return { text: "the earlier values were restored", unknown: false };
    const why = refusals.length ? ` (${refusals.join("; ")})` : "";
    return {
      text: `restoring the earlier values did not take, the port is left with ${left.join("; ")}${why}`,
      unknown: false,
    };
  } catch (error) {
    const unknown = error instanceof DeviceOutcomeUnknown || error instanceof DeviceUnreachable;
    return {
      text: `restoring the earlier values failed: ${error instanceof Error ? error.message : String(error)}`,
      unknown,
    };
  }
}
