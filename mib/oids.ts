/**
 * Numeric OIDs of the MIB objects switchdesk reads and writes, shared by the SNMP
 * drivers and the lab agent so both sides speak of the same objects. Columns are given
 * without their instance suffix. Names follow the MIB modules they come from.
 */

// SNMPv2-MIB system group (scalars, instance .0)
export const system = {
  sysDescr: "1.3.6.1.2.1.1.1",
  sysObjectID: "1.3.6.1.2.1.1.2",
  sysUpTime: "1.3.6.1.2.1.1.3",
  sysContact: "1.3.6.1.2.1.1.4",
  sysName: "1.3.6.1.2.1.1.5",
  sysLocation: "1.3.6.1.2.1.1.6",
} as const;

// IF-MIB ifTable / ifXTable columns (index ifIndex)
export const ifTable = {
  ifIndex: "1.3.6.1.2.1.2.2.1.1",
  ifDescr: "1.3.6.1.2.1.2.2.1.2",
  ifType: "1.3.6.1.2.1.2.2.1.3",
  ifMtu: "1.3.6.1.2.1.2.2.1.4",
  ifSpeed: "1.3.6.1.2.1.2.2.1.5",
  ifPhysAddress: "1.3.6.1.2.1.2.2.1.6",
  ifAdminStatus: "1.3.6.1.2.1.2.2.1.7",
  ifOperStatus: "1.3.6.1.2.1.2.2.1.8",
} as const;

export const ifXTable = {
  ifName: "1.3.6.1.2.1.31.1.1.1.1",
  ifHighSpeed: "1.3.6.1.2.1.31.1.1.1.15",
  ifAlias: "1.3.6.1.2.1.31.1.1.1.18",
} as const;

// EtherLike-MIB (index ifIndex): 1 unknown, 2 halfDuplex, 3 fullDuplex
export const dot3StatsDuplexStatus = "1.3.6.1.2.1.10.7.2.1.19";

// BRIDGE-MIB
export const bridge = {
  dot1dBasePortIfIndex: "1.3.6.1.2.1.17.1.4.1.2", // index bridge port -> ifIndex
  dot1dTpFdbPort: "1.3.6.1.2.1.17.4.3.1.2", // index mac[6] -> bridge port
} as const;

// Q-BRIDGE-MIB
export const qbridge = {
  dot1qNumVlans: "1.3.6.1.2.1.17.7.1.1.4", // scalar .0
  dot1qTpFdbPort: "1.3.6.1.2.1.17.7.1.2.2.1.2", // index fdbId.mac[6] -> bridge port
  // dot1qVlanCurrentTable, index timeMark.vlanIndex
  dot1qVlanFdbId: "1.3.6.1.2.1.17.7.1.4.2.1.3",
  dot1qVlanCurrentEgressPorts: "1.3.6.1.2.1.17.7.1.4.2.1.4",
  dot1qVlanCurrentUntaggedPorts: "1.3.6.1.2.1.17.7.1.4.2.1.5",
  dot1qVlanStatus: "1.3.6.1.2.1.17.7.1.4.2.1.6", // 1 other, 2 permanent, 3 dynamicGvrp
  // dot1qVlanStaticTable, index vlanIndex
  dot1qVlanStaticName: "1.3.6.1.2.1.17.7.1.4.3.1.1",
  dot1qVlanStaticEgressPorts: "1.3.6.1.2.1.17.7.1.4.3.1.2",
  dot1qVlanForbiddenEgressPorts: "1.3.6.1.2.1.17.7.1.4.3.1.3",
  dot1qVlanStaticUntaggedPorts: "1.3.6.1.2.1.17.7.1.4.3.1.4",
  dot1qVlanStaticRowStatus: "1.3.6.1.2.1.17.7.1.4.3.1.5", // 1 active, 4 createAndGo, 6 destroy
  // dot1qPortVlanTable, index bridge port
  dot1qPvid: "1.3.6.1.2.1.17.7.1.4.5.1.1",
} as const;

// IP-MIB
export const ip = {
  ipAdEntIfIndex: "1.3.6.1.2.1.4.20.1.2", // index a.b.c.d -> ifIndex
  ipAdEntNetMask: "1.3.6.1.2.1.4.20.1.3",
  ipNetToMediaPhysAddress: "1.3.6.1.2.1.4.22.1.2", // index ifIndex.a.b.c.d -> mac
  ipNetToPhysicalPhysAddress: "1.3.6.1.2.1.4.35.1.4",
} as const;

