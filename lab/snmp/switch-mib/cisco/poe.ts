/**
 * How IOS ties PoE ports to interfaces: pethPsePortTable is indexed stack member.port,
 * CISCO-POWER-ETHERNET-EXT-MIB cpeExtPsePortTable augments it with per-port power and
 * an ENTITY-MIB index, whose entAliasMappingIdentifier points at the ifIndex; CISCO-STACK
 * portIfIndex (module.port) is the older second path. Entities of ports are numbered
 * 1000 * member + 9 + port, as recorded on a 2960-X.
 */
import { poeExt, stack } from "../../../../mib/cisco";
import { entity } from "../../../../mib/oids";
import { entityExtra } from "../../../../mib/standard-extra";
import type { LabInterface } from "../../../hardware";
import type { VirtualSwitch } from "../../../model";
import { ciscoMemberPort } from "../../../profiles/cisco";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, objectId, octets } from "../../../../mib/smi-values";
import { E, isInt, plain, type WritableColumn } from "../writable";

export const portEntity = (i: LabInterface) => {
  const { member, port } = ciscoMemberPort(i.portNumber!);
  return 1000 * member + 9 + port;
};

/** PoE budget of one port (PoE+), milliwatts */
const PORT_MAX_MW = 30000;

export function addCiscoEntitiesAndPoe(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const ports = sw.ethernetPorts;
  const byEnt = (i: LabInterface) => [portEntity(i)];
  b.column(entity.entPhysicalDescr, ports, byEnt, () => octets("Gigabit Ethernet Port"))
    .column(entity.entPhysicalClass, ports, byEnt, () => integer(10))
    .column(entityExtra.entPhysicalName, ports, byEnt, (i) => octets(i.descr))
    .column(
      entityExtra.entAliasMappingIdentifier,
      ports,
      (i) => [portEntity(i), 0],
      (i) => objectId(parseOid(`1.3.6.1.2.1.2.2.1.1.${i.ifIndex}`)),
    );

  const byModulePort = (i: LabInterface) => {
    const { member, port } = ciscoMemberPort(i.portNumber!);
    return [member, port];
  };
  b.column(stack.portIfIndex, ports, byModulePort, (i) => integer(i.ifIndex));

  const powered = ports.filter((i) => i.poe);
  if (!sw.poeMain || powered.length === 0) return;
  const byPoe = (i: LabInterface) => [i.poe!.group, i.poe!.index];
  const state = (i: LabInterface) => sw.poeState(i.ifIndex)!;
  b.column(poeExt.cpeExtPsePortEnable, powered, byPoe, (i) => integer(state(i).enabled ? 1 : 4))
    .column(poeExt.cpeExtPsePortDiscoverMode, powered, byPoe, () => integer(5))
    .column(poeExt.cpeExtPsePortDeviceDetected, powered, byPoe, (i) => integer(state(i).powerMw > 0 ? 1 : 2))
    .column(poeExt.cpeExtPsePortIeeePd, powered, byPoe, (i) => integer(state(i).powerMw > 0 ? 1 : 2))
    .column(poeExt.cpeExtPsePortPwrMax, powered, byPoe, () => integer(PORT_MAX_MW))
    .column(poeExt.cpeExtPsePortPwrAllocated, powered, byPoe, (i) => integer(state(i).powerMw > 0 ? PORT_MAX_MW : 0))
    .column(poeExt.cpeExtPsePortPwrAvailable, powered, byPoe, (i) => integer(state(i).enabled ? PORT_MAX_MW : 0))
    .column(poeExt.cpeExtPsePortPwrConsumption, powered, byPoe, (i) => integer(state(i).powerMw))
    .column(poeExt.cpeExtPsePortMaxPwrDrawn, powered, byPoe, (i) => integer(state(i).powerMw))
    .column(poeExt.cpeExtPsePortEntPhyIndex, powered, byPoe, (i) => integer(portEntity(i)));
}

/**
 * cpeExtPsePortEnable: auto(1) powers the port, disable(4) does not. static(2) and
 * limit(3) are refused with wrongValue: the lab keeps only on or off per port.
 */
export function cpeExtPsePortEnable(sw: VirtualSwitch): WritableColumn {
  return {
    column: parseOid(poeExt.cpeExtPsePortEnable),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value !== 1 && value.value !== 4) return E.wrongValue;
      const port = instance.length === 2 ? sw.interfaceOfPoePort(instance[0], instance[1]) : undefined;
      if (!port) return E.noCreation;
      tx.config().ports.get(port.ifIndex)!.poeEnabled = value.value === 1;
      return E.noError;
    },
  };
}
