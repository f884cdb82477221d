/**
 * HPE Comware / H3C objects (enterprise 25506, hh3c). Comware serves Q-BRIDGE (static
 * table with bitmaps, dot1qPvid) but changes port VLANs through its own tables: an access
 * port moves by rewriting hh3cdot1qVlanPorts of the target VLAN, a trunk by its allow
 * lists plus dot1qPvid. The configuration is saved by creating a config-operate row.
 *
 * Sources: HH3C-LswVLAN-MIB, HH3C-LswINF-MIB, HH3C-CONFIG-MAN-MIB, HH3C-POWER-ETH-EXT-MIB,
 * HH3C-LswDEVM-MIB (OIDs, enums and INDEX clauses as defined there). HH3C-IF-EXT-MIB holds
 * only traffic statistics and is not needed.
 */

/** HH3C-LswVLAN-MIB hh3cdot1qVlanMIBTable, index hh3cdot1qVlanIndex (the VLAN id). */
export const hh3cVlan = {
  hh3cdot1qVlanName: "1.3.6.1.4.1.25506.8.35.2.1.1.1.2", // 0..32 octets
  hh3cdot1qVlanPorts: "1.3.6.1.4.1.25506.8.35.2.1.1.1.3", // PortList (bridge ports) of the VLAN
  hh3cdot1qVlanType: "1.3.6.1.4.1.25506.8.35.2.1.1.1.4", // 1 superVlan, 2 common-vlan, 3 sub-vlan, 4 isolate-user-vlan, 5 secondary-vlan
  hh3cdot1qVlanStatus: "1.3.6.1.4.1.25506.8.35.2.1.1.1.10", // 1 other, 2 static, 3 dynamic
  hh3cdot1qVlanRowStatus: "1.3.6.1.4.1.25506.8.35.2.1.1.1.13", // RowStatus 1 active, 4 createAndGo, 6 destroy
  hh3cdot1qVlanTaggedPorts: "1.3.6.1.4.1.25506.8.35.2.1.1.1.17", // read-only PortList
  hh3cdot1qVlanUntaggedPorts: "1.3.6.1.4.1.25506.8.35.2.1.1.1.18", // read-only PortList
  hh3cdot1qVlanPortIndexs: "1.3.6.1.4.1.25506.8.35.2.1.1.1.19", // text: comma-separated port indexes, "1,3,4,7"
} as const;

/** HH3C-LswINF-MIB port VLAN mode and trunk lists. */
export const hh3cIf = {
  hh3cifVLANType: "1.3.6.1.4.1.25506.8.35.1.1.1.5", // AUGMENTS ifEntry (ifIndex); 1 vLANTrunk, 2 access, 3 hybrid, 4 fabric
  // hh3cifVLANTrunkStatusTable, index hh3cifVLANTrunkIndex (ifIndex); VLAN bitmaps
  hh3cifVLANTrunkPassListLow: "1.3.6.1.4.1.25506.8.35.5.1.3.1.4", // read-only, VLANs passing now (low half)
  hh3cifVLANTrunkPassListHigh: "1.3.6.1.4.1.25506.8.35.5.1.3.1.5", // read-only (high half)
  hh3cifVLANTrunkAllowListLow: "1.3.6.1.4.1.25506.8.35.5.1.3.1.6", // read-write, VLANs allowed (low half)
  hh3cifVLANTrunkAllowListHigh: "1.3.6.1.4.1.25506.8.35.5.1.3.1.7", // read-write (high half)
} as const;

/** HH3C-CONFIG-MAN-MIB: save = a new hh3cCfgOperateTable row, running2Startup(1), createAndGo(4). */
export const hh3cConfig = {
  // hh3cCfgOperateTable, index hh3cCfgOperateIndex (manager-chosen row)
  hh3cCfgOperateType: "1.3.6.1.4.1.25506.2.4.1.2.4.1.2", // 1 running2Startup, 2 startup2Running, 3 running2Net, 4 net2Running, 5 net2Startup, 6 startup2Net
  hh3cCfgOperateProtocol: "1.3.6.1.4.1.25506.2.4.1.2.4.1.3", // 1 ftp, 2 tftp, 3 clusterftp, 4 clustertftp (network copies only)
  hh3cCfgOperateFileName: "1.3.6.1.4.1.25506.2.4.1.2.4.1.4", // 1..128 octets
  hh3cCfgOperateRowStatus: "1.3.6.1.4.1.25506.2.4.1.2.4.1.9", // RowStatus 1 active, 4 createAndGo, 6 destroy
  // hh3cCfgOperateResultTable, index hh3cCfgOperateResultIndex
  hh3cCfgOperateResultOptIndex: "1.3.6.1.4.1.25506.2.4.1.2.5.1.2", // the hh3cCfgOperateIndex this result belongs to
  hh3cCfgOperateResultOpType: "1.3.6.1.4.1.25506.2.4.1.2.5.1.3", // as hh3cCfgOperateType
  hh3cCfgOperateState: "1.3.6.1.4.1.25506.2.4.1.2.5.1.4", // 1 opInProgress, 2 opSuccess, 3..20 failures (3 opInvalidOperation .. 19 opUnknownFailure, 20 opInvalidConfigFile)
  hh3cCfgOperFailReason: "1.3.6.1.4.1.25506.2.4.1.2.5.1.7", // text
} as const;

/** HH3C-POWER-ETH-EXT-MIB hh3cPsePortTable, index pethPsePortGroupIndex.pethPsePortIndex. */
export const hh3cPoe = {
  hh3cPsePortFaultDescription: "1.3.6.1.4.1.25506.2.14.1.1.2", // text
  hh3cPsePortPeakPower: "1.3.6.1.4.1.25506.2.14.1.1.3", // Integer32
  hh3cPsePortCurrentPower: "1.3.6.1.4.1.25506.2.14.1.1.5", // Integer32
  hh3cPsePortPowerLimit: "1.3.6.1.4.1.25506.2.14.1.1.6", // read-write Integer32
} as const;

/** HH3C-LswDEVM-MIB fan and power status, index hh3cDevMFanNum / hh3cDevMPowerNum. */
export const hh3cDevice = {
  hh3cDevMFanStatus: "1.3.6.1.4.1.25506.8.35.9.1.1.1.2", // 1 active, 2 deactive, 3 not-install, 4 unsupport
  hh3cDevMPowerStatus: "1.3.6.1.4.1.25506.8.35.9.1.2.1.2", // 1 active, 2 deactive, 3 not-install, 4 unsupport
} as const;
