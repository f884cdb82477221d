/**
 * HP ProCurve / Aruba AOS-S switches (HP-ICF-OID: products under hpEtherSwitch
 * 1.3.6.1.4.1.11.2.3.7.11, stacks and chassis under 1.3.6.1.4.1.11.2.3.7.8).
 *
 * Q-BRIDGE for VLANs, PVIDs and memberships. A port's egress list holds its untagged
 * (PVID) VLAN too; the Q-BRIDGE part leaves the PVID out of the tagged list, which is
 * what these switches need. PoE through POWER-ETHERNET-MIB, whose ports are numbered
 * "1.<ifIndex>" (HP-ICF-POE-MIB augments that table with the same index).
 *
 * No save: the switch writes memory after every successful SNMP SET
 * (HP-SWITCH-BASIC-CONFIG-MIB hpSwitchImplicitConfigSave, enabled by default and again
 * after every reboot), so `save_config` is false and the API answers a save with
 * not_supported before it talks to the switch.
 */
import { hpDeviceIds } from "../../../mib/hp";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { PortMap } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import type { PoeRow } from "../../snmp/parts/poe-tables";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import { standardCapabilities } from "../generic";

/** pethPsePortIndex is the ifIndex on HP switches (group 1, or the stack member's group). */
export function hpPoePorts(rows: PoeRow[], _tables: unknown, ports: PortMap): Map<number, PoeRow> {
  const out = new Map<number, PoeRow>();
  for (const row of rows) if (ports.ifIndexes.has(row.port) && !out.has(row.port)) out.set(row.port, row);
  return out;
}

export const procurveFamily: SnmpFamily = {
  info: { vendor: "HP ProCurve / Aruba AOS-S", driver: "procurve" },
  // every SET is saved by the switch itself (hpSwitchImplicitConfigSave)
  can: { ...standardCapabilities, save_config: false },
  parts: { vlans: qBridgeVlans(), poe: standardPoe({ map: hpPoePorts }), save: null, clientData: standardClientData() },
};

export const procurve: DriverEntry = {
  name: "procurve",
  vendor: "HP ProCurve / Aruba AOS-S",
  description:
    "HP ProCurve and Aruba AOS-S switches: Q-BRIDGE, PoE by ifIndex; no save (the switch saves every SNMP change itself)",
  connector: 0,
  can: procurveFamily.can,
  // the switch products and the stacks/chassis of HP's netElement tree; not all of
  // enterprise 11, which also holds printers and servers
  match: { sysObjectIds: [hpDeviceIds.hpEtherSwitch, hpDeviceIds.chassis] },
  open: (connection, options) => new SnmpDriver(procurveFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["procurve"], recordings: ["procurve_2520"] },
};
