/**
 * Dell VLANs through Q-BRIDGE, with the Dell agents' gaps: OS10 and OS9 name their VLANs
 * in dot1qVlanStaticTable but keep the memberships only in dot1qVlanCurrentTable and have
 * no dot1qPvid at all. Where a port has no PVID its untagged VLAN is the VLAN whose
 * untagged PortList holds it (static lists, else current ones); the others whose egress
 * list holds it are its tagged VLANs. The lists go through portListBytes() (OS9's long
 * lists). VLAN writes are not offered (the family's `can`): the setters refuse.
 */
import { qbridge } from "../../../mib/oids";
import { hasPort } from "../../../mib/portlist";
import type { VlanInfo } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { portOfInterface } from "../../snmp/parts/bridge-ports";
import type { Plan, PortMap, PortVlans, Purpose, Tables, VlanPart } from "../../snmp/parts/part";
import { needsCurrentTable, vlanList } from "../../snmp/parts/qbridge-tables";
import type { Varbind } from "../../snmp/net-snmp-api";
import type { SnmpSession } from "../../snmp/session";
import { asBytes } from "../../snmp/varbind-values";
import { portVlansFrom, pvidsFrom, type VlanMembers } from "./memberships";
import { portListBytes } from "./portlist";

const STATIC = "dell.static";
const CURRENT = "dell.current";
const CURRENT_MEMBERS = "dell.currentMembers";
const PVIDS = "dell.pvids";
const PVID_PORT = "dell.pvidPort";

const staticRead = (bitmaps: boolean) => ({
  label: "dot1qVlanStaticTable",
  columns: [
    qbridge.dot1qVlanStaticName,
    qbridge.dot1qVlanStaticRowStatus,
    ...(bitmaps ? [qbridge.dot1qVlanStaticEgressPorts, qbridge.dot1qVlanStaticUntaggedPorts] : []),
  ],
  rows: 32,
});
const currentRead = {
  label: "dot1qVlanCurrentTable",
  columns: [qbridge.dot1qVlanStatus, qbridge.dot1qVlanFdbId],
  rows: 32,
};
const currentMembersRead = {
  label: "dot1qVlanCurrentTable",
  columns: [qbridge.dot1qVlanCurrentEgressPorts, qbridge.dot1qVlanCurrentUntaggedPorts],
  rows: 8,
};

type Column = Map<string, Varbind> | undefined;

interface Members {
  egress: Buffer;
  untagged: Buffer | null;
}

/** the current table is indexed timeMark.vlan */
const vlanOfIndex = (index: string) => Number(index.slice(index.lastIndexOf(".") + 1));

/** egress and untagged lists per VLAN: the static ones where the agent fills them, else the current ones */
function membersOf(tables: Tables): Map<number, Members> {
  const out = new Map<number, Members>();
  const fill = (egress: Column, untagged: Column, vlanOf: (index: string) => number) => {
    for (const [index, vb] of egress ?? []) {
      const u = untagged?.get(index);
      out.set(vlanOf(index), { egress: portListBytes(asBytes(vb)), untagged: u ? portListBytes(asBytes(u)) : null });
    }
  };
  const st = tables.columns(STATIC);
  if ((st?.get(qbridge.dot1qVlanStaticEgressPorts)?.size ?? 0) > 0) {
    fill(st?.get(qbridge.dot1qVlanStaticEgressPorts), st?.get(qbridge.dot1qVlanStaticUntaggedPorts), Number);
  } else {
    const cur = tables.columns(CURRENT_MEMBERS);
    fill(cur?.get(qbridge.dot1qVlanCurrentEgressPorts), cur?.get(qbridge.dot1qVlanCurrentUntaggedPorts), vlanOfIndex);
  }
  return out;
}

function refuse(session: SnmpSession, what: string): never {
  throw new NotSupported(
    `${session.where}: ${what} is not offered for Dell switches: OS10 serves its VLAN tables read-only over SNMP`,
  );
}

export function dellVlans(): VlanPart {
  return {
    reads(purpose: Purpose): Plan {
      if (purpose === "vlans") return { [STATIC]: staticRead(false), [CURRENT]: currentRead };
      const plan: Plan = { [STATIC]: staticRead(true), [CURRENT]: currentRead };
      if (purpose === "learn") plan[PVIDS] = { label: "dot1qPortVlanTable", columns: [qbridge.dot1qPvid] };
      return plan;
    },

    more(purpose: Purpose, tables: Tables, ports: PortMap, ifIndex?: number): Plan {
      const plan: Plan = {};
      const st = tables.columns(STATIC);
      const noStaticLists = (st?.get(qbridge.dot1qVlanStaticEgressPorts)?.size ?? 0) === 0;
      // without PVIDs (or static lists) the memberships are in the current table
      const noPvids = purpose === "learn" && (tables.columns(PVIDS)?.get(qbridge.dot1qPvid)?.size ?? 0) === 0;
      if (
        purpose !== "vlans" &&
        noStaticLists &&
        (noPvids || purpose === "interface" || needsCurrentTable(st, tables.columns(CURRENT)))
      ) {
        plan[CURRENT_MEMBERS] = currentMembersRead;
      } else if (purpose === "vlans" && needsCurrentTable(st, tables.columns(CURRENT))) {
        plan[CURRENT_MEMBERS] = { ...currentMembersRead, columns: [qbridge.dot1qVlanCurrentEgressPorts] };
      }
      if (purpose === "interface" && ifIndex !== undefined) {
        const port = portOfInterface(ports.bridge, ifIndex);
        if (port !== null) plan[PVID_PORT] = { label: "dot1qPvid", scalars: [`${qbridge.dot1qPvid}.${port}`] };
      }
      return plan;
    },

    vlans(tables: Tables): VlanInfo[] {
      return vlanList(
        tables.columns(STATIC),
        tables.columns(CURRENT),
        tables.columns(CURRENT_MEMBERS)?.get(qbridge.dot1qVlanCurrentEgressPorts),
      );
    },

    ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans> {
      const pvids = pvidsFrom(tables.columns(PVIDS), tables.scalars(PVID_PORT));
      const members = new Map<number, VlanMembers>();
      for (const [vlan, m] of membersOf(tables)) {
        members.set(vlan, {
          egress: (p) => hasPort(m.egress, p),
          untagged: (p) => m.untagged !== null && hasPort(m.untagged, p),
        });
      }
      return portVlansFrom(ports, only, members, pvids);
    },

    setUntagged: (session) => refuse(session, "changing a port's VLAN"),
    createVlan: (session) => refuse(session, "creating VLANs"),
    renameVlan: (session) => refuse(session, "renaming VLANs"),
    deleteVlan: (session) => refuse(session, "deleting VLANs"),
  };
}
