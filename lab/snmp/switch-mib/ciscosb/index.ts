/**
 * Cisco small business: Q-BRIDGE like the generic family, plus the per-port power of
 * CISCOSB-POE-MIB and the one-PDU save of CISCOSB-COPY-MIB.
 */
import type { FamilyFactory } from "../family";
import { poePorts } from "../poe";
import { qbridgeFamily } from "../standard";
import { integer } from "../../../../mib/smi-values";
import * as lab from "../lab-oids";
import { qbridgeColumns } from "../writable";
import { addCiscoSbCopy, ciscoSbCopyColumns, finishCiscoSbCopies } from "./copy";

export const ciscosbFamily: FamilyFactory = (sw, env) =>
  qbridgeFamily(sw, env, {
    addFixed(b) {
      // rlPethPsePortOutputPower: the power a port delivers, mW (not in POWER-ETHERNET-MIB)
      if (!sw.poeMain) return;
      const { ports, byPort } = poePorts(sw);
      b.column(lab.rlPethPsePortOutputPower, ports, byPort, (i) => integer(sw.poeState(i.ifIndex)!.powerMw));
    },
    addRows: (b) => addCiscoSbCopy(b, sw),
    set: { columns: [...qbridgeColumns(sw), ...ciscoSbCopyColumns], finish: finishCiscoSbCopies },
  });
