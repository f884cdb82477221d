/**
 * What a recording (snmpsim .snmprec file: `OID|type|value` lines, "4x" = hex octets)
 * says a driver should report, counted straight from the file. Replay tests compare the
 * API with these facts, so the logic here is written apart from the drivers: it reads the
 * tables each vendor keeps (Q-BRIDGE, CISCO-VTP and vmVlan, JUNIPER-L2ALD, POWER-ETHERNET
 * with the Cisco entity link, LLDP) and applies the mapping rules written next to each
 * fact. Where a recording cannot tell (a PoE port with no mapping, a PVID on an unknown
 * bridge port) the fact is left out and counted as unmapped, never guessed.
 *
 * The recordings are third-party data beside the project; nothing here copies them.
 */
import fs from "node:fs";
import path from "node:path";
import { fixturesDir } from "./fixtures";

/** Folder of the .snmprec recordings, or null when it is absent (tests then skip). */
export function snmprecDir(): string | null {
  const dir = path.join(fixturesDir, "snmprec");
  return fs.existsSync(dir) ? dir : null;
}

/** Path of a recording by its name ("ios_2960x"), or null when absent. */
export function recordingPath(name: string): string | null {
  const dir = snmprecDir();
  if (!dir) return null;
  const file = path.join(dir, `${name}.snmprec`);
  return fs.existsSync(file) ? file : null;
}

/**
 * The community@context files beside a recording: snmpsimd serves `NAME@CTX.snmprec` to
 * community `NAME@CTX`, as a Cisco switch answers community@vlan for VLAN CTX.
 */
export function listContexts(name: string, dir: string | null = snmprecDir()): { context: string; file: string }[] {
  if (!dir) return [];
  const prefix = `${name}@`;
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".snmprec"))
    .map((f) => ({ context: f.slice(prefix.length, -".snmprec".length), file: path.join(dir, f) }))
    .sort((a, b) => a.context.localeCompare(b.context, "en", { numeric: true }));
}

// ---- the file ----

export interface RecordedValue {
  /** snmprec type tag: "2", "4", "4x", "6", "64", "65", "66", "67", "70" */
  type: string;
  /** the octets an agent serves (hex decoded for "4x"; the raw text otherwise) */
  bytes: Buffer;
  /** the value as text: UTF-8 of the octets without trailing NULs (as drivers decode) */
  text: string;
}

/** One recording, parsed whole (the largest is about 1.2 MB). */
export class Snmprec {
  private readonly values = new Map<string, RecordedValue>();

  constructor(readonly file: string) {
    // latin1 keeps every byte of the file as one char, so raw values survive the split
    for (const line of fs.readFileSync(file, "latin1").split("\n")) {
      const first = line.indexOf("|");
      const second = line.indexOf("|", first + 1);
      if (first <= 0 || second < 0) continue;
      const type = line.slice(first + 1, second);
      const raw = line.slice(second + 1).replace(/\r$/, "");
      const bytes = type.endsWith("x") ? Buffer.from(raw, "hex") : Buffer.from(raw, "latin1");
      this.values.set(line.slice(0, first), { type, bytes, text: bytes.toString("utf8").replace(/\0+$/, "") });
    }
  }

  get size(): number {
    return this.values.size;
  }

  get(oid: string): RecordedValue | undefined {
    return this.values.get(oid);
  }

  /** instance suffix -> value of every object under `base` (a column OID) */
  column(base: string): Map<string, RecordedValue> {
    const out = new Map<string, RecordedValue>();
    const prefix = `${base}.`;
    for (const [oid, value] of this.values) if (oid.startsWith(prefix)) out.set(oid.slice(prefix.length), value);
    return out;
  }
}

/** Integer value of a recorded object (undefined when not an integer). */
function int(value: RecordedValue | undefined): number | undefined {
  if (!value || !/^-?\d+$/.test(value.text)) return undefined;
  return Number(value.text);
}

