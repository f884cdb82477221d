/**
 * VLAN membership on Cisco IOS / IOS-XE: no Q-BRIDGE. The VLAN list is CISCO-VTP-MIB's
 * vtpVlanTable (management domain 1, Ethernet VLANs only; 1002-1005 are VTP's FDDI and
 * Token Ring defaults and never hold a port), an access port's VLAN is
 * CISCO-VLAN-MEMBERSHIP-MIB vmVlan, a trunk's untagged VLAN its vlanTrunkPortNativeVlan
 * and its tagged VLANs the vlanTrunkPortVlansEnabled bitmaps (VLANs 0-1023, then the
 * 2k/3k/4k columns), read in a second round for the trunks only.
 *
 * Which ports are trunks: those configured as trunks (vlanTrunkPortDynamicState on(1) or
 * onNoNegotiate(5)), those trunking now (vlanTrunkPortDynamicStatus trunking(1), or
 * where an agent has no such column, an operational encapsulation of ISL/802.10/LANE/
 * 802.1Q), and ports that have no vmVlan row but a trunk row (IOS keeps vmVlan rows for
 * access ports only: a configured trunk whose link is down is one of these).
 *
 * Trunk changes write the trunk table (trunk.ts); VLAN create/rename/delete go through
 * the VTP edit buffer (vtp-edit.ts).
 */
import { vlanMembership, vtp, vtpReservedVlans } from "../../../mib/cisco";
import { bridge } from "../../../mib/oids";
import type { TagChange, VlanInfo } from "../../../model/device";
import type { Plan, PortMap, PortVlans, Purpose, Tables, VlanPart } from "../../snmp/parts/part";
import type { Columns, SnmpSession } from "../../snmp/session";
import type { Varbind } from "../../snmp/net-snmp-api";
import { asBytes, asInt, asText } from "../../snmp/varbind-values";
import { intWrite, writeVerified } from "../../snmp/verified-write";
import { CONTEXT_PREFIX } from "./client-data";
import { namedFailure } from "./names";
import { bitmapColumns, bitmapVlans, setCiscoTags, type CiscoPortState } from "./trunk";
import { createVlan, deleteVlan, renameVlan, type VtpEditOptions } from "./vtp-edit";

/** managementDomainIndex of the (only) VTP domain IOS keeps */
export const VTP_DOMAIN = 1;

const VLANS = "cisco.vtpVlans";
const ACCESS = "cisco.vmVlan";
const TRUNKS = "cisco.trunks";
const BITMAPS = "cisco.trunkBitmaps";
const ONE_PORT = "cisco.port";

const reserved = new Set<number>(vtpReservedVlans);

const vlanTableRead = {
  label: "vtpVlanTable",
  columns: [vtp.vtpVlanState, vtp.vtpVlanType, vtp.vtpVlanName],
  rows: 64,
};
const trunkColumns = [
  vtp.vlanTrunkPortNativeVlan,
  vtp.vlanTrunkPortDynamicState,
  vtp.vlanTrunkPortDynamicStatus,
  vtp.vlanTrunkPortEncapsulationOperType,
];

/** One port's VLAN facts as read, whichever way (walks of the whole tables or one GET). */
interface PortRow {
  access: number | null;
  native: number | null;
  dynamicState: number | null;
  dynamicStatus: number | null;
  encapsulation: number | null;
  bitmaps: Array<Buffer | null>;
}

/** what the setters need: which object carries the port's untagged VLAN, and for trunk changes the port's trunk row */
interface CiscoWriteState {
  trunk: boolean;
  /** read for the interface of a write only */
  port: CiscoPortState | null;
}

const isTrunk = (row: PortRow): boolean => {
  if (row.dynamicState === 1 || row.dynamicState === 5) return true;
  if (row.dynamicStatus !== null) {
    if (row.dynamicStatus === 1) return true;
  } else if (row.encapsulation !== null && row.encapsulation >= 1 && row.encapsulation <= 4) {
    return true;
  }
  return row.access === null && row.native !== null;
};

/**
 * ifIndex -> VLANs whose per-VLAN bridge instance lists it (the details view's contexts);
 * null when no context was read.
 */
