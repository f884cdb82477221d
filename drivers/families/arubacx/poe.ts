/**
 * PoE of AOS-CX: POWER-ETHERNET-MIB with group = VSF member and port = the port number
 * on it, so pethPsePortTable row 2.5 is interface 2/1/5; the power a port draws comes
 * from ARUBAWIRED-POE-MIB arubaWiredPoePethPsePortPowerDrawn (same index, milliwatts).
 * pethPsePortAdminEnable is writable over SNMP on AOS-CX (the standard write).
 */
import { arubaCxPoe } from "../../../mib/arubacx";
import type { PoePart, PoePort, PortMap, Tables } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import type { PoeRow } from "../../snmp/parts/poe-tables";
import { asInt } from "../../snmp/varbind-values";

const DRAWN = "arubacx.poeDrawn";

/** row group.port -> the interface named "<group>/1/<port>" */
function byMemberPortName(rows: PoeRow[], _tables: Tables, ports: PortMap): Map<number, PoeRow> {
  const byName = new Map<string, number>();
  for (const [ifIndex, name] of ports.names) byName.set(name, ifIndex);
  const out = new Map<number, PoeRow>();
  for (const row of rows) {
    const ifIndex = byName.get(`${row.group}/1/${row.port}`);
    if (ifIndex !== undefined && !out.has(ifIndex)) out.set(ifIndex, row);
  }
  return out;
}

export function arubaCxPoePart(): PoePart {
  const standard = standardPoe({ map: byMemberPortName });
  return {
    ...standard,
    reads: (purpose) =>
      purpose === "vlans"
        ? {}
        : {
            ...standard.reads(purpose),
            [DRAWN]: {
              label: "arubaWiredPoePethPsePortTable",
              columns: [arubaCxPoe.arubaWiredPoePethPsePortPowerDrawn],
            },
          },
    ports(tables: Tables, ports: PortMap): Map<number, PoePort> {
      const out = standard.ports(tables, ports);
      const drawn = tables.columns(DRAWN)?.get(arubaCxPoe.arubaWiredPoePethPsePortPowerDrawn);
      for (const port of out.values()) {
        const vb = drawn?.get(port.index);
        if (vb) port.info = { ...port.info, power_consumption_supported: true, power_consumed: asInt(vb) };
      }
      return out;
    },
  };
}
