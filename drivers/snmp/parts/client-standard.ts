/**
 * The details view's client data from the standard MIBs: the forwarding table of
 * Q-BRIDGE (or BRIDGE-MIB's when there is none), ARP from IP-MIB, LLDP neighbours from
 * LLDP-MIB. Forwarding database ids resolve to VLANs through dot1qVlanFdbId.
 */
import { bridge, ip, lldp, qbridge } from "../../../mib/oids";
import type { VlanInfo } from "../../../model/device";
import { ipv4ByMac, macsByInterface, neighborsByInterface } from "./client-data";
import { type ClientDataPart, type PartIo, type Plan, type PortMap, Tables } from "./part";
import { QBRIDGE_CURRENT_KEY } from "./qbridge";
import { vlanByFdbId } from "./qbridge-tables";

const FDB = "client.fdb";
const BRIDGE_FDB = "client.bridgeFdb";
const ARP = "client.arp";
const LLDP = "client.lldp";
const LLDP_ADDRESSES = "client.lldpAddresses";

const lldpRead = {
  label: "lldpRemTable",
  columns: [
    lldp.lldpRemChassisIdSubtype,
    lldp.lldpRemChassisId,
    lldp.lldpRemPortIdSubtype,
    lldp.lldpRemPortId,
    lldp.lldpRemPortDesc,
    lldp.lldpRemSysName,
    lldp.lldpRemSysDesc,
    lldp.lldpRemSysCapEnabled,
  ],
  rows: 16,
};

/** the LLDP and ARP reads every client-data part shares */
export const neighbourReads: Plan = {
  [ARP]: { label: "ipNetToMediaTable", columns: [ip.ipNetToMediaPhysAddress], rows: 50 },
  [LLDP]: lldpRead,
  [LLDP_ADDRESSES]: { label: "lldpRemManAddrTable", columns: [lldp.lldpRemManAddrIfSubtype], rows: 16 },
};

export function lldpNeighbours(tables: Tables, ports: PortMap) {
  return neighborsByInterface(tables.columns(LLDP), tables.columns(LLDP_ADDRESSES), ports.bridge, ports.ifIndexes);
}

export function arpByMac(tables: Tables) {
  return ipv4ByMac(tables.columns(ARP));
}

export function standardClientData(): ClientDataPart {
  return {
    reads: () => ({
      [FDB]: { label: "dot1qTpFdbTable", columns: [qbridge.dot1qTpFdbPort], rows: 100 },
      ...neighbourReads,
    }),

    async more(io: PartIo, tables: Tables, _ports: PortMap, _vlans: VlanInfo[]): Promise<Tables> {
      // no Q-BRIDGE forwarding table: BRIDGE-MIB's (without VLANs)
      if ((tables.columns(FDB)?.get(qbridge.dot1qTpFdbPort)?.size ?? 0) > 0) return new Tables();
      const fdb = await io.session.readColumns([bridge.dot1dTpFdbPort], { label: "dot1dTpFdbTable", rows: 100 });
      return new Tables().setColumns(BRIDGE_FDB, fdb);
    },

    macs(tables: Tables, ports: PortMap) {
      return macsByInterface(
        tables.columns(FDB),
        tables.columns(BRIDGE_FDB),
        ports.bridge,
        vlanByFdbId(tables.columns(QBRIDGE_CURRENT_KEY)),
        arpByMac(tables),
      );
    },

    neighbors: lldpNeighbours,
  };
}
