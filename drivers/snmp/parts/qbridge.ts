/**
 * VLAN membership through Q-BRIDGE-MIB (RFC 4363), the part most families use: the VLAN
 * list from the static and current tables, each bridge port's PVID, tagged membership
 * from the egress and untagged PortLists, an untagged VLAN change that keeps the tables
 * consistent (qbridge-untagged.ts), trunk changes (qbridge-tags.ts), and VLAN
 * create/rename/delete through the static table's RowStatus and name.
 *
 * A family with a quirk passes options (for example PVIDs that some agents index by
 * ifIndex where the bridge port map is partial).
 */
import { qbridge } from "../../../mib/oids";
import type { TagChange, VlanInfo } from "../../../model/device";
import { hasPort } from "../../../mib/portlist";
import type { Columns, SnmpSession } from "../session";
import { asBytes } from "../varbind-values";
import { intWrite, textWrite, writeVerified } from "../verified-write";
import { portOfInterface } from "./bridge-ports";
import type { Plan, PortMap, PortVlans, Purpose, Tables, VlanPart } from "./part";
import { changeTags } from "./qbridge-tags";
import { changeUntaggedVlan, type PortVlanState } from "./qbridge-untagged";
import { membersByVlan, needsCurrentTable, pvidByPort, vlanList } from "./qbridge-tables";

const STATIC = "qbridge.static";
const CURRENT = "qbridge.current";
const CURRENT_MEMBERS = "qbridge.currentMembers";
const PVIDS = "qbridge.pvids";
const PVID_GUESS = "qbridge.pvidGuess";
const PVID_PORT = "qbridge.pvidPort";

export interface QBridgeOptions {
  /**
   * Where dot1qPvid is indexed by the ifIndex instead of the bridge port (agents whose
   * bridge port map covers only some ports).
   */
  pvidByIfIndex?: boolean;
}

/** The static table with the columns a purpose needs (bitmaps for memberships). */
function staticRead(withBitmaps: boolean) {
  const columns: string[] = [qbridge.dot1qVlanStaticName, qbridge.dot1qVlanStaticRowStatus];
  if (withBitmaps) columns.push(qbridge.dot1qVlanStaticEgressPorts, qbridge.dot1qVlanStaticUntaggedPorts);
  return { label: "dot1qVlanStaticTable", columns, rows: 32, rowsLike: "vlan" };
}

const currentRead = {
  label: "dot1qVlanCurrentTable",
  columns: [qbridge.dot1qVlanStatus, qbridge.dot1qVlanFdbId],
  rows: 32,
  rowsLike: "vlan",
};
const currentMembersRead = {
  label: "dot1qVlanCurrentTable",
  columns: [qbridge.dot1qVlanCurrentEgressPorts, qbridge.dot1qVlanCurrentUntaggedPorts],
  rows: 32,
};

/**
 * One map of static bitmaps per read of the static table: the views of one learn (every
 * port of a batch's learnInterfaces) share it, and a write keeps it as the device now holds
 * it (qbridge-untagged.ts keepWritten), so the next port's write builds on the last one.
 */
const sharedMembers = new WeakMap<Columns, PortVlanState["staticMembers"]>();

/** the static egress and untagged bitmaps per VLAN, as a write will modify them */
function staticMembersOf(staticTable: Columns | undefined): PortVlanState["staticMembers"] {
  const known = staticTable ? sharedMembers.get(staticTable) : undefined;
  if (known) return known;
  const out: PortVlanState["staticMembers"] = new Map();
  if (staticTable) sharedMembers.set(staticTable, out);
  const egress = staticTable?.get(qbridge.dot1qVlanStaticEgressPorts);
  const untagged = staticTable?.get(qbridge.dot1qVlanStaticUntaggedPorts);
  for (const index of new Set([...(egress?.keys() ?? []), ...(untagged?.keys() ?? [])])) {
    const e = egress?.get(index);
    const u = untagged?.get(index);
    out.set(Number(index), { egress: e ? asBytes(e) : null, untagged: u ? asBytes(u) : null });
  }
  return out;
}

/** What setUntagged needs: the bridge port and the VLAN state read with the facts. */
interface QBridgeWriteState {
  bridgePort: number | null;
  state: PortVlanState;
}

