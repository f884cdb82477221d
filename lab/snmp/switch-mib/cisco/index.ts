/**
 * The Cisco IOS family: no Q-BRIDGE; VLANs in CISCO-VTP-MIB (vtp.ts), port VLANs in
 * vmMembershipTable and vlanTrunkPortTable (ports.ts), BRIDGE-MIB per VLAN context
 * (bridge-contexts.ts), PoE tied to interfaces through entities (poe.ts), saves through
 * ccCopyTable and writeMem (save.ts).
 */
import type { FamilyFactory } from "../family";
import { JobTimers } from "../family-state";
import { addCommon } from "../standard";
import { E, ifAdminStatus, ifAlias, pethPsePortAdminEnable, type WritableColumn } from "../writable";
import { addVlanBridge, vlanContexts } from "./bridge-contexts";
import { addCiscoEntitiesAndPoe, cpeExtPsePortEnable } from "./poe";
import { addPortTables, portColumns } from "./ports";
import { addCopyRows, copyColumns, finishCopies, writeMem } from "./save";
import { ciscoState } from "./state";
import { addVtpFixed, addVtpRows, finishEditRows, vtpColumns } from "./vtp";

export const ciscoFamily: FamilyFactory = (sw, env) => {
  const options = env.vendor.cisco ?? {};
  const state = ciscoState(options.vtpMode ?? "transparent");
  const timers = new JobTimers();
  const sviIfIndex = sw.profile.layout(sw.portCount).svi.ifIndex;

  const columns: WritableColumn[] = [ifAdminStatus, ifAlias];
  if (sw.poeMain) columns.push(pethPsePortAdminEnable, cpeExtPsePortEnable(sw));
  columns.push(...vtpColumns(state, sw), ...portColumns(sw, state), ...copyColumns(state));
  if (options.writeMem ?? true) columns.push(writeMem);

  return {
    addFixed(b) {
      addCommon(b, sw);
      addVtpFixed(b, state);
      addCiscoEntitiesAndPoe(b, sw);
    },
    addRows(b) {
      addVtpRows(b, sw, state, sviIfIndex);
      addPortTables(b, sw, state);
      // the default context's bridge instance is VLAN 1's
      addVlanBridge(b, sw, 1);
      addCopyRows(b, state);
    },
    // vmMembershipTable rows and VLAN 1's bridge ports follow the port memberships
    rowsFollowConfig: true,
    set: {
      columns,
      finish(tx) {
        const edit = finishEditRows(tx, state);
        if (edit[0] !== E.noError) return edit;
        return finishCopies(tx, state, sw, timers);
      },
      // IOS keeps every port consistent whatever the manager writes (no Q-BRIDGE "strict" here)
      vlanProblems: (staged) => sw.consistencyProblems(staged),
    },
    contexts: vlanContexts(sw),
    onReboot() {
      timers.clear();
      const s = state.current();
      const structural = s.buffer !== null || s.copies.size > 0;
      // the edit buffer and copy requests do not survive a reboot (the MIB says so for the buffer)
      state.value = { ...s, buffer: null, owner: "", copies: new Map(), applyStatus: 2 };
      if (structural) sw.structureVersion++;
    },
    close: () => timers.clear(),
  };
};
