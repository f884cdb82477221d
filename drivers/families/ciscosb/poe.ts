/**
 * PoE of Cisco small business switches: POWER-ETHERNET-MIB pethPsePortTable when the
 * switch answers it, else the vendor table CISCOSB-POE-MIB rlPethPsePortTable (a CBS350
 * as recorded has only that one). Both are indexed group.port with the port being the
 * ifIndex (unit 1 ports 1.1.., unit 2 ports 2.53..), so the standard port map applies.
 *
 * The vendor table has no admin column: a port shows Enabled when rlPethPsePortOperStatus
 * is true (powered as its admin state and time range allow), Delivering when it also
 * puts out power (rlPethPsePortOutputPower, milliwatts), else Searching. A port off for
 * another reason than its admin state (overload, time range) therefore shows Disabled.
 * Both tables are read in the same plan (no second round trip); writes go to the
 * standard pethPsePortAdminEnable and are read back there, so a switch without it
 * answers the write with an error, never a success.
 */
import { ciscoSbPoe } from "../../../mib/ciscosb";
import type { Plan, PoePart, PoePort, PortMap, Purpose, Tables } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { devicePoe, poeByInterface, type PoeRow } from "../../snmp/parts/poe-tables";
import type { Columns } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";

const VENDOR = "ciscosb.rlPethPsePortTable";
const TRUE = 1;

interface VendorRow extends PoeRow {
  operOn: boolean;
  /** milliwatts put out now, and the port's operational limit */
  power: number;
  limit: number;
}

function vendorRows(table: Columns | undefined): VendorRow[] {
  const oper = table?.get(ciscoSbPoe.rlPethPsePortOperStatus);
  const power = table?.get(ciscoSbPoe.rlPethPsePortOutputPower);
  const limit = table?.get(ciscoSbPoe.rlPethPsePortOperPowerLimit);
  const rows: VendorRow[] = [];
  for (const [index, vb] of oper ?? []) {
    const [group, port] = index.split(".").map(Number);
    if (!Number.isInteger(group) || !Number.isInteger(port)) continue;
    const operOn = asInt(vb) === TRUE;
    const p = power?.get(index);
    const l = limit?.get(index);
    // admin and detection in POWER-ETHERNET-MIB's numbers: 1 true / 2 false; 3 delivering, 2 searching, 1 disabled
    const watts = p ? asInt(p) : 0;
    const detection = !operOn ? 1 : watts > 0 ? 3 : 2;
    rows.push({ index, group, port, admin: operOn ? 1 : 2, detection, operOn, power: watts, limit: l ? asInt(l) : 0 });
  }
  return rows;
}

export function ciscoSbPoePart(): PoePart {
  const standard = standardPoe();
  const vendorIn = (tables: Tables) => vendorRows(tables.columns(VENDOR));
  const standardAnswers = (tables: Tables, ports: PortMap) => standard.ports(tables, ports).size > 0;
  return {
    reads(purpose: Purpose): Plan {
      const plan = standard.reads(purpose);
      if (purpose === "vlans") return plan;
      plan[VENDOR] = {
        label: "rlPethPsePortTable",
        columns: [
          ciscoSbPoe.rlPethPsePortOperStatus,
          ciscoSbPoe.rlPethPsePortOutputPower,
          ciscoSbPoe.rlPethPsePortOperPowerLimit,
        ],
      };
      return plan;
    },

    ports(tables: Tables, ports: PortMap): Map<number, PoePort> {
      if (standardAnswers(tables, ports)) return standard.ports(tables, ports);
      const rows = vendorIn(tables);
      const out = new Map<number, PoePort>();
      for (const [ifIndex, row] of poeByInterface(rows, ports)) {
        const r = row as VendorRow;
        out.set(ifIndex, {
          index: r.index,
          info: {
            admin_status: r.operOn ? "Enabled" : "Disabled",
            detect_status: r.detection === 3 ? "Delivering" : r.detection === 2 ? "Searching" : "Disabled",
            power_consumption_supported: true,
            power_consumed: r.power,
            power_available: r.limit,
            max_power_consumed: r.limit,
          },
        });
      }
      return out;
    },

    device(tables: Tables) {
      return standard.device(tables) ?? devicePoe(undefined, vendorIn(tables).length);
    },

    set: (session, port, on) => standard.set(session, port, on),
  };
}
