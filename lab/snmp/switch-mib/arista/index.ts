/**
 * Arista EOS: Q-BRIDGE VLANs and PVIDs through the bridge port map, as recorded: static
 * names only (user VLAN names come wrapped in backslashes, as in the recording), the
 * current table with PortLists cut after their last non-zero octet (a VLAN without
 * untagged ports has a zero-length list), dot1qPvid. LLDP as standard. No PoE.
 *
 * Writes: ifAdminStatus, ifAlias and dot1qPvid, which alone moves a port (EOS needs
 * nothing else; "auto" Q-BRIDGE rules). VLAN creation, renaming and memberships are not
 * writable over SNMP on EOS (notWritable), nor is a save (ARISTA-CONFIG-COPY-MIB is not
 * served: notWritable), so changes stay in running.
 */
import { addBridgePorts, addQBridgeBase, addVlanTables } from "../bridge";
import type { FamilyFactory } from "../family";
import { addCommon } from "../standard";
import { dot1qPvid, ifAdminStatus, ifAlias } from "../writable";

export const aristaFamily: FamilyFactory = (sw) => ({
  addFixed(b) {
    addCommon(b, sw);
    addBridgePorts(b, sw);
    addQBridgeBase(b, sw);
  },
  addRows: (b) =>
    addVlanTables(b, sw, {
      current: { trimmed: true },
      staticColumns: ["name"],
      displayName: (id, name) => (id === 1 ? name : `\\${name}\\`),
    }),
  set: { columns: [ifAdminStatus, ifAlias, dot1qPvid] },
});
