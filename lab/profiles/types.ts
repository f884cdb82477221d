/**
 * What a lab profile says about a vendor family: how its interfaces are numbered and
 * named, what the system group reads, its limits and defaults. Data only: which MIB
 * objects a family serves and how it takes writes live under lab/snmp/switch-mib/.
 */
import type { LabInterface } from "../hardware";

/** Every family the lab can play; lab/profiles/index.ts and lab/snmp/switch-mib/families.ts each hold one entry per id. */
export type ProfileId =
  | "generic"
  | "ciscosb"
  | "cisco"
  | "procurve"
  | "comware"
  | "arubacx"
  | "dell"
  | "arista"
  | "juniper"
  | "edgeswitch"
  | "fs";

/** An interface that is not an Ethernet port and not a bridge port (management port, Null0, Junos logical unit). */
export interface VirtualInterfaceSpec {
  ifIndex: number;
  name: string;
  /** ifDescr; the name when absent */
  descr?: string;
  /** IANA ifType */
  ifType: number;
}

/** The interfaces besides the Ethernet ports, for a switch of `ports` ports. */
export interface InterfaceLayout {
  /** an (empty) link aggregation that is a bridge port too */
  lag: (VirtualInterfaceSpec & { bridgePort: number }) | null;
  /** the routed interface of VLAN 1 (carries the management address) */
  svi: VirtualInterfaceSpec;
  /** a software loopback (ifType 24 unless given) */
  loopback: VirtualInterfaceSpec | null;
  /** further interfaces the family always has */
  extra: VirtualInterfaceSpec[];
}

export interface SwitchProfile {
  id: ProfileId;
  vendor: string;
  /** mixed into the generation seed, so two families built from the same options differ */
  seedSalt: number;
  sysObjectID(ports: number): string;
  model(ports: number, poe: boolean): string;
  sysDescr(ports: number, poe: boolean): string;
  softwareVersion: string;
  /** Ethernet port n (1-based) */
  portIfIndex(n: number): number;
  /** ifName of port n */
  portName(n: number): string;
  /** ifDescr of port n */
  portDescr(n: number): string;
  /** bridge port of Ethernet port n */
  portBridgePort(n: number): number;
  layout(ports: number): InterfaceLayout;
  /** pethPsePortGroupIndex.pethPsePortIndex of Ethernet port n */
  poePort(n: number): { group: number; index: number };
  /** lldpLocPortNum (and so lldpRemLocalPortNum) of an Ethernet port */
  lldpPortNum(iface: LabInterface): number;
  /** changes live in the running config until an explicit save */
  needsSave: boolean;
  maxAliasLength: number;
  maxVlanNameLength: number;
  maxVlans: number;
  defaultVlanName: string;
  /** the name a VLAN created without one gets */
  newVlanName(id: number): string;
  defaultPoe: "none" | "all";
}

/** Stack member m (1-based) and port p on it, for switches with `perMember` ports a member. */
export function memberPort(n: number, perMember: number): { member: number; port: number } {
  const member = Math.floor((n - 1) / perMember) + 1;
  return { member, port: n - (member - 1) * perMember };
}

/** "VLAN0042", the Q-BRIDGE default name on many agents */
export const paddedVlanName = (id: number): string => `VLAN${String(id).padStart(4, "0")}`;

/** lldpLocPortNum = bridge port, what most agents use */
export const lldpByBridgePort = (iface: LabInterface): number => iface.bridgePort ?? iface.ifIndex;
/** lldpLocPortNum = ifIndex */
export const lldpByIfIndex = (iface: LabInterface): number => iface.ifIndex;
