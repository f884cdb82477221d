/** LLDP-MIB local ports and remote table, IP-MIB addresses and ARP tables. */
import { ip, lldp } from "../../../mib/oids";
import type { ArpEntry, LabInterface, LldpNeighbour } from "../../hardware";
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { integer, ipAddress, octets } from "../../../mib/smi-values";
import * as lab from "./lab-oids";

const ipParts = (dotted: string) => dotted.split(".").map(Number);

export function addNeighbours(b: MibIndexBuilder, sw: VirtualSwitch): void {
  b.scalar(lab.lldpLocChassisIdSubtype, () => integer(4))
    .scalar(lab.lldpLocChassisId, () => octets(sw.system.baseMac))
    .scalar(lab.lldpLocSysName, () => octets(sw.system.sysName));
  // lldpLocPortNum is the agent's own numbering: the bridge port on most, the ifIndex
  // on some, something else again on OS10 (the profile says which)
  const locPorts = sw.ethernetPorts;
  const portNum = (i: LabInterface) => sw.profile.lldpPortNum(i);
  const byLocal = (i: LabInterface) => [portNum(i)];
  b.column(lab.lldpLocPortIdSubtype, locPorts, byLocal, () => integer(5))
    .column(lldp.lldpLocPortId, locPorts, byLocal, (i) => octets(i.name))
    .column(lab.lldpLocPortDesc, locPorts, byLocal, (i) => octets(i.descr));

  const rem = sw.lldp;
  const localNum = (n: LldpNeighbour) => portNum(sw.interfaceOfBridgePort(n.localPort)!);
  const byRem = (n: LldpNeighbour) => [0, localNum(n), n.remIndex];
  b.column(lldp.lldpRemChassisIdSubtype, rem, byRem, (n) => integer(n.chassisIdSubtype))
    .column(lldp.lldpRemChassisId, rem, byRem, (n) => octets(n.chassisId))
    .column(lldp.lldpRemPortIdSubtype, rem, byRem, (n) => integer(n.portIdSubtype))
    .column(lldp.lldpRemPortId, rem, byRem, (n) => octets(n.portId))
    .column(lldp.lldpRemPortDesc, rem, byRem, (n) => octets(n.portDesc))
    .column(lldp.lldpRemSysName, rem, byRem, (n) => octets(n.sysName))
    .column(lldp.lldpRemSysDesc, rem, byRem, (n) => octets(n.sysDesc))
    .column(lldp.lldpRemSysCapSupported, rem, byRem, (n) => octets(Buffer.from([n.capSupported, 0])))
    .column(lldp.lldpRemSysCapEnabled, rem, byRem, (n) => octets(Buffer.from([n.capEnabled, 0])));

  // lldpRemManAddrTable: index timeMark.localPort.remIndex.addrSubtype(1 ipv4).len(4).address
  const withAddr = rem.filter((n) => n.mgmtIpv4);
  const byAddr = (n: LldpNeighbour) => [0, localNum(n), n.remIndex, 1, 4, ...ipParts(n.mgmtIpv4!)];
  b.column(lldp.lldpRemManAddrIfSubtype, withAddr, byAddr, () => integer(2)).column(
    lab.lldpRemManAddrIfId,
    withAddr,
    byAddr,
    () => integer(0),
  );

  const addressed = sw.interfaces.filter((i) => i.ipv4);
  const byIp = (i: LabInterface) => ipParts(i.ipv4!.address);
  b.column(lab.ipAdEntAddr, addressed, byIp, (i) => ipAddress(i.ipv4!.address))
    .column(ip.ipAdEntIfIndex, addressed, byIp, (i) => integer(i.ifIndex))
    .column(ip.ipAdEntNetMask, addressed, byIp, (i) => ipAddress(i.ipv4!.mask));

  const arp = sw.arp;
  const byArp = (a: ArpEntry) => [a.ifIndex, ...ipParts(a.ip)];
  b.column(lab.ipNetToMediaIfIndex, arp, byArp, (a) => integer(a.ifIndex))
    .column(ip.ipNetToMediaPhysAddress, arp, byArp, (a) => octets(a.mac))
    .column(lab.ipNetToMediaNetAddress, arp, byArp, (a) => ipAddress(a.ip))
    .column(lab.ipNetToMediaType, arp, byArp, () => integer(3));
  // ipNetToPhysicalTable: index ifIndex.addrType(1 ipv4).len(4).address
  const byPhys = (a: ArpEntry) => [a.ifIndex, 1, 4, ...ipParts(a.ip)];
  b.column(ip.ipNetToPhysicalPhysAddress, arp, byPhys, (a) => octets(a.mac))
    .column(lab.ipNetToPhysicalType, arp, byPhys, () => integer(3))
    .column(lab.ipNetToPhysicalState, arp, byPhys, () => integer(1));
}
