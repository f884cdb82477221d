/**
 * Dell EMC OS10 (sysObjectID and the first sysDescr line as recorded). Ports
 * ethernet1/1/n have ifIndex 12 + n but bridge port n + 1 (bridge port 1 is the
 * port-channel), and lldpLocPortNum 512 + 4n (mgmt1/1/1 is 4), all as recorded: a
 * driver has to map both through dot1dBasePortIfIndex and lldpLocPortId. The VLAN
 * interface is l2vlan.
 */
import type { SwitchProfile } from "./types";

export const dell: SwitchProfile = {
  id: "dell",
  vendor: "Dell EMC",
  seedSalt: 6,
  sysObjectID: () => "1.3.6.1.4.1.674.11000.5000.100.2.1.7",
  model: () => "S4148T-ON",
  sysDescr: () =>
    "Dell EMC Networking OS10 Enterprise.\r\n" +
    "Copyright (c) 1999-2020 by Dell Inc. All Rights Reserved.\r\n" +
    "System Description: OS10 Enterprise.\r\n" +
    "OS Version: 10.5.1.0.\r\n" +
    "System Type: S4148T-ON",
  softwareVersion: "10.5.1.0",
  portIfIndex: (n) => 12 + n,
  portName: (n) => `ethernet1/1/${n}`,
  portDescr: (n) => `ethernet1/1/${n}`,
  portBridgePort: (n) => n + 1,
  chassis: { refused: "it numbers ports ethernet1/1/n with ifIndex 12 + n and bridge port n + 1" },
  layout: (ports) => ({
    lag: { ifIndex: 12 + ports + 1, bridgePort: 1, ifType: 161, name: "port-channel1000" },
    svi: { ifIndex: 12 + ports + 2, ifType: 135, name: "vlan1" },
    loopback: null,
    extra: [{ ifIndex: 10, ifType: 6, name: "mgmt1/1/1" }],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: (iface) => (iface.portNumber !== null ? 512 + 4 * iface.portNumber : iface.ifIndex),
  needsSave: true,
  maxAliasLength: 240,
  maxVlanNameLength: 32,
  maxVlans: 4094,
  defaultVlanName: "vlan1",
  newVlanName: (id) => `vlan${id}`,
  defaultPoe: "none",
};
