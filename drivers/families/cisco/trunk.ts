/**
 * Trunk changes on Cisco IOS / IOS-XE over SNMP (Driver.setTags), through CISCO-VTP-MIB's
 * vlanTrunkPortTable and CISCO-VLAN-MEMBERSHIP-MIB's vmVlan, in an order that never
 * leaves the port cut off:
 *
 *  - to a trunk: the native VLAN (vlanTrunkPortNativeVlan) and the allowed VLANs (the
 *    vlanTrunkPortVlansEnabled bitmaps, 2k/3k/4k where the agent has them; the native VLAN
 *    is always allowed, or its untagged frames would be dropped) are written first, with
 *    vlanTrunkPortSetSerialNo as the MIB asks; then, on a port that is no trunk yet, the
 *    encapsulation dot1Q where the port is set to another (negotiate is not allowed
 *    together with mode on), and last vlanTrunkPortDynamicState on(1): the port goes from
 *    its access VLAN to the finished trunk at once. IOS keeps trunk settings on an access
 *    port until it trunks, so this order is also the order of the steps below.
 *  - an existing trunk keeps its encapsulation; when its native VLAN changes and the old
 *    one is not wanted, the steps allow the new VLANs with the old native kept, move the
 *    native VLAN, then drop the old one.
 *  - to an access port: vlanTrunkPortDynamicState off(2) and vmVlan (which a trunk does not
 *    have until it is an access port) in one PDU.
 *
 * All of it goes as one SET PDU first; an agent that refuses it for a reason an order can
 * cure gets the steps (stepped-write.ts). Then the port is read again: its mode, native or
 * access VLAN, and the VLANs it allows, compared over the VLANs the switch has (an agent
 * may keep or drop bits of VLANs that do not exist). A difference puts everything back.
 */
import { vlanMembership, vtp } from "../../../mib/cisco";
import type { TagChange } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { ObjectType, type Varbind } from "../../snmp/net-snmp-api";
import type { SnmpSession } from "../../snmp/session";
import { writeInSteps, type Step } from "../../snmp/stepped-write";
import { unknownVlans } from "../../tag-change";
import { asBytes, asInt } from "../../snmp/varbind-values";
import { compare, intWrite, readBack, type Write } from "../../snmp/verified-write";

/** the allowed-VLAN bitmaps and the first VLAN each covers */
export const bitmapColumns: ReadonlyArray<[string, number]> = [
  [vtp.vlanTrunkPortVlansEnabled, 0],
  [vtp.vlanTrunkPortVlansEnabled2k, 1024],
  [vtp.vlanTrunkPortVlansEnabled3k, 2048],
  [vtp.vlanTrunkPortVlansEnabled4k, 3072],
];

/** VLAN ids set in the four bitmaps (bit 0 = the MSB of octet 0 = VLAN base) */
export function bitmapVlans(bitmaps: Array<Buffer | null>): number[] {
  const out: number[] = [];
  bitmapColumns.forEach(([, base], i) => {
    const bits = bitmaps[i];
    if (!bits) return;
    for (let octet = 0; octet < Math.min(bits.length, 128); octet++) {
      if (bits[octet] === 0) continue;
      for (let bit = 0; bit < 8; bit++) if (bits[octet] & (0x80 >> bit)) out.push(base + octet * 8 + bit);
    }
  });
  return out;
}

/** vlanTrunkPortDynamicState */
const STATE = { on: 1, off: 2, onNoNegotiate: 5 } as const;
const STATE_NAMES: Record<number, string> = { 1: "on", 2: "off", 3: "desirable", 4: "auto", 5: "onNoNegotiate" };
/** vlanTrunkPortEncapsulationType dot1Q */
const DOT1Q = 4;

/** What a trunk change needs of the port, as read with the interface. */
export interface CiscoPortState {
  ifIndex: number;
  /** vlanTrunkPortDynamicState, null when the port has no trunk row */
  dynamicState: number | null;
  /** vlanTrunkPortEncapsulationType */
  encapsulation: number | null;
  /** vlanTrunkPortNativeVlan */
  native: number | null;
  /** vmVlan: an access port's VLAN (trunks have none) */
  access: number | null;
  /** vlanTrunkPortVlansEnabled, ...2k, ...3k, ...4k (null where the agent has none) */
  bitmaps: Array<Buffer | null>;
  /** vlanTrunkPortSetSerialNo.0 */
  serial: number | null;
  /** the switch's VLANs (VTP, Ethernet) */
  known: number[];
}

/** The four 128-octet bitmaps allowing `vlans` (1..4094; "all": every one of them). */
export function allowedBitmaps(vlans: ReadonlySet<number> | "all"): Buffer[] {
  return bitmapColumns.map(([, base]) => {
    const out = Buffer.alloc(128);
    for (let i = 0; i < 1024; i++) {
      const v = base + i;
      if (v >= 1 && v <= 4094 && (vlans === "all" || vlans.has(v))) out[i >> 3] |= 0x80 >> (i & 7);
    }
    return out;
  });
}

