/**
 * Juniper Junos (ELS): VLANs in JUNIPER-L2ALD-MIB jnxL2aldVlanTable, indexed by an
 * internal id that is not the tag (the user VLANs from 2 up, "default" last, as
 * recorded); PVIDs in dot1qPvid by bridge port (4096 + n, mapped to the physical ifIndex
 * by dot1dBasePortIfIndex); Q-BRIDGE static egress and untagged lists indexed by tag and
 * served as text, comma-separated bridge port numbers, as ELS Junos does; no static
 * names, no current table. The MAC table learns into jnxL2aldVlanFdbId.
 *
 * Junos is read-only over SNMP: every SET, whatever it names, is refused with
 * notWritable at its first varbind and changes nothing. A Junos commit is persistent,
 * so there is nothing to save.
 */
import { jnxL2aldVlan } from "../../../../mib/juniper";
import type { VirtualSwitch } from "../../../model";
import { addBridgePorts, addQBridgeBase, addVlanTables } from "../bridge";
import type { FamilyFactory } from "../family";
import { addCommon } from "../standard";
import { gauge, integer, noSuchInstance, octets } from "../../../../mib/smi-values";
import { E } from "../writable";

/** internal id of each VLAN tag: the others from 2 in tag order, default (1) after them */
function internalIds(sw: VirtualSwitch): Map<number, number> {
  const tags = sw.vlanIds().filter((t) => t !== 1);
  const ids = new Map<number, number>(tags.map((t, k) => [t, k + 2]));
  if (sw.vlan(1)) ids.set(1, tags.length + 2);
  return ids;
}

export const juniperFamily: FamilyFactory = (sw) => ({
  addFixed(b) {
    addCommon(b, sw);
    addBridgePorts(b, sw);
    const ids = internalIds(sw);
    addQBridgeBase(b, sw, { pvid: true, fdbId: (vlan) => ids.get(vlan) ?? vlan });
  },
  addRows(b) {
    addVlanTables(b, sw, { current: false, staticColumns: ["egress", "untagged"], commaLists: true });
    const ids = internalIds(sw);
    const rows = [...ids].sort(([, a], [, b2]) => a - b2);
    const byId = ([, id]: [number, number]) => [id];
    const name = (tag: number) => sw.vlan(tag)?.name;
    b.column(jnxL2aldVlan.jnxL2aldVlanName, rows, byId, ([tag]) =>
      name(tag) === undefined ? noSuchInstance : octets(name(tag)!),
    )
      .column(jnxL2aldVlan.jnxL2aldVlanTag, rows, byId, ([tag]) => integer(tag))
      .column(jnxL2aldVlan.jnxL2aldVlanType, rows, byId, () => integer(1))
      .column(jnxL2aldVlan.jnxL2aldVlanFdbId, rows, byId, ([, id]) => gauge(id));
  },
  set: { columns: [], refuseAll: () => [E.notWritable, 1] },
});
