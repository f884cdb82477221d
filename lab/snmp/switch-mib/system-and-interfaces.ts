/** SNMPv2-MIB system group, IF-MIB ifTable/ifXTable, EtherLike duplex and the ENTITY-MIB chassis row. */
import { dot3StatsDuplexStatus, entity, ifTable, ifXTable, system } from "../../../mib/oids";
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { parseOid } from "../oid";
import { counter32, counter64, gauge, integer, objectId, octets, timeTicks } from "../../../mib/smi-values";
import * as lab from "./lab-oids";

export function addSystemAndInterfaces(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const s = sw.system;
  const descr = octets(s.sysDescr);
  const objId = objectId(parseOid(s.sysObjectID));
  const contact = octets(s.sysContact);
  const name = octets(s.sysName);
  const location = octets(s.sysLocation);
  b.scalar(system.sysDescr, () => descr)
    .scalar(system.sysObjectID, () => objId)
    .scalar(system.sysUpTime, () => timeTicks(sw.uptimeTicks()))
    .scalar(system.sysContact, () => contact)
    .scalar(system.sysName, () => name)
    .scalar(system.sysLocation, () => location)
    .scalar(lab.sysServices, () => integer(2));

  const ifs = sw.interfaces;
  const byIf = (i: { ifIndex: number }) => [i.ifIndex];
  b.scalar(lab.ifNumber, () => integer(ifs.length));
  b.column(ifTable.ifIndex, ifs, byIf, (i) => integer(i.ifIndex))
    .column(ifTable.ifDescr, ifs, byIf, (i) => octets(i.descr))
    .column(ifTable.ifType, ifs, byIf, (i) => integer(i.ifType))
    .column(ifTable.ifMtu, ifs, byIf, (i) => integer(i.mtu))
    .column(ifTable.ifSpeed, ifs, byIf, (i) => gauge(Math.min(i.speedMbps * 1e6, 4294967295)))
    .column(ifTable.ifPhysAddress, ifs, byIf, (i) => octets(i.mac))
    .column(ifTable.ifAdminStatus, ifs, byIf, (i) => integer(sw.adminUp(i.ifIndex) ? 1 : 2))
    .column(ifTable.ifOperStatus, ifs, byIf, (i) => integer(sw.operUp(i.ifIndex) ? 1 : 2))
    .column(lab.ifLastChange, ifs, byIf, () => timeTicks(0))
    .column(lab.ifInOctets, ifs, byIf, (i) => counter32(i.inOctets % 2 ** 32))
    .column(lab.ifOutOctets, ifs, byIf, (i) => counter32(i.outOctets % 2 ** 32));

  b.column(ifXTable.ifName, ifs, byIf, (i) => octets(i.name))
    .column(lab.ifHCInOctets, ifs, byIf, (i) => counter64(BigInt(i.inOctets)))
    .column(lab.ifHCOutOctets, ifs, byIf, (i) => counter64(BigInt(i.outOctets)))
    .column(ifXTable.ifHighSpeed, ifs, byIf, (i) => gauge(i.speedMbps))
    .column(ifXTable.ifAlias, ifs, byIf, (i) => octets(sw.alias(i.ifIndex)));

  // dot3StatsDuplexStatus: 1 unknown (no link), 2 halfDuplex, 3 fullDuplex
  const ethernet = ifs.filter((i) => i.ifType === 6);
  b.column(dot3StatsDuplexStatus, ethernet, byIf, (i) =>
    integer(!sw.operUp(i.ifIndex) ? 1 : i.duplex === "half" ? 2 : 3),
  );

  const chassis = [1];
  const one = () => [1];
  b.column(entity.entPhysicalDescr, chassis, one, () => octets(s.sysDescr))
    .column(entity.entPhysicalClass, chassis, one, () => integer(3))
    .column(lab.entPhysicalName, chassis, one, () => octets("chassis"))
    .column(entity.entPhysicalSoftwareRev, chassis, one, () => octets(s.softwareVersion))
    .column(entity.entPhysicalSerialNum, chassis, one, () => octets(s.serial))
    .column(entity.entPhysicalModelName, chassis, one, () => octets(s.model));
}