function contextMembers(tables: Tables): Map<number, Set<number>> | null {
  let out: Map<number, Set<number>> | null = null;
  for (const [key, table] of tables.allColumns()) {
    if (!key.startsWith(CONTEXT_PREFIX)) continue;
    const vlan = Number(key.slice(CONTEXT_PREFIX.length));
    out ??= new Map();
    for (const vb of table.get(bridge.dot1dBasePortIfIndex)?.values() ?? []) {
      const ifIndex = asInt(vb);
      const set = out.get(ifIndex) ?? new Set<number>();
      set.add(vlan);
      out.set(ifIndex, set);
    }
  }
  return out;
}

const columnOf = (tables: Tables, key: string, column: string) => tables.columns(key)?.get(column);

/** the VTP VLAN list: domain 1, Ethernet, not the reserved defaults */
export function vtpVlans(table: Columns | undefined): VlanInfo[] {
  const state = table?.get(vtp.vtpVlanState);
  const type = table?.get(vtp.vtpVlanType);
  const name = table?.get(vtp.vtpVlanName);
  const out: VlanInfo[] = [];
  for (const [index, vb] of state ?? []) {
    const [domain, id] = index.split(".").map(Number);
    if (domain !== VTP_DOMAIN || !(id >= 1 && id <= 4094) || reserved.has(id)) continue;
    const t = type?.get(index);
    if (t && asInt(t) !== 1) continue;
    // operational(1); suspended, mtuTooBigForDevice and mtuTooBigForTrunk do not forward
    out.push({
      id,
      name: asText(name?.get(index)),
      state: asInt(vb) === 1 ? "Enabled" : "Disabled",
      status: "Permanent",
    });
  }
  return out.sort((a, b) => a.id - b.id);
}

/** the trunk row of the one interface a write read, as trunk.ts needs it */
function portState(tables: Tables, ifIndex: number, row: PortRow, known: ReadonlySet<number>): CiscoPortState {
  const one = tables.scalars(ONE_PORT);
  const int = (oid: string) => {
    const vb = one?.get(oid);
    return vb ? asInt(vb) : null;
  };
  return {
    ifIndex,
    dynamicState: row.dynamicState,
    encapsulation: int(`${vtp.vlanTrunkPortEncapsulationType}.${ifIndex}`),
    native: row.native,
    access: row.access,
    bitmaps: row.bitmaps,
    serial: int(`${vtp.vlanTrunkPortSetSerialNo}.0`),
    known: [...known].sort((a, b) => a - b),
  };
}