const octetWrite = (oid: string, value: Buffer): Write => ({ oid, type: ObjectType.OctetString, value });
const sameBits = (a: Buffer | null, b: Buffer) => a !== null && bitmapVlans([a]).join() === bitmapVlans([b]).join();
const list = (vlans: number[]) => (vlans.length ? vlans.join(",") : "none");

export async function setCiscoTags(session: SnmpSession, port: CiscoPortState, change: TagChange): Promise<void> {
  if (port.dynamicState === null)
    throw new NotSupported(`${session.where}: interface ${port.ifIndex} has no vlanTrunkPortTable row`);
  const unknown = unknownVlans(port.known, change);
  if (unknown.length > 0)
    throw new NotSupported(`${session.where} has no vlan ${unknown.join(", ")} (VTP); nothing was changed`);
  const toAccess = change.tagged.length === 0 && !change.allowAll;
  if (toAccess) await toAccessPort(session, port, change.untagged);
  else await toTrunk(session, port, change);
}

async function toAccessPort(session: SnmpSession, port: CiscoPortState, vlan: number): Promise<void> {
  const at = (oid: string) => `${oid}.${port.ifIndex}`;
  const state = port.dynamicState!;
  const steps: Step[] = [];
  const originals: Write[] = [];
  if (port.access !== null) originals.push(intWrite(at(vlanMembership.vmVlan), port.access));
  if (state !== STATE.off) {
    steps.push({ label: "making it an access port", writes: [intWrite(at(vtp.vlanTrunkPortDynamicState), STATE.off)] });
    originals.push(intWrite(at(vtp.vlanTrunkPortDynamicState), state));
  }
  steps.push({ label: `setting its access VLAN to ${vlan}`, writes: [intWrite(at(vlanMembership.vmVlan), vlan)] });
  const combined = steps.flatMap((s) => s.writes);
  await writeInSteps(session, {
    what: `the change of interface ${port.ifIndex} to an access port in vlan ${vlan}`,
    combined,
    steps,
    originals,
    verify: () => readBack(session, combined),
  });
}

