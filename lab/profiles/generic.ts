/**
 * A plain Q-BRIDGE switch under the net-snmp enterprise (8072), which switchdesk treats
 * as generic. ifIndex is 1000 + port while bridge ports count from 1, so a driver that
 * assumes bridge port == ifIndex fails here. PoE port indexes are the port numbers.
 */
import { lldpByBridgePort, paddedVlanName, type SwitchProfile } from "./types";

export const generic: SwitchProfile = {
  id: "generic",
  vendor: "switchdesk lab",
  seedSalt: 0,
  sysObjectID: () => "1.3.6.1.4.1.8072.3.2.10",
  model: (ports) => `LAB-QB-${ports}`,
  sysDescr: (ports, poe) =>
    `switchdesk lab switch LAB-QB-${ports}${poe ? " PoE" : ""}, ${ports} Gigabit Ethernet ports, Q-BRIDGE, firmware 1.4.2`,
  softwareVersion: "1.4.2",
  portIfIndex: (n) => 1000 + n,
  portName: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portDescr: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portBridgePort: (n) => n,
  chassis: true,
  layout: () => ({
    lag: null,
    svi: { ifIndex: 4001, ifType: 136, name: "Vlan1" },
    loopback: { ifIndex: 1, name: "lo", ifType: 24 },
    extra: [],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  needsSave: false,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 256,
  defaultVlanName: "default",
  newVlanName: paddedVlanName,
  defaultPoe: "none",
};
