/**
 * A trunk change the Q-BRIDGE way (RFC 4363): the port's native VLAN is its PVID and an
 * untagged member of that VLAN; its tagged VLANs are the VLANs whose static egress
 * PortList holds the port without the untagged one. An access port is the same with no
 * tagged VLAN. The change writes dot1qPvid, dot1qVlanStaticEgressPorts and
 * dot1qVlanStaticUntaggedPorts of the VLANs whose membership of the port changes, each
 * bitmap as read with the interface view with only this port's bit changed.
 *
 * Make before break, so the port is never left without the VLANs it should carry (the
 * management path may run through it; docs/api-decisions.md, "Trunk ports"):
 *
 *   1. the port joins the egress lists of the VLANs it gains (the new native included)
 *   2. it becomes an untagged member of the native VLAN, and the PVID moves there
 *   3. it leaves the untagged lists of every other VLAN
 *   4. the egress lists of VLANs that stay, now tagged, are written again (an agent that
 *      moves an access port's memberships by itself drops the old VLAN in step 2)
 *   5. it leaves the egress lists of the VLANs it no longer carries
 *
 * All of it goes in one SET PDU in that order when it is small enough; an agent that
 * refuses the combined PDU for consistency reasons, or a change too large for one PDU,
 * gets the steps as separate PDUs (a large step in parts). Everything written is read
 * back; when a step fails or the device shows something else, every object involved is
 * put back to the value read at the start (qbridge-untagged.ts restore()).
 */
import { qbridge } from "../../../mib/oids";
import { hasPort, withPort } from "../../../mib/portlist";
import type { TagChange } from "../../../model/device";
import { DeviceMismatch, DeviceOutcomeUnknown, NotSupported } from "../../../model/failures";
import { SetRefused, type SnmpSession } from "../session";
import { gaugeWrite, portListWrite, readBack, toVarbinds, type Write } from "../verified-write";
import { keepWritten, ORDER_SENSITIVE, restore, runSteps, type PortVlanState, type Step } from "./qbridge-untagged";

/** varbinds in one SET (and objects in one read-back GET): a few dozen PortLists fit any agent's message */
const MAX_VARBINDS = 16;

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The writes of one trunk change and the values to put back, in the order of the file comment. */
export interface TagPlan {
  steps: Step[];
  /** the values read at the start, in an order that keeps untagged within egress at every step */
  originals: Write[];
}

