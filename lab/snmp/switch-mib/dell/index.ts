/**
 * Dell EMC OS10, as recorded: Q-BRIDGE static names and the current table (egress and
 * untagged bitmaps over bridge ports that are not ifIndexes), no dot1qPvid - a manager
 * finds a port's untagged VLAN in the current untagged bitmaps through
 * dot1dBasePortIfIndex. LLDP local ports are OS10's own numbers (see the profile).
 *
 * Writes: ifAdminStatus and ifAlias; the VLAN tables are read-only (notWritable). No
 * save object exists for OS10 in the project's MIBs (FORCE10-COPY-CONFIG is OS9's), so
 * changes stay in the running configuration: nothing here saves them.
 */
import { addBridgePorts, addQBridgeBase, addVlanTables } from "../bridge";
import type { FamilyFactory } from "../family";
import { addCommon } from "../standard";
import { ifAdminStatus, ifAlias, pethPsePortAdminEnable, type WritableColumn } from "../writable";

export const dellFamily: FamilyFactory = (sw) => {
  const columns: WritableColumn[] = [ifAdminStatus, ifAlias];
  if (sw.poeMain) columns.push(pethPsePortAdminEnable);
  return {
    addFixed(b) {
      addCommon(b, sw);
      addBridgePorts(b, sw);
      addQBridgeBase(b, sw, { pvid: false });
    },
    addRows: (b) => addVlanTables(b, sw, { current: {}, staticColumns: ["name"] }),
    set: { columns },
  };
};
