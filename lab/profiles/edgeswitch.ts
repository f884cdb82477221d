/**
 * Ubiquiti UniFi / EdgeSwitch (Broadcom FASTPATH). Its sysObjectID is the bare
 * enterprise OID 1.3.6.1.4.1.4413 with no model suffix, as recorded; the sysDescr names
 * the model. Ports "0/n" are ifIndex = bridge port = n; the CPU interface (ifType other,
 * carrying the management address) is 65 and the LAGs "3/k" follow it, also ifType other
 * and bridge ports, as recorded on a US-8.
 */
import { lldpByBridgePort, paddedVlanName, type SwitchProfile } from "./types";

const cpuIfIndex = (ports: number) => Math.max(65, ports + 1);

export const edgeswitch: SwitchProfile = {
  id: "edgeswitch",
  vendor: "Ubiquiti",
  seedSalt: 9,
  sysObjectID: () => "1.3.6.1.4.1.4413",
  model: (ports) => `US-${ports}`,
  sysDescr: (ports) => `US-${ports}, 5.76.7.13442, Linux 3.6.5`,
  softwareVersion: "5.76.7.13442",
  portIfIndex: (n) => n,
  portName: (n) => `0/${n}`,
  portDescr: (n) => `Slot: 0 Port: ${n} Gigabit - Level`,
  portBridgePort: (n) => n,
  chassis: { refused: "it numbers ports 0/n with ifIndex = bridge port = n" },
  layout: (ports) => ({
    lag: {
      ifIndex: cpuIfIndex(ports) + 1,
      bridgePort: cpuIfIndex(ports) + 1,
      ifType: 1,
      name: "3/1",
      descr: " Link Aggregate 1",
    },
    svi: {
      ifIndex: cpuIfIndex(ports),
      ifType: 1,
      name: "CPU Interface:  5/1",
      descr: " CPU Interface for Slot: 5 Port: 1",
    },
    loopback: null,
    extra: [],
  }),
  poePort: (n) => ({ group: 1, index: n }),
  lldpPortNum: lldpByBridgePort,
  needsSave: true,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 255,
  defaultVlanName: "default",
  newVlanName: paddedVlanName,
  defaultPoe: "none",
};
