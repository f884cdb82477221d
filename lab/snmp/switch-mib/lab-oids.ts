/**
 * OIDs the lab serves beyond mib/oids.ts (which lists what the drivers use): further
 * columns of the same tables so walks look like a real device's, and vendor objects of
 * the ciscosb profile. Names follow their MIB modules.
 */

// IF-MIB
export const ifNumber = "1.3.6.1.2.1.2.1";
export const ifLastChange = "1.3.6.1.2.1.2.2.1.9";
export const ifInOctets = "1.3.6.1.2.1.2.2.1.10";
export const ifOutOctets = "1.3.6.1.2.1.2.2.1.16";
export const ifHCInOctets = "1.3.6.1.2.1.31.1.1.1.6";
export const ifHCOutOctets = "1.3.6.1.2.1.31.1.1.1.10";

// SNMPv2-MIB
export const sysServices = "1.3.6.1.2.1.1.7";

// BRIDGE-MIB
export const dot1dBaseBridgeAddress = "1.3.6.1.2.1.17.1.1";
export const dot1dBaseNumPorts = "1.3.6.1.2.1.17.1.2";
export const dot1dBaseType = "1.3.6.1.2.1.17.1.3";
export const dot1dBasePort = "1.3.6.1.2.1.17.1.4.1.1";
export const dot1dTpFdbAddress = "1.3.6.1.2.1.17.4.3.1.1";
export const dot1dTpFdbStatus = "1.3.6.1.2.1.17.4.3.1.3";

// Q-BRIDGE-MIB
export const dot1qVlanVersionNumber = "1.3.6.1.2.1.17.7.1.1.1";
export const dot1qMaxVlanId = "1.3.6.1.2.1.17.7.1.1.2";
export const dot1qMaxSupportedVlans = "1.3.6.1.2.1.17.7.1.1.3";
export const dot1qGvrpStatus = "1.3.6.1.2.1.17.7.1.1.5";
export const dot1qTpFdbStatus = "1.3.6.1.2.1.17.7.1.2.2.1.3";
export const dot1qVlanCreationTime = "1.3.6.1.2.1.17.7.1.4.2.1.7";
export const dot1qPortAcceptableFrameTypes = "1.3.6.1.2.1.17.7.1.4.5.1.2";
export const dot1qPortIngressFiltering = "1.3.6.1.2.1.17.7.1.4.5.1.3";

// POWER-ETHERNET-MIB
export const pethPsePortPowerPairsControlAbility = "1.3.6.1.2.1.105.1.1.1.4";
export const pethPsePortPowerPairs = "1.3.6.1.2.1.105.1.1.1.5";
export const pethPsePortPowerPriority = "1.3.6.1.2.1.105.1.1.1.7";
export const pethPsePortPowerClassifications = "1.3.6.1.2.1.105.1.1.1.10";

// CISCOSB-POE-MIB rlPethPsePortTable (index group.port): power drawn by the port, mW
export const rlPethPsePortOutputPower = "1.3.6.1.4.1.9.6.1.101.108.1.1.5";

// LLDP-MIB local system and ports
export const lldpLocChassisIdSubtype = "1.0.8802.1.1.2.1.3.1";
export const lldpLocChassisId = "1.0.8802.1.1.2.1.3.2";
export const lldpLocSysName = "1.0.8802.1.1.2.1.3.3";
export const lldpLocPortIdSubtype = "1.0.8802.1.1.2.1.3.7.1.2";
export const lldpLocPortDesc = "1.0.8802.1.1.2.1.3.7.1.4";
export const lldpRemManAddrIfId = "1.0.8802.1.1.2.1.4.2.1.4";

// IP-MIB
export const ipAdEntAddr = "1.3.6.1.2.1.4.20.1.1";
export const ipNetToMediaIfIndex = "1.3.6.1.2.1.4.22.1.1";
export const ipNetToMediaNetAddress = "1.3.6.1.2.1.4.22.1.3";
export const ipNetToMediaType = "1.3.6.1.2.1.4.22.1.4";
export const ipNetToPhysicalType = "1.3.6.1.2.1.4.35.1.6";
export const ipNetToPhysicalState = "1.3.6.1.2.1.4.35.1.7";

// ENTITY-MIB
export const entPhysicalName = "1.3.6.1.2.1.47.1.1.1.1.7";