// Objects read here, by MIB name (numeric OIDs from the MIB modules named alongside).
const O = {
  sysObjectID: "1.3.6.1.2.1.1.2.0",
  sysName: "1.3.6.1.2.1.1.5.0",
  // IF-MIB
  ifIndex: "1.3.6.1.2.1.2.2.1.1",
  ifDescr: "1.3.6.1.2.1.2.2.1.2",
  ifType: "1.3.6.1.2.1.2.2.1.3",
  ifMtu: "1.3.6.1.2.1.2.2.1.4",
  ifSpeed: "1.3.6.1.2.1.2.2.1.5",
  ifAdminStatus: "1.3.6.1.2.1.2.2.1.7",
  ifOperStatus: "1.3.6.1.2.1.2.2.1.8",
  ifName: "1.3.6.1.2.1.31.1.1.1.1",
  ifHighSpeed: "1.3.6.1.2.1.31.1.1.1.15",
  ifAlias: "1.3.6.1.2.1.31.1.1.1.18",
  // BRIDGE-MIB / Q-BRIDGE-MIB
  dot1dBasePortIfIndex: "1.3.6.1.2.1.17.1.4.1.2",
  dot1qVlanCurrentTable: "1.3.6.1.2.1.17.7.1.4.2.1",
  dot1qVlanStaticTable: "1.3.6.1.2.1.17.7.1.4.3.1",
  dot1qVlanStaticName: "1.3.6.1.2.1.17.7.1.4.3.1.1",
  dot1qPvid: "1.3.6.1.2.1.17.7.1.4.5.1.1",
  // IP-MIB
  ipAdEntIfIndex: "1.3.6.1.2.1.4.20.1.2",
  // CISCO-VTP-MIB, CISCO-VLAN-MEMBERSHIP-MIB
  vtpVlanState: "1.3.6.1.4.1.9.9.46.1.3.1.1.2",
  vtpVlanType: "1.3.6.1.4.1.9.9.46.1.3.1.1.3",
  vtpVlanName: "1.3.6.1.4.1.9.9.46.1.3.1.1.4",
  vlanTrunkPortNativeVlan: "1.3.6.1.4.1.9.9.46.1.6.1.1.5",
  vlanTrunkPortDynamicStatus: "1.3.6.1.4.1.9.9.46.1.6.1.1.14",
  vlanTrunkPortEncapsulationOperType: "1.3.6.1.4.1.9.9.46.1.6.1.1.16",
  vmVlan: "1.3.6.1.4.1.9.9.68.1.2.2.1.2",
  // JUNIPER-L2ALD-MIB
  jnxL2aldVlanName: "1.3.6.1.4.1.2636.3.48.1.3.1.1.2",
  jnxL2aldVlanTag: "1.3.6.1.4.1.2636.3.48.1.3.1.1.3",
  // POWER-ETHERNET-MIB, CISCO-POWER-ETHERNET-EXT-MIB, ENTITY-MIB, CISCO-STACK-MIB
  pethPsePortAdminEnable: "1.3.6.1.2.1.105.1.1.1.3",
  cpeExtPsePortEnable: "1.3.6.1.4.1.9.9.402.1.2.1.1",
  cpeExtPsePortEntPhyIndex: "1.3.6.1.4.1.9.9.402.1.2.1.11",
  entAliasMappingIdentifier: "1.3.6.1.2.1.47.1.3.2.1.2",
  portIfIndex: "1.3.6.1.4.1.9.5.1.4.1.1.11",
  // LLDP-MIB
  lldpLocPortId: "1.0.8802.1.1.2.1.3.7.1.3",
  lldpLocPortDesc: "1.0.8802.1.1.2.1.3.7.1.4",
  lldpRemEntry: "1.0.8802.1.1.2.1.4.1.1",
} as const;

/** ifIndex OID prefix inside entAliasMappingIdentifier values */
const IF_INDEX_OID = "1.3.6.1.2.1.2.2.1.1.";

// ---- the facts ----

