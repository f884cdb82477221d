/**
 * Standard MIB objects the vendor drivers will need that mib/oids.ts does not hold yet
 * (kept apart so that file stays as it is while the tree is restructured; merge later).
 * Columns are given without their instance suffix, scalars too (append ".0").
 *
 * Sources (OIDs, names, enums and INDEX clauses as defined there): IF-MIB (RFC 2863),
 * BRIDGE-MIB (RFC 4188), Q-BRIDGE-MIB (RFC 4363), IEEE8021-Q-BRIDGE-MIB, ENTITY-MIB
 * (RFC 6933), IEEE8023-LAG-MIB, POWER-ETHERNET-MIB (RFC 3621), IP-MIB (RFC 4293),
 * IPV6-MIB (RFC 2465), LLDP-MIB (IEEE 802.1AB-2005), MAU-MIB (RFC 4836).
 */

// IF-MIB extras
export const ifExtra = {
  ifMtu: "1.3.6.1.2.1.2.2.1.4", // index ifIndex; octets
  ifPhysAddress: "1.3.6.1.2.1.2.2.1.6", // index ifIndex; MAC as 6 octets (some agents answer text)
  ifLastChange: "1.3.6.1.2.1.2.2.1.9", // index ifIndex; TimeTicks of the last oper change
  ifConnectorPresent: "1.3.6.1.2.1.31.1.1.1.17", // index ifIndex; 1 true, 2 false
  // ifStackTable, index ifStackHigherLayer.ifStackLowerLayer (0 = none): LAG -> members,
  // port -> sub-interfaces; value RowStatus 1 active .. 6 destroy
  ifStackStatus: "1.3.6.1.2.1.31.1.2.1.3",
} as const;

/** IANAifType values the drivers sort interfaces by (ifType column). */
export const ifTypes = {
  other: 1,
  ethernetCsmacd: 6,
  iso88023Csmacd: 7,
  softwareLoopback: 24,
  propVirtual: 53,
  fastEther: 62,
  fastEtherFX: 69,
  gigabitEthernet: 117,
  tunnel: 131,
  l2vlan: 135,
  l3ipvlan: 136,
  ieee8023adLag: 161,
} as const;

// BRIDGE-MIB extras
export const bridgeExtra = {
  dot1dBaseBridgeAddress: "1.3.6.1.2.1.17.1.1", // scalar; 6-octet bridge MAC
  dot1dBaseNumPorts: "1.3.6.1.2.1.17.1.2", // scalar; number of bridge ports
  dot1dBasePort: "1.3.6.1.2.1.17.1.4.1.1", // index dot1dBasePort; the port number itself
  dot1dTpFdbAddress: "1.3.6.1.2.1.17.4.3.1.1", // index mac[6]; the MAC itself
  dot1dTpFdbStatus: "1.3.6.1.2.1.17.4.3.1.3", // index mac[6]; 1 other, 2 invalid, 3 learned, 4 self, 5 mgmt
} as const;

// Q-BRIDGE-MIB extras (oids.ts has the VLAN tables and dot1qPvid)
export const qbridgeExtra = {
  dot1qVlanVersionNumber: "1.3.6.1.2.1.17.7.1.1.1", // scalar; 1 version1
  dot1qMaxVlanId: "1.3.6.1.2.1.17.7.1.1.2", // scalar; highest VLAN id the device supports
  dot1qMaxSupportedVlans: "1.3.6.1.2.1.17.7.1.1.3", // scalar; how many VLANs it supports
  dot1qGvrpStatus: "1.3.6.1.2.1.17.7.1.1.5", // scalar; 1 enabled, 2 disabled
  dot1qTpFdbStatus: "1.3.6.1.2.1.17.7.1.2.2.1.3", // index fdbId.mac[6]; 1 other, 2 invalid, 3 learned, 4 self, 5 mgmt
  dot1qVlanNumDeletes: "1.3.6.1.2.1.17.7.1.4.1", // scalar Counter32; VLAN deletions since boot
  dot1qVlanCreationTime: "1.3.6.1.2.1.17.7.1.4.2.1.7", // index timeMark.vlan; sysUpTime at creation
  // dot1qPortVlanTable AUGMENTS dot1dBasePortEntry: index bridge port
  dot1qPortAcceptableFrameTypes: "1.3.6.1.2.1.17.7.1.4.5.1.2", // 1 admitAll, 2 admitOnlyVlanTagged
  dot1qPortIngressFiltering: "1.3.6.1.2.1.17.7.1.4.5.1.3", // 1 true, 2 false
  dot1qPortGvrpStatus: "1.3.6.1.2.1.17.7.1.4.5.1.4", // 1 enabled, 2 disabled
} as const;

