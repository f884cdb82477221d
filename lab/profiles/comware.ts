/**
 * HPE Comware 5 (an A5500 EI; sysObjectID as recorded). Ports GigabitEthernet1/0/n with
 * ifIndex = bridge port = n; NULL0 follows the ports, then InLoopBack0, and the VLAN
 * interface Vlan-interface1 (l3ipvlan) at ports + 5, as recorded. VLANs are named
 * "VLAN 0001" by default.
 */
import { lldpByBridgePort, type SwitchProfile } from "./types";

export const comware: SwitchProfile = {
  id: "comware",
  vendor: "HPE",
  seedSalt: 4,
  sysObjectID: () => "1.3.6.1.4.1.25506.11.1.24",
  model: (ports, poe) => `A5500-${ports}G${poe ? "-PoE+" : ""} EI`,
  sysDescr: (ports, poe) =>
    "HP Comware Platform Software, Software Version 5.20.99 Release 2222P08\r\n" +
    `HP A5500-${ports}G${poe ? "-PoE+" : ""} EI Switch with 2 Interface Slots\r\n` +
    "Copyright (c) 2010-2017 Hewlett Packard Enterprise Development LP",
  softwareVersion: "5.20.99 Release 2222P08",
  portIfIndex: (n) => n,
  portName: (n) => `GigabitEthernet1/0/${n}`,
  portDescr: (n) => `GigabitEthernet1/0/${n}`,
  portBridgePort: (n) => n,
  chassis: { refused: "it numbers ports GigabitEthernet1/0/n with ifIndex = bridge port = n" },
  layout: (ports) => ({
    lag: null,
    svi: { ifIndex: ports + 5, ifType: 136, name: "Vlan-interface1" },
    loopback: { ifIndex: ports + 2, ifType: 24, name: "InLoopBack0" },
    extra: [{ ifIndex: ports + 1, ifType: 1, name: "NULL0" }],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  needsSave: true,
  maxAliasLength: 80,
  maxVlanNameLength: 32,
  maxVlans: 4094,
  defaultVlanName: "VLAN 0001",
  newVlanName: (id) => `VLAN ${String(id).padStart(4, "0")}`,
  defaultPoe: "none",
};
