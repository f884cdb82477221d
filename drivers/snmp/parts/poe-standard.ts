/**
 * PoE through POWER-ETHERNET-MIB (RFC 3621): the ports' admin and detection state from
 * pethPsePortTable, the supplies from pethMainPseTable, writes of pethPsePortAdminEnable.
 * How a "group.port" index maps to an interface is the vendor's choice; the default rule
 * is in poe-tables.ts, and a family may give its own map (Cisco maps through the entity MIB).
 */
import { poe } from "../../../mib/oids";
import type { SnmpSession } from "../session";
import { intWrite, writeVerified } from "../verified-write";
import type { Plan, PoePart, PoePort, PortMap, Purpose, Tables } from "./part";
import { devicePoe, poeByInterface, poePortInfo, poeRows, type PoeRow } from "./poe-tables";

const PORTS = "poe.ports";
const SUPPLIES = "poe.supplies";

export interface StandardPoeOptions {
  /** reads the family needs to map ports (besides the PoE tables) */
  mapReads?: Plan;
  /** the family's own map from PoE rows to ifIndexes; the default rule otherwise */
  map?(rows: PoeRow[], tables: Tables, ports: PortMap): Map<number, PoeRow>;
}

/** the PSE table (power supplies), for the device's PoE summary; families with their own port tables read it too */
export const mainPseRead = {
  label: "pethMainPseTable",
  columns: [
    poe.pethMainPsePower,
    poe.pethMainPseOperStatus,
    poe.pethMainPseConsumptionPower,
    poe.pethMainPseUsageThreshold,
  ],
  rows: 4,
};

export function standardPoe(options: StandardPoeOptions = {}): PoePart {
  return {
    reads(purpose: Purpose): Plan {
      if (purpose === "vlans") return {};
      const plan: Plan = {
        [PORTS]: { label: "pethPsePortTable", columns: [poe.pethPsePortAdminEnable, poe.pethPsePortDetectionStatus] },
        ...options.mapReads,
      };
      if (purpose === "learn") {
        plan[SUPPLIES] = mainPseRead;
      }
      return plan;
    },

    ports(tables: Tables, ports: PortMap): Map<number, PoePort> {
      const rows = poeRows(tables.columns(PORTS));
      const byIfIndex = options.map ? options.map(rows, tables, ports) : poeByInterface(rows, ports);
      const out = new Map<number, PoePort>();
      for (const [ifIndex, row] of byIfIndex) out.set(ifIndex, { info: poePortInfo(row), index: row.index });
      return out;
    },

    device(tables: Tables) {
      return devicePoe(tables.columns(SUPPLIES), poeRows(tables.columns(PORTS)).length);
    },

    async set(session: SnmpSession, port: PoePort, on: boolean): Promise<void> {
      await writeVerified(session, [intWrite(`${poe.pethPsePortAdminEnable}.${port.index}`, on ? 1 : 2)]);
    },
  };
}