/**
 * IEEE8021-Q-BRIDGE-MIB (ieee8021QBridgeMIB 1.3.111.2.802.1.1.4): the component-aware
 * successor of Q-BRIDGE. Static and current tables add a component id as first index.
 */
export const ieee8021QBridge = {
  ieee8021QBridgeNumVlans: "1.3.111.2.802.1.1.4.1.1.1.1.5", // index componentId; Gauge32
  ieee8021QBridgeMvrpEnabledStatus: "1.3.111.2.802.1.1.4.1.1.1.1.6", // index componentId; 1 true, 2 false
  // current table, index timeMark.componentId.vlan
  ieee8021QBridgeVlanCurrentEgressPorts: "1.3.111.2.802.1.1.4.1.4.2.1.5", // PortList
  ieee8021QBridgeVlanCurrentUntaggedPorts: "1.3.111.2.802.1.1.4.1.4.2.1.6", // PortList
  ieee8021QBridgeVlanStatus: "1.3.111.2.802.1.1.4.1.4.2.1.7", // 1 other, 2 permanent, 3 dynamicMvrp
  // static table, index componentId.vlan
  ieee8021QBridgeVlanStaticName: "1.3.111.2.802.1.1.4.1.4.3.1.3", // 0..32 octets
  ieee8021QBridgeVlanStaticEgressPorts: "1.3.111.2.802.1.1.4.1.4.3.1.4", // PortList
  ieee8021QBridgeVlanForbiddenEgressPorts: "1.3.111.2.802.1.1.4.1.4.3.1.5", // PortList
  ieee8021QBridgeVlanStaticUntaggedPorts: "1.3.111.2.802.1.1.4.1.4.3.1.6", // PortList
  ieee8021QBridgeVlanStaticRowStatus: "1.3.111.2.802.1.1.4.1.4.3.1.7", // RowStatus 1 active, 4 createAndGo, 6 destroy
  // AUGMENTS ieee8021BridgeBasePortEntry (componentId.bridgePort); 1..4094
  ieee8021QBridgePvid: "1.3.111.2.802.1.1.4.1.4.5.1.1",
} as const;

// ENTITY-MIB extras (oids.ts has Descr, Class, SoftwareRev, SerialNum, ModelName)
export const entityExtra = {
  entPhysicalVendorType: "1.3.6.1.2.1.47.1.1.1.1.3", // index entPhysicalIndex; vendor type OID
  entPhysicalContainedIn: "1.3.6.1.2.1.47.1.1.1.1.4", // index entPhysicalIndex; parent entPhysicalIndex, 0 = top
  entPhysicalParentRelPos: "1.3.6.1.2.1.47.1.1.1.1.6", // index entPhysicalIndex; position in parent, -1 unknown
  entPhysicalName: "1.3.6.1.2.1.47.1.1.1.1.7", // index entPhysicalIndex; e.g. "GigabitEthernet1/0/1"
  entPhysicalHardwareRev: "1.3.6.1.2.1.47.1.1.1.1.8", // index entPhysicalIndex
  entPhysicalFirmwareRev: "1.3.6.1.2.1.47.1.1.1.1.9", // index entPhysicalIndex
  entPhysicalMfgName: "1.3.6.1.2.1.47.1.1.1.1.12", // index entPhysicalIndex
  entPhysicalIsFRU: "1.3.6.1.2.1.47.1.1.1.1.16", // index entPhysicalIndex; 1 true, 2 false
  // index entPhysicalIndex.entAliasLogicalIndexOrZero; value the OID of the mapped object,
  // for ports "1.3.6.1.2.1.2.2.1.1.<ifIndex>": how a PoE entity (Cisco) becomes an ifIndex
  entAliasMappingIdentifier: "1.3.6.1.2.1.47.1.3.2.1.2",
} as const;

/** entPhysicalClass values (ENTITY-MIB PhysicalClass). */
export const entPhysicalClasses = {
  other: 1,
  unknown: 2,
  chassis: 3,
  backplane: 4,
  container: 5,
  powerSupply: 6,
  fan: 7,
  sensor: 8,
  module: 9,
  port: 10,
  stack: 11,
  cpu: 12,
} as const;

// IEEE8023-LAG-MIB (lagMIB 1.2.840.10006.300.43)
export const lag = {
  dot3adAggActorAdminKey: "1.2.840.10006.300.43.1.1.1.1.6", // index dot3adAggIndex (ifIndex of the LAG); 0..65535
  dot3adAggActorOperKey: "1.2.840.10006.300.43.1.1.1.1.7", // index dot3adAggIndex
  dot3adAggPortActorAdminKey: "1.2.840.10006.300.43.1.2.1.1.4", // index dot3adAggPortIndex (member ifIndex)
  dot3adAggPortActorOperKey: "1.2.840.10006.300.43.1.2.1.1.5", // index dot3adAggPortIndex
  dot3adAggPortSelectedAggID: "1.2.840.10006.300.43.1.2.1.1.12", // index member ifIndex; LAG ifIndex selected, 0 none
  dot3adAggPortAttachedAggID: "1.2.840.10006.300.43.1.2.1.1.13", // index member ifIndex; LAG ifIndex attached, 0 none
} as const;

