/**
 * Cisco small business (CBS350-like): ifIndex == bridge port == port number, LAGs from
 * ifIndex 1000, VLAN interfaces from 100000, PoE index = ifIndex, save through
 * CISCOSB-COPY-MIB.
 */
import { lldpByBridgePort, paddedVlanName, type SwitchProfile } from "./types";

export const ciscosb: SwitchProfile = {
  id: "ciscosb",
  vendor: "Cisco",
  seedSalt: 1,
  sysObjectID: (ports) => `1.3.6.1.4.1.9.6.1.95.${ports}.1`,
  model: (ports, poe) => `CBS350-${ports}${poe ? "P" : "T"}-4G`,
  sysDescr: (ports, poe) =>
    `CBS350-${ports}${poe ? "P" : "T"}-4G ${ports}-Port Gigabit ${poe ? "PoE " : ""}Managed Switch`,
  softwareVersion: "3.2.0.84",
  portIfIndex: (n) => n,
  portName: (n, slot = 1) => `gi${slot}/0/${n}`,
  portDescr: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portBridgePort: (n) => n,
  chassis: true,
  layout: () => ({
    lag: { ifIndex: 1000, bridgePort: 1000, name: "Po1", ifType: 161 },
    svi: { ifIndex: 100000, ifType: 53, name: "vlan 1" },
    loopback: { ifIndex: 7000, name: "loopback1", ifType: 24 },
    extra: [],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  needsSave: true,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 256,
  defaultVlanName: "1",
  newVlanName: paddedVlanName,
  defaultPoe: "all",
};
