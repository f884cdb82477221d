/**
 * Cisco IOS / IOS-XE objects (enterprise 9) a Cisco SNMP driver reads and writes: VLANs
 * live in VTP (not Q-BRIDGE), access VLANs in vmVlan, trunk native VLANs in the VTP trunk
 * table, PoE in the POWER-ETHERNET-MIB augmented by Cisco with an entity link, and the
 * configuration is saved with writeMem or a config-copy row. Cisco small-business
 * switches (ciscoSB, 9.6.1) are a different family: see mib/ciscosb.ts.
 *
 * Sources: CISCO-VTP-MIB, CISCO-VLAN-MEMBERSHIP-MIB, CISCO-CONFIG-COPY-MIB,
 * OLD-CISCO-SYS-MIB, CISCO-POWER-ETHERNET-EXT-MIB, CISCO-STACK-MIB (OIDs, enums and
 * INDEX clauses as defined there). Columns without instance suffix; scalars need ".0".
 */

/** CISCO-VTP-MIB (ciscoVtpMIB 1.3.6.1.4.1.9.9.46). */
export const vtp = {
  vtpVersion: "1.3.6.1.4.1.9.9.46.1.1.1", // scalar; 1 one, 2 two, 3 none, 4 three
  // managementDomainTable, index managementDomainIndex (normally 1)
  managementDomainName: "1.3.6.1.4.1.9.9.46.1.2.1.1.2", // VTP domain name
  // VTP mode: 1 client, 2 server, 3 transparent, 4 off. A client cannot create VLANs;
  // server and transparent edit through the edit buffer below.
  managementDomainLocalMode: "1.3.6.1.4.1.9.9.46.1.2.1.1.3",
  managementDomainConfigRevNumber: "1.3.6.1.4.1.9.9.46.1.2.1.1.4", // Gauge32 revision, copied into the edit buffer
  managementDomainRowStatus: "1.3.6.1.4.1.9.9.46.1.2.1.1.7", // RowStatus

  // vtpVlanTable, index managementDomainIndex.vtpVlanIndex (the VLAN id)
  vtpVlanState: "1.3.6.1.4.1.9.9.46.1.3.1.1.2", // 1 operational, 2 suspended, 3 mtuTooBigForDevice, 4 mtuTooBigForTrunk
  vtpVlanType: "1.3.6.1.4.1.9.9.46.1.3.1.1.3", // 1 ethernet, 2 fddi, 3 tokenRing, 4 fddiNet, 5 trNet, 6 deprecated
  vtpVlanName: "1.3.6.1.4.1.9.9.46.1.3.1.1.4", // 1..32 octets
  vtpVlanMtu: "1.3.6.1.4.1.9.9.46.1.3.1.1.5", // 1500..18190
  vtpVlanIfIndex: "1.3.6.1.4.1.9.9.46.1.3.1.1.18", // ifIndex of the VLAN's interface, 0 none

  // vtpEditControlTable AUGMENTS managementDomainEntry (index managementDomainIndex)
  vtpVlanEditOperation: "1.3.6.1.4.1.9.9.46.1.4.1.1.1", // write 2 copy, 3 apply, 4 release, 5 restartTimer; reads 1 none
  vtpVlanApplyStatus: "1.3.6.1.4.1.9.9.46.1.4.1.1.2", // 1 inProgress, 2 succeeded, 3 configNumberError, 4 inconsistentEdit, 5 tooBig, 6 localNVStoreFail, 7 remoteNVStoreFail, 8 editBufferEmpty, 9 someOtherError, 10 notPrimaryServer
  vtpVlanEditBufferOwner: "1.3.6.1.4.1.9.9.46.1.4.1.1.3", // 0..127 octets; set together with copy(2) to claim the buffer
  vtpVlanEditConfigRevNumber: "1.3.6.1.4.1.9.9.46.1.4.1.1.4", // Gauge32; revision the apply will write
  vtpVlanEditModifiedVlan: "1.3.6.1.4.1.9.9.46.1.4.1.1.5", // 0..4095; VLAN last modified through the buffer

  // vtpVlanEditTable, index managementDomainIndex.vtpVlanEditIndex (the VLAN id)
  vtpVlanEditState: "1.3.6.1.4.1.9.9.46.1.4.2.1.2", // 1 operational, 2 suspended
  vtpVlanEditType: "1.3.6.1.4.1.9.9.46.1.4.2.1.3", // 1 ethernet .. 6 deprecated (as vtpVlanType)
  vtpVlanEditName: "1.3.6.1.4.1.9.9.46.1.4.2.1.4", // 1..32 octets
  vtpVlanEditMtu: "1.3.6.1.4.1.9.9.46.1.4.2.1.5", // 1500..18190
  vtpVlanEditDot10Said: "1.3.6.1.4.1.9.9.46.1.4.2.1.6", // 4 octets, 802.10 SAID (recorded rows hold 100000 + VLAN id)
  vtpVlanEditRowStatus: "1.3.6.1.4.1.9.9.46.1.4.2.1.11", // RowStatus 1 active, 4 createAndGo, 5 createAndWait, 6 destroy

  // vlanTrunkPortTable, index vlanTrunkPortIfIndex (ifIndex)
  vlanTrunkPortManagementDomain: "1.3.6.1.4.1.9.9.46.1.6.1.1.2", // managementDomainIndex of the trunk
  vlanTrunkPortEncapsulationType: "1.3.6.1.4.1.9.9.46.1.6.1.1.3", // 1 isl, 2 dot10, 3 lane, 4 dot1Q, 5 negotiate
  vlanTrunkPortVlansEnabled: "1.3.6.1.4.1.9.9.46.1.6.1.1.4", // 128 octets, VLANs 0..1023 allowed on the trunk (MSB first)
  vlanTrunkPortNativeVlan: "1.3.6.1.4.1.9.9.46.1.6.1.1.5", // 0..4095; untagged VLAN while trunking
  vlanTrunkPortRowStatus: "1.3.6.1.4.1.9.9.46.1.6.1.1.6", // RowStatus
  vlanTrunkPortDynamicState: "1.3.6.1.4.1.9.9.46.1.6.1.1.13", // configured DTP mode: 1 on, 2 off, 3 desirable, 4 auto, 5 onNoNegotiate
  vlanTrunkPortDynamicStatus: "1.3.6.1.4.1.9.9.46.1.6.1.1.14", // 1 trunking, 2 notTrunking (what the port does now)
  vlanTrunkPortEncapsulationOperType: "1.3.6.1.4.1.9.9.46.1.6.1.1.16", // 1 isl, 2 dot10, 3 lane, 4 dot1Q, 5 negotiating, 6 notApplicable
  vlanTrunkPortVlansEnabled2k: "1.3.6.1.4.1.9.9.46.1.6.1.1.17", // 0..128 octets, VLANs 1024..2047
  vlanTrunkPortVlansEnabled3k: "1.3.6.1.4.1.9.9.46.1.6.1.1.18", // 0..128 octets, VLANs 2048..3071
  vlanTrunkPortVlansEnabled4k: "1.3.6.1.4.1.9.9.46.1.6.1.1.19", // 0..128 octets, VLANs 3072..4095
  // scalar TestAndIncr: the MIB asks every SET of a VlansEnabled bitmap to carry it too
  vlanTrunkPortSetSerialNo: "1.3.6.1.4.1.9.9.46.1.6.2",
} as const;