export function planTagChange(where: string, port: number, change: TagChange, state: PortVlanState): TagPlan {
  if (state.pvid === null) throw new NotSupported(`${where} has no dot1qPvid for bridge port ${port}`);
  if (state.staticMembers.size === 0)
    throw new NotSupported(
      `${where} serves no dot1qVlanStaticEgressPorts: the VLAN memberships of its ports cannot be written over SNMP`,
    );
  const egress = (v: number) => `${qbridge.dot1qVlanStaticEgressPorts}.${v}`;
  const untagged = (v: number) => `${qbridge.dot1qVlanStaticUntaggedPorts}.${v}`;
  const native = change.untagged;
  const oldPvid = state.pvid;
  const wanted = new Set(change.tagged.filter((v) => v !== native));
  const bitmaps = (v: number) => state.staticMembers.get(v) ?? { egress: null, untagged: null };
  for (const v of [native, ...wanted]) {
    if (!bitmaps(v).egress)
      throw new NotSupported(`${where} has no dot1qVlanStaticEgressPorts for vlan ${v}: it cannot be put on a port`);
  }

  const vlans = [...new Set([...state.staticMembers.keys(), native, ...wanted])].sort((a, b) => a - b);
  const isIn = (list: Buffer | null) => list !== null && hasPort(list, port);
  const make: Write[] = [];
  const toNative: Write[] = [];
  const leaveUntagged: Write[] = [];
  const keepTagged: Write[] = [];
  const leave: Write[] = [];
  /** the VLANs whose egress / untagged list is written, for the way back */
  const egressWritten = new Set<number>();
  const untaggedWritten = new Set<number>();
  const writeEgress = (to: Write[], v: number, list: Buffer, member: boolean) => {
    to.push(portListWrite(egress(v), withPort(list, port, member)));
    egressWritten.add(v);
  };
  const writeUntagged = (to: Write[], v: number, list: Buffer, member: boolean) => {
    to.push(portListWrite(untagged(v), withPort(list, port, member)));
    untaggedWritten.add(v);
  };

  for (const v of vlans) {
    const { egress: e, untagged: u } = bitmaps(v);
    const carries = v === native || wanted.has(v);
    if (v === native) {
      if (e && !isIn(e)) writeEgress(make, v, e, true);
      if (u && !isIn(u)) writeUntagged(toNative, v, u, true);
      continue;
    }
    // the old PVID's VLAN, or one the port was (wrongly) untagged in: its egress is written
    // again after the native moved when the port keeps it tagged
    const wasUntagged = v === oldPvid || isIn(u);
    if (u && isIn(u)) writeUntagged(leaveUntagged, v, u, false);
    if (!e) continue;
    if (carries && wasUntagged) writeEgress(keepTagged, v, e, true);
    else if (carries && !isIn(e)) writeEgress(make, v, e, true);
    else if (!carries && isIn(e)) writeEgress(leave, v, e, false);
  }
  if (native !== oldPvid) toNative.push(gaugeWrite(`${qbridge.dot1qPvid}.${port}`, native));

  const steps: Step[] = [];
  const add = (label: string, writes: Write[]) => {
    const parts = chunks(writes, MAX_VARBINDS);
    parts.forEach((p, i) => steps.push({ label: parts.length > 1 ? `${label} (part ${i + 1})` : label, writes: p }));
  };
  add(`adding port ${port} to the egress lists of the vlans it gains`, make);
  add(`making vlan ${native} the native (untagged) vlan of port ${port}`, toNative);
  add(`taking port ${port} out of the untagged lists of other vlans`, leaveUntagged);
  add(`keeping port ${port} in the egress lists of the vlans it keeps tagged`, keepTagged);
  add(`removing port ${port} from the egress lists of the vlans it leaves`, leave);

  // back: into every egress and untagged list it was in, the PVID, then out of the ones it gained
  const was = (list: Buffer | null, v: number, written: Set<number>) => list !== null && written.has(v) && isIn(list);
  const wasNot = (list: Buffer | null, v: number, written: Set<number>) =>
    list !== null && written.has(v) && !isIn(list);
  const original = (v: number, column: "egress" | "untagged") =>
    portListWrite(column === "egress" ? egress(v) : untagged(v), bitmaps(v)[column]!);
  const originals: Write[] = [
    ...vlans.filter((v) => was(bitmaps(v).egress, v, egressWritten)).map((v) => original(v, "egress")),
    ...vlans.filter((v) => was(bitmaps(v).untagged, v, untaggedWritten)).map((v) => original(v, "untagged")),
    gaugeWrite(`${qbridge.dot1qPvid}.${port}`, oldPvid),
    ...vlans.filter((v) => wasNot(bitmaps(v).untagged, v, untaggedWritten)).map((v) => original(v, "untagged")),
    ...vlans.filter((v) => wasNot(bitmaps(v).egress, v, egressWritten)).map((v) => original(v, "egress")),
  ];
  return { steps, originals };
}

/** Applies the change (the plan above), reads it back, and puts everything back when it does not hold. */
export async function changeTags(
  session: SnmpSession,
  port: number,
  change: TagChange,
  state: PortVlanState,
): Promise<void> {
  const { steps, originals } = planTagChange(session.where, port, change, state);
  const all = steps.flatMap((s) => s.writes);
  if (all.length === 0) return;
  if (all.length <= MAX_VARBINDS) {
    try {
      await session.set(toVarbinds(all));
    } catch (error) {
      if (!(error instanceof SetRefused) || !ORDER_SENSITIVE.has(error.status) || steps.length === 1) throw error;
      await runSteps(session, steps, originals, error);
    }
  } else {
    const tooLarge = new SetRefused(
      `${session.where}: the trunk change takes ${all.length} objects, more than one SET of ${MAX_VARBINDS}`,
      "tooBig",
    );
    await runSteps(session, steps, originals, tooLarge);
  }

  // deferred (a batch): the batch's one read at its end compares
  const problems: string[] = [];
  if (!session.deferReadBack)
    for (const part of chunks(all, MAX_VARBINDS)) problems.push(...(await readBack(session, part)));
  if (problems.length === 0) {
    keepWritten(state, all);
    return;
  }
  const restored = await restore(session, originals);
  const message = `${session.where} accepted the trunk change but reads back otherwise: ${problems.join("; ")}; ${restored.text}`;
  throw restored.unknown ? new DeviceOutcomeUnknown(message) : new DeviceMismatch(message);
}