export function qBridgeVlans(options: QBridgeOptions = {}): VlanPart {
  const pvidIndexOf = (ports: PortMap, ifIndex: number) =>
    options.pvidByIfIndex ? ifIndex : portOfInterface(ports.bridge, ifIndex);

  return {
    followsWrites: true,

    reads(purpose: Purpose, ifIndex?: number): Plan {
      if (purpose === "vlans") return { [STATIC]: staticRead(false), [CURRENT]: currentRead };
      const plan: Plan = { [STATIC]: staticRead(true), [CURRENT]: currentRead };
      const pvids = {
        label: "dot1qPortVlanTable",
        columns: [qbridge.dot1qPvid],
        rowsLike: options.pvidByIfIndex ? "ifIndex" : "bridgePort",
      };
      if (purpose === "learn") plan[PVIDS] = pvids;
      // one interface indexed by ifIndex: its PVID is one GET, in the same PDU as its row
      else if (options.pvidByIfIndex)
        plan[PVID_GUESS] = { label: "dot1qPvid", scalars: [`${qbridge.dot1qPvid}.${ifIndex}`] };
      // by bridge port: the column, walked with the bridge port map in the same requests,
      // instead of a GET of a guessed bridge port and a second round when it was wrong
      else plan[PVIDS] = pvids;
      return plan;
    },

    more(purpose: Purpose, tables: Tables, ports: PortMap, ifIndex?: number): Plan {
      const plan: Plan = {};
      if (needsCurrentTable(tables.columns(STATIC), tables.columns(CURRENT)))
        plan[CURRENT_MEMBERS] = currentMembersRead;
      if (purpose === "interface" && ifIndex !== undefined && !tables.columns(PVIDS)) {
        const index = pvidIndexOf(ports, ifIndex);
        if (index !== null && index !== ifIndex)
          plan[PVID_PORT] = { label: "dot1qPvid", scalars: [`${qbridge.dot1qPvid}.${index}`] };
      }
      return plan;
    },

    vlans(tables: Tables): VlanInfo[] {
      const current = tables.columns(CURRENT_MEMBERS);
      return vlanList(
        tables.columns(STATIC),
        tables.columns(CURRENT),
        current?.get(qbridge.dot1qVlanCurrentEgressPorts),
      );
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const pvidColumn = tables.columns(PVIDS)?.get(qbridge.dot1qPvid);
      const pvidByIndex = pvidByPort(pvidColumn);
      for (const key of [PVID_GUESS, PVID_PORT]) {
        for (const [oid, vb] of tables.scalars(key) ?? []) {
          if (vb)
            pvidByPort(new Map([[oid.slice(qbridge.dot1qPvid.length + 1), vb]])).forEach((v, k) =>
              pvidByIndex.set(k, v),
            );
        }
      }
      const members = membersByVlan(tables.columns(STATIC), tables.columns(CURRENT_MEMBERS));
      const staticMembers = staticMembersOf(tables.columns(STATIC));
      const out = new Map<number, PortVlans>();
      for (const ifIndex of only !== undefined ? [only] : ports.ifIndexes) {
        const bridgePort = portOfInterface(ports.bridge, ifIndex);
        const pvidIndex = pvidIndexOf(ports, ifIndex);
        const pvid = pvidIndex === null ? null : (pvidByIndex.get(pvidIndex) ?? null);
        const tagged: number[] = [];
        if (bridgePort !== null) {
          for (const [vlan, m] of members) {
            // an untagged member of a VLAN other than its PVID is not tagged there either
            const untagged = m.untagged !== null && hasPort(m.untagged, bridgePort);
            if (vlan !== pvid && !untagged && hasPort(m.egress, bridgePort)) tagged.push(vlan);
          }
        }
        const writeState: QBridgeWriteState = { bridgePort, state: { pvid, staticMembers } };
        out.set(ifIndex, { untagged: pvid ?? 0, tagged, writeState });
      }
      return out;
    },

    async setUntagged(session: SnmpSession, _ifIndex: number, port: PortVlans, vlan: number): Promise<void> {
      const { bridgePort, state } = port.writeState as QBridgeWriteState;
      if (bridgePort === null) throw new TypeError("setUntagged of a port that is not a bridge port");
      await changeUntaggedVlan(session, bridgePort, vlan, state);
    },

    async setTags(session: SnmpSession, _ifIndex: number, port: PortVlans, change: TagChange): Promise<void> {
      const { bridgePort, state } = port.writeState as QBridgeWriteState;
      if (bridgePort === null) throw new TypeError("setTags of a port that is not a bridge port");
      await changeTags(session, bridgePort, change, state);
    },

    async createVlan(session: SnmpSession, id: number, name: string): Promise<void> {
      // createAndGo(4) reads back as active(1)
      await writeVerified(session, [
        intWrite(`${qbridge.dot1qVlanStaticRowStatus}.${id}`, 4, 1),
        textWrite(`${qbridge.dot1qVlanStaticName}.${id}`, name),
      ]);
    },

    async renameVlan(session: SnmpSession, id: number, name: string): Promise<void> {
      await writeVerified(session, [textWrite(`${qbridge.dot1qVlanStaticName}.${id}`, name)]);
    },

    async deleteVlan(session: SnmpSession, id: number): Promise<void> {
      await writeVerified(session, [intWrite(`${qbridge.dot1qVlanStaticRowStatus}.${id}`, 6, "absent")]);
    },
  };
}

/** The fdbId -> VLAN map the client data part needs (dot1qVlanFdbId of the current table). */
export const QBRIDGE_CURRENT_KEY = CURRENT;
