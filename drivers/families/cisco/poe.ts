/**
 * PoE on Cisco IOS / IOS-XE: POWER-ETHERNET-MIB's port table (indexed stack member.port),
 * augmented by CISCO-POWER-ETHERNET-EXT-MIB cpeExtPsePortTable with per-port power and an
 * ENTITY-MIB index; entAliasMappingIdentifier.<entity>.0 of that index points at the
 * port's ifIndex. Some agents (the recorded 2960-X) serve only the Cisco table: its
 * cpeExtPsePortEnable (auto, static, limit; disable(4)) then gives the admin state and
 * takes the writes. Ports without an entity link fall back to the standard rules.
 */
import { poeExt } from "../../../mib/cisco";
import { ifTable, poe } from "../../../mib/oids";
import { entityExtra } from "../../../mib/standard-extra";
import type { Plan, PoePart, PoePort, PortMap, Purpose, Tables } from "../../snmp/parts/part";
import { mainPseRead } from "../../snmp/parts/poe-standard";
import { devicePoe, poeByInterface, poePortInfo, type PoeRow } from "../../snmp/parts/poe-tables";
import type { SnmpSession } from "../../snmp/session";
import { asInt, asText } from "../../snmp/varbind-values";
import { intWrite, writeVerified } from "../../snmp/verified-write";
import { namedFailure } from "./names";

const PORTS = "cisco.pethPorts";
const CISCO_PORTS = "cisco.cpeExtPorts";
const ALIASES = "cisco.entAlias";
const SUPPLIES = "cisco.pethMain";
/** the index prefix of a port that only the Cisco table has (writes go to cpeExtPsePortEnable) */
const CISCO_ONLY = "cpe:";
const CPE_AUTO = 1;
const CPE_DISABLE = 4;
const IF_INDEX_PREFIX = `${ifTable.ifIndex}.`;

interface CiscoPoeRow extends PoeRow {
  /** the row is in pethPsePortTable (else only in cpeExtPsePortTable) */
  standard: boolean;
  entity: number;
  consumedMw: number | null;
  availableMw: number | null;
  maxDrawnMw: number | null;
}

function rowsOf(tables: Tables): CiscoPoeRow[] {
  const std = tables.columns(PORTS);
  const ext = tables.columns(CISCO_PORTS);
  const admin = std?.get(poe.pethPsePortAdminEnable);
  const detection = std?.get(poe.pethPsePortDetectionStatus);
  const enable = ext?.get(poeExt.cpeExtPsePortEnable);
  const number = (column: string, index: string) => {
    const vb = ext?.get(column)?.get(index);
    return vb ? asInt(vb) : null;
  };
  const rows: CiscoPoeRow[] = [];
  for (const index of new Set([...(admin?.keys() ?? []), ...(enable?.keys() ?? [])])) {
    const [group, port, extra] = index.split(".").map(Number);
    if (!Number.isInteger(group) || !Number.isInteger(port) || extra !== undefined) continue;
    const a = admin?.get(index);
    const d = detection?.get(index);
    rows.push({
      index,
      group,
      port,
      standard: !!a,
      admin: a ? asInt(a) : asInt(enable?.get(index)) === CPE_DISABLE ? 2 : 1,
      detection: d ? asInt(d) : null,
      entity: number(poeExt.cpeExtPsePortEntPhyIndex, index) ?? 0,
      consumedMw: number(poeExt.cpeExtPsePortPwrConsumption, index),
      availableMw: number(poeExt.cpeExtPsePortPwrAvailable, index),
      maxDrawnMw: number(poeExt.cpeExtPsePortMaxPwrDrawn, index),
    });
  }
  return rows;
}

export function ciscoPoe(): PoePart {
  return {
    reads(purpose: Purpose): Plan {
      if (purpose === "vlans") return {};
      const plan: Plan = {
        [PORTS]: { label: "pethPsePortTable", columns: [poe.pethPsePortAdminEnable, poe.pethPsePortDetectionStatus] },
        [CISCO_PORTS]: {
          label: "cpeExtPsePortTable",
          columns: [
            poeExt.cpeExtPsePortEnable,
            poeExt.cpeExtPsePortEntPhyIndex,
            poeExt.cpeExtPsePortPwrConsumption,
            poeExt.cpeExtPsePortPwrAvailable,
            poeExt.cpeExtPsePortMaxPwrDrawn,
          ],
        },
        [ALIASES]: { label: "entAliasMappingTable", columns: [entityExtra.entAliasMappingIdentifier] },
      };
      if (purpose === "learn") {
        plan[SUPPLIES] = mainPseRead;
      }
      return plan;
    },

    ports(tables: Tables, ports: PortMap): Map<number, PoePort> {
      const rows = rowsOf(tables);
      const aliases = tables.columns(ALIASES)?.get(entityExtra.entAliasMappingIdentifier);
      const ifIndexOfEntity = (entity: number): number | null => {
        if (!entity) return null;
        const target = asText(aliases?.get(`${entity}.0`)).replace(/^\./, "");
        if (!target.startsWith(IF_INDEX_PREFIX)) return null;
        const ifIndex = Number(target.slice(IF_INDEX_PREFIX.length));
        return ports.ifIndexes.has(ifIndex) ? ifIndex : null;
      };
      const byIfIndex = new Map<number, CiscoPoeRow>();
      const unlinked: CiscoPoeRow[] = [];
      for (const row of rows) {
        const ifIndex = ifIndexOfEntity(row.entity);
        if (ifIndex === null) unlinked.push(row);
        else if (!byIfIndex.has(ifIndex)) byIfIndex.set(ifIndex, row);
      }
      for (const [ifIndex, row] of poeByInterface(unlinked, ports))
        if (!byIfIndex.has(ifIndex)) byIfIndex.set(ifIndex, row as CiscoPoeRow);

      const out = new Map<number, PoePort>();
      for (const [ifIndex, row] of byIfIndex) {
        const info = poePortInfo(row);
        if (row.consumedMw !== null) {
          info.power_consumption_supported = true;
          info.power_consumed = row.consumedMw;
          info.power_available = row.availableMw ?? 0;
          info.max_power_consumed = row.maxDrawnMw ?? 0;
        }
        out.set(ifIndex, { info, index: row.standard ? row.index : `${CISCO_ONLY}${row.index}` });
      }
      return out;
    },

    device(tables: Tables) {
      return devicePoe(tables.columns(SUPPLIES), rowsOf(tables).length);
    },

    async set(session: SnmpSession, port: PoePort, on: boolean): Promise<void> {
      const write = port.index.startsWith(CISCO_ONLY)
        ? intWrite(`${poeExt.cpeExtPsePortEnable}.${port.index.slice(CISCO_ONLY.length)}`, on ? CPE_AUTO : CPE_DISABLE)
        : intWrite(`${poe.pethPsePortAdminEnable}.${port.index}`, on ? 1 : 2);
      await namedFailure(writeVerified(session, [write]));
    },
  };
}
