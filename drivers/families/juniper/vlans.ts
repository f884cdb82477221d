/**
 * Junos VLANs, read only. The VLAN list is JUNIPER-L2ALD-MIB jnxL2aldVlanTable: rows by
 * an internal id, each with its 802.1Q tag (the VLAN id shown) and name. Memberships come
 * from Q-BRIDGE: dot1qPvid by bridge port (present on ELS switches even without Q-BRIDGE
 * VLAN rows, as on the QFX), and the static egress and untagged lists, whose rows are
 * indexed by the tag on ELS Junos (an index that is no tag but an internal id is mapped
 * through the L2ALD table). Junos serves those lists as text, bridge port numbers
 * separated by commas, where Q-BRIDGE has a bitmap; both forms are read (junosPorts()).
 * Without an L2ALD table (older software) the Q-BRIDGE static table lists the VLANs.
 */
import { jnxL2aldVlan } from "../../../mib/juniper";
import { qbridge } from "../../../mib/oids";
import { portsOf } from "../../../mib/portlist";
import type { VlanInfo } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { portOfInterface } from "../../snmp/parts/bridge-ports";
import type { Plan, PortMap, PortVlans, Purpose, Tables, VlanPart } from "../../snmp/parts/part";
import { vlanList } from "../../snmp/parts/qbridge-tables";
import { portVlansFrom, pvidsFrom, type VlanMembers } from "../dell/memberships";
import type { SnmpSession } from "../../snmp/session";
import { asBytes, asInt, asText } from "../../snmp/varbind-values";

export const JUNOS_READ_ONLY = "Junos is read-only over SNMP";

export const L2ALD = "juniper.l2ald";
const STATIC = "juniper.static";
const PVIDS = "juniper.pvids";
const PVID_PORT = "juniper.pvidPort";

const l2aldRead = {
  label: "jnxL2aldVlanTable",
  columns: [
    jnxL2aldVlan.jnxL2aldVlanName,
    jnxL2aldVlan.jnxL2aldVlanTag,
    jnxL2aldVlan.jnxL2aldVlanType,
    jnxL2aldVlan.jnxL2aldVlanFdbId,
  ],
  rows: 32,
};
const staticRead = (lists: boolean) => ({
  label: "dot1qVlanStaticTable",
  columns: [
    qbridge.dot1qVlanStaticName,
    ...(lists
      ? [qbridge.dot1qVlanStaticEgressPorts, qbridge.dot1qVlanStaticUntaggedPorts]
      : [qbridge.dot1qVlanStaticRowStatus]),
  ],
  rows: 16,
});

/** The bridge ports of a Junos port list: comma-separated text ("0,4097,4099"; "" none), else a PortList bitmap. */
export function junosPorts(raw: Buffer): number[] {
  const text = raw.toString("latin1");
  if (text === "") return [];
  if (/^\d+(,\d+)*$/.test(text))
    return text
      .split(",")
      .map(Number)
      .filter((p) => p > 0);
  return portsOf(raw);
}

/** internal id -> tag, and the VLANs as L2ALD lists them */
export function l2aldTags(tables: Tables): Map<number, number> {
  const out = new Map<number, number>();
  for (const [index, vb] of tables.columns(L2ALD)?.get(jnxL2aldVlan.jnxL2aldVlanTag) ?? []) {
    const tag = asInt(vb);
    if (tag >= 1 && tag <= 4094) out.set(Number(index), tag);
  }
  return out;
}

interface Members {
  egress: Set<number>;
  untagged: Set<number>;
}

/** tag -> bridge ports in its egress and untagged lists */
function membersOf(tables: Tables): Map<number, Members> {
  const tags = l2aldTags(tables);
  const known = new Set(tags.values());
  const tagOf = (index: number) => (known.size === 0 || known.has(index) ? index : (tags.get(index) ?? index));
  const st = tables.columns(STATIC);
  const out = new Map<number, Members>();
  const row = (index: string) => {
    const tag = tagOf(Number(index));
    let m = out.get(tag);
    if (!m) out.set(tag, (m = { egress: new Set(), untagged: new Set() }));
    return m;
  };
  for (const [index, vb] of st?.get(qbridge.dot1qVlanStaticEgressPorts) ?? [])
    junosPorts(asBytes(vb)).forEach((p) => row(index).egress.add(p));
  for (const [index, vb] of st?.get(qbridge.dot1qVlanStaticUntaggedPorts) ?? [])
    junosPorts(asBytes(vb)).forEach((p) => row(index).untagged.add(p));
  return out;
}

function readOnly(session: SnmpSession): never {
  throw new NotSupported(`${session.where}: ${JUNOS_READ_ONLY}`);
}

export function junosVlans(): VlanPart {
  return {
    reads(purpose: Purpose): Plan {
      const plan: Plan = { [L2ALD]: l2aldRead, [STATIC]: staticRead(purpose !== "vlans") };
      if (purpose === "learn") plan[PVIDS] = { label: "dot1qPortVlanTable", columns: [qbridge.dot1qPvid] };
      return plan;
    },

    more(purpose: Purpose, _tables: Tables, ports: PortMap, ifIndex?: number): Plan {
      if (purpose !== "interface" || ifIndex === undefined) return {};
      const port = portOfInterface(ports.bridge, ifIndex);
      return port === null ? {} : { [PVID_PORT]: { label: "dot1qPvid", scalars: [`${qbridge.dot1qPvid}.${port}`] } };
    },

    vlans(tables: Tables): VlanInfo[] {
      const l2ald = tables.columns(L2ALD);
      const tags = l2aldTags(tables);
      if (tags.size === 0) return vlanList(tables.columns(STATIC), undefined);
      const vlans = new Map<number, VlanInfo>();
      for (const [id, tag] of tags) {
        const dynamic = asInt(l2ald?.get(jnxL2aldVlan.jnxL2aldVlanType)?.get(String(id))) === 2;
        vlans.set(tag, {
          id: tag,
          name: asText(l2ald?.get(jnxL2aldVlan.jnxL2aldVlanName)?.get(String(id))),
          state: "Enabled",
          status: dynamic ? "Dynamic" : "Permanent",
        });
      }
      return [...vlans.values()].sort((a, b) => a.id - b.id);
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const members = new Map<number, VlanMembers>();
      for (const [tag, m] of membersOf(tables))
        members.set(tag, { egress: (p) => m.egress.has(p), untagged: (p) => m.untagged.has(p) });
      return portVlansFrom(ports, only, members, pvidsFrom(tables.columns(PVIDS), tables.scalars(PVID_PORT)));
    },

    setUntagged: (session) => readOnly(session),
    createVlan: (session) => readOnly(session),
    renameVlan: (session) => readOnly(session),
    deleteVlan: (session) => readOnly(session),
  };
}
