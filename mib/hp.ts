/**
 * HP ProCurve / Aruba AOS-S objects (enterprise 11, hpSwitch 11.2.14.11). VLANs, PVIDs and
 * memberships come from Q-BRIDGE; PoE admin state from POWER-ETHERNET-MIB, whose
 * pethPsePortIndex is the ifIndex on these switches (group 1); the vendor tables add power.
 * By default every successful SNMP SET is followed by an implicit write-memory
 * (hpSwitchImplicitConfigSave), so an explicit save is rarely needed.
 *
 * Sources: HP-SWITCH-BASIC-CONFIG-MIB, HP-ICF-POE-MIB, POWERSUPPLY-MIB, HP-ICF-CHASSIS
 * (OIDs, enums and INDEX clauses as defined there). Scalars need ".0".
 */

/**
 * HP-ICF-OID device identifiers (sysObjectID values) under hpSystem.netElement
 * (1.3.6.1.4.1.11.2.3.7). ProCurve / Aruba AOS-S switches report a product under
 * hpEtherSwitch, stacks and chassis a node under chassis (a stack: hpicfStacks). The rest
 * of HP's enterprise (printers under 11.2.3.9, servers, HP-UX) is no switch at all.
 */
export const hpDeviceIds = {
  netElement: "1.3.6.1.4.1.11.2.3.7",
  chassis: "1.3.6.1.4.1.11.2.3.7.8", // stacks (hpicfStacks 8.5), chassis agents, backplanes
  hpEtherSwitch: "1.3.6.1.4.1.11.2.3.7.11", // the switch products (hpSwitchJ...)
} as const;

/** HP-SWITCH-BASIC-CONFIG-MIB scalars (hpSwitchBasicConfigObjects). */
export const hpBasicConfig = {
  hpSwitchSaveConfig: "1.3.6.1.4.1.11.2.14.11.5.1.7.1.29.1.1", // write 2 saveConfig to save running -> flash; reads 1 noConfigSave
  // 1 enable, 2 disable: write-memory after every successful SNMP SET (slow sets when on)
  hpSwitchImplicitConfigSave: "1.3.6.1.4.1.11.2.14.11.5.1.7.1.29.1.11",
} as const;

/** HP-ICF-POE-MIB hpicfPoePethPsePortTable AUGMENTS pethPsePortEntry (group.port). */
export const hpPoe = {
  hpicfPoePethPsePortCurrent: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.1", // 0..65535
  hpicfPoePethPsePortVoltage: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.2", // 0..65535
  hpicfPoePethPsePortPower: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.3", // 0..65535
  hpicfPoePethPsePortActualPower: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.8", // Integer32
  hpicfPoePethPsePortOperStatus: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.9", // 1 deny, 2 off, 3 on
  hpicfPoePethPsePortPowerMode: "1.3.6.1.4.1.11.2.14.11.1.9.1.1.1.10", // 1 enable, 2 disable, 6 disableWithFiber
} as const;

/** POWERSUPPLY-MIB hpicfPsTable, index hpicfPsBayNum. */
export const hpPowerSupply = {
  hpicfPsState: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.2", // 1 psNotPresent, 2 psNotPlugged, 3 psPowered, 4 psFailed, 5 psPermFailure, 6 psMax
  hpicfPsFailures: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.3", // Counter32
  hpicfPsTemp: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.4", // Integer32
  hpicfPsVoltageInfo: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.5", // text, e.g. "AC 120V/240V"
  hpicfPsWattageCur: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.6", // watts now
  hpicfPsWattageMax: "1.3.6.1.4.1.11.2.14.11.5.1.55.1.1.1.7", // watts maximum
} as const;

/** HP-ICF-CHASSIS hpicfSensorTable, index hpicfSensorIndex (fans, power, temperature). */
export const hpSensor = {
  hpicfSensorObjectId: "1.3.6.1.4.1.11.2.14.11.1.2.6.1.2", // OID naming the sensor kind
  hpicfSensorStatus: "1.3.6.1.4.1.11.2.14.11.1.2.6.1.4", // 1 unknown, 2 bad, 3 warning, 4 good, 5 notPresent
  hpicfSensorDescr: "1.3.6.1.4.1.11.2.14.11.1.2.6.1.7", // text
} as const;
