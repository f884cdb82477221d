/**
 * Arista EOS (a 7050TX; sysObjectID and sysDescr as recorded). EthernetN is ifIndex =
 * bridge port = N; Management1 is 999001 (no bridge port), Port-Channel1 1000001 and
 * VLAN interfaces 2000000 + VLAN id, as recorded. No PoE. LLDP local ports are ifIndexes.
 */
import { lldpByIfIndex, paddedVlanName, type SwitchProfile } from "./types";

export const arista: SwitchProfile = {
  id: "arista",
  vendor: "Arista",
  seedSalt: 7,
  sysObjectID: () => "1.3.6.1.4.1.30065.1.3011.7050.1958.128",
  model: () => "DCS-7050TX-128",
  sysDescr: () => "Arista Networks EOS version 4.15.3F running on an Arista Networks DCS-7050TX-128",
  softwareVersion: "4.15.3F",
  portIfIndex: (n) => n,
  portName: (n) => `Ethernet${n}`,
  portDescr: (n) => `Ethernet${n}`,
  portBridgePort: (n) => n,
  chassis: { refused: "it numbers ports EthernetN with ifIndex = bridge port = N" },
  layout: (ports) => ({
    lag: { ifIndex: 1000001, bridgePort: ports + 1, ifType: 161, name: "Port-Channel1" },
    svi: { ifIndex: 2000001, ifType: 136, name: "Vlan1" },
    loopback: null,
    extra: [{ ifIndex: 999001, ifType: 6, name: "Management1" }],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByIfIndex,
  needsSave: true,
  maxAliasLength: 240,
  maxVlanNameLength: 32,
  maxVlans: 4094,
  defaultVlanName: "default",
  newVlanName: paddedVlanName,
  defaultPoe: "none",
};
