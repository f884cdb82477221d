/**
 * Aruba AOS-CX objects (enterprise 47196, wndFeatures 1.3.6.1.4.1.47196.4.1.1.3). Over SNMP
 * AOS-CX serves dot1qPvid, the bridge port map and the FDB, but no Q-BRIDGE VLAN tables
 * (none in either recording): VLAN ids come from PVIDs and from the per-port VID bitmaps
 * below, names are not served. The configuration is saved through the config-copy table
 * (the objects the reference tool calls "arubaWiredVsfv2ConfigOperation*" are these
 * columns: RowStatus .18, SourceFileType .2, DestFileType .3).
 *
 * Sources: ARUBAWIRED-CONFIG-MIB (wndFeatures 20), ARUBAWIRED-PORTVLAN-MIB (wndFeatures 18),
 * ARUBAWIRED-POE-MIB (wndFeatures 8), ARUBAWIRED-NETWORKING-OID (OIDs, enums, INDEX clauses
 * as defined there). Whether a given firmware serves PORTVLAN is not known from the
 * recordings (neither has it).
 */

/**
 * ARUBAWIRED-CONFIG-MIB arubaWiredConfigurationCopyTable, index
 * arubaWiredConfigurationCopyIndex (a random Unsigned32 the manager picks). Save =
 * source runningConfiguration(3), destination startupConfiguration(2), row createAndGo(4)
 * in one PDU, then poll the state. Rows age out at least 5 minutes after completing.
 */
export const arubaCxConfig = {
  arubaWiredConfigurationCopySourceFileType: "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.2", // 1 externalFile, 2 startupConfiguration, 3 runningConfiguration, 4 checkpoint
  arubaWiredConfigurationCopyDestFileType: "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.3", // same values; must differ from the source
  arubaWiredConfigurationCopyState: "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.14", // 1 waiting, 2 running, 3 successful, 4 failed
  arubaWiredConfigurationCopyFailureCause: "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.17", // 1 authenticationFailed, 2 badFilename, 3 busy, 4 invalidConfiguration, 5 invalidURL, 6 systemNotReady, 7 timeout, 8 unknown
  arubaWiredConfigurationCopyEntryRowStatus: "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.18", // RowStatus 1 active, 4 createAndGo, 6 destroy
  arubaWiredConfigurationChangeTimestamp: "1.3.6.1.4.1.47196.4.1.1.3.20.1.1.3", // scalar TimeTicks: sysUpTime of the last running-config change
} as const;

/** ARUBAWIRED-PORTVLAN-MIB arubaWiredPortVlanMemberTable, index arubaWiredPortVlanMemberIndex (ifIndex). */
export const arubaCxPortVlan = {
  arubaWiredPortVlanMemberMode: "1.3.6.1.4.1.47196.4.1.1.3.18.1.1.1.1.2", // 1 trunk, 2 access
  // VidList, 512 octets: bit per VID, first octet VIDs 1..8, MSB = lowest VID (not a PortList: VID 1 is bit 0)
  arubaWiredPortVlanMemberVid: "1.3.6.1.4.1.47196.4.1.1.3.18.1.1.1.1.3",
} as const;

/** ARUBAWIRED-POE-MIB arubaWiredPoePethPsePortTable AUGMENTS pethPsePortEntry (group.port). */
export const arubaCxPoe = {
  arubaWiredPoePethPsePortPowerDrawn: "1.3.6.1.4.1.47196.4.1.1.3.8.1.1.1.7", // Integer32
  arubaWiredPoePethPsePortOperStatus: "1.3.6.1.4.1.47196.4.1.1.3.8.1.1.1.10", // 1 deny, 2 off, 3 on
} as const;

/**
 * IEEE8021-Q-BRIDGE-MIB ieee8021QBridgeVlanStaticTable (IEEE 802.1Q-2011 MIB), index
 * ieee8021QBridgeVlanStaticComponentId.ieee8021QBridgeVlanStaticVlanIndex. AOS-CX firmware
 * that serves it names its VLANs there (neither recording holds it: LibreNMS does not poll it).
 */
export const ieee8021QBridge = {
  ieee8021QBridgeVlanStaticName: "1.3.111.2.802.1.1.4.1.4.3.1.3", // SnmpAdminString (SIZE(0..32))
} as const;