/** VLAN ids VTP keeps for FDDI/Token Ring (vtpVlanType 2..5): never list or assign them. */
export const vtpReservedVlans = [1002, 1003, 1004, 1005] as const;

/** CISCO-VLAN-MEMBERSHIP-MIB vmMembershipTable, index ifIndex (only switch ports have a row). */
export const vlanMembership = {
  vmVlanType: "1.3.6.1.4.1.9.9.68.1.2.2.1.1", // 1 static, 2 dynamic, 3 multiVlan
  vmVlan: "1.3.6.1.4.1.9.9.68.1.2.2.1.2", // 0..4095; access VLAN (0 = none, dynamic ports only); write to move a port
  vmPortStatus: "1.3.6.1.4.1.9.9.68.1.2.2.1.3", // 1 inactive, 2 active, 3 shutdown
  vmVlans: "1.3.6.1.4.1.9.9.68.1.2.2.1.4", // 0..128 octets, VLANs 0..1023 of a multiVlan port
  vmVlans2k: "1.3.6.1.4.1.9.9.68.1.2.2.1.5", // VLANs 1024..2047
  vmVlans3k: "1.3.6.1.4.1.9.9.68.1.2.2.1.6", // VLANs 2048..3071
  vmVlans4k: "1.3.6.1.4.1.9.9.68.1.2.2.1.7", // VLANs 3072..4095
  // vmVoiceVlanTable, index ifIndex: 0..4096; 1..4094 the voice VLAN, 0/4095/4096 special CDP modes
  vmVoiceVlanId: "1.3.6.1.4.1.9.9.68.1.5.1.1.1",
} as const;

/**
 * CISCO-CONFIG-COPY-MIB ccCopyTable, index ccCopyIndex (a row number the manager picks).
 * Save = runningConfig(4) -> startupConfig(3), row made active, then poll ccCopyState.
 */