export type VlanSource = "vtp" | "jnx-l2ald" | "q-bridge" | "pvid-values" | "none";
export type UntaggedSource = "cisco-vmvlan-trunk" | "dot1q-pvid" | "none";

export interface InterfaceFact {
  ifIndex: number;
  /** ifName, else ifDescr ("" when the recording has neither) */
  name: string;
  type?: number;
  /** IF-MIB ifAdminStatus / ifOperStatus numbers: 1 up, 2 down, 3 testing, ... 7 lowerLayerDown */
  admin?: number;
  oper?: number;
  /** Mbit/s: ifHighSpeed, else ifSpeed / 1e6 */
  speedMbps?: number;
  /** IF-MIB ifMtu, octets */
  mtu?: number;
  alias?: string;
}

export interface RecordingFacts {
  file: string;
  sysObjectID: string | null;
  sysName: string | null;
  /** every ifIndex that any of ifIndex/ifDescr/ifType/ifAdmin/ifOper/ifName has a row for */
  interfaces: Map<number, InterfaceFact>;
  /** BRIDGE-MIB dot1dBasePortIfIndex: bridge port -> ifIndex */
  bridgePorts: Map<number, number>;
  /** VLAN id -> name ("" when the source has no name) */
  vlans: Map<number, string>;
  vlanSource: VlanSource;
  /** ifIndex -> untagged VLAN (access VLAN, trunk native VLAN or PVID) */
  untagged: Map<number, number>;
  untaggedSource: UntaggedSource;
  /** untagged rows that point at no interface of the recording (bridge port not in the map...) */
  untaggedUnmapped: number;
  /** ifIndex -> PoE admin state (true enabled) */
  poeAdmin: Map<number, boolean>;
  /** PoE rows whose group.port maps to no interface */
  poeUnmapped: number;
  /** ifIndex -> LLDP neighbours recorded on it */
  lldpNeighbors: Map<number, number>;
  /** neighbours whose local port maps to no interface */
  lldpUnmapped: number;
  /** ifIndexes holding an IPv4 address (ipAdEntIfIndex) */
  ipInterfaces: Set<number>;
}

const RESERVED_VTP = new Set([1002, 1003, 1004, 1005]);

function interfacesOf(rec: Snmprec): Map<number, InterfaceFact> {
  const out = new Map<number, InterfaceFact>();
  const row = (index: string): InterfaceFact | undefined => {
    const ifIndex = Number(index);
    if (!Number.isInteger(ifIndex)) return undefined;
    let fact = out.get(ifIndex);
    if (!fact) {
      fact = { ifIndex, name: "" };
      out.set(ifIndex, fact);
    }
    return fact;
  };
  for (const index of rec.column(O.ifIndex).keys()) row(index);
  for (const [index, v] of rec.column(O.ifDescr)) row(index)!.name = v.text;
  for (const [index, v] of rec.column(O.ifName)) if (v.text !== "") row(index)!.name = v.text;
  for (const [index, v] of rec.column(O.ifType)) row(index)!.type = int(v);
  for (const [index, v] of rec.column(O.ifAdminStatus)) row(index)!.admin = int(v);
  for (const [index, v] of rec.column(O.ifOperStatus)) row(index)!.oper = int(v);
  // speed and alias only describe interfaces the columns above already listed
  for (const [index, v] of rec.column(O.ifSpeed)) {
    const fact = out.get(Number(index));
    const bps = int(v);
    if (fact && bps !== undefined) fact.speedMbps = bps / 1e6;
  }
  for (const [index, v] of rec.column(O.ifHighSpeed)) {
    const fact = out.get(Number(index));
    const mbps = int(v);
    if (fact && mbps !== undefined) fact.speedMbps = mbps;
  }
  for (const [index, v] of rec.column(O.ifMtu)) {
    const fact = out.get(Number(index));
    const mtu = int(v);
    if (fact && mtu !== undefined) fact.mtu = mtu;
  }
  for (const [index, v] of rec.column(O.ifAlias)) {
    const fact = out.get(Number(index));
    if (fact) fact.alias = v.text;
  }
  return out;
}