// POWER-ETHERNET-MIB extras, pethPsePortTable index pethPsePortGroupIndex.pethPsePortIndex
export const poeExtra = {
  pethPsePortPowerPairsControlAbility: "1.3.6.1.2.1.105.1.1.1.4", // 1 true, 2 false
  pethPsePortPowerPairs: "1.3.6.1.2.1.105.1.1.1.5", // 1 signal, 2 spare
  pethPsePortPowerPriority: "1.3.6.1.2.1.105.1.1.1.7", // 1 critical, 2 high, 3 low
  pethPsePortMPSAbsentCounter: "1.3.6.1.2.1.105.1.1.1.8", // Counter32
  pethPsePortType: "1.3.6.1.2.1.105.1.1.1.9", // free text set by the manager
  pethPsePortPowerClassifications: "1.3.6.1.2.1.105.1.1.1.10", // 1 class0 .. 5 class4
} as const;

// IP-MIB / IPV6-MIB addresses
export const ipExtra = {
  ipAdEntAddr: "1.3.6.1.2.1.4.20.1.1", // index a.b.c.d; the address itself
  // ipAddressTable, index ipAddressAddrType.len.addr (1 ipv4 / 2 ipv6, then length-prefixed octets)
  ipAddressIfIndex: "1.3.6.1.2.1.4.34.1.3", // ifIndex holding the address
  ipAddressType: "1.3.6.1.2.1.4.34.1.4", // 1 unicast, 2 anycast, 3 broadcast
  ipAddressPrefix: "1.3.6.1.2.1.4.34.1.5", // OID pointing into ipAddressPrefixTable ("0.0" when none)
  ipAddressOrigin: "1.3.6.1.2.1.4.34.1.6", // 1 other, 2 manual, 4 dhcp, 5 linklayer, 6 random
  ipAddressStatus: "1.3.6.1.2.1.4.34.1.7", // 1 preferred .. 8 optimistic
  // IPV6-MIB (obsolete, still served), index ipv6IfIndex.addr[16]
  ipv6AddrPfxLength: "1.3.6.1.2.1.55.1.8.1.2", // 0..128
  ipv6AddrType: "1.3.6.1.2.1.55.1.8.1.3", // 1 stateless, 2 stateful, 3 unknown
} as const;

/**
 * LLDP-MIB local system and port tables. lldpRemTable is indexed
 * timeMark.lldpRemLocalPortNum.remIndex, and lldpRemLocalPortNum is an lldpLocPortNum:
 * the standard leaves its relation to ifIndex or bridge port to the agent, so drivers
 * map it through lldpLocPortId/Desc (compare with ifName/ifDescr) when it is neither.
 */
export const lldpLocal = {
  lldpLocChassisIdSubtype: "1.0.8802.1.1.2.1.3.1", // scalar; 1 chassisComponent .. 4 macAddress .. 7 local
  lldpLocChassisId: "1.0.8802.1.1.2.1.3.2", // scalar
  lldpLocSysName: "1.0.8802.1.1.2.1.3.3", // scalar
  lldpLocPortIdSubtype: "1.0.8802.1.1.2.1.3.7.1.2", // index lldpLocPortNum; 1 interfaceAlias, 2 portComponent, 3 macAddress, 4 networkAddress, 5 interfaceName, 6 agentCircuitId, 7 local
  lldpLocPortId: "1.0.8802.1.1.2.1.3.7.1.3", // index lldpLocPortNum (also in oids.ts)
  lldpLocPortDesc: "1.0.8802.1.1.2.1.3.7.1.4", // index lldpLocPortNum; usually ifDescr or ifAlias
  // lldpRemManAddrTable index: timeMark.localPort.remIndex.addrSubtype(1 ipV4, 2 ipV6).len.addr
  lldpRemManAddrIfSubtype: "1.0.8802.1.1.2.1.4.2.1.3", // 1 unknown, 2 ifIndex, 3 systemPortNumber (also in oids.ts)
  lldpRemManAddrIfId: "1.0.8802.1.1.2.1.4.2.1.4", // the neighbour's interface number, numbered per IfSubtype
} as const;

// MAU-MIB, ifMauTable index ifMauIfIndex.ifMauIndex
export const mau = {
  ifMauType: "1.3.6.1.2.1.26.2.1.1.3", // OID of the MAU type (dot3MauType...)
  ifMauStatus: "1.3.6.1.2.1.26.2.1.1.4", // 1 other, 2 unknown, 3 operational, 4 standby, 5 shutdown, 6 reset
} as const;