export const configCopy = {
  ccCopyProtocol: "1.3.6.1.4.1.9.9.96.1.1.1.1.2", // 1 tftp, 2 ftp, 3 rcp, 4 scp, 5 sftp
  ccCopySourceFileType: "1.3.6.1.4.1.9.9.96.1.1.1.1.3", // 1 networkFile, 2 iosFile, 3 startupConfig, 4 runningConfig, 5 terminal, 6 fabricStartupConfig
  ccCopyDestFileType: "1.3.6.1.4.1.9.9.96.1.1.1.1.4", // same values as the source type
  ccCopyServerAddress: "1.3.6.1.4.1.9.9.96.1.1.1.1.5", // IpAddress (network copies only)
  ccCopyFileName: "1.3.6.1.4.1.9.9.96.1.1.1.1.6", // 0..255 octets (network copies only)
  ccCopyState: "1.3.6.1.4.1.9.9.96.1.1.1.1.10", // 1 waiting, 2 running, 3 successful, 4 failed
  ccCopyTimeStarted: "1.3.6.1.4.1.9.9.96.1.1.1.1.11", // TimeTicks
  ccCopyTimeCompleted: "1.3.6.1.4.1.9.9.96.1.1.1.1.12", // TimeTicks
  ccCopyFailCause: "1.3.6.1.4.1.9.9.96.1.1.1.1.13", // 1 unknown, 2 badFileName, 3 timeout, 4 noMem, 5 noConfig, 6 unsupportedProtocol, 7 someConfigApplyFailed, 8 systemNotReady, 9 requestAborted
  ccCopyEntryRowStatus: "1.3.6.1.4.1.9.9.96.1.1.1.1.14", // RowStatus 1 active, 4 createAndGo, 5 createAndWait, 6 destroy
} as const;

/**
 * OLD-CISCO-SYS-MIB lsystem scalars (write-only, instance .0). writeMem: INTEGER; per the
 * MIB "write configuration into non-volatile memory / erase config memory if 0", so only
 * ever write 1.
 */
export const oldCiscoSys = {
  writeMem: "1.3.6.1.4.1.9.2.1.54",
  writeNet: "1.3.6.1.4.1.9.2.1.55", // OCTET STRING: TFTP host for a network write (not used)
} as const;

/**
 * CISCO-POWER-ETHERNET-EXT-MIB. cpeExtPsePortTable AUGMENTS pethPsePortEntry, so its index
 * is pethPsePortGroupIndex.pethPsePortIndex. The link to an interface is
 * cpeExtPsePortEntPhyIndex -> ENTITY-MIB entAliasMappingIdentifier.<entPhy>.0 =
 * ifIndex OID (see mib/standard-extra.ts); 0 when the agent has no entity for the port.
 */
export const poeExt = {
  cpeExtPsePortEnable: "1.3.6.1.4.1.9.9.402.1.2.1.1", // 1 auto, 2 static, 3 limit, 4 disable
  cpeExtPsePortDiscoverMode: "1.3.6.1.4.1.9.9.402.1.2.1.2", // 1 unknown, 2 off, 3 ieee, 4 cisco, 5 ieeeAndCisco
  cpeExtPsePortDeviceDetected: "1.3.6.1.4.1.9.9.402.1.2.1.3", // 1 true, 2 false
  cpeExtPsePortIeeePd: "1.3.6.1.4.1.9.9.402.1.2.1.4", // 1 true, 2 false
  cpeExtPsePortPwrMax: "1.3.6.1.4.1.9.9.402.1.2.1.6", // milliwatts
  cpeExtPsePortPwrAllocated: "1.3.6.1.4.1.9.9.402.1.2.1.7", // milliwatts
  cpeExtPsePortPwrAvailable: "1.3.6.1.4.1.9.9.402.1.2.1.8", // milliwatts
  cpeExtPsePortPwrConsumption: "1.3.6.1.4.1.9.9.402.1.2.1.9", // milliwatts
  cpeExtPsePortMaxPwrDrawn: "1.3.6.1.4.1.9.9.402.1.2.1.10", // milliwatts
  cpeExtPsePortEntPhyIndex: "1.3.6.1.4.1.9.9.402.1.2.1.11", // entPhysicalIndex of the port, 0 none
  cpeExtMainPseEntPhyIndex: "1.3.6.1.4.1.9.9.402.1.3.1.1", // index pethMainPseGroupIndex; entPhysicalIndex of the PSE
} as const;

/**
 * CISCO-STACK-MIB portTable, index portModuleIndex.portIndex: on stackable IOS switches the
 * module is the stack member and matches the PoE group, so module.port -> ifIndex is a
 * second PoE mapping when the entity link is missing.
 */
export const stack = {
  portCrossIndex: "1.3.6.1.4.1.9.5.1.4.1.1.3", // 1..4080
  portName: "1.3.6.1.4.1.9.5.1.4.1.1.4", // 0..20 octets
  portOperStatus: "1.3.6.1.4.1.9.5.1.4.1.1.6", // 1 other, 2 ok, 3 minorFault, 4 majorFault
  portIfIndex: "1.3.6.1.4.1.9.5.1.4.1.1.11", // ifIndex of module.port
} as const;
