/**
 * Comware port VLANs: read through Q-BRIDGE (static table, PVIDs) like any switch, with
 * the HH3C tables beside it for what Q-BRIDGE does not say, and written the way Comware
 * takes it:
 *
 *  - a port's link type is HH3C-LswINF-MIB hh3cifVLANType: vLANTrunk(1), access(2),
 *    hybrid(3), fabric(4);
 *  - an access port's PVID follows its access VLAN: a dot1qPvid write alone is answered
 *    and changes nothing. It moves by adding it to the target VLAN's
 *    HH3C-LswVLAN-MIB hh3cdot1qVlanPorts (the switch takes it out of its old VLAN);
 *  - a trunk or hybrid port's PVID is dot1qPvid; the new VLAN must also be among the
 *    VLANs the port carries (hh3cifVLANTrunkAllowListLow for 1..2048, ...High for
 *    2049..4094: one bit per VLAN, the lowest VLAN of an octet in its least significant
 *    bit), so a VLAN it does not carry yet is allowed in the same PDU;
 *  - VLANs are created, renamed and deleted through hh3cdot1qVlanTable (its RowStatus
 *    and name); VLAN names come from there where Q-BRIDGE has none.
 *
 * Trunk changes (link type, PVID, allow lists) are in trunk.ts.
 *
 * Every change is read back (the PVID, the memberships written) and a difference is a
 * DeviceMismatch; an access move that reads back wrong is put back.
 */
import { hh3cIf, hh3cVlan } from "../../../mib/comware";
import { qbridge } from "../../../mib/oids";
import { hasPort, withPort } from "../../../mib/portlist";
import type { TagChange, VlanInfo } from "../../../model/device";
import { DeviceMismatch, NotSupported } from "../../../model/failures";
import { ObjectType } from "../../snmp/net-snmp-api";
import type { Plan, PortMap, PortVlans, Purpose, Tables, VlanPart } from "../../snmp/parts/part";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import type { SnmpSession } from "../../snmp/session";
import { asBytes, asInt, asText } from "../../snmp/varbind-values";
import { intWrite, textWrite, writeVerified } from "../../snmp/verified-write";
import { setComwareTags } from "./trunk";

/** hh3cifVLANType values */
export const LINK_TYPE = { trunk: 1, access: 2, hybrid: 3, fabric: 4 } as const;
const LINK_TYPE_NAMES: Record<number, string> = { 1: "trunk", 2: "access", 3: "hybrid", 4: "fabric" };

const VLAN_TABLE = "comware.vlanTable";
const PORT = "comware.port";

/** What a write needs beyond the Q-BRIDGE state, as read with the interface. */
interface ComwareWriteState {
  /** the Q-BRIDGE part's own state (used where the HH3C tables are absent) */
  qbridge: unknown;
  bridgePort: number | null;
  pvid: number;
  /** hh3cifVLANType, null when the agent has none for the port */
  linkType: number | null;
  /** hh3cifVLANTrunkAllowListLow/High, null when absent (access ports have none) */
  allowLow: Buffer | null;
  allowHigh: Buffer | null;
  /** hh3cdot1qVlanPorts per VLAN */
  vlanPorts: Map<number, Buffer>;
  /** the switch's VLAN ids */
  known: number[];
}

const columnOf = (tables: Tables, key: string, column: string) => tables.columns(key)?.get(column);

/** Is `vlan` set in an allow list (bit order of the MIB: least significant bit = lowest VLAN of an octet)? */
export function allowsVlan(list: Buffer, vlan: number): boolean {
  const i = (vlan - 1) % 2048;
  return i >> 3 < list.length && (list[i >> 3] & (1 << (i & 7))) !== 0;
}

/** The allow list with `vlan` added (256 octets at least). */
export function withVlan(list: Buffer, vlan: number): Buffer {
  const i = (vlan - 1) % 2048;
  const out = Buffer.alloc(Math.max(list.length, 256));
  list.copy(out);
  out[i >> 3] |= 1 << (i & 7);
  return out;
}

const allowListOf = (vlan: number) =>
  vlan <= 2048 ? hh3cIf.hh3cifVLANTrunkAllowListLow : hh3cIf.hh3cifVLANTrunkAllowListHigh;
const allowName = (vlan: number) => (vlan <= 2048 ? "hh3cifVLANTrunkAllowListLow" : "hh3cifVLANTrunkAllowListHigh");

