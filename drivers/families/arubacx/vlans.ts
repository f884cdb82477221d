/**
 * VLAN membership of AOS-CX over SNMP. The switch serves no Q-BRIDGE VLAN tables (neither
 * recording has dot1qVlanStaticTable or dot1qVlanCurrentTable), so:
 *
 *   untagged VLAN  dot1qPvid by bridge port (ifIndex = bridge port on AOS-CX)
 *   tagged VLANs   ARUBAWIRED-PORTVLAN arubaWiredPortVlanMemberVid (a VID bitmap per
 *                  ifIndex), less the PVID; where the firmware does not serve it, none
 *   VLAN list      the PVIDs, the VIDs of those bitmaps and the VLANs named in
 *                  IEEE8021-Q-BRIDGE-MIB ieee8021QBridgeVlanStaticName
 *   VLAN names     from that IEEE table where served, else none: the list then carries
 *                  ids only, and the driver says so in driver_info (index.ts)
 *
 * AOS-CX takes no SNMP SET of dot1qPvid, of the PORTVLAN columns (read-only in the MIB)
 * or of VLAN rows: the AOS-CX SNMP/MIB guide lists ifAdminStatus and
 * pethPsePortAdminEnable as its only writable port objects. Every VLAN write is
 * NotSupported with that reason (the family's `can` says false, so the API answers
 * not_supported before it gets here).
 */
import { arubaCxPortVlan, ieee8021QBridge } from "../../../mib/arubacx";
import { qbridge } from "../../../mib/oids";
import type { VlanInfo } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { portOfInterface } from "../../snmp/parts/bridge-ports";
import type { Plan, PortMap, PortVlans, Tables, VlanPart } from "../../snmp/parts/part";
import { asBytes, asInt, asText } from "../../snmp/varbind-values";

const PVIDS = "arubacx.pvids";
const MEMBER_VIDS = "arubacx.memberVids";
const NAMES = "arubacx.vlanNames";

export const NO_VLAN_WRITES =
  "AOS-CX takes no SNMP writes of port VLANs or VLAN rows (its writable objects are ifAdminStatus, pethPsePortAdminEnable and the config copy); use its REST API or CLI";

const column = (t: Tables, key: string, oid: string) => t.columns(key)?.get(oid);

/** VidList: first octet VIDs 1..8, most significant bit the lowest VID (ARUBAWIRED-PORTVLAN-MIB) */
export function vidsOf(list: Buffer): number[] {
  const out: number[] = [];
  for (let octet = 0; octet < list.length && octet < 512; octet++) {
    const bits = list[octet];
    if (bits === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (bits & (0x80 >> bit)) out.push(octet * 8 + bit + 1);
  }
  return out.filter((v) => v >= 1 && v <= 4094);
}

function pvidsByPort(t: Tables): Map<number, number> {
  const out = new Map<number, number>();
  for (const [index, vb] of column(t, PVIDS, qbridge.dot1qPvid) ?? []) out.set(Number(index), asInt(vb));
  return out;
}

function vidsByIfIndex(t: Tables): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [index, vb] of column(t, MEMBER_VIDS, arubaCxPortVlan.arubaWiredPortVlanMemberVid) ?? [])
    out.set(Number(index), vidsOf(asBytes(vb)));
  return out;
}

/** VLAN id -> name, from ieee8021QBridgeVlanStaticName (index componentId.vlan) */
function namesOf(t: Tables): Map<number, string> {
  const out = new Map<number, string>();
  for (const [index, vb] of column(t, NAMES, ieee8021QBridge.ieee8021QBridgeVlanStaticName) ?? []) {
    const vlan = Number(index.slice(index.lastIndexOf(".") + 1));
    if (vlan >= 1 && vlan <= 4094) out.set(vlan, asText(vb));
  }
  return out;
}

export function arubaCxVlans(): VlanPart {
  // the VLAN list needs every port's PVID and VIDs, whatever the purpose: one interface's
  // view shows the same VLANs as a full learn
  const plan: Plan = {
    [PVIDS]: { label: "dot1qPortVlanTable", columns: [qbridge.dot1qPvid] },
    [MEMBER_VIDS]: { label: "arubaWiredPortVlanMemberTable", columns: [arubaCxPortVlan.arubaWiredPortVlanMemberVid] },
    [NAMES]: {
      label: "ieee8021QBridgeVlanStaticTable",
      columns: [ieee8021QBridge.ieee8021QBridgeVlanStaticName],
      rows: 32,
    },
  };

  return {
    reads: () => plan,

    vlans(tables: Tables): VlanInfo[] {
      const names = namesOf(tables);
      const ids = new Set<number>(names.keys());
      for (const vlan of pvidsByPort(tables).values()) ids.add(vlan);
      for (const vids of vidsByIfIndex(tables).values()) for (const v of vids) ids.add(v);
      return [...ids]
        .filter((id) => id >= 1 && id <= 4094)
        .sort((a, b) => a - b)
        .map((id): VlanInfo => ({ id, name: names.get(id) ?? "", state: "Enabled", status: "Permanent" }));
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const pvids = pvidsByPort(tables);
      const vids = vidsByIfIndex(tables);
      const out = new Map<number, PortVlans>();
      for (const ifIndex of only !== undefined ? [only] : ports.ifIndexes) {
        const bridgePort = portOfInterface(ports.bridge, ifIndex);
        const pvid = bridgePort === null ? 0 : (pvids.get(bridgePort) ?? 0);
        const tagged = (vids.get(ifIndex) ?? []).filter((v) => v !== pvid);
        // no write needs state; a port outside the bridge has none (the engine says so)
        out.set(ifIndex, { untagged: pvid, tagged, writeState: bridgePort });
      }
      return out;
    },

    async setUntagged(): Promise<void> {
      throw new NotSupported(NO_VLAN_WRITES);
    },
    async createVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_WRITES);
    },
    async renameVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_WRITES);
    },
    async deleteVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_WRITES);
    },
  };
}
