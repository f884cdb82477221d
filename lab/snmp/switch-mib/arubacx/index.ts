/**
 * Aruba AOS-CX: what the recordings show it serves for VLANs is dot1qPvid by bridge port
 * (= ifIndex), the bridge port map and the VLAN-aware MAC table: no Q-BRIDGE VLAN tables,
 * so no VLAN names; a manager learns the VLAN ids from the PVIDs and from
 * ARUBAWIRED-PORTVLAN-MIB (mode and VID bitmap per port, served here too).
 *
 * Writes: AOS-CX takes SNMP SETs of ifAdminStatus and pethPsePortAdminEnable only, and
 * the config-copy table. Everything else - dot1qPvid, ifAlias, both PORTVLAN columns
 * (read-only in the MIB) - answers notWritable: an access VLAN cannot be changed over
 * SNMP on this family (the reference tool uses REST for it).
 *
 * Save: ARUBAWIRED-CONFIG-MIB arubaWiredConfigurationCopyTable (copy.ts).
 */
import { arubaCxConfig, arubaCxPoe, arubaCxPortVlan } from "../../../../mib/arubacx";
import type { LabInterface } from "../../../hardware";
import { addBridgePorts, addQBridgeBase } from "../bridge";
import type { FamilyFactory } from "../family";
import { FamilyState, JobTimers } from "../family-state";
import { poePorts } from "../poe";
import { addCommon } from "../standard";
import { integer, octets, timeTicks } from "../../../../mib/smi-values";
import { ifAdminStatus, pethPsePortAdminEnable, type WritableColumn } from "../writable";
import { addArubaCopyRows, arubaCopyColumns, arubaCopyState, finishArubaCopies } from "./copy";

/** VidList: 512 octets, first octet VIDs 1..8, most significant bit the lowest VID */
function vidList(vids: Iterable<number>): Buffer {
  const out = Buffer.alloc(512);
  for (const v of vids) if (v >= 1 && v <= 4096) out[(v - 1) >> 3] |= 0x80 >> ((v - 1) & 7);
  return out;
}

export const arubacxFamily: FamilyFactory = (sw) => {
  const copies = arubaCopyState();
  const timers = new JobTimers();
  const lastChange = new FamilyState(
    { ticks: 0 },
    (s) => ({ ...s }),
    () => "",
  );
  const columns: WritableColumn[] = [ifAdminStatus, ...arubaCopyColumns(copies)];
  if (sw.poeMain) columns.push(pethPsePortAdminEnable);

  return {
    addFixed(b) {
      addCommon(b, sw);
      addBridgePorts(b, sw);
      addQBridgeBase(b, sw);
      const ports = sw.ethernetPorts;
      const byIf = (i: LabInterface) => [i.ifIndex];
      const memberOf = (i: LabInterface) =>
        [...sw.running.vlans].filter(([, v]) => v.egress.has(i.bridgePort!)).map(([id]) => id);
      b.column(arubaCxPortVlan.arubaWiredPortVlanMemberMode, ports, byIf, (i) =>
        integer(sw.running.portModes.has(i.bridgePort!) ? 1 : 2),
      )
        .column(arubaCxPortVlan.arubaWiredPortVlanMemberVid, ports, byIf, (i) => octets(vidList(memberOf(i))))
        .scalar(arubaCxConfig.arubaWiredConfigurationChangeTimestamp, () => timeTicks(lastChange.current().ticks));
      if (!sw.poeMain) return;
      const { ports: powered, byPort } = poePorts(sw);
      const state = (i: LabInterface) => sw.poeState(i.ifIndex)!;
      b.column(arubaCxPoe.arubaWiredPoePethPsePortPowerDrawn, powered, byPort, (i) => integer(state(i).powerMw)).column(
        arubaCxPoe.arubaWiredPoePethPsePortOperStatus,
        powered,
        byPort,
        (i) => integer(state(i).enabled ? 3 : 2),
      );
    },
    addRows: (b) => addArubaCopyRows(b, copies),
    set: {
      columns,
      finish: (tx) => finishArubaCopies(tx, copies, sw, timers),
      afterCommit: (tx) => {
        if (tx.stagedConfig) lastChange.value = { ticks: sw.uptimeTicks() };
      },
    },
    onReboot() {
      timers.clear();
      if (copies.current().size > 0) sw.structureVersion++;
      copies.value = new Map();
    },
    close: () => timers.clear(),
  };
};
