/**
 * 802.1X port authentication from IEEE8021-PAE-MIB, the same on every SNMP family: a port
 * whose controlled port control is auto(2) lets 802.1X (a RADIUS server) decide who uses
 * it and in which VLAN, so the API changes nothing on it (domain/port-protection.ts).
 * Only while the system-wide dot1xPaeSystemAuthControl says enabled(1) does a port
 * authenticate (the scalar is mandatory in the MIB: an agent without it has no 802.1X),
 * so a learn reads the scalar with the system group and walks the port table only then.
 * The table is indexed by dot1xPaePortNumber, the port's ifIndex on the agents seen.
 */
import { pae, paePortControl, paeSystemAuthControl } from "../../../mib/pae";
import { asInt } from "../varbind-values";
import type { Scalars } from "../session";
import type { Plan, Tables } from "./part";

const SYSTEM = "dot1x.system";
const PORTS = "dot1x.ports";
const ROW = "dot1x.row";
const SYSTEM_OID = `${pae.dot1xPaeSystemAuthControl}.0`;

/** A learn's first round: the system switch (in the GET of the system group). */
export function dot1xLearnReads(): Plan {
  return { [SYSTEM]: { label: "dot1xPaeSystemAuthControl", scalars: [SYSTEM_OID] } };
}

/** A learn's second round: the port table, when the system switch is on (a row per port). */
export function dot1xMoreReads(first: Tables): Plan {
  if (!systemEnabled(first.scalars(SYSTEM))) return {};
  return {
    [PORTS]: { label: "dot1xAuthConfigTable", columns: [pae.dot1xAuthAuthControlledPortControl], rowsLike: "ports" },
  };
}

/** One port of a write: the switch and the port's control, in the GET of the interface's row. */
export function dot1xPortReads(ifIndex: number): Plan {
  return {
    [ROW]: {
      label: `dot1xAuthConfigTable row ${ifIndex}`,
      scalars: [SYSTEM_OID, `${pae.dot1xAuthAuthControlledPortControl}.${ifIndex}`],
    },
  };
}

function systemEnabled(values: Scalars | undefined): boolean {
  const vb = values?.get(SYSTEM_OID);
  return !!vb && asInt(vb) === paeSystemAuthControl.enabled;
}

/** The ifIndexes of the ports in 802.1X mode (of a whole learn, or of the one port of a write). */
export function dot1xPorts(tables: Tables, only?: number): Set<number> {
  const out = new Set<number>();
  if (only !== undefined) {
    const row = tables.scalars(ROW);
    const control = asInt(row?.get(`${pae.dot1xAuthAuthControlledPortControl}.${only}`));
    if (systemEnabled(row) && control === paePortControl.auto) out.add(only);
    return out;
  }
  if (!systemEnabled(tables.scalars(SYSTEM))) return out;
  const column = tables.columns(PORTS)?.get(pae.dot1xAuthAuthControlledPortControl);
  for (const [index, vb] of column ?? []) {
    if (/^\d+$/.test(index) && asInt(vb) === paePortControl.auto) out.add(Number(index));
  }
  return out;
}