function bridgePortsOf(rec: Snmprec): Map<number, number> {
  const out = new Map<number, number>();
  for (const [port, v] of rec.column(O.dot1dBasePortIfIndex)) {
    const ifIndex = int(v);
    if (ifIndex !== undefined && ifIndex > 0) out.set(Number(port), ifIndex);
  }
  return out;
}

/**
 * VLANs, first table that has rows wins:
 *  1. CISCO-VTP vtpVlanTable: ethernet VLANs (vtpVlanType 1) 1..4094 except 1002..1005;
 *  2. JUNIPER-L2ALD jnxL2aldVlanTable: tag -> name (rows are indexed by an internal id);
 *  3. Q-BRIDGE: every VLAN with a static row or a current row, named by the static name;
 *  4. no VLAN table at all (AOS-CX): the distinct non-zero dot1qPvid values, unnamed.
 */
function vlansOf(rec: Snmprec): { vlans: Map<number, string>; source: VlanSource } {
  const vlans = new Map<number, string>();
  const vtpState = rec.column(O.vtpVlanState);
  if (vtpState.size > 0) {
    const types = rec.column(O.vtpVlanType);
    const names = rec.column(O.vtpVlanName);
    for (const index of vtpState.keys()) {
      const id = Number(index.split(".")[1]);
      const type = int(types.get(index));
      if (!(id >= 1 && id <= 4094) || RESERVED_VTP.has(id) || (type !== undefined && type !== 1)) continue;
      vlans.set(id, names.get(index)?.text ?? "");
    }
    return { vlans: sorted(vlans), source: "vtp" };
  }
  const jnxTags = rec.column(O.jnxL2aldVlanTag);
  if (jnxTags.size > 0) {
    const names = rec.column(O.jnxL2aldVlanName);
    for (const [index, v] of jnxTags) {
      const tag = int(v);
      if (tag !== undefined && tag >= 1 && tag <= 4094) vlans.set(tag, names.get(index)?.text ?? "");
    }
    return { vlans: sorted(vlans), source: "jnx-l2ald" };
  }
  for (const index of rec.column(O.dot1qVlanStaticTable).keys()) {
    // index is column.vlan
    const id = Number(index.split(".")[1]);
    if (id >= 1 && id <= 4094) vlans.set(id, "");
  }
  for (const index of rec.column(O.dot1qVlanCurrentTable).keys()) {
    // index is column.timeMark.vlan
    const id = Number(index.slice(index.lastIndexOf(".") + 1));
    if (id >= 1 && id <= 4094 && !vlans.has(id)) vlans.set(id, "");
  }
  for (const [index, v] of rec.column(O.dot1qVlanStaticName))
    if (vlans.has(Number(index))) vlans.set(Number(index), v.text);
  if (vlans.size > 0) return { vlans: sorted(vlans), source: "q-bridge" };
  for (const v of rec.column(O.dot1qPvid).values()) {
    const id = int(v);
    if (id !== undefined && id >= 1 && id <= 4094) vlans.set(id, "");
  }
  return { vlans: sorted(vlans), source: vlans.size > 0 ? "pvid-values" : "none" };
}

function sorted<V>(map: Map<number, V>): Map<number, V> {
  return new Map([...map].sort((a, b) => a[0] - b[0]));
}

/**
 * Untagged VLAN per interface.
 *  Cisco (a vmVlan or VTP trunk table is recorded): a trunking port (vlanTrunkPortDynamicStatus
 *  trunking(1), or when that column is absent vlanTrunkPortEncapsulationOperType isl/dot10/
 *  lane/dot1Q) has its vlanTrunkPortNativeVlan; any other port its vmVlan (0 = none); a
 *  non-trunking port without vmVlan has none.
 *  Others: dot1qPvid, indexed by bridge port and mapped through dot1dBasePortIfIndex (taken
 *  as the ifIndex when the recording has no bridge port table); PVID 0 means none.
 */