// POWER-ETHERNET-MIB
export const poe = {
  // pethPsePortTable, index group.port
  pethPsePortAdminEnable: "1.3.6.1.2.1.105.1.1.1.3", // 1 true, 2 false
  pethPsePortDetectionStatus: "1.3.6.1.2.1.105.1.1.1.6", // 1 disabled, 2 searching, 3 deliveringPower, 4 fault, 5 test, 6 otherFault
  // pethMainPseTable, index group
  pethMainPsePower: "1.3.6.1.2.1.105.1.3.1.1.2", // watts
  pethMainPseOperStatus: "1.3.6.1.2.1.105.1.3.1.1.3", // 1 on, 2 off, 3 faulty
  pethMainPseConsumptionPower: "1.3.6.1.2.1.105.1.3.1.1.4", // watts
  pethMainPseUsageThreshold: "1.3.6.1.2.1.105.1.3.1.1.5", // percent
} as const;

// LLDP-MIB remote table, index timeMark.localPortNum.remIndex
export const lldp = {
  lldpRemChassisIdSubtype: "1.0.8802.1.1.2.1.4.1.1.4",
  lldpRemChassisId: "1.0.8802.1.1.2.1.4.1.1.5",
  lldpRemPortIdSubtype: "1.0.8802.1.1.2.1.4.1.1.6",
  lldpRemPortId: "1.0.8802.1.1.2.1.4.1.1.7",
  lldpRemPortDesc: "1.0.8802.1.1.2.1.4.1.1.8",
  lldpRemSysName: "1.0.8802.1.1.2.1.4.1.1.9",
  lldpRemSysDesc: "1.0.8802.1.1.2.1.4.1.1.10",
  lldpRemSysCapSupported: "1.0.8802.1.1.2.1.4.1.1.11",
  lldpRemSysCapEnabled: "1.0.8802.1.1.2.1.4.1.1.12",
  // lldpRemManAddrTable, index timeMark.localPort.remIndex.addrSubtype.addrLen.addr...
  lldpRemManAddrIfSubtype: "1.0.8802.1.1.2.1.4.2.1.3",
  // lldpLocPortTable: local port number -> port id / description
  lldpLocPortId: "1.0.8802.1.1.2.1.3.7.1.3",
} as const;

// ENTITY-MIB (index entPhysicalIndex)
export const entity = {
  entPhysicalDescr: "1.3.6.1.2.1.47.1.1.1.1.2",
  entPhysicalClass: "1.3.6.1.2.1.47.1.1.1.1.5",
  entPhysicalSoftwareRev: "1.3.6.1.2.1.47.1.1.1.1.10",
  entPhysicalSerialNum: "1.3.6.1.2.1.47.1.1.1.1.11",
  entPhysicalModelName: "1.3.6.1.2.1.47.1.1.1.1.13",
} as const;

/**
 * CISCOSB-COPY-MIB rlCopyTable (Cisco small business; RADLAN layout under
 * ciscoSB 1.3.6.1.4.1.9.6.1.101). A save is one PDU creating a row that copies
 * runningConfig(2) at local(1) to startupConfig(3) at local(1).
 */
export const ciscoSbCopy = {
  rlCopyEntry: "1.3.6.1.4.1.9.6.1.101.87.2.1",
  rlCopySourceLocation: "1.3.6.1.4.1.9.6.1.101.87.2.1.3",
  rlCopySourceFileType: "1.3.6.1.4.1.9.6.1.101.87.2.1.7",
  rlCopyDestinationLocation: "1.3.6.1.4.1.9.6.1.101.87.2.1.8",
  rlCopyDestinationFileType: "1.3.6.1.4.1.9.6.1.101.87.2.1.12",
  rlCopyOperationState: "1.3.6.1.4.1.9.6.1.101.87.2.1.14", // 3 failed, 4 timedout, 5 finished
  rlCopyRowStatus: "1.3.6.1.4.1.9.6.1.101.87.2.1.17",
} as const;

/** Enterprise numbers under 1.3.6.1.4.1 used to pick a vendor driver. */
export const enterprises = {
  prefix: "1.3.6.1.4.1",
  cisco: 9,
  ciscoSbPrefix: "1.3.6.1.4.1.9.6.1",
  hp: 11,
  dlink: 171,
  juniper: 2636,
  linksys: 3955,
  comware: 25506,
  arubaCx: 47196,
} as const;
