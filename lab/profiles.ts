/**
 * Vendor profiles of lab switches: how interfaces are numbered and named, what the
 * system group says (sysObjectID picks the driver in switchdesk) and which vendor MIB
 * extras the agent serves.
 */

export type ProfileId = "generic" | "ciscosb";

export interface SwitchProfile {
  id: ProfileId;
  vendor: string;
  sysObjectID(ports: number): string;
  model(ports: number, poe: boolean): string;
  sysDescr(ports: number, poe: boolean): string;
  softwareVersion: string;
  /** Ethernet port n (1-based) */
  portIfIndex(n: number): number;
  /** port n of a fixed switch, or port n of slot `slot` of a chassis */
  portName(n: number, slot?: number): string;
  portDescr(n: number, slot?: number): string;
  /** bridge port of Ethernet port n */
  portBridgePort(n: number): number;
  /** an (empty) link aggregation that is a bridge port too */
  lag: { ifIndex: number; bridgePort: number; name: string } | null;
  /** the routed VLAN interface of VLAN 1 */
  svi: { ifIndex: number; ifType: number; name: string };
  loopback: { ifIndex: number; name: string };
  /** pethPsePortIndex (group 1) of Ethernet port n */
  poeIndex(n: number): number;
  /** serves CISCOSB-POE-MIB rlPethPsePortOutputPower (per-port milliwatts) */
  perPortPowerMib: boolean;
  /** changes live in the running config until an explicit save */
  needsSave: boolean;
  /** serves the CISCOSB-COPY-MIB rlCopyTable save */
  copyMib: boolean;
  maxAliasLength: number;
  maxVlanNameLength: number;
  maxVlans: number;
  defaultVlanName: string;
  defaultPoe: "none" | "all";
}

/**
 * A plain Q-BRIDGE switch under the net-snmp enterprise (8072), which switchdesk treats
 * as generic. ifIndex is 1000 + port while bridge ports count from 1, so a driver that
 * assumes bridge port == ifIndex fails here. PoE port indexes are the port numbers.
 */
const generic: SwitchProfile = {
  id: "generic",
  vendor: "switchdesk lab",
  sysObjectID: () => "1.3.6.1.4.1.8072.3.2.10",
  model: (ports) => `LAB-QB-${ports}`,
  sysDescr: (ports, poe) =>
    `switchdesk lab switch LAB-QB-${ports}${poe ? " PoE" : ""}, ${ports} Gigabit Ethernet ports, Q-BRIDGE, firmware 1.4.2`,
  softwareVersion: "1.4.2",
  portIfIndex: (n) => 1000 + n,
  portName: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portDescr: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portBridgePort: (n) => n,
  lag: null,
  svi: { ifIndex: 4001, ifType: 136, name: "Vlan1" },
  loopback: { ifIndex: 1, name: "lo" },
  poeIndex: (n) => n,
  perPortPowerMib: false,
  needsSave: false,
  copyMib: false,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 256,
  defaultVlanName: "default",
  defaultPoe: "none",
};

/**
 * Cisco small business (CBS350-like): ifIndex == bridge port == port number, LAGs from
 * ifIndex 1000, VLAN interfaces from 100000, PoE index = ifIndex, save through
 * CISCOSB-COPY-MIB.
 */
const ciscosb: SwitchProfile = {
  id: "ciscosb",
  vendor: "Cisco",
  sysObjectID: (ports) => `1.3.6.1.4.1.9.6.1.95.${ports}.1`,
  model: (ports, poe) => `CBS350-${ports}${poe ? "P" : "T"}-4G`,
  sysDescr: (ports, poe) =>
    `CBS350-${ports}${poe ? "P" : "T"}-4G ${ports}-Port Gigabit ${poe ? "PoE " : ""}Managed Switch`,
  softwareVersion: "3.2.0.84",
  portIfIndex: (n) => n,
  portName: (n, slot = 1) => `gi${slot}/0/${n}`,
  portDescr: (n, slot = 1) => `GigabitEthernet${slot}/0/${n}`,
  portBridgePort: (n) => n,
  lag: { ifIndex: 1000, bridgePort: 1000, name: "Po1" },
  svi: { ifIndex: 100000, ifType: 53, name: "vlan 1" },
  loopback: { ifIndex: 7000, name: "loopback1" },
  poeIndex: (n) => n,
  perPortPowerMib: true,
  needsSave: true,
  copyMib: true,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 256,
  defaultVlanName: "1",
  defaultPoe: "all",
};

export const profiles: Record<ProfileId, SwitchProfile> = { generic, ciscosb };

export function getProfile(id: ProfileId): SwitchProfile {
  const p = profiles[id];
  if (!p) throw new Error(`unknown lab profile: ${String(id)}`);
  return p;
}
