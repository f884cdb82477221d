/**
 * HPE Comware / H3C switches (sysObjectID under H3C's enterprise 1.3.6.1.4.1.25506; the
 * HP-branded Comware lines, A-series included, report products there too, as the
 * recorded A5500 does: 25506.11.1.24). HP's own enterprise 11 holds ProCurve/AOS-S.
 *
 * Reads are Q-BRIDGE with the HH3C tables beside it; port VLAN changes, VLAN
 * create/rename/delete through the HH3C VLAN tables (vlans.ts), trunk changes through the
 * link type, PVID and allow lists (trunk.ts); save through
 * HH3C-CONFIG-MAN-MIB (save.ts); PoE through POWER-ETHERNET-MIB.
 */
import { enterprises } from "../../../mib/oids";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { PortMap } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { poeByInterface, type PoeRow } from "../../snmp/parts/poe-tables";
import { standardCapabilities } from "../generic";
import { comwareSave } from "./save";
import { comwareVlans } from "./vlans";

/**
 * PoE port group.port -> interface: Comware numbers PoE ports by IRF member and port, so
 * the interface named "...<member>/0/<port>" when there is one; the standard rules otherwise.
 */
export function comwarePoePorts(rows: PoeRow[], _tables: unknown, ports: PortMap): Map<number, PoeRow> {
  const out = new Map<number, PoeRow>();
  const rest: PoeRow[] = [];
  for (const row of rows) {
    const suffix = `${row.group}/0/${row.port}`;
    const hit = [...ports.names].find(
      ([, name]) => name.endsWith(suffix) && !/\d/.test(name.charAt(name.length - suffix.length - 1)),
    );
    if (hit && !out.has(hit[0])) out.set(hit[0], row);
    else rest.push(row);
  }
  for (const [ifIndex, row] of poeByInterface(rest, ports)) if (!out.has(ifIndex)) out.set(ifIndex, row);
  return out;
}

export const comwareFamily: SnmpFamily = {
  info: { vendor: "HPE Comware", driver: "comware" },
  can: {
    ...standardCapabilities,
    save_config: true,
    change_tags: true,
    // Comware interface descriptions hold up to 80 characters
    max_description_length: 80,
    max_description_bytes: 80,
  },
  parts: {
    vlans: comwareVlans(),
    poe: standardPoe({ map: comwarePoePorts }),
    save: comwareSave(),
    clientData: standardClientData(),
  },
};

export const comware: DriverEntry = {
  name: "comware",
  vendor: "HPE Comware",
  description:
    "HPE Comware / H3C switches: Q-BRIDGE reads, port VLANs, trunks and VLAN edits through the HH3C tables, save through HH3C-CONFIG-MAN-MIB",
  connector: 0,
  can: comwareFamily.can,
  match: { sysObjectIds: [`${enterprises.prefix}.${enterprises.comware}`] },
  open: (connection, options) => new SnmpDriver(comwareFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["comware"], recordings: ["comware_a5500"] },
};