export function comwareVlans(): VlanPart {
  const q = qBridgeVlans();

  return {
    reads(purpose: Purpose, ifIndex?: number): Plan {
      const plan: Plan = { ...q.reads(purpose, ifIndex) };
      if (purpose === "interface" && ifIndex !== undefined) {
        // the VLAN names, and the port lists an access move rewrites
        plan[VLAN_TABLE] = {
          label: "hh3cdot1qVlanTable",
          columns: [hh3cVlan.hh3cdot1qVlanName, hh3cVlan.hh3cdot1qVlanPorts],
          rows: 32,
        };
        plan[PORT] = {
          label: `hh3cifVLANType.${ifIndex}`,
          scalars: [
            `${hh3cIf.hh3cifVLANType}.${ifIndex}`,
            `${hh3cIf.hh3cifVLANTrunkAllowListLow}.${ifIndex}`,
            `${hh3cIf.hh3cifVLANTrunkAllowListHigh}.${ifIndex}`,
          ],
        };
      } else {
        plan[VLAN_TABLE] = { label: "hh3cdot1qVlanTable", columns: [hh3cVlan.hh3cdot1qVlanName], rows: 32 };
      }
      return plan;
    },

    more: (purpose, tables, ports, ifIndex) => q.more?.(purpose, tables, ports, ifIndex) ?? {},

    vlans(tables: Tables): VlanInfo[] {
      const vlans = q.vlans(tables);
      // some Comware releases leave dot1qVlanStaticName empty; the HH3C table has the name
      const names = columnOf(tables, VLAN_TABLE, hh3cVlan.hh3cdot1qVlanName);
      for (const v of vlans) {
        const name = names?.get(String(v.id));
        if (v.name === "" && name) v.name = asText(name);
      }
      return vlans;
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const base = q.ports(tables, ports, only);
      const vlanPorts = new Map<number, Buffer>();
      for (const [index, vb] of columnOf(tables, VLAN_TABLE, hh3cVlan.hh3cdot1qVlanPorts) ?? [])
        vlanPorts.set(Number(index), asBytes(vb));
      const port = tables.scalars(PORT);
      const known = q.vlans(tables).map((v) => v.id);
      const out = new Map<number, PortVlans>();
      for (const [ifIndex, facts] of base) {
        const at = (column: string) => port?.get(`${column}.${ifIndex}`) ?? null;
        const type = at(hh3cIf.hh3cifVLANType);
        const low = at(hh3cIf.hh3cifVLANTrunkAllowListLow);
        const high = at(hh3cIf.hh3cifVLANTrunkAllowListHigh);
        const qstate = facts.writeState as { bridgePort: number | null } | null;
        const state: ComwareWriteState = {
          qbridge: facts.writeState,
          bridgePort: qstate?.bridgePort ?? null,
          pvid: facts.untagged,
          linkType: type ? asInt(type) : null,
          allowLow: low ? asBytes(low) : null,
          allowHigh: high ? asBytes(high) : null,
          vlanPorts,
          known,
        };
        out.set(ifIndex, { ...facts, writeState: state });
      }
      return out;
    },

    async setUntagged(session: SnmpSession, ifIndex: number, port: PortVlans, vlan: number): Promise<void> {
      const state = port.writeState as ComwareWriteState;
      if (state.bridgePort === null) throw new TypeError("setUntagged of a port that is not a bridge port");
      if (state.linkType === LINK_TYPE.fabric)
        throw new NotSupported(
          `${session.where}: port ${ifIndex} is a fabric port (hh3cifVLANType fabric); its VLAN is not set over SNMP`,
        );
      if (state.linkType === LINK_TYPE.trunk || state.linkType === LINK_TYPE.hybrid)
        return setTrunkPvid(session, ifIndex, state, vlan);
      if (state.linkType === null && state.vlanPorts.size === 0) {
        // no HH3C tables at all: the standard way, read back like any Q-BRIDGE switch
        return q.setUntagged(session, ifIndex, { ...port, writeState: state.qbridge }, vlan);
      }
      return moveAccessPort(session, state, vlan);
    },

    async setTags(session: SnmpSession, ifIndex: number, port: PortVlans, change: TagChange): Promise<void> {
      const state = port.writeState as ComwareWriteState;
      if (state.bridgePort === null) throw new TypeError("setTags of a port that is not a bridge port");
      await setComwareTags(session, { ...state, ifIndex, bridgePort: state.bridgePort }, change);
    },

    async createVlan(session: SnmpSession, id: number, name: string): Promise<void> {
      // createAndGo(4) reads back as active(1)
      await writeVerified(session, [
        intWrite(`${hh3cVlan.hh3cdot1qVlanRowStatus}.${id}`, 4, 1),
        textWrite(`${hh3cVlan.hh3cdot1qVlanName}.${id}`, name),
      ]);
    },

    async renameVlan(session: SnmpSession, id: number, name: string): Promise<void> {
      await writeVerified(session, [textWrite(`${hh3cVlan.hh3cdot1qVlanName}.${id}`, name)]);
    },

    async deleteVlan(session: SnmpSession, id: number): Promise<void> {
      await writeVerified(session, [intWrite(`${hh3cVlan.hh3cdot1qVlanRowStatus}.${id}`, 6, "absent")]);
    },
  };
}

/**
 * An access port joins the target VLAN's hh3cdot1qVlanPorts; the switch moves it out of
 * its old VLAN and its PVID follows. Read back: the PVID, and the port in the new VLAN's
 * list and out of the old one's. On a difference the old VLAN's list is written back.
 */
