/**
 * The parts an SNMP family driver is composed of. The engine (drivers/snmp/driver.ts)
 * reads the interface table, the bridge port map and IP addresses itself, and asks each
 * part for the tables it needs, in one read plan with everything else; the part then
 * builds its facts from the answers and does its writes. A family picks its parts:
 *
 *   VLAN membership  Q-BRIDGE; vendor VLAN MIBs (Cisco VTP and vmVlan, Juniper, ...)
 *   PoE              POWER-ETHERNET-MIB, with the family's way of mapping ports
 *   save             none, or the family's copy/save objects
 *   client data      the MAC table, ARP and LLDP of the details view
 *
 * Plan keys of a part are prefixed with its own name, so parts never collide.
 */
import { type SnmpSession, type PlanRead, Tables } from "../session";
import type { DevicePoe, LldpNeighbor, MacEntry, PoePortInfo, TagChange, VlanInfo } from "../../../model/device";
import type { BridgePorts } from "./bridge-ports";

/** A read plan: independent reads by key. */
export type Plan = Record<string, PlanRead>;

/** What a plan's reads returned, by key (columns for walks, values for GETs). */
export { Tables };

/** Why the engine reads: a whole learn, one interface for a write, or only the VLAN list. */
export type Purpose = "learn" | "interface" | "vlans";

/** What the engine knows of the device's ports when parts build their facts. */
export interface PortMap {
  /** bridge port <-> ifIndex (assumed equal when the device has no BRIDGE-MIB map) */
  bridge: BridgePorts;
  ifIndexes: Set<number>;
  /** ifIndex -> interface name (ifName, else ifDescr) */
  names: Map<number, string>;
}

/** The VLAN facts of one port, and what a change of its untagged VLAN needs. */
export interface PortVlans {
  /** untagged VLAN (PVID or access VLAN), 0 when none */
  untagged: number;
  /** VLANs the port carries tagged (the untagged one excluded) */
  tagged: number[];
  /** what the part's setUntagged needs for this port, as read with the facts */
  writeState: unknown;
}

export interface VlanPart {
  /**
   * Its writes keep the write state shared by the ports of one read (the device-wide
   * bitmaps, the port's PVID) as the device holds it after them: a batch's next write to
   * any port of the same learnInterfaces builds on the last one without a new read.
   */
  followsWrites?: boolean;
  /** tables for a purpose; `ifIndex` is the interface of an "interface" read */
  reads(purpose: Purpose, ifIndex?: number): Plan;
  /** reads that depend on the first answers (a second round, usually empty) */
  more?(purpose: Purpose, tables: Tables, ports: PortMap, ifIndex?: number): Plan;
  vlans(tables: Tables): VlanInfo[];
  /** ifIndex -> its VLANs, for the ports the tables speak of (or only `only` when given) */
  ports(tables: Tables, ports: PortMap, only?: number): Map<number, PortVlans>;
  setUntagged(session: SnmpSession, ifIndex: number, port: PortVlans, vlan: number): Promise<void>;
  /** a trunk change (Driver.setTags); a part without it cannot change trunks (not_supported) */
  setTags?(session: SnmpSession, ifIndex: number, port: PortVlans, change: TagChange): Promise<void>;
  createVlan(session: SnmpSession, id: number, name: string): Promise<void>;
  renameVlan(session: SnmpSession, id: number, name: string): Promise<void>;
  deleteVlan(session: SnmpSession, id: number): Promise<void>;
}

/** One port's PoE: what the view shows and the index a write addresses. */
export interface PoePort {
  info: PoePortInfo;
  /** the part's own address of the port (POWER-ETHERNET-MIB "group.port") */
  index: string;
}

export interface PoePart {
  reads(purpose: Purpose): Plan;
  /** ifIndex -> its PoE port */
  ports(tables: Tables, ports: PortMap): Map<number, PoePort>;
  /** the device's PoE summary (null: no PoE at all) */
  device(tables: Tables): DevicePoe | null;
  set(session: SnmpSession, port: PoePort, on: boolean): Promise<void>;
}

export interface SavePart {
  save(session: SnmpSession): Promise<void>;
}

/** What a part may use for reads the engine's plan cannot express. */
export interface PartIo {
  session: SnmpSession;
  /**
   * A session to the same device in another SNMP context: community@context for v2c,
   * the context name for v3 (Cisco keeps a MAC table per VLAN that way). Closed by the engine.
   */
  contextSession(context: { community: string; v3: string }): SnmpSession;
}

/** The details view: MAC table entries, ARP, LLDP neighbours, each by ifIndex. */
export interface ClientDataPart {
  reads(): Plan;
  /** more reads after the first answers: fallback tables, per-VLAN contexts */
  more?(io: PartIo, tables: Tables, ports: PortMap, vlans: VlanInfo[]): Promise<Tables>;
  macs(tables: Tables, ports: PortMap): Map<number, MacEntry[]>;
  neighbors(tables: Tables, ports: PortMap): Map<number, LldpNeighbor[]>;
}

/** A family's parts (only the VLAN part has no default). */
export interface SnmpParts {
  vlans: VlanPart;
  poe: PoePart;
  save: SavePart | null;
  clientData: ClientDataPart;
}
