/**
 * Trunk changes on HPE Comware over SNMP (Driver.setTags), the way the reference tool
 * drives Comware, in an order that never leaves the port cut off:
 *
 *  - to a trunk: hh3cifVLANType trunk(1) (on an access port), dot1qPvid the native VLAN
 *    (a port made a trunk starts with PVID 1), then the permitted VLANs,
 *    hh3cifVLANTrunkAllowListLow (VLANs 1..2048) and ...High (2049..4094), with the native
 *    VLAN permitted too (Comware drops untagged frames of a PVID it does not permit); all
 *    in one PDU, so the port goes from its access VLAN to the finished trunk at once (a
 *    Comware access port takes no trunk settings beforehand). On a live trunk whose native
 *    VLAN changes, the steps permit the new VLANs with the old native kept, move the PVID,
 *    then drop the old one.
 *  - to an access port: hh3cifVLANType access(2) and the port added to the access VLAN's
 *    hh3cdot1qVlanPorts (which moves an access port) in one PDU.
 *
 * Read back: the link type, the PVID, and the permitted VLANs over the switch's VLANs (or
 * the port in the access VLAN's list); a difference puts everything back
 * (stepped-write.ts). Hybrid and fabric ports are not changed.
 */
import { hh3cIf, hh3cVlan } from "../../../mib/comware";
import { qbridge } from "../../../mib/oids";
import { hasPort, withPort } from "../../../mib/portlist";
import type { TagChange } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { ObjectType, type Varbind } from "../../snmp/net-snmp-api";
import type { SnmpSession } from "../../snmp/session";
import { writeInSteps, type Step } from "../../snmp/stepped-write";
import { unknownVlans } from "../../tag-change";
import { asBytes, asInt } from "../../snmp/varbind-values";
import { compare, gaugeWrite, intWrite, portListWrite, type Write } from "../../snmp/verified-write";

/** hh3cifVLANType values */
const TYPE = { trunk: 1, access: 2, hybrid: 3, fabric: 4 } as const;
const TYPE_NAMES: Record<number, string> = { 1: "trunk", 2: "access", 3: "hybrid", 4: "fabric" };

/** What a trunk change needs of the port, as read with the interface. */
export interface ComwarePortState {
  ifIndex: number;
  bridgePort: number;
  pvid: number;
  /** hh3cifVLANType, null when the agent has none */
  linkType: number | null;
  /** hh3cifVLANTrunkAllowListLow/High (trunk and hybrid ports only) */
  allowLow: Buffer | null;
  allowHigh: Buffer | null;
  /** hh3cdot1qVlanPorts per VLAN */
  vlanPorts: Map<number, Buffer>;
  /** the switch's VLANs */
  known: number[];
}

/** VLANs from..from+2047 as a 256-octet allow list (the lowest VLAN of an octet in its least significant bit) */
export function allowList(vlans: ReadonlySet<number> | "all", from: number): Buffer {
  const out = Buffer.alloc(256);
  for (let i = 0; i < 2048; i++) {
    const v = from + i;
    if (v <= 4094 && (vlans === "all" || vlans.has(v))) out[i >> 3] |= 1 << (i & 7);
  }
  return out;
}

