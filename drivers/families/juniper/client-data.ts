/**
 * The Junos details view: the Q-BRIDGE forwarding table, whose first index is a
 * filtering database id that Junos ties to its internal VLAN id (jnxL2aldVlanFdbId; the
 * recorded ELS switches without that column number it internalId << 16), ARP, and LLDP
 * with local ports named in lldpLocPortId (Junos numbers them by ifIndex).
 */
import { jnxL2aldVlan } from "../../../mib/juniper";
import { bridge, qbridge } from "../../../mib/oids";
import { macsByInterface } from "../../snmp/parts/client-data";
import { arpByMac, neighbourReads } from "../../snmp/parts/client-standard";
import { type ClientDataPart, type PartIo, type Plan, type PortMap, Tables } from "../../snmp/parts/part";
import { asInt } from "../../snmp/varbind-values";
import { localPortReads, neighboursByLocalPort } from "../dell/lldp-local-ports";
import { L2ALD, l2aldTags } from "./vlans";

const FDB = "juniper.fdb";
const BRIDGE_FDB = "juniper.bridgeFdb";

/** filtering database id -> VLAN tag */
export function vlanOfFdb(tables: Tables): Map<number, number> {
  const tags = l2aldTags(tables);
  const out = new Map<number, number>();
  const fdbIds = tables.columns(L2ALD)?.get(jnxL2aldVlan.jnxL2aldVlanFdbId);
  for (const [id, tag] of tags) {
    const fdb = fdbIds?.get(String(id));
    if (fdb) out.set(asInt(fdb), tag);
    else out.set(id * 65536, tag);
  }
  return out;
}

export function junosClientData(): ClientDataPart {
  return {
    reads: (): Plan => ({
      [FDB]: { label: "dot1qTpFdbTable", columns: [qbridge.dot1qTpFdbPort], rows: 100 },
      ...neighbourReads,
      ...localPortReads,
    }),

    async more(io: PartIo, tables: Tables): Promise<Tables> {
      if ((tables.columns(FDB)?.get(qbridge.dot1qTpFdbPort)?.size ?? 0) > 0) return new Tables();
      const fdb = await io.session.readColumns([bridge.dot1dTpFdbPort], { label: "dot1dTpFdbTable", rows: 100 });
      return new Tables().setColumns(BRIDGE_FDB, fdb);
    },

    macs(tables: Tables, ports: PortMap) {
      return macsByInterface(
        tables.columns(FDB),
        tables.columns(BRIDGE_FDB),
        ports.bridge,
        vlanOfFdb(tables),
        arpByMac(tables),
      );
    },

    neighbors: neighboursByLocalPort,
  };
}
