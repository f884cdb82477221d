/**
 * The generic SNMP driver: standard MIBs only (IF-MIB, BRIDGE-MIB, Q-BRIDGE-MIB,
 * POWER-ETHERNET-MIB, IP-MIB, LLDP-MIB). It learns with read plans (plans.ts), writes
 * single objects or short ordered PDUs, and reads every write back.
 *
 * A driver instance lives for one API call: what it learns about the bridge port map
 * and PoE indexes may be reused by the write that follows, never by another call.
 */
import { bridge as bridgeMib, ifTable, ifXTable, ip, poe, qbridge } from "../../mib/oids";
import {
  type Capabilities,
  type DeviceSnapshot,
  type Driver,
  type InterfaceView,
  type LearnScope,
  NotSupported,
  type SnmpTarget,
  type VlanInfo,
} from "../types";
import { type BridgePorts, bridgePortsFrom, portOfInterface } from "./bridge-ports";
import { ifRowFromGet, interfaceInfo, routedInterfaces } from "./interface-rows";
import {
  basicPlan,
  bridgeFdbRead,
  bridgePortsRead,
  currentMembersRead,
  detailsPlan,
  interfaceContextPlan,
  interfaceRowOids,
  poePortsRead,
  vlanListPlan,
} from "./plans";
import { poeByInterface, poeRows } from "./poe-tables";
import { type Columns, type PlanRead, type Scalars, type SessionCounters, SnmpSession } from "./session";
import { buildSnapshot, type LearnedTables } from "./snapshot";
import { changeUntaggedVlan } from "./untagged-vlan";
import { asText } from "./values";
import { intWrite, textWrite, writeVerified } from "./verified-write";
import { membersByVlan, needsCurrentTable, pvidByPort, vlanList } from "./vlan-tables";

export interface SnmpDriverOptions {
  /** the device's inventory name, used in error messages */
  name?: string;
  /** an open session to reuse (the registry's probe); the driver closes it */
  session?: SnmpSession;
  /** requests in flight to the device at most */
  concurrency?: number;
}

/** What the generic driver can do; vendor variants start from it. */
export const genericCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  change_poe: true,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  save_config: false,
  client_data: true,
  max_description_length: 64,
  max_vlan_name_length: 32,
};

export class GenericSnmpDriver implements Driver {
  readonly info: { vendor: string; driver: string } = { vendor: "Generic SNMP", driver: "generic" };
  readonly can: Capabilities = { ...genericCapabilities };
  readonly session: SnmpSession;
  private bridgePorts: BridgePorts | null = null;
  private readonly poeIndexes = new Map<number, string>();

  constructor(target: SnmpTarget, options: SnmpDriverOptions = {}) {
    this.session = options.session ?? new SnmpSession(target, { name: options.name, concurrency: options.concurrency });
  }

  /** requests and critical-path round trips so far (bench, tests) */
  get counters(): SessionCounters {
    return this.session.counters;
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const plan: Record<string, PlanRead> = scope === "details" ? detailsPlan : basicPlan;
    const tables = (await this.session.readPlan(plan)) as unknown as LearnedTables;

    // second plan, usually empty: fallbacks for agents without the preferred tables
    const fallback: Record<string, PlanRead> = {};
    if (needsCurrentTable(tables.vlanStatic, tables.vlanCurrent)) fallback.currentMembers = currentMembersRead;
    if (scope === "details" && (tables.fdb?.get(qbridge.dot1qTpFdbPort)?.size ?? 0) === 0) {
      fallback.bridgeFdb = bridgeFdbRead;
    }
    if (Object.keys(fallback).length > 0) Object.assign(tables, await this.session.readPlan(fallback));

    this.bridgePorts = bridgePortsFrom(tables.bridgePorts?.get(bridgeMib.dot1dBasePortIfIndex));
    return buildSnapshot(tables, scope);
  }

  async learnInterface(ifId: string): Promise<InterfaceView | null> {
    const ifIndex = ifIndexOf(ifId);
    if (ifIndex === null) return null;
    // the PVID GET guesses bridge port == ifIndex (true on most switches); checked below
    const pvidGuess = `${qbridge.dot1qPvid}.${ifIndex}`;
    const plan = {
      row: { label: `interface ${ifIndex}`, scalars: [...interfaceRowOids(ifIndex), pvidGuess] },
      bridgePorts: bridgePortsRead,
      ...interfaceContextPlan,
    };
    const r = (await this.session.readPlan(plan)) as unknown as { row: Scalars } & Record<string, Columns>;
    const row = ifRowFromGet(r.row, ifIndex);
    if (!row) return null;
    const ports = bridgePortsFrom(r.bridgePorts.get(bridgeMib.dot1dBasePortIfIndex));
    this.bridgePorts = ports;
    const port = portOfInterface(ports, ifIndex);

    const fallback: Record<string, PlanRead> = {};
    if (port !== null && port !== ifIndex) fallback.pvid = { label: "dot1qPvid", scalars: [`${qbridge.dot1qPvid}.${port}`] };
    if (needsCurrentTable(r.vlanStatic, r.vlanCurrent)) fallback.currentMembers = currentMembersRead;
    const more = Object.keys(fallback).length ? ((await this.session.readPlan(fallback)) as Record<string, Columns | Scalars>) : {};

    const currentMembers = more.currentMembers as Columns | undefined;
    const vlans = vlanList(r.vlanStatic, r.vlanCurrent, currentMembers?.get(qbridge.dot1qVlanCurrentEgressPorts));
    const pvids = new Map<number, number>();
    const pvidValue = port === ifIndex ? r.row.get(pvidGuess) : (more.pvid as Scalars | undefined)?.get(`${qbridge.dot1qPvid}.${port}`);
    if (port !== null && pvidValue) pvidByPort(new Map([[String(port), pvidValue]])).forEach((v, k) => pvids.set(k, v));

    const bridgeIfIndexes = new Set([ifIndex, ...ports.ifToPort.keys()]);
    const poeRow = poeByInterface(poeRows(r.psePorts), {
      ifIndexes: bridgeIfIndexes,
      bridge: ports,
      names: new Map([[ifIndex, row.name || row.descr]]),
    }).get(ifIndex);
    if (poeRow) this.poeIndexes.set(ifIndex, poeRow.index);

    const iface = interfaceInfo(row, {
      bridge: ports,
      pvids,
      members: membersByVlan(r.vlanStatic, currentMembers),
      vlanIds: new Set(vlans.map((v) => v.id)),
      routedIfIndexes: routedInterfaces(r.ipAddr, ip.ipAdEntIfIndex),
      poe: poeRow ? new Map([[ifIndex, poeRow]]) : new Map(),
    });
    return { interface: iface, vlans };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const r = await this.session.readPlan(vlanListPlan);
    if (!needsCurrentTable(r.vlanStatic, r.vlanCurrent)) return vlanList(r.vlanStatic, r.vlanCurrent);
    const current = await this.session.readColumns(currentMembersRead.columns, { label: currentMembersRead.label });
    return vlanList(r.vlanStatic, r.vlanCurrent, current.get(qbridge.dot1qVlanCurrentEgressPorts));
  }

