/**
 * HP ProCurve / Aruba AOS-S (a 2520; sysObjectID as recorded). Ports are plain numbers:
 * ifIndex = bridge port = port = ifName = ifDescr. VLAN interfaces are propVirtual
 * (DEFAULT_VLAN), the loopbacks lo0.. sit at 4152.., as recorded. PoE ports are indexed
 * 1.<ifIndex>.
 */
import { lldpByBridgePort, type SwitchProfile } from "./types";

export const procurve: SwitchProfile = {
  id: "procurve",
  vendor: "HP",
  seedSalt: 3,
  sysObjectID: () => "1.3.6.1.4.1.11.2.3.7.8.5.2",
  model: (ports, poe) => `2520-${ports}${poe ? "-PoE" : ""}`,
  sysDescr: (ports, poe) => `HP 2520-${ports}${poe ? "-PoE" : ""} Switch, revision J.15.09.0028, ROM J.14.05`,
  softwareVersion: "J.15.09.0028",
  portIfIndex: (n) => n,
  portName: (n) => `${n}`,
  portDescr: (n) => `${n}`,
  portBridgePort: (n) => n,
  // the recorded 28-port switch has DEFAULT_VLAN at 58 and VLAN v at 57 + v
  chassis: { refused: "a 2520 numbers its ports 1..n with ifIndex = bridge port = port" },
  layout: (ports) => ({
    lag: null,
    svi: { ifIndex: Math.max(57, ports + 29) + 1, ifType: 53, name: "DEFAULT_VLAN" },
    loopback: { ifIndex: 4152, ifType: 24, name: "lo0", descr: "HP ProCurve Switch software loopback interface" },
    extra: [],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  // hpSwitchImplicitConfigSave: every SNMP SET is written to flash at once
  needsSave: false,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 256,
  defaultVlanName: "DEFAULT_VLAN",
  newVlanName: (id) => `VLAN${id}`,
  defaultPoe: "all",
};
