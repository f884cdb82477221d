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
  /**
   * ifName of port n; with chassis numbering (see `chassis`) port n of slot `slot`.
   * Profiles that refuse chassis numbering are never given a slot.
   */
  portName(n: number, slot?: number): string;
  /** ifDescr of port n (of slot `slot` with chassis numbering) */
  portDescr(n: number, slot?: number): string;
  /** bridge port of Ethernet port n */
  portBridgePort(n: number): number;
  /**
   * Whether LabSwitchOptions.portsPerSlot applies: `true` when slot s port m may become
   * bridge port s*1000+m named portName(m, s), PoE index 1.<bridge port>; otherwise why
   * not, the message of the refusal. Families with a numbering of their own (stack
   * members, FPCs, offsets) keep it: their vendor tables and drivers are written
   * against it, and a second numbering would make a lab switch no real one is.
   */
  chassis: true | { refused: string };
  /** VLAN ids the family keeps for itself (Cisco's 1002-1005); generated extra VLANs skip them */
  reservedVlans?: readonly number[];
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
