/**
 * The HPE Comware family: Q-BRIDGE to read (static table and PVIDs, no current table, as
 * recorded), HH3C tables to read and write port VLANs (vlan.ts), HH3C-CONFIG-MAN-MIB to
 * save (save.ts). Q-BRIDGE itself takes no writes but dot1qPvid.
 */
import { hh3cPoe } from "../../../../mib/comware";
import { addBridgePorts, addQBridgeBase, addVlanTables } from "../bridge";
import type { FamilyFactory } from "../family";
import { JobTimers } from "../family-state";
import { poePorts } from "../poe";
import { addCommon } from "../standard";
import { integer } from "../../../../mib/smi-values";
import { ifAdminStatus, ifAlias, pethPsePortAdminEnable, type WritableColumn } from "../writable";
import { addComwareSaveRows, comwareSaveColumns, comwareSaveState, finishComwareSave } from "./save";
import { addComwareVlanTables, comwareVlanColumns } from "./vlan";

export const comwareFamily: FamilyFactory = (sw) => {
  const save = comwareSaveState();
  const timers = new JobTimers();
  const columns: WritableColumn[] = [ifAdminStatus, ifAlias, ...comwareVlanColumns(sw), ...comwareSaveColumns(save)];
  if (sw.poeMain) columns.push(pethPsePortAdminEnable);
  return {
    addFixed(b) {
      addCommon(b, sw);
      addBridgePorts(b, sw);
      addQBridgeBase(b, sw);
      if (!sw.poeMain) return;
      const { ports, byPort } = poePorts(sw);
      b.column(hh3cPoe.hh3cPsePortCurrentPower, ports, byPort, (i) => integer(sw.poeState(i.ifIndex)!.powerMw));
    },
    addRows(b) {
      addVlanTables(b, sw, { current: false, staticColumns: ["name", "egress", "untagged"] });
      addComwareVlanTables(b, sw);
      addComwareSaveRows(b, save);
    },
    // hh3cifVLANTrunkStatusTable rows follow the port modes
    rowsFollowConfig: true,
    set: {
      columns,
      finish: (tx) => finishComwareSave(tx, save, sw, timers),
      vlanProblems: (staged) => sw.consistencyProblems(staged),
    },
    onReboot() {
      timers.clear();
      const structural = save.current().operates.size + save.current().results.size > 0;
      save.value = { operates: new Map(), results: new Map(), nextResult: 1 };
      if (structural) sw.structureVersion++;
    },
    close: () => timers.clear(),
  };
};
