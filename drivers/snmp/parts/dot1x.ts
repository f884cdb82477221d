/**
 * 802.1X port authentication from IEEE8021-PAE-MIB, the same on every SNMP family: a port
 * whose controlled port control is auto(2) lets 802.1X (a RADIUS server) decide who uses
 * it and in which VLAN, so the API changes nothing on it (domain/port-protection.ts).
 * When the system-wide dot1xPaeSystemAuthControl says disabled(2), no port authenticates
 * whatever its configuration; an agent without the scalar is judged by the ports alone.
 * The table is indexed by dot1xPaePortNumber, the port's ifIndex on the agents seen.
 */
import { pae, paePortControl, paeSystemAuthControl } from "../../../mib/pae";
import type { Columns, Scalars } from "../session";
import { asInt } from "../values";
import type { Plan, Tables } from "./part";

const SYSTEM = "dot1x.system";
const PORTS = "dot1x.ports";
const ROW = "dot1x.row";
const SYSTEM_OID = `${pae.dot1xPaeSystemAuthControl}.0`;

export function dot1xLearnReads(): Plan {
  return {
    [SYSTEM]: { label: "dot1xPaeSystemAuthControl", scalars: [SYSTEM_OID] },
    // a row per port: walked with the interface table (drivers/snmp/driver.ts read())
    [PORTS]: { label: "dot1xAuthConfigTable", columns: [pae.dot1xAuthAuthControlledPortControl], rowsLike: "ifIndex" },
  };
}

export function dot1xPortReads(ifIndex: number): Plan {
  return {
    [ROW]: {
      label: `dot1xAuthConfigTable row ${ifIndex}`,
      scalars: [SYSTEM_OID, `${pae.dot1xAuthAuthControlledPortControl}.${ifIndex}`],
    },
  };
}

function systemDisabled(values: Scalars | undefined): boolean {
  const vb = values?.get(SYSTEM_OID);
  return !!vb && asInt(vb) === paeSystemAuthControl.disabled;
}

/** The ifIndexes of the ports in 802.1X mode (of a whole learn, or of the one port of a write). */
export function dot1xPorts(tables: Tables, only?: number): Set<number> {
  const out = new Set<number>();
  if (only !== undefined) {
    const row = tables[ROW] as Scalars | undefined;
    if (
      !systemDisabled(row) &&
      asInt(row?.get(`${pae.dot1xAuthAuthControlledPortControl}.${only}`)) === paePortControl.auto
    )
      out.add(only);
    return out;
  }
  if (systemDisabled(tables[SYSTEM] as Scalars | undefined)) return out;
  const column = (tables[PORTS] as Columns | undefined)?.get(pae.dot1xAuthAuthControlledPortControl);
  for (const [index, vb] of column ?? []) {
    if (/^\d+$/.test(index) && asInt(vb) === paePortControl.auto) out.add(Number(index));
  }
  return out;
}