  async setAdminState(ifId: string, up: boolean): Promise<void> {
    const ifIndex = this.requireIfIndex(ifId);
    await writeVerified(this.session, [intWrite(`${ifTable.ifAdminStatus}.${ifIndex}`, up ? 1 : 2)]);
  }

  async setDescription(ifId: string, text: string): Promise<void> {
    const ifIndex = this.requireIfIndex(ifId);
    await writeVerified(this.session, [textWrite(`${ifXTable.ifAlias}.${ifIndex}`, text)]);
  }

  async setPoe(ifId: string, on: boolean): Promise<void> {
    const ifIndex = this.requireIfIndex(ifId);
    const index = this.poeIndexes.get(ifIndex) ?? (await this.findPoeIndex(ifIndex));
    if (!index) throw new NotSupported(`${this.session.where}: interface ${ifId} has no PoE port`);
    await writeVerified(this.session, [intWrite(`${poe.pethPsePortAdminEnable}.${index}`, on ? 1 : 2)]);
  }

  async setUntaggedVlan(ifId: string, vlan: number): Promise<void> {
    const ifIndex = this.requireIfIndex(ifId);
    const ports = this.bridgePorts ?? (await this.readBridgePorts());
    const port = portOfInterface(ports, ifIndex);
    if (port === null) throw new NotSupported(`${this.session.where}: interface ${ifId} is not a bridge port`);
    await changeUntaggedVlan(this.session, port, vlan);
  }

  async createVlan(id: number, name: string): Promise<void> {
    // createAndGo(4) reads back as active(1)
    await writeVerified(this.session, [
      intWrite(`${qbridge.dot1qVlanStaticRowStatus}.${id}`, 4, 1),
      textWrite(`${qbridge.dot1qVlanStaticName}.${id}`, name),
    ]);
  }

  async renameVlan(id: number, name: string): Promise<void> {
    await writeVerified(this.session, [textWrite(`${qbridge.dot1qVlanStaticName}.${id}`, name)]);
  }

  async deleteVlan(id: number): Promise<void> {
    await writeVerified(this.session, [intWrite(`${qbridge.dot1qVlanStaticRowStatus}.${id}`, 6, "absent")]);
  }

  async saveConfig(): Promise<void> {
    throw new NotSupported(`${this.session.where}: the generic SNMP driver cannot save the configuration`);
  }

  async close(): Promise<void> {
    this.session.close();
  }

  private requireIfIndex(ifId: string): number {
    const ifIndex = ifIndexOf(ifId);
    if (ifIndex === null) throw new NotSupported(`'${ifId}' is not an SNMP interface index`);
    return ifIndex;
  }

  private async readBridgePorts(): Promise<BridgePorts> {
    const columns = await this.session.readColumns(bridgePortsRead.columns, { label: bridgePortsRead.label });
    this.bridgePorts = bridgePortsFrom(columns.get(bridgeMib.dot1dBasePortIfIndex));
    return this.bridgePorts;
  }

  /** PoE index of one interface when no learn of this instance found it yet. */
  private async findPoeIndex(ifIndex: number): Promise<string | null> {
    const r = await this.session.readPlan({
      name: { label: `interface ${ifIndex}`, scalars: [`${ifXTable.ifName}.${ifIndex}`, `${ifTable.ifDescr}.${ifIndex}`] },
      psePorts: poePortsRead,
      bridgePorts: bridgePortsRead,
    });
    const ports = bridgePortsFrom(r.bridgePorts.get(bridgeMib.dot1dBasePortIfIndex));
    this.bridgePorts = ports;
    const name = asText(r.name.get(`${ifXTable.ifName}.${ifIndex}`)) || asText(r.name.get(`${ifTable.ifDescr}.${ifIndex}`));
    const row = poeByInterface(poeRows(r.psePorts), {
      ifIndexes: new Set([ifIndex, ...ports.ifToPort.keys()]),
      bridge: ports,
      names: new Map([[ifIndex, name]]),
    }).get(ifIndex);
    return row?.index ?? null;
  }
}

/** SNMP interface ids are ifIndex numbers as strings. */
function ifIndexOf(ifId: string): number | null {
  if (!/^\d{1,10}$/.test(ifId)) return null;
  const n = Number(ifId);
  return n >= 1 && n <= 2147483647 ? n : null;
}