function untaggedOf(
  rec: Snmprec,
  interfaces: Map<number, InterfaceFact>,
  bridgePorts: Map<number, number>,
): { untagged: Map<number, number>; source: UntaggedSource; unmapped: number } {
  const untagged = new Map<number, number>();
  let unmapped = 0;
  const vmVlan = rec.column(O.vmVlan);
  const native = rec.column(O.vlanTrunkPortNativeVlan);
  if (vmVlan.size > 0 || native.size > 0) {
    const dynamicStatus = rec.column(O.vlanTrunkPortDynamicStatus);
    const encapsulation = rec.column(O.vlanTrunkPortEncapsulationOperType);
    const trunking = (index: string): boolean => {
      const status = int(dynamicStatus.get(index));
      if (status !== undefined) return status === 1;
      const oper = int(encapsulation.get(index));
      return oper !== undefined && oper >= 1 && oper <= 4;
    };
    for (const index of new Set([...vmVlan.keys(), ...native.keys()])) {
      const ifIndex = Number(index);
      const vlan = trunking(index) ? int(native.get(index)) : int(vmVlan.get(index));
      if (vlan === undefined || vlan === 0) continue;
      if (interfaces.has(ifIndex)) untagged.set(ifIndex, vlan);
      else unmapped++;
    }
    return { untagged: sorted(untagged), source: "cisco-vmvlan-trunk", unmapped };
  }
  const pvids = rec.column(O.dot1qPvid);
  for (const [index, v] of pvids) {
    const vlan = int(v);
    if (vlan === undefined || vlan === 0) continue;
    const port = Number(index);
    const ifIndex = bridgePorts.size > 0 ? bridgePorts.get(port) : port;
    if (ifIndex !== undefined && interfaces.has(ifIndex)) untagged.set(ifIndex, vlan);
    else unmapped++;
  }
  return { untagged: sorted(untagged), source: pvids.size > 0 ? "dot1q-pvid" : "none", unmapped };
}

/**
 * PoE admin state per interface. Rows: pethPsePortAdminEnable (1 true, 2 false), else the
 * Cisco cpeExtPsePortEnable of the same group.port (1 auto, 2 static, 3 limit = enabled,
 * 4 disable). group.port -> ifIndex, first rule that gives a recorded interface:
 *  1. Cisco entity link: cpeExtPsePortEntPhyIndex -> entAliasMappingIdentifier.<ent>.0;
 *  2. the port number is an ifIndex (Linksys, HP, Cisco SB number PoE ports so);
 *  3. CISCO-STACK-MIB portIfIndex.<group>.<port>.
 */
function poeOf(rec: Snmprec, interfaces: Map<number, InterfaceFact>): { poe: Map<number, boolean>; unmapped: number } {
  const poe = new Map<number, boolean>();
  let unmapped = 0;
  const admin = rec.column(O.pethPsePortAdminEnable);
  const ciscoEnable = rec.column(O.cpeExtPsePortEnable);
  const entPhy = rec.column(O.cpeExtPsePortEntPhyIndex);
  const alias = rec.column(O.entAliasMappingIdentifier);
  const stackPorts = rec.column(O.portIfIndex);
  const ifOfEntity = (ent: number | undefined): number | undefined => {
    if (!ent) return undefined;
    const target = alias.get(`${ent}.0`)?.text;
    return target?.startsWith(IF_INDEX_OID) ? Number(target.slice(IF_INDEX_OID.length)) : undefined;
  };
  for (const index of new Set([...admin.keys(), ...ciscoEnable.keys()])) {
    const [group, port] = index.split(".").map(Number);
    const a = int(admin.get(index));
    const c = int(ciscoEnable.get(index));
    const enabled = a !== undefined ? a === 1 : c !== undefined ? c !== 4 : undefined;
    if (enabled === undefined) continue;
    const candidates = [ifOfEntity(int(entPhy.get(index))), port, int(stackPorts.get(`${group}.${port}`))];
    const ifIndex = candidates.find((i) => i !== undefined && interfaces.has(i));
    if (ifIndex === undefined) unmapped++;
    else poe.set(ifIndex, enabled);
  }
  return { poe: sorted(poe), unmapped };
}