async function toTrunk(session: SnmpSession, port: CiscoPortState, change: TagChange): Promise<void> {
  const at = (oid: string) => `${oid}.${port.ifIndex}`;
  const native = change.untagged;
  const listed = new Set([...change.tagged, native]);
  const wanted: ReadonlySet<number> | "all" = change.allowAll ? "all" : listed;
  const state = port.dynamicState!;
  const trunk = state === STATE.on || state === STATE.onNoNegotiate;

  const present = port.bitmaps.map((b) => b !== null);
  if (!present[0])
    throw new NotSupported(`${session.where}: interface ${port.ifIndex} has no vlanTrunkPortVlansEnabled`);
  // VLANs from 1024 up need the 2k/3k/4k columns, which older agents do not have
  const need = change.allowAll ? port.known : [...listed];
  const missing = bitmapColumns.filter(([, base], i) => !present[i] && need.some((v) => v >= base && v < base + 1024));
  if (missing.length > 0)
    throw new NotSupported(
      `${session.where} has no vlanTrunkPortVlansEnabled${missing.map(([, b]) => `${b / 1024 + 1}k`).join("/")} for interface ${port.ifIndex}: VLANs from ${missing[0][1]} up cannot be allowed over SNMP`,
    );

  let serial = port.serial;
  /** the bitmap writes that make the allowed VLANs `vlans`, with the serial number they need */
  const bitmapWrites = (vlans: ReadonlySet<number> | "all", current: Array<Buffer | null>): Write[] => {
    const blocks = allowedBitmaps(vlans);
    const writes = bitmapColumns.flatMap(([column], i) =>
      present[i] && !sameBits(current[i], blocks[i]) ? [octetWrite(at(column), blocks[i])] : [],
    );
    if (writes.length > 0 && serial !== null) {
      writes.push(intWrite(`${vtp.vlanTrunkPortSetSerialNo}.0`, serial));
      serial = (serial + 1) % 2147483648;
    }
    return writes;
  };
  const nativeWrites = native !== port.native ? [intWrite(at(vtp.vlanTrunkPortNativeVlan), native)] : [];
  const finalBlocks = allowedBitmaps(wanted);

  const steps: Step[] = [];
  let combined: Write[];
  if (trunk) {
    const oldNative = port.native;
    const keepOld = nativeWrites.length > 0 && oldNative !== null && !change.allowAll && !listed.has(oldNative);
    const withOld = new Set([...listed, oldNative ?? native]);
    // the steps: the VLANs allowed before the native VLAN moves (the new one allowed, the old
    // one kept until it is native no more), what is not wanted dropped after it
    if (keepOld) {
      const first = bitmapWrites(withOld, port.bitmaps);
      if (first.length) steps.push({ label: `allowing the VLANs (vlan ${oldNative} kept for now)`, writes: first });
      steps.push({ label: `setting its native VLAN to ${native}`, writes: nativeWrites });
      const rest = bitmapWrites(wanted, first.length ? allowedBitmaps(withOld) : port.bitmaps);
      if (rest.length) steps.push({ label: "setting the allowed VLANs", writes: rest });
    } else {
      const allow = bitmapWrites(wanted, port.bitmaps);
      if (allow.length) steps.push({ label: "setting the allowed VLANs", writes: allow });
      if (nativeWrites.length) steps.push({ label: `setting its native VLAN to ${native}`, writes: nativeWrites });
    }
    // one PDU: the allowed VLANs as wanted and the native VLAN together
    serial = port.serial;
    combined = [...bitmapWrites(wanted, port.bitmaps), ...nativeWrites];
  } else {
    if (nativeWrites.length) steps.push({ label: `setting its native VLAN to ${native}`, writes: nativeWrites });
    const allow = bitmapWrites(wanted, port.bitmaps);
    if (allow.length) steps.push({ label: "setting the allowed VLANs", writes: allow });
    if (port.encapsulation !== null && port.encapsulation !== DOT1Q)
      steps.push({
        label: "setting its trunk encapsulation to dot1Q",
        writes: [intWrite(at(vtp.vlanTrunkPortEncapsulationType), DOT1Q)],
      });
    steps.push({ label: "making it a trunk", writes: [intWrite(at(vtp.vlanTrunkPortDynamicState), STATE.on)] });
    combined = steps.flatMap((s) => s.writes);
  }

  // put back: the allowed VLANs and native VLAN (kept by an access port too), then the mode,
  // the access VLAN, the encapsulation (which mode on does not allow to be negotiate)
  const originals: Write[] = [];
  bitmapColumns.forEach(([column], i) => {
    const before = port.bitmaps[i];
    if (before && !sameBits(before, finalBlocks[i])) originals.push(octetWrite(at(column), before));
  });
  if (nativeWrites.length && port.native !== null)
    originals.push(intWrite(at(vtp.vlanTrunkPortNativeVlan), port.native));
  if (!trunk) {
    originals.push(intWrite(at(vtp.vlanTrunkPortDynamicState), state));
    if (port.access !== null) originals.push(intWrite(at(vlanMembership.vmVlan), port.access));
    if (port.encapsulation !== null && port.encapsulation !== DOT1Q)
      originals.push(intWrite(at(vtp.vlanTrunkPortEncapsulationType), port.encapsulation));
  }

  const known = new Set(port.known);
  const carriedOf = (vlans: number[]) => vlans.filter((v) => known.has(v));
  const want = change.allowAll ? port.known : carriedOf([...listed].sort((a, b) => a - b));

  await writeInSteps(session, {
    what: `the trunk change of interface ${port.ifIndex}`,
    combined,
    steps,
    originals,
    // bitmaps compare over the switch's VLANs, other objects exactly
    compare: (w: Write, vb: Varbind | null) => {
      if (!Buffer.isBuffer(w.value) || vb === null) return compare(w, vb);
      const a = carriedOf(bitmapVlans([asBytes(vb)]));
      const b = carriedOf(bitmapVlans([w.value]));
      return a.join() === b.join() ? null : `${w.oid}: allows vlans ${list(a)}, not ${list(b)}`;
    },
    verify: async () => {
      const oids = [
        at(vtp.vlanTrunkPortDynamicState),
        at(vtp.vlanTrunkPortNativeVlan),
        ...bitmapColumns.filter((_, i) => present[i]).map(([c]) => at(c)),
      ];
      const values = await session.get(oids);
      const problems: string[] = [];
      const mode = values.get(oids[0]);
      const modeNow = mode ? asInt(mode) : null;
      if (modeNow !== STATE.on && modeNow !== STATE.onNoNegotiate)
        problems.push(
          `vlanTrunkPortDynamicState.${port.ifIndex} reads ${modeNow === null ? "nothing" : (STATE_NAMES[modeNow] ?? modeNow)}, not on`,
        );
      const nativeNow = values.get(oids[1]);
      if (!nativeNow || asInt(nativeNow) !== native)
        problems.push(
          `vlanTrunkPortNativeVlan.${port.ifIndex} reads ${nativeNow ? asInt(nativeNow) : "nothing"}, not ${native}`,
        );
      const blocks = bitmapColumns.map(([c], i) => {
        const vb = present[i] ? values.get(at(c)) : null;
        return vb ? asBytes(vb) : null;
      });
      const allowed = carriedOf(bitmapVlans(blocks));
      if (allowed.join() !== want.join())
        problems.push(`interface ${port.ifIndex} allows vlans ${list(allowed)}, not ${list(want)}`);
      return problems;
    },
  });
}
