/**
 * A port's VLANs from PVIDs and per-VLAN member lists, for agents whose PVIDs are missing
 * or partial (Dell OS10 and OS9 have none; Junos has them only for some ports): the
 * untagged VLAN is the port's PVID when it has one above 0, else the VLAN whose untagged
 * list holds it; its tagged VLANs are the others whose egress list holds it and whose
 * untagged list does not. Shared by the dell and juniper families.
 */
import { qbridge } from "../../../mib/oids";
import { portOfInterface } from "../../snmp/parts/bridge-ports";
import type { PortMap, PortVlans } from "../../snmp/parts/part";
import type { Columns, Scalars } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";

/** one VLAN's lists, asked by bridge port */
export interface VlanMembers {
  egress(port: number): boolean;
  untagged(port: number): boolean;
}

/** bridge port -> PVID, from a walk of dot1qPvid and from GETs of single ports */
export function pvidsFrom(walked: Columns | undefined, got: Scalars | undefined): Map<number, number> {
  const out = new Map<number, number>();
  for (const [index, vb] of walked?.get(qbridge.dot1qPvid) ?? []) out.set(Number(index), asInt(vb));
  for (const [oid, vb] of got ?? []) if (vb) out.set(Number(oid.slice(qbridge.dot1qPvid.length + 1)), asInt(vb));
  return out;
}

/** ifIndex -> its VLANs (read only: no write state), for the ports the map knows (or only `only`) */
export function portVlansFrom(
  ports: PortMap,
  only: number | undefined,
  members: Map<number, VlanMembers>,
  pvids: Map<number, number>,
): Map<number, PortVlans> {
  const lists = [...members].sort(([a], [b]) => a - b);
  const out = new Map<number, PortVlans>();
  for (const ifIndex of only !== undefined ? [only] : ports.ifIndexes) {
    const port = portOfInterface(ports.bridge, ifIndex);
    if (port === null) {
      out.set(ifIndex, { untagged: 0, tagged: [], writeState: null });
      continue;
    }
    const untaggedIn = lists.filter(([, m]) => m.untagged(port)).map(([v]) => v);
    // PVID 0: no untagged VLAN configured (a Junos trunk without a native VLAN)
    const pvid = pvids.get(port) ?? 0;
    const untagged = pvid > 0 ? pvid : (untaggedIn[0] ?? 0);
    const tagged = lists
      .filter(([v, m]) => v !== untagged && !untaggedIn.includes(v) && m.egress(port))
      .map(([v]) => v);
    out.set(ifIndex, { untagged, tagged, writeState: null });
  }
  return out;
}
