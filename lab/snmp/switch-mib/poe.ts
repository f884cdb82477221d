/**
 * POWER-ETHERNET-MIB port and main PSE tables. One main PSE row per group the PoE ports
 * are in (a stack member on stacked families). Vendor tables with per-port power are
 * added by the families (see poePorts for their rows).
 */
import { poe } from "../../../mib/oids";
import type { LabInterface } from "../../hardware";
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { gauge, integer } from "../../../mib/smi-values";
import * as lab from "./lab-oids";

/** the PoE ports and their group.port index, for vendor tables that augment pethPsePortTable */
export function poePorts(sw: VirtualSwitch): { ports: LabInterface[]; byPort: (i: LabInterface) => number[] } {
  return { ports: sw.interfaces.filter((i) => i.poe), byPort: (i) => [i.poe!.group, i.poe!.index] };
}

export function addPoe(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const main = sw.poeMain;
  if (!main) return;
  const { ports, byPort } = poePorts(sw);
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

  const groups = [...new Set(ports.map((i) => i.poe!.group))].sort((a, b) => a - b);
  const single = groups.length === 1;
  const byGroup = (g: number) => [g];
  b.column(poe.pethMainPsePower, groups, byGroup, () =>
    gauge(single ? main.maxPowerW : Math.round(main.maxPowerW / groups.length)),
  )
    .column(poe.pethMainPseOperStatus, groups, byGroup, () => integer(1))
    .column(poe.pethMainPseConsumptionPower, groups, byGroup, (g) =>
      gauge(single ? sw.poeConsumedW() : sw.poeConsumedW(g)),
    )
    .column(poe.pethMainPseUsageThreshold, groups, byGroup, () => integer(main.thresholdPct));
}
