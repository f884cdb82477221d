/**
 * Broadcom FASTPATH derivatives. Both serve all of Q-BRIDGE, read and write (the
 * Q-BRIDGE mode option decides how writes move ports), and the VLAN-aware MAC table
 * only, as recorded.
 *
 * EdgeSwitch / UniFi saves with EdgeSwitch-SWITCHING-MIB agentSaveConfig.0 = enable(1):
 * agentSaveConfigStatus.0 goes notInitiated(1) -> savingInProcess(2) -> savingComplete(3)
 * over a few hundred milliseconds, and the save happens when it completes.
 * agentSaveConfig reads disable(2) when no save runs.
 *
 * FS: no save object is known from a MIB (none was available), so changes stay in
 * running: nothing here saves them.
 */
import { edgeSwitch } from "../../../../mib/fastpath";
import type { FamilyFactory } from "../family";
import { FamilyState, JobTimers } from "../family-state";
import { qbridgeFamily } from "../standard";
import { integer } from "../../../../mib/smi-values";
import { parseOid } from "../../oid";
import { E, isInt, plain, qbridgeColumns, type WritableColumn } from "../writable";

const SAVE = { notInitiated: 1, inProcess: 2, complete: 3 } as const;

export const edgeswitchFamily: FamilyFactory = (sw, env) => {
  const status = new FamilyState<{ status: number }>(
    { status: SAVE.notInitiated },
    (s) => ({ ...s }),
    () => "",
  );
  const timers = new JobTimers();
  const saveConfig: WritableColumn = {
    column: parseOid(edgeSwitch.agentSaveConfig),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value !== 1 && value.value !== 2) return E.wrongValue;
      if (instance.length !== 1 || instance[0] !== 0) return E.noCreation;
      if (value.value === 2) return E.noError;
      tx.state(status).status = SAVE.inProcess;
      tx.afterCommit.push(() =>
        timers.job(
          () => undefined,
          () => {
            sw.save();
            status.value = { status: SAVE.complete };
          },
        ),
      );
      return E.noError;
    },
  };
  const family = qbridgeFamily(sw, env, {
    dot1dFdb: false,
    addFixed(b) {
      b.scalar(edgeSwitch.agentSaveConfig, () => integer(status.current().status === SAVE.inProcess ? 1 : 2)).scalar(
        edgeSwitch.agentSaveConfigStatus,
        () => integer(status.current().status),
      );
    },
    set: { columns: [...qbridgeColumns(sw), saveConfig] },
  });
  return {
    ...family,
    onReboot() {
      timers.clear();
      status.value = { status: SAVE.notInitiated };
    },
    close: () => timers.clear(),
  };
};

export const fsFamily: FamilyFactory = (sw, env) => qbridgeFamily(sw, env, { dot1dFdb: false });
