/**
 * HP ProCurve / Aruba AOS-S: Q-BRIDGE for VLANs, PVIDs and memberships (a port is
 * untagged in its PVID's VLAN and nowhere else; its PVID VLAN is in its egress list but
 * is no tag, which a manager must leave out when it lists tagged VLANs), PoE indexed
 * 1.<ifIndex> with HP-ICF-POE-MIB power beside it.
 *
 * Save: hpSwitchImplicitConfigSave is enable at boot, and then the switch writes memory
 * after every successful SNMP SET, so running equals startup after each change. A
 * manager may disable it (changes then stay in running) and save with hpSwitchSaveConfig
 * = saveConfig(2); the object always reads noConfigSave(1). A reboot enables it again,
 * as the MIB says.
 */
import { hpBasicConfig, hpPoe } from "../../../../mib/hp";
import type { FamilyFactory } from "../family";
import { FamilyState } from "../family-state";
import { poePorts } from "../poe";
import { qbridgeFamily } from "../standard";
import { integer } from "../../../../mib/smi-values";
import { parseOid } from "../../oid";
import { E, isInt, plain, qbridgeColumns, type WritableColumn } from "../writable";

export const procurveFamily: FamilyFactory = (sw, env) => {
  const implicit = new FamilyState<{ enabled: boolean }>(
    { enabled: true },
    (s) => ({ ...s }),
    () => "",
  );

  const implicitSave: WritableColumn = {
    column: parseOid(hpBasicConfig.hpSwitchImplicitConfigSave),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value !== 1 && value.value !== 2) return E.wrongValue;
      if (instance.length !== 1 || instance[0] !== 0) return E.noCreation;
      tx.state(implicit).enabled = value.value === 1;
      return E.noError;
    },
  };
  const saveConfig: WritableColumn = {
    column: parseOid(hpBasicConfig.hpSwitchSaveConfig),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value !== 1 && value.value !== 2) return E.wrongValue;
      if (instance.length !== 1 || instance[0] !== 0) return E.noCreation;
      if (value.value === 2) tx.afterCommit.push(() => sw.save());
      return E.noError;
    },
  };

  const family = qbridgeFamily(sw, env, {
    addFixed(b) {
      b.scalar(hpBasicConfig.hpSwitchSaveConfig, () => integer(1)).scalar(
        hpBasicConfig.hpSwitchImplicitConfigSave,
        () => integer(implicit.current().enabled ? 1 : 2),
      );
      if (!sw.poeMain) return;
      const { ports, byPort } = poePorts(sw);
      const state = (i: (typeof ports)[number]) => sw.poeState(i.ifIndex)!;
      b.column(hpPoe.hpicfPoePethPsePortPower, ports, byPort, (i) => integer(state(i).powerMw))
        .column(hpPoe.hpicfPoePethPsePortActualPower, ports, byPort, (i) => integer(state(i).powerMw))
        .column(hpPoe.hpicfPoePethPsePortOperStatus, ports, byPort, (i) => integer(!state(i).enabled ? 2 : 3));
    },
    set: {
      columns: [...qbridgeColumns(sw), implicitSave, saveConfig],
      // the implicit write memory after every successful SET
      afterCommit: () => {
        if (implicit.current().enabled) sw.save();
      },
    },
  });
  return {
    ...family,
    onReboot() {
      implicit.value = { enabled: true };
    },
  };
};
