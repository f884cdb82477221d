/**
 * Changing a port's untagged VLAN the Q-BRIDGE way, so that the tables stay consistent:
 * dot1qPvid.<port> = new VLAN, the port added to the new VLAN's static egress and
 * untagged bitmaps, and removed from the old VLAN's (only when it was an untagged member
 * there: a tagged membership of the old VLAN stays). Tagged memberships of other VLANs
 * are not touched.
 *
 * All objects go in one SET PDU, ordered so that an agent applying them one by one never
 * sees an inconsistent state (add to new, move PVID, remove from old). An agent that
 * refuses the combined PDU for consistency reasons gets the same three steps as separate
 * PDUs; when a step fails, the steps already done are undone. Everything written is read
 * back; if the device shows something else, the earlier values are written back.
 */
import { qbridge } from "../../mib/oids";
import { DeviceMismatch, DeviceRefused, DeviceUnreachable, NotSupported } from "../types";
import { hasPort, withPort } from "../../mib/portlist";
import { SetRefused, type SnmpSession } from "./session";
import { asBytes, asInt } from "./values";
import { gaugeWrite, portListWrite, readBack, toVarbinds, type Write } from "./verified-write";

/** error-statuses after which the ordered steps may still succeed */
const ORDER_SENSITIVE = new Set(["inconsistentValue", "wrongValue", "genErr", "commitFailed", "undoFailed", "resourceUnavailable", "tooBig"]);

interface Step {
  label: string;
  writes: Write[];
  undo: Write[];
}

export async function changeUntaggedVlan(session: SnmpSession, port: number, vlan: number): Promise<void> {
  const pvidOid = `${qbridge.dot1qPvid}.${port}`;
  const egress = (v: number) => `${qbridge.dot1qVlanStaticEgressPorts}.${v}`;
  const untagged = (v: number) => `${qbridge.dot1qVlanStaticUntaggedPorts}.${v}`;

  const first = await session.get([pvidOid, egress(vlan), untagged(vlan)]);
  const pvid = first.get(pvidOid);
  if (!pvid) throw new NotSupported(`${session.where} has no dot1qPvid for bridge port ${port}`);
  const oldVlan = asInt(pvid);
  const old = oldVlan > 0 && oldVlan !== vlan ? await session.get([egress(oldVlan), untagged(oldVlan)]) : null;

  const steps: Step[] = [];
  const newEgress = first.get(egress(vlan));
  const newUntagged = first.get(untagged(vlan));
  const addWrites: Write[] = [];
  const addUndo: Write[] = [];
  if (newEgress) {
    addWrites.push(portListWrite(egress(vlan), withPort(asBytes(newEgress), port, true)));
    addUndo.push(portListWrite(egress(vlan), asBytes(newEgress)));
  }
  if (newUntagged) {
    addWrites.push(portListWrite(untagged(vlan), withPort(asBytes(newUntagged), port, true)));
    addUndo.push(portListWrite(untagged(vlan), asBytes(newUntagged)));
  }
  // undo runs in reverse: untagged before egress, as untagged must stay within egress
  if (addWrites.length) steps.push({ label: `adding port ${port} to vlan ${vlan}`, writes: addWrites, undo: addUndo.reverse() });
  steps.push({
    label: `setting the PVID of port ${port} to ${vlan}`,
    writes: [gaugeWrite(pvidOid, vlan)],
    undo: [gaugeWrite(pvidOid, oldVlan)],
  });

  if (old) {
    const oldEgress = old.get(egress(oldVlan));
    const oldUntagged = old.get(untagged(oldVlan));
    // without an untagged bitmap the port is taken to be an untagged member of its PVID's VLAN
    const wasUntagged = oldUntagged ? hasPort(asBytes(oldUntagged), port) : true;
    const removeWrites: Write[] = [];
    const removeUndo: Write[] = [];
    if (oldUntagged && wasUntagged) {
      removeWrites.push(portListWrite(untagged(oldVlan), withPort(asBytes(oldUntagged), port, false)));
      removeUndo.push(portListWrite(untagged(oldVlan), asBytes(oldUntagged)));
    }
    if (oldEgress && wasUntagged && hasPort(asBytes(oldEgress), port)) {
      removeWrites.push(portListWrite(egress(oldVlan), withPort(asBytes(oldEgress), port, false)));
      removeUndo.push(portListWrite(egress(oldVlan), asBytes(oldEgress)));
    }
    if (removeWrites.length) {
      steps.push({ label: `removing port ${port} from vlan ${oldVlan}`, writes: removeWrites, undo: removeUndo.reverse() });
    }
  }

  const all = steps.flatMap((s) => s.writes);
  try {
    await session.set(toVarbinds(all));
  } catch (error) {
    if (!(error instanceof SetRefused) || !ORDER_SENSITIVE.has(error.status) || steps.length === 1) throw error;
    await runSteps(session, steps, error);
  }

  const problems = await readBack(session, all);
  if (problems.length === 0) return;
  const restored = await undo(session, steps);
  throw new DeviceMismatch(`${session.where} accepted the vlan change but reads back otherwise: ${problems.join("; ")}; ${restored}`);
}

/** The steps as separate PDUs; on a failure the done ones are undone, in reverse. */
async function runSteps(session: SnmpSession, steps: Step[], firstRefusal: SetRefused): Promise<void> {
  for (let i = 0; i < steps.length; i++) {
    try {
      await session.set(toVarbinds(steps[i].writes));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const restored = i === 0 ? "nothing was changed" : await undo(session, steps.slice(0, i));
      const message =
        `${firstRefusal.message}; trying step by step, ${steps[i].label} failed: ${reason}; ${restored}`;
      throw error instanceof DeviceUnreachable ? new DeviceUnreachable(message) : new DeviceRefused(message);
    }
  }
}

/** Writes the earlier values back (last step first); says how that went. */
async function undo(session: SnmpSession, done: Step[]): Promise<string> {
  try {
    for (const step of [...done].reverse()) await session.set(toVarbinds(step.undo));
    const problems = await readBack(
      session,
      done.flatMap((s) => s.undo),
    );
    if (problems.length) return `restoring the earlier values did not take: ${problems.join("; ")}`;
    return "the earlier values were restored";
  } catch (error) {
    return `restoring the earlier values failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