/** the VLAN ids an allow list starting at `from` holds */
export function allowedIn(list: Buffer | null, from: number): number[] {
  const out: number[] = [];
  if (!list) return out;
  for (let octet = 0; octet < Math.min(list.length, 256); octet++) {
    if (list[octet] === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (list[octet] & (1 << bit)) out.push(from + octet * 8 + bit);
  }
  return out;
}

const list = (vlans: number[]) => (vlans.length ? vlans.join(",") : "none");

export async function setComwareTags(session: SnmpSession, port: ComwarePortState, change: TagChange): Promise<void> {
  const where = `${session.where}: port ${port.ifIndex}`;
  if (port.linkType === null)
    throw new NotSupported(`${where} shows no hh3cifVLANType: its link type cannot be changed over SNMP`);
  if (port.linkType !== TYPE.trunk && port.linkType !== TYPE.access)
    throw new NotSupported(
      `${where} is a ${TYPE_NAMES[port.linkType] ?? port.linkType} port (hh3cifVLANType); only access and trunk ports are changed`,
    );
  const unknown = unknownVlans(port.known, change);
  if (unknown.length > 0)
    throw new NotSupported(`${session.where} has no vlan ${unknown.join(", ")}; nothing was changed`);
  if (change.tagged.length === 0 && !change.allowAll) await toAccessPort(session, port, change.untagged);
  else await toTrunk(session, port, change);
}

async function toAccessPort(session: SnmpSession, port: ComwarePortState, vlan: number): Promise<void> {
  const bp = port.bridgePort;
  const typeOid = `${hh3cIf.hh3cifVLANType}.${port.ifIndex}`;
  const portsOid = (v: number) => `${hh3cVlan.hh3cdot1qVlanPorts}.${v}`;
  const pvidOid = `${qbridge.dot1qPvid}.${bp}`;
  const target = port.vlanPorts.get(vlan);
  if (!target) throw new NotSupported(`${session.where} shows no hh3cdot1qVlanPorts for vlan ${vlan}`);
  const trunk = port.linkType === TYPE.trunk;

  const steps: Step[] = [];
  if (trunk) steps.push({ label: "making it an access port", writes: [intWrite(typeOid, TYPE.access)] });
  steps.push({
    label: `adding it to vlan ${vlan}`,
    writes: [portListWrite(portsOid(vlan), withPort(target, bp, true))],
  });
  const originals: Write[] = trunk
    ? [
        intWrite(typeOid, TYPE.trunk),
        ...allowWrites(port, port.allowLow, port.allowHigh),
        gaugeWrite(pvidOid, port.pvid),
      ]
    : (() => {
        const old = port.vlanPorts.get(port.pvid);
        return old && port.pvid !== vlan ? [portListWrite(portsOid(port.pvid), old)] : [];
      })();
  await writeInSteps(session, {
    what: `the change of port ${port.ifIndex} to an access port in vlan ${vlan}`,
    combined: steps.flatMap((s) => s.writes),
    steps,
    originals,
    verify: async () => {
      const values = await session.get([typeOid, pvidOid, portsOid(vlan)]);
      const problems: string[] = [];
      const type = values.get(typeOid);
      if (!type || asInt(type) !== TYPE.access)
        problems.push(
          `hh3cifVLANType.${port.ifIndex} reads ${type ? (TYPE_NAMES[asInt(type)] ?? asInt(type)) : "nothing"}, not access`,
        );
      const pvid = values.get(pvidOid);
      if (!pvid || asInt(pvid) !== vlan)
        problems.push(`dot1qPvid.${bp} reads ${pvid ? asInt(pvid) : "nothing"}, not ${vlan}`);
      const members = values.get(portsOid(vlan));
      if (!members || !hasPort(asBytes(members), bp))
        problems.push(`hh3cdot1qVlanPorts.${vlan} does not hold port ${bp}`);
      return problems;
    },
  });
}

/** the allow list writes (low, high) putting back `low` and `high` where read */
function allowWrites(port: ComwarePortState, low: Buffer | null, high: Buffer | null): Write[] {
  return [
    ...(low ? [octets(`${hh3cIf.hh3cifVLANTrunkAllowListLow}.${port.ifIndex}`, low)] : []),
    ...(high ? [octets(`${hh3cIf.hh3cifVLANTrunkAllowListHigh}.${port.ifIndex}`, high)] : []),
  ];
}

const octets = (oid: string, value: Buffer): Write => ({ oid, type: ObjectType.OctetString, value });

async function toTrunk(session: SnmpSession, port: ComwarePortState, change: TagChange): Promise<void> {
  const bp = port.bridgePort;
  const native = change.untagged;
  const typeOid = `${hh3cIf.hh3cifVLANType}.${port.ifIndex}`;
  const lowOid = `${hh3cIf.hh3cifVLANTrunkAllowListLow}.${port.ifIndex}`;
  const highOid = `${hh3cIf.hh3cifVLANTrunkAllowListHigh}.${port.ifIndex}`;
  const pvidOid = `${qbridge.dot1qPvid}.${bp}`;
  const listed = new Set([...change.tagged, native]);
  const wanted: ReadonlySet<number> | "all" = change.allowAll ? "all" : listed;
  const trunk = port.linkType === TYPE.trunk;
  const known = new Set(port.known);
  const carriedOf = (vlans: number[]) => vlans.filter((v) => known.has(v));
  const permitted = (low: Buffer | null, high: Buffer | null) =>
    carriedOf([...allowedIn(low, 1), ...allowedIn(high, 2049)]);
  /** the allow list writes making the permitted VLANs `vlans`, where they differ from `low`/`high` */
  const permit = (vlans: ReadonlySet<number> | "all", low: Buffer | null, high: Buffer | null): Write[] => {
    const [l, h] = [allowList(vlans, 1), allowList(vlans, 2049)];
    const same = (a: Buffer | null, b: Buffer, from: number) =>
      a !== null && allowedIn(a, from).join() === allowedIn(b, from).join();
    return [...(same(low, l, 1) ? [] : [octets(lowOid, l)]), ...(same(high, h, 2049) ? [] : [octets(highOid, h)])];
  };
  const pvidWrites = !trunk || native !== port.pvid ? [gaugeWrite(pvidOid, native)] : [];

  const steps: Step[] = [];
  let combined: Write[];
  let originals: Write[];
  if (!trunk) {
    // a Comware access port takes no trunk settings: the link type first, the rest in the same PDU
    steps.push({ label: "making it a trunk", writes: [intWrite(typeOid, TYPE.trunk)] });
    steps.push({ label: `setting its PVID to ${native}`, writes: pvidWrites });
    steps.push({ label: "setting the permitted VLANs", writes: permit(wanted, null, null) });
    combined = steps.flatMap((s) => s.writes);
    const old = port.vlanPorts.get(port.pvid);
    originals = [
      intWrite(typeOid, TYPE.access),
      ...(old && hasPort(old, bp) ? [portListWrite(`${hh3cVlan.hh3cdot1qVlanPorts}.${port.pvid}`, old)] : []),
    ];
  } else {
    const keepOld = pvidWrites.length > 0 && !change.allowAll && !listed.has(port.pvid);
    const withOld = new Set([...listed, port.pvid]);
    // the steps: the VLANs permitted before the PVID moves (the new one permitted, the old
    // one kept until it is the PVID no more), what is not wanted dropped after it
    if (keepOld) {
      const first = permit(withOld, port.allowLow, port.allowHigh);
      if (first.length) steps.push({ label: `permitting the VLANs (vlan ${port.pvid} kept for now)`, writes: first });
      steps.push({ label: `setting its PVID to ${native}`, writes: pvidWrites });
      const rest = permit(wanted, allowList(withOld, 1), allowList(withOld, 2049));
      if (rest.length) steps.push({ label: "setting the permitted VLANs", writes: rest });
    } else {
      const allow = permit(wanted, port.allowLow, port.allowHigh);
      if (allow.length) steps.push({ label: "setting the permitted VLANs", writes: allow });
      if (pvidWrites.length) steps.push({ label: `setting its PVID to ${native}`, writes: pvidWrites });
    }
    combined = [...pvidWrites, ...permit(wanted, port.allowLow, port.allowHigh)];
    originals = [
      ...allowWrites(port, port.allowLow, port.allowHigh),
      ...(pvidWrites.length ? [gaugeWrite(pvidOid, port.pvid)] : []),
    ];
  }

  const want = change.allowAll ? port.known : carriedOf([...listed].sort((a, b) => a - b));
  await writeInSteps(session, {
    what: `the trunk change of port ${port.ifIndex}`,
    combined,
    steps: steps.filter((s) => s.writes.length > 0),
    originals,
    // allow lists compare over the switch's VLANs, other objects exactly
    compare: (w: Write, vb: Varbind | null) => {
      if (!Buffer.isBuffer(w.value) || vb === null || (w.oid !== lowOid && w.oid !== highOid)) return compare(w, vb);
      const from = w.oid === lowOid ? 1 : 2049;
      const a = carriedOf(allowedIn(asBytes(vb), from));
      const b = carriedOf(allowedIn(w.value, from));
      return a.join() === b.join() ? null : `${w.oid}: permits vlans ${list(a)}, not ${list(b)}`;
    },
    verify: async () => {
      const values = await session.get([typeOid, pvidOid, lowOid, highOid]);
      const problems: string[] = [];
      const type = values.get(typeOid);
      if (!type || asInt(type) !== TYPE.trunk)
        problems.push(
          `hh3cifVLANType.${port.ifIndex} reads ${type ? (TYPE_NAMES[asInt(type)] ?? asInt(type)) : "nothing"}, not trunk`,
        );
      const pvid = values.get(pvidOid);
      if (!pvid || asInt(pvid) !== native)
        problems.push(`dot1qPvid.${bp} reads ${pvid ? asInt(pvid) : "nothing"}, not ${native}`);
      const low = values.get(lowOid);
      const high = values.get(highOid);
      const now = permitted(low ? asBytes(low) : null, high ? asBytes(high) : null);
      if (now.join() !== want.join())
        problems.push(`port ${port.ifIndex} permits vlans ${list(now)}, not ${list(want)}`);
      return problems;
    },
  });
}
