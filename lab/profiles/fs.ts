/**
 * FS.com S3900 (sysObjectID and sysDescr style as recorded: the sysDescr is the bare
 * model name). Ports "Portn" are ifIndex = bridge port = n; VLAN interfaces are l3ipvlan
 * at 1000 + VLAN id ("VLAN ID 0001"), Loopback0 is 746, as recorded.
 */
import { lldpByBridgePort, paddedVlanName, type SwitchProfile } from "./types";

const modelName = (ports: number) => `S3900-${Math.max(ports - 4, 4)}T4S`;

export const fs: SwitchProfile = {
  id: "fs",
  vendor: "FS.com",
  seedSalt: 10,
  sysObjectID: () => "1.3.6.1.4.1.52642.2.1.45.101",
  model: modelName,
  sysDescr: modelName,
  softwareVersion: "1.1.0.2",
  portIfIndex: (n) => n,
  portName: (n) => `Port${n}`,
  portDescr: (n) => `Ethernet Port on unit 1, port ${n}`,
  portBridgePort: (n) => n,
  chassis: { refused: "it numbers ports Portn with ifIndex = bridge port = n" },
  layout: () => ({
    lag: null,
    svi: { ifIndex: 1001, ifType: 136, name: "VLAN1", descr: "VLAN ID 0001" },
    loopback: { ifIndex: 746, ifType: 24, name: "Loopback0", descr: "Loopback Interface 0" },
    extra: [],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  needsSave: true,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 4094,
  defaultVlanName: "DefaultVlan",
  newVlanName: paddedVlanName,
  defaultPoe: "none",
};