async function moveAccessPort(session: SnmpSession, state: ComwareWriteState, vlan: number): Promise<void> {
  const bp = state.bridgePort!;
  const target = state.vlanPorts.get(vlan);
  if (!target) throw new NotSupported(`${session.where} shows no hh3cdot1qVlanPorts for vlan ${vlan}`);
  const old = state.pvid;
  const portsOid = (v: number) => `${hh3cVlan.hh3cdot1qVlanPorts}.${v}`;
  const pvidOid = `${qbridge.dot1qPvid}.${bp}`;

  await session.set([{ oid: portsOid(vlan), type: ObjectType.OctetString, value: withPort(target, bp, true) }]);

  const check = async (): Promise<string[]> => {
    const oids = [pvidOid, portsOid(vlan), ...(old > 0 && old !== vlan ? [portsOid(old)] : [])];
    const values = await session.get(oids);
    const problems: string[] = [];
    const pvid = values.get(pvidOid);
    if (!pvid || asInt(pvid) !== vlan)
      problems.push(`dot1qPvid.${bp} reads ${pvid ? asInt(pvid) : "nothing"}, not ${vlan}`);
    const now = values.get(portsOid(vlan));
    if (!now || !hasPort(asBytes(now), bp)) problems.push(`hh3cdot1qVlanPorts.${vlan} does not hold port ${bp}`);
    const before = oids.length > 2 ? values.get(portsOid(old)) : null;
    if (before && hasPort(asBytes(before), bp)) problems.push(`hh3cdot1qVlanPorts.${old} still holds port ${bp}`);
    return problems;
  };
  const problems = await check();
  if (problems.length === 0) return;

  const original = state.vlanPorts.get(old);
  let restored = "nothing to put back";
  if (original && hasPort(original, bp)) {
    try {
      await session.set([{ oid: portsOid(old), type: ObjectType.OctetString, value: original }]);
      const back = (await session.get([pvidOid])).get(pvidOid);
      restored =
        back && asInt(back) === old
          ? `the port is back in vlan ${old}`
          : `putting the port back in vlan ${old} did not take`;
    } catch (error) {
      restored = `putting the port back in vlan ${old} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  throw new DeviceMismatch(
    `${session.where} accepted the access vlan change but reads back otherwise: ${problems.join("; ")}; ${restored}`,
  );
}

/**
 * A trunk or hybrid port's PVID: dot1qPvid, with the VLAN added to the port's allow list
 * in the same PDU when the port does not carry it yet (the old PVID VLAN stays allowed,
 * tagged, as Comware does). Read back: the PVID and the allow list bit.
 */
async function setTrunkPvid(
  session: SnmpSession,
  ifIndex: number,
  state: ComwareWriteState,
  vlan: number,
): Promise<void> {
  const bp = state.bridgePort!;
  const pvidOid = `${qbridge.dot1qPvid}.${bp}`;
  const allowOid = `${allowListOf(vlan)}.${ifIndex}`;
  const list = vlan <= 2048 ? state.allowLow : state.allowHigh;
  const addAllow = list !== null && !allowsVlan(list, vlan);
  const what = `${LINK_TYPE_NAMES[state.linkType!]} port ${ifIndex}`;

  const varbinds = [
    ...(addAllow ? [{ oid: allowOid, type: ObjectType.OctetString, value: withVlan(list, vlan) }] : []),
    { oid: pvidOid, type: ObjectType.Gauge, value: vlan },
  ];
  await session.set(varbinds);

  const values = await session.get(list !== null ? [pvidOid, allowOid] : [pvidOid]);
  const problems: string[] = [];
  const pvid = values.get(pvidOid);
  if (!pvid || asInt(pvid) !== vlan)
    problems.push(`dot1qPvid.${bp} reads ${pvid ? asInt(pvid) : "nothing"}, not ${vlan}`);
  const allow = values.get(allowOid);
  if (list !== null && (!allow || !allowsVlan(asBytes(allow), vlan)))
    problems.push(`${allowName(vlan)}.${ifIndex} does not allow vlan ${vlan}`);
  if (problems.length === 0) return;

  // put back what was written: the PVID, then the allow list; the read-back says whether it took
  let restored: string;
  try {
    if (state.pvid > 0) await session.set([{ oid: pvidOid, type: ObjectType.Gauge, value: state.pvid }]);
    if (addAllow) await session.set([{ oid: allowOid, type: ObjectType.OctetString, value: list }]);
    const back = (await session.get([pvidOid])).get(pvidOid);
    restored =
      back && asInt(back) === state.pvid
        ? `the PVID is ${state.pvid} again`
        : `restoring PVID ${state.pvid} did not take`;
  } catch (error) {
    restored = `restoring the earlier values failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  throw new DeviceMismatch(
    `${session.where} accepted the vlan change of ${what} but reads back otherwise: ${problems.join("; ")}; ${restored}`,
  );
}
