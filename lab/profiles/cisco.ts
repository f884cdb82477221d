/**
 * Cisco IOS / IOS-XE Catalyst access switch (a 2960-X stack; sysObjectID cat29xxStack as
 * in both recorded 2960s). Stack member m holds 52 ports GigabitEthernet m/0/1..52 with
 * ifIndex 10100 + 500 * (m - 1) + port and bridge port 56 * (m - 1) + port, as recorded;
 * ifName is the short form (Gi1/0/1), ifDescr the long one. Vlan1 is ifIndex 1
 * (propVirtual), Null0 14001. PoE ports are indexed member.port (pethPsePortGroupIndex =
 * stack member). LLDP local ports are ifIndexes.
 */
import { lldpByIfIndex, memberPort, paddedVlanName, type SwitchProfile } from "./types";

const PER_MEMBER = 52;

export const cisco: SwitchProfile = {
  id: "cisco",
  vendor: "Cisco",
  seedSalt: 2,
  sysObjectID: () => "1.3.6.1.4.1.9.1.1208",
  model: (ports, poe) => `WS-C2960X-${Math.min(ports, 48)}${poe ? "FPD" : "TD"}-L`,
  sysDescr: () =>
    "Cisco IOS Software, C2960X Software (C2960X-UNIVERSALK9-M), Version 15.2(7)E4, RELEASE SOFTWARE (fc2)\r\n" +
    "Technical Support: http://www.cisco.com/techsupport\r\n" +
    "Copyright (c) 1986-2021 by Cisco Systems, Inc.\r\n" +
    "Compiled Tue 21-Sep-21 11:51 by prod_rel_team",
  softwareVersion: "15.2(7)E4",
  portIfIndex: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return 10100 + 500 * (member - 1) + port;
  },
  portName: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return `Gi${member}/0/${port}`;
  },
  portDescr: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return `GigabitEthernet${member}/0/${port}`;
  },
  portBridgePort: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return 56 * (member - 1) + port;
  },
  chassis: {
    refused:
      "it numbers ports by stack member (Gi<member>/0/<port>, 52 a member, bridge port 56 * (member - 1) + port); more ports make more members",
  },
  layout: () => ({
    lag: null,
    svi: { ifIndex: 1, ifType: 53, name: "Vl1", descr: "Vlan1" },
    loopback: null,
    extra: [{ ifIndex: 14001, ifType: 1, name: "Nu0", descr: "Null0" }],
  }),
  poePort: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return { group: member, index: port };
  },
  lldpPortNum: lldpByIfIndex,
  needsSave: true,
  maxAliasLength: 200,
  maxVlanNameLength: 32,
  maxVlans: 1005,
  // VTP keeps these for FDDI and Token Ring (switch-mib/cisco/vtp.ts RESERVED_VLANS)
  reservedVlans: [1002, 1003, 1004, 1005],
  defaultVlanName: "default",
  newVlanName: paddedVlanName,
  defaultPoe: "all",
};

/** stack member of a port, for the entity and CISCO-STACK tables */
export const ciscoMemberPort = (n: number) => memberPort(n, PER_MEMBER);
