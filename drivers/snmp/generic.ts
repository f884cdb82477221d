/**
 * The generic SNMP driver: standard MIBs only (IF-MIB, BRIDGE-MIB, Q-BRIDGE-MIB,
 * POWER-ETHERNET-MIB, IP-MIB, LLDP-MIB). It learns with read plans (plans.ts), writes
 * single objects or short ordered PDUs, and reads every write back.
 *
 * A driver instance lives for one API call. A write's setter gets the interface view its
 * checks were made on, with what this driver learned beside it (bridge port, PoE index,
 * VLAN bitmaps), so the device is read once per write.
 */
import { bridge as bridgeMib, ifTable, ifXTable, ip, poe, qbridge } from "../../mib/oids";
import { type Capabilities } from "../../model/capabilities";
import { type DeviceSnapshot, type InterfaceView, type LearnScope, type VlanInfo } from "../../model/device";
import { type Driver } from "../contract";
import { NotSupported } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
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
import { changeUntaggedVlan, type PortVlanState } from "./untagged-vlan";
import { asBytes } from "./values";
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
  // IF-MIB ifAlias is DisplayString (SIZE(0..64)) and Q-BRIDGE names SnmpAdminString
  // (SIZE(0..32)): octets, so the byte limits are the ones agents enforce
  max_description_length: 64,
  max_description_bytes: 64,
  max_vlan_name_length: 32,
  max_vlan_name_bytes: 32,
};

export class GenericSnmpDriver implements Driver {
  readonly info: { vendor: string; driver: string } = { vendor: "Generic SNMP", driver: "generic" };
  readonly can: Capabilities = { ...genericCapabilities };
  readonly session: SnmpSession;

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

    return buildSnapshot(tables, scope);
  }

  /** SNMP interface ids are ifIndex numbers, in their one spelling ("7", never "007"). */
  parseInterfaceId(urlId: string): string | null {
    return ifIndexOf(urlId) === null ? null : urlId;
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

    const iface = interfaceInfo(row, {
      bridge: ports,
      pvids,
      members: membersByVlan(r.vlanStatic, currentMembers),
      vlanIds: new Set(vlans.map((v) => v.id)),
      routedIfIndexes: routedInterfaces(r.ipAddr, ip.ipAdEntIfIndex),
      poe: poeRow ? new Map([[ifIndex, poeRow]]) : new Map(),
    });
    const context: SnmpPortContext = {
      ifIndex,
      bridgePort: port,
      poeIndex: poeRow?.index ?? null,
      vlanState: { pvid: port !== null && pvids.has(port) ? pvids.get(port)! : null, staticMembers: staticMembersOf(r.vlanStatic) },
    };
    return { interface: iface, vlans, driverContext: context };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const r = await this.session.readPlan(vlanListPlan);
    if (!needsCurrentTable(r.vlanStatic, r.vlanCurrent)) return vlanList(r.vlanStatic, r.vlanCurrent);
    const current = await this.session.readColumns(currentMembersRead.columns, { label: currentMembersRead.label });
    return vlanList(r.vlanStatic, r.vlanCurrent, current.get(qbridge.dot1qVlanCurrentEgressPorts));
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const { ifIndex } = portContext(view);
    await writeVerified(this.session, [intWrite(`${ifTable.ifAdminStatus}.${ifIndex}`, up ? 1 : 2)]);
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const { ifIndex } = portContext(view);
    await writeVerified(this.session, [textWrite(`${ifXTable.ifAlias}.${ifIndex}`, text)]);
  }

  async setPoe(view: InterfaceView, on: boolean): Promise<void> {
    const { poeIndex } = portContext(view);
    if (!poeIndex) throw new NotSupported(`${this.session.where}: interface ${view.interface.name} has no PoE port`);
    await writeVerified(this.session, [intWrite(`${poe.pethPsePortAdminEnable}.${poeIndex}`, on ? 1 : 2)]);
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const { bridgePort, vlanState } = portContext(view);
    if (bridgePort === null) throw new NotSupported(`${this.session.where}: interface ${view.interface.name} is not a bridge port`);
    await changeUntaggedVlan(this.session, bridgePort, vlan, vlanState);
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
}

/**
 * SNMP interface ids are ifIndex numbers (1..2^31-1) as strings, in their one spelling:
 * "007" is not another name for 7, so it names no interface at all.
 */
function ifIndexOf(ifId: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(ifId)) return null;
  const n = Number(ifId);
  return n <= 2147483647 ? n : null;
}

/** What learnInterface() found beside the interface row, for the setters. */
interface SnmpPortContext {
  ifIndex: number;
  bridgePort: number | null;
  /** pethPsePortTable index "group.port", null without PoE */
  poeIndex: string | null;
  vlanState: PortVlanState;
}

function portContext(view: InterfaceView): SnmpPortContext {
  const context = view.driverContext as SnmpPortContext | undefined;
  if (!context || typeof context.ifIndex !== "number") {
    throw new TypeError("the interface view was not learned by this SNMP driver");
  }
  return context;
}

/** the static egress and untagged bitmaps per VLAN, as the write will modify them */
function staticMembersOf(staticTable: Columns | undefined): PortVlanState["staticMembers"] {
  const out: PortVlanState["staticMembers"] = new Map();
  const egress = staticTable?.get(qbridge.dot1qVlanStaticEgressPorts);
  const untagged = staticTable?.get(qbridge.dot1qVlanStaticUntaggedPorts);
  const vlans = new Set([...(egress?.keys() ?? []), ...(untagged?.keys() ?? [])]);
  for (const index of vlans) {
    const e = egress?.get(index);
    const u = untagged?.get(index);
    out.set(Number(index), { egress: e ? asBytes(e) : null, untagged: u ? asBytes(u) : null });
  }
  return out;
}