/**
 * LLDP neighbours per interface: one per lldpRemTable row (index timeMark.localPort.remIndex,
 * any column). localPort (an lldpLocPortNum) -> ifIndex, first rule that fits:
 *  1. its lldpLocPortId, else lldpLocPortDesc, equals exactly one interface's ifName or ifDescr
 *     (Dell OS10 numbers local ports apart from ifIndex);
 *  2. it is an ifIndex;
 *  3. it is a bridge port of dot1dBasePortIfIndex.
 */
function lldpOf(
  rec: Snmprec,
  interfaces: Map<number, InterfaceFact>,
  bridgePorts: Map<number, number>,
): { neighbors: Map<number, number>; unmapped: number } {
  const rows = new Set<string>();
  for (const index of rec.column(O.lldpRemEntry).keys()) {
    const arcs = index.split(".");
    // column.timeMark.localPort.remIndex; columns 1..3 are the not-accessible index objects
    if (arcs.length === 4 && Number(arcs[0]) >= 4) rows.add(arcs.slice(1).join("."));
  }
  const byName = new Map<string, number[]>();
  const descr = rec.column(O.ifDescr);
  for (const fact of interfaces.values()) {
    for (const name of new Set([fact.name, descr.get(String(fact.ifIndex))?.text ?? ""])) {
      if (name === "") continue;
      byName.set(name, [...(byName.get(name) ?? []), fact.ifIndex]);
    }
  }
  const locId = rec.column(O.lldpLocPortId);
  const locDesc = rec.column(O.lldpLocPortDesc);
  const ifOfLocal = (local: number): number | undefined => {
    for (const text of [locId.get(String(local))?.text, locDesc.get(String(local))?.text]) {
      const hits = text ? byName.get(text) : undefined;
      if (hits && hits.length === 1) return hits[0];
    }
    if (interfaces.has(local)) return local;
    const viaBridge = bridgePorts.get(local);
    return viaBridge !== undefined && interfaces.has(viaBridge) ? viaBridge : undefined;
  };
  const neighbors = new Map<number, number>();
  let unmapped = 0;
  for (const row of rows) {
    const ifIndex = ifOfLocal(Number(row.split(".")[1]));
    if (ifIndex === undefined) unmapped++;
    else neighbors.set(ifIndex, (neighbors.get(ifIndex) ?? 0) + 1);
  }
  return { neighbors: sorted(neighbors), unmapped };
}

/** All facts of one recording file. */
export function snmprecFacts(file: string): RecordingFacts {
  const rec = new Snmprec(file);
  const interfaces = interfacesOf(rec);
  const bridgePorts = bridgePortsOf(rec);
  const { vlans, source: vlanSource } = vlansOf(rec);
  const { untagged, source: untaggedSource, unmapped: untaggedUnmapped } = untaggedOf(rec, interfaces, bridgePorts);
  const { poe: poeAdmin, unmapped: poeUnmapped } = poeOf(rec, interfaces);
  const { neighbors: lldpNeighbors, unmapped: lldpUnmapped } = lldpOf(rec, interfaces, bridgePorts);
  const ipInterfaces = new Set<number>();
  for (const v of rec.column(O.ipAdEntIfIndex).values()) {
    const ifIndex = int(v);
    if (ifIndex !== undefined) ipInterfaces.add(ifIndex);
  }
  return {
    file,
    sysObjectID: rec.get(O.sysObjectID)?.text ?? null,
    sysName: rec.get(O.sysName)?.text ?? null,
    interfaces: sorted(interfaces),
    bridgePorts: sorted(bridgePorts),
    vlans,
    vlanSource,
    untagged,
    untaggedSource,
    untaggedUnmapped,
    poeAdmin,
    poeUnmapped,
    lldpNeighbors,
    lldpUnmapped,
    ipInterfaces,
  };
}