export function ciscoVlans(options: VtpEditOptions = {}): VlanPart {
  /** each port's row from the walked tables, or from the GET of one interface */
  const portRows = (tables: Tables, only?: number): Map<number, PortRow> => {
    const rows = new Map<number, PortRow>();
    const one = tables.scalars(ONE_PORT);
    if (one && only !== undefined) {
      const v = (column: string) => one.get(`${column}.${only}`) ?? null;
      const n = (column: string) => {
        const vb = v(column);
        return vb ? asInt(vb) : null;
      };
      if (v(vlanMembership.vmVlan) || v(vtp.vlanTrunkPortNativeVlan)) {
        rows.set(only, {
          access: n(vlanMembership.vmVlan),
          native: n(vtp.vlanTrunkPortNativeVlan),
          dynamicState: n(vtp.vlanTrunkPortDynamicState),
          dynamicStatus: n(vtp.vlanTrunkPortDynamicStatus),
          encapsulation: n(vtp.vlanTrunkPortEncapsulationOperType),
          bitmaps: bitmapColumns.map(([c]) => (v(c) ? asBytes(v(c)) : null)),
        });
      }
      return rows;
    }
    const access = columnOf(tables, ACCESS, vlanMembership.vmVlan);
    const col = (c: string) => columnOf(tables, TRUNKS, c);
    const num = (m: Map<string, Varbind> | undefined, index: string) => {
      const vb = m?.get(index);
      return vb ? asInt(vb) : null;
    };
    const bitmaps = tables.scalars(BITMAPS);
    for (const index of new Set([...(access?.keys() ?? []), ...(col(vtp.vlanTrunkPortNativeVlan)?.keys() ?? [])])) {
      if (!/^\d+$/.test(index)) continue;
      rows.set(Number(index), {
        access: num(access, index),
        native: num(col(vtp.vlanTrunkPortNativeVlan), index),
        dynamicState: num(col(vtp.vlanTrunkPortDynamicState), index),
        dynamicStatus: num(col(vtp.vlanTrunkPortDynamicStatus), index),
        encapsulation: num(col(vtp.vlanTrunkPortEncapsulationOperType), index),
        bitmaps: bitmapColumns.map(([c]) => {
          const vb = bitmaps?.get(`${c}.${index}`);
          return vb ? asBytes(vb) : null;
        }),
      });
    }
    return rows;
  };

  return {
    reads(purpose: Purpose, ifIndex?: number): Plan {
      const plan: Plan = { [VLANS]: vlanTableRead };
      if (purpose === "learn") {
        plan[ACCESS] = { label: "vmMembershipTable", columns: [vlanMembership.vmVlan] };
        plan[TRUNKS] = { label: "vlanTrunkPortTable", columns: trunkColumns };
      } else if (purpose === "interface" && ifIndex !== undefined) {
        // with what a trunk change needs: the configured encapsulation and the serial number of trunk writes
        const columns = [
          vlanMembership.vmVlan,
          ...trunkColumns,
          vtp.vlanTrunkPortEncapsulationType,
          ...bitmapColumns.map(([c]) => c),
        ];
        plan[ONE_PORT] = {
          label: `VLANs of interface ${ifIndex}`,
          scalars: [...columns.map((c) => `${c}.${ifIndex}`), `${vtp.vlanTrunkPortSetSerialNo}.0`],
        };
      }
      return plan;
    },

    more(purpose: Purpose, tables: Tables): Plan {
      if (purpose !== "learn") return {};
      // the allowed-VLAN bitmaps (4 x 128 octets a port) of the trunks only, in one GET
      const trunks = [...portRows(tables)].filter(([, row]) => isTrunk(row)).map(([ifIndex]) => ifIndex);
      if (trunks.length === 0) return {};
      return {
        [BITMAPS]: {
          label: "vlanTrunkPortVlansEnabled of the trunks",
          scalars: trunks.flatMap((i) => bitmapColumns.map(([c]) => `${c}.${i}`)),
        },
      };
    },

    vlans(tables: Tables): VlanInfo[] {
      return vtpVlans(tables.columns(VLANS));
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const known = new Set(vtpVlans(tables.columns(VLANS)).map((v) => v.id));
      const members = contextMembers(tables);
      const out = new Map<number, PortVlans>();
      for (const [ifIndex, row] of portRows(tables, only)) {
        if (only !== undefined ? ifIndex !== only : !ports.ifIndexes.has(ifIndex)) continue;
        const trunk = isTrunk(row);
        // an access VLAN VTP does not list is still the port's VLAN (the 2960-X recording has such ports)
        const untagged = (trunk ? row.native : row.access) ?? 0;
        // no allowed-VLAN bitmaps (a recording without them): the VLAN contexts that list the port, when read
        const carried = row.bitmaps.some((b) => b !== null)
          ? bitmapVlans(row.bitmaps)
          : [...(members?.get(ifIndex) ?? [])];
        const tagged = trunk ? carried.filter((v) => v !== untagged && known.has(v)).sort((a, b) => a - b) : [];
        const writeState: CiscoWriteState = {
          trunk,
          port: only !== undefined ? portState(tables, ifIndex, row, known) : null,
        };
        out.set(ifIndex, { untagged, tagged, writeState });
      }
      return out;
    },

    async setUntagged(session: SnmpSession, ifIndex: number, port: PortVlans, vlan: number): Promise<void> {
      const { trunk } = port.writeState as CiscoWriteState;
      const object = trunk ? vtp.vlanTrunkPortNativeVlan : vlanMembership.vmVlan;
      await namedFailure(writeVerified(session, [intWrite(`${object}.${ifIndex}`, vlan)]));
    },

    async setTags(session: SnmpSession, _ifIndex: number, port: PortVlans, change: TagChange): Promise<void> {
      const { port: state } = port.writeState as CiscoWriteState;
      if (!state) throw new TypeError("setTags of a port not read for a write");
      await namedFailure(setCiscoTags(session, state, change));
    },

    createVlan: (session, id, name) => createVlan(session, id, name, options),
    renameVlan: (session, id, name) => renameVlan(session, id, name, options),
    deleteVlan: (session, id) => deleteVlan(session, id, options),
  };
}
