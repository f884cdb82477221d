/**
 * Dell switches: N-series (DNOS 6, 674.10895), OS10 and SONiC-based Dell (674.11000) and
 * Force10 / Dell Networking OS9 (6027). Q-BRIDGE with the Dell agents' gaps (vlans.ts:
 * untagged VLANs from the untagged PortLists where dot1qPvid is missing), PoE through
 * POWER-ETHERNET-MIB with ports named unit/port, LLDP local ports mapped by their names
 * (lldp-local-ports.ts: OS10 numbers them apart from ifIndexes and bridge ports).
 *
 * What one driver can offer for all of them is what OS10 allows over SNMP: admin state,
 * descriptions and PoE. OS10 serves its VLAN tables read-only and has no save object;
 * the N-series agentSaveConfig is therefore not offered either (save_config false).
 */
import type { Capabilities } from "../../../model/capabilities";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { ClientDataPart } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { poeByInterface, type PoeRow } from "../../snmp/parts/poe-tables";
import { standardCapabilities } from "../generic";
import { localPortReads, neighboursByLocalPort } from "./lldp-local-ports";
import { dellVlans } from "./vlans";

/** PoE group.port -> the bridge port named ".../<group>/<port>" (ethernet1/1/5 is 1.5), else the default rules */
function dellPoeMap(
  rows: PoeRow[],
  _tables: unknown,
  ports: Parameters<typeof poeByInterface>[1],
): Map<number, PoeRow> {
  const out = new Map<number, PoeRow>();
  const rest: PoeRow[] = [];
  for (const row of rows) {
    const suffix = `/${row.group}/${row.port}`;
    // a bridge port's name: mgmt1/1/1 is no PoE port 1.1
    const hit = [...ports.names].find(([ifIndex, name]) => name.endsWith(suffix) && ports.bridge.ifToPort.has(ifIndex));
    if (hit && !out.has(hit[0])) out.set(hit[0], row);
    else rest.push(row);
  }
  for (const [ifIndex, row] of poeByInterface(rest, ports)) if (!out.has(ifIndex)) out.set(ifIndex, row);
  return out;
}

/** the standard client data with LLDP local ports mapped by name */
function dellClientData(): ClientDataPart {
  const standard = standardClientData();
  return { ...standard, reads: () => ({ ...standard.reads(), ...localPortReads }), neighbors: neighboursByLocalPort };
}

export const dellCapabilities: Capabilities = {
  ...standardCapabilities,
  change_vlan: false,
  edit_vlans: false,
  change_vlan_name: false,
  save_config: false,
  change_tags: false,
};

export const dellFamily: SnmpFamily = {
  info: { vendor: "Dell", driver: "dell" },
  can: dellCapabilities,
  parts: { vlans: dellVlans(), poe: standardPoe({ map: dellPoeMap }), save: null, clientData: dellClientData() },
};

export const dell: DriverEntry = {
  name: "dell",
  vendor: "Dell",
  description:
    "Dell N-series, OS10 and OS9 (Force10): Q-BRIDGE with untagged VLANs from PortLists where PVIDs are missing, LLDP ports by name; no VLAN writes or save (OS10 serves them read-only)",
  connector: 0,
  can: dellCapabilities,
  match: { sysObjectIds: ["1.3.6.1.4.1.674.10895", "1.3.6.1.4.1.674.11000", "1.3.6.1.4.1.6027"] },
  open: (connection, options) => new SnmpDriver(dellFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["dell"], recordings: ["dell-os10", "dnos"] },
};
