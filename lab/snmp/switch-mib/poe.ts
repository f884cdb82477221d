/** POWER-ETHERNET-MIB port and main PSE tables, plus per-port power on profiles that have a vendor table for it. */
import { poe } from "../../../mib/oids";
import type { LabInterface } from "../../hardware";
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { gauge, integer } from "../values";
import * as lab from "./lab-oids";

export function addPoe(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const main = sw.poeMain;
  const ports = sw.interfaces.filter((i) => i.poe);
  if (!main) return;
  const byPort = (i: LabInterface) => [i.poe!.group, i.poe!.index];
  const state = (i: LabInterface) => sw.poeState(i.ifIndex)!;
  b.column(poe.pethPsePortAdminEnable, ports, byPort, (i) => integer(state(i).enabled ? 1 : 2))
    .column(lab.pethPsePortPowerPairsControlAbility, ports, byPort, () => integer(2))
    .column(lab.pethPsePortPowerPairs, ports, byPort, () => integer(1))
    .column(poe.pethPsePortDetectionStatus, ports, byPort, (i) => integer(state(i).detection))
    .column(lab.pethPsePortPowerPriority, ports, byPort, () => integer(3))
    // class0(1)..class4(5); a port that powers nothing reports class0
    .column(lab.pethPsePortPowerClassifications, ports, byPort, (i) =>
      integer(state(i).powerMw > 0 ? i.poe!.device!.powerClass + 1 : 1),
    );

  const groups = [main.group];
  const byGroup = (g: number) => [g];
  b.column(poe.pethMainPsePower, groups, byGroup, () => gauge(main.maxPowerW))
    .column(poe.pethMainPseOperStatus, groups, byGroup, () => integer(1))
    .column(poe.pethMainPseConsumptionPower, groups, byGroup, () => gauge(sw.poeConsumedW()))
    .column(poe.pethMainPseUsageThreshold, groups, byGroup, () => integer(main.thresholdPct));

  if (sw.profile.perPortPowerMib) {
    b.column(lab.rlPethPsePortOutputPower, ports, byPort, (i) => integer(state(i).powerMw));
  }
}
