/**
 * The columns OpenL2M's generic SNMP driver walks, one after another, in its order (the
 * reference's section 4.3): the baselines of bench/snmp-learn.ts (net-snmp's client) and
 * of the API scenarios (Debian's snmpbulkwalk).
 */

/** The walks of OpenL2M's generic SNMP driver, in its order (basic view). */
export const baselineBasicWalks = [
  "1.3.6.1.2.1.1", // system
  "1.3.6.1.2.1.2.2.1.1", // ifIndex
  "1.3.6.1.2.1.2.2.1.3", // ifType
  "1.3.6.1.2.1.2.2.1.7", // ifAdminStatus
  "1.3.6.1.2.1.2.2.1.8", // ifOperStatus
  "1.3.6.1.2.1.31.1.1.1.1", // ifName
  "1.3.6.1.2.1.31.1.1.1.18", // ifAlias
  "1.3.6.1.2.1.31.1.1.1.15", // ifHighSpeed
  "1.3.6.1.2.1.10.7.2.1.19", // dot3StatsDuplexStatus
  "1.3.6.1.2.1.17.7.1.1", // dot1qBase
  "1.3.6.1.2.1.17.1.4.1.2", // dot1dBasePortIfIndex
  "1.3.6.1.2.1.17.7.1.4.3.1.5", // dot1qVlanStaticRowStatus
  "1.3.6.1.2.1.17.7.1.4.3.1.1", // dot1qVlanStaticName
  "1.3.6.1.2.1.17.7.1.4.2.1.6", // dot1qVlanStatus
  "1.3.6.1.2.1.17.7.1.4.5.1.1", // dot1qPvid
  "1.3.6.1.2.1.17.7.1.4.2.1.4", // dot1qVlanCurrentEgressPorts
  "1.3.6.1.2.1.17.7.1.4.3.1.2", // dot1qVlanStaticEgressPorts
  "1.3.111.2.802.1.1.4.1.1.1.1.6", // ieee8021QBridgeMvrpEnabledStatus
  "1.3.6.1.2.1.4.20.1.2", // ipAdEntIfIndex
  "1.3.6.1.2.1.4.20.1.3", // ipAdEntNetMask (walked when addresses exist)
  "1.3.6.1.2.1.55.1.8.1.2", // ipv6AddrPfxLength
  "1.3.6.1.2.1.4.34.1.3", // ipAddressIfIndex
  "1.2.840.10006.300.43.1.1.1.1.6", // dot3adAggActorAdminKey
  "1.3.6.1.2.1.105.1.3.1.1", // pethMainPseEntry
  "1.3.6.1.2.1.105.1.1.1.3", // pethPsePortAdminEnable
  "1.3.6.1.2.1.105.1.1.1.6", // pethPsePortDetectionStatus
  "1.3.6.1.2.1.26.2.1.1.3", // ifMauType
];

/** What the details view adds. */
export const baselineDetailsWalks = [
  "1.3.6.1.2.1.17.7.1.2.2.1.2", // dot1qTpFdbPort
  "1.0.8802.1.1.2.1.4.1.1.7", // lldpRemPortId
  "1.0.8802.1.1.2.1.4.1.1.6", // lldpRemPortIdSubtype
  "1.0.8802.1.1.2.1.4.1.1.8", // lldpRemPortDesc
  "1.0.8802.1.1.2.1.4.1.1.9", // lldpRemSysName
  "1.0.8802.1.1.2.1.4.1.1.10", // lldpRemSysDesc
  "1.0.8802.1.1.2.1.4.1.1.12", // lldpRemSysCapEnabled
  "1.0.8802.1.1.2.1.4.1.1.4", // lldpRemChassisIdSubtype
  "1.0.8802.1.1.2.1.4.1.1.5", // lldpRemChassisId
  "1.0.8802.1.1.2.1.4.2.1", // lldpRemManAddrEntry
  "1.3.6.1.2.1.4.22.1.2", // ipNetToMediaPhysAddress
  "1.3.6.1.2.1.4.35.1.4", // ipNetToPhysicalPhysAddress
];
