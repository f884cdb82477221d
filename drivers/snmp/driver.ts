/**
 * The SNMP engine: one driver class for every SNMP family, composed of the family's parts
 * (drivers/snmp/parts/part.ts). The engine reads what every switch has (the system group,
 * IF-MIB, the bridge port map, IP addresses) and asks the parts for the rest (VLANs, PoE,
 * client data), all in one read plan: the columns of one table in one GETBULK, tables
 * concurrently. Writes go to the parts; every write is read back (verified-write.ts),
 * except in a batch (verifyWrites "deferred"), which reads once at its end.
 *
 * A driver instance lives for one API call. A write's setter gets the interface view its
 * checks were made on, with what the parts learned beside it, so the device is read once
 * per write. When the registry chose the family from a stored sysObjectID, the first read
 * checks that the device still answers with it (replaced hardware): DriverChoiceStale.
 */
import { bridge as bridgeMib, dot3StatsDuplexStatus, ifTable, ifXTable, ip, system } from "../../mib/oids";
import type { Capabilities } from "../../model/capabilities";
import type { DeviceSnapshot, InterfaceView, LearnScope, TagChange, VlanInfo } from "../../model/device";
import { DriverChoiceStale, NotSupported } from "../../model/failures";
import type { SnmpTarget } from "../../model/targets";
import type { Driver } from "../contract";
import type { DeviceGates } from "../device-gate";
import { bridgePortsFrom } from "./parts/bridge-ports";
import { ifRowFromGet, ifRowsFromTables, interfaceInfo, routedInterfaces, type IfRow } from "./parts/interfaces";
import type { Plan, PoePort, PortMap, PortVlans, SnmpParts } from "./parts/part";
import {
  markProtectedPorts,
  protectionLearnReads,
  protectionMoreReads,
  protectionPortReads,
  protectionsOfPort,
} from "./parts/protections";
import type { Varbind } from "./net-snmp-api";
import { type ColumnRead, type ScalarRead, type Scalars, type SessionCounters, SnmpSession, Tables } from "./session";
import { asInt, asText, uptimeText } from "./varbind-values";
import { intWrite, textWrite, writeVerified } from "./verified-write";
import { learnedContext } from "../port-context";

/** What a family is: its name and vendor, what it can do, and its parts. */
export interface SnmpFamily {
  info: { vendor: string; driver: string };
  can: Capabilities;
  parts: SnmpParts;
}

export interface SnmpDriverOptions {
  /** the device's inventory name, used in error messages */
  name?: string;
  /** an open session to reuse (the registry's probe); the driver closes it */
  session?: SnmpSession;
  /** requests in flight to the device at most */
  concurrency?: number;
  /** the service's per-device gates (drivers/device-gate.ts); without them the driver's session has its own */
  gates?: DeviceGates;
  /** the sysObjectID this family was chosen for: a device answering another one is stale */
  expectSysObjectId?: string;
}

const SYSTEM = "engine.system";
const IF_TABLE = "engine.ifTable";
const IF_X_TABLE = "engine.ifXTable";
const DUPLEX = "engine.duplex";
const BRIDGE_PORTS = "engine.bridgePorts";
const IP_ADDR = "engine.ipAddr";
const ROW = "engine.row";
const IDENTITY = "engine.identity";
const MERGED = "engine.merged";

const systemScalars = [
  system.sysDescr,
  system.sysObjectID,
  system.sysUpTime,
  system.sysContact,
  system.sysName,
  system.sysLocation,
].map((oid) => `${oid}.0`);
const ifTableColumns = [
  ifTable.ifDescr,
  ifTable.ifType,
  ifTable.ifMtu,
  ifTable.ifSpeed,
  ifTable.ifAdminStatus,
  ifTable.ifOperStatus,
];
const ifXTableColumns = [ifXTable.ifName, ifXTable.ifHighSpeed, ifXTable.ifAlias];
const bridgePortsRead = {
  label: "dot1dBasePortTable",
  columns: [bridgeMib.dot1dBasePortIfIndex],
  rowsLike: "bridgePort",
};
const ipAddrRead = { label: "ipAddrTable", columns: [ip.ipAdEntIfIndex], rows: 16 };

const SYS_OBJECT_ID = `${system.sysObjectID}.0`;

/** From this many interfaces on, learnInterfaces() walks the interface tables instead of a GET per row. */
const ROWS_BY_GET = 8;
/** objects in one GET of learnInterfaces() (the interfaces' rows and per-port objects) */
const MAX_GET_OIDS = 64;

type PortGuards = ReturnType<typeof protectionsOfPort>;

/**
 * The read plans of several interfaces as one: `shared` as it is, and each interface's own
 * plan, where a key that every interface reads alike is read once and any other is read
 * under the key and the ifIndex. tablesOf() gives one interface its answers under its
 * plan's own keys (the same Columns objects for the shared reads).
 */
function mergePortPlans(
  shared: Plan,
  perPort: Map<number, Plan>,
): { plan: Plan; tablesOf(all: Tables, ifIndex: number): Tables } {
  const plan: Plan = { ...shared };
  const alike = new Map<string, string | null>();
  for (const own of perPort.values()) {
    for (const [k, read] of Object.entries(own)) {
      const text = JSON.stringify(read);
      if (!alike.has(k)) alike.set(k, k in shared && JSON.stringify(shared[k]) !== text ? null : text);
      else if (alike.get(k) !== text) alike.set(k, null);
    }
  }
  const keysOf = new Map<number, Map<string, string>>();
  for (const [ifIndex, own] of perPort) {
    const keys = new Map<string, string>();
    for (const [k, read] of Object.entries(own)) {
      const key = alike.get(k) === null ? `${k}@${ifIndex}` : k;
      plan[key] = read;
      keys.set(k, key);
    }
    keysOf.set(ifIndex, keys);
  }
  const copy = (all: Tables, from: string, to: string, into: Tables) => {
    const columns = all.columns(from);
    if (columns) into.setColumns(to, columns);
    const values = all.scalars(from);
    if (values) into.setScalars(to, values);
  };
  return {
    plan,
    tablesOf(all, ifIndex) {
      const into = new Tables();
      for (const k of Object.keys(shared)) copy(all, k, k, into);
      for (const [k, key] of keysOf.get(ifIndex) ?? []) copy(all, key, k, into);
      return into;
    },
  };
}

/** The GET of one interface row. */
function interfaceRowOids(ifIndex: number): string[] {
  return [...ifTableColumns, ...ifXTableColumns, dot3StatsDuplexStatus].map((column) => `${column}.${ifIndex}`);
}

export function driverInfo(values: Scalars): Record<string, string | number> {
  const text = (oid: string) => asText(values.get(`${oid}.0`));
  const descr = text(system.sysDescr);
  const ticks = asInt(values.get(`${system.sysUpTime}.0`));
  return {
    model: descr.split(/\r?\n/)[0].trim(),
    sysDescr: descr,
    sysObjectID: text(system.sysObjectID),
    uptime: uptimeText(ticks),
    uptime_seconds: Math.floor(ticks / 100),
    contact: text(system.sysContact),
    location: text(system.sysLocation),
  };
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
  vlans: PortVlans | null;
  poe: PoePort | null;
}

function portContext(view: InterfaceView): SnmpPortContext {
  return learnedContext<SnmpPortContext>(view, "ifIndex", "this SNMP driver");
}

export class SnmpDriver implements Driver {
  readonly info: { vendor: string; driver: string };
  readonly can: Capabilities;
  readonly session: SnmpSession;
  private readonly contextSessions: SnmpSession[] = [];

  constructor(
    private readonly family: SnmpFamily,
    private readonly target: SnmpTarget,
    private readonly options: SnmpDriverOptions = {},
  ) {
    this.info = { ...family.info };
    this.can = { ...family.can };
    this.session =
      options.session ??
      new SnmpSession(target, { name: options.name, concurrency: options.concurrency, gates: options.gates });
  }

  /**
   * Whether LAG membership and 802.1X are read (parts/protections.ts): they stop changes,
   * so a family that changes nothing (read-only drivers) is spared the reads.
   */
  private get guarded(): boolean {
    const c = this.can;
    return c.change_admin_status || c.change_vlan || c.change_poe || c.change_description;
  }

  /** requests and critical-path round trips so far (bench, tests) */
  get counters(): SessionCounters {
    return this.session.counters;
  }

  parseInterfaceId(urlId: string): string | null {
    return ifIndexOf(urlId) === null ? null : urlId;
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const { vlans: vlanPart, poe, clientData } = this.family.parts;
    const plan: Plan = {
      [SYSTEM]: { label: "system group", scalars: systemScalars },
      [IF_TABLE]: { label: "ifTable", columns: ifTableColumns, rowsLike: "ifIndex" },
      [IF_X_TABLE]: { label: "ifXTable", columns: ifXTableColumns },
      [DUPLEX]: { label: "dot3StatsTable", columns: [dot3StatsDuplexStatus], rowsLike: "ifIndex" },
      [BRIDGE_PORTS]: bridgePortsRead,
      [IP_ADDR]: ipAddrRead,
      ...vlanPart.reads("learn"),
      ...poe.reads("learn"),
      ...(scope === "details" ? clientData.reads() : {}),
      ...(this.guarded ? protectionLearnReads() : {}),
    };
    const tables = await this.read(plan);
    const sys = tables.scalars(SYSTEM) ?? new Map<string, null>();
    this.checkIdentity(sys);
    const rows = ifRowsFromTables(tables.columns(IF_TABLE), tables.columns(IF_X_TABLE), tables.columns(DUPLEX));
    const ports = this.portMap(tables, rows);
    const guardReads = this.guarded ? protectionMoreReads(tables, rows) : {};
    tables.add(await this.more({ ...vlanPart.more?.("learn", tables, ports), ...guardReads }));
    const vlans = vlanPart.vlans(tables);
    if (scope === "details" && clientData.more) tables.add(await clientData.more(this.io(), tables, ports, vlans));

    const portVlans = vlanPart.ports(tables, ports);
    const poePorts = poe.ports(tables, ports);
    const vlanIds = new Set(vlans.map((v) => v.id));
    const routed = routedInterfaces(tables.columns(IP_ADDR), ip.ipAdEntIfIndex);
    const interfaces = rows.map((row) =>
      interfaceInfo(row, {
        vlans: portVlans.get(row.ifIndex),
        poe: poePorts.get(row.ifIndex)?.info,
        routed: routed.has(row.ifIndex),
        vlanIds,
      }),
    );
    if (this.guarded) markProtectedPorts(tables, rows, interfaces);
    if (scope === "details") {
      const macs = clientData.macs(tables, ports);
      const neighbors = clientData.neighbors(tables, ports);
      for (const iface of interfaces) {
        iface.macs = macs.get(Number(iface.id)) ?? [];
        iface.neighbors = neighbors.get(Number(iface.id)) ?? [];
      }
    }
    return {
      hostname: asText(sys.get(`${system.sysName}.0`)),
      driver_info: driverInfo(sys),
      vlans,
      interfaces,
      poe: poe.device(tables),
      scope,
    };
  }

  async learnInterface(ifId: string): Promise<InterfaceView | null> {
    const ifIndex = ifIndexOf(ifId);
    if (ifIndex === null) return null;
    const { vlans: vlanPart, poe } = this.family.parts;
    const plan: Plan = {
      // the device's identity rides along in the same GET
      [ROW]: { label: `interface ${ifIndex}`, scalars: [...interfaceRowOids(ifIndex), SYS_OBJECT_ID] },
      [BRIDGE_PORTS]: bridgePortsRead,
      [IP_ADDR]: ipAddrRead,
      ...vlanPart.reads("interface", ifIndex),
      ...poe.reads("interface"),
      ...(this.guarded ? protectionPortReads(ifIndex) : {}),
    };
    const tables = await this.read(plan);
    const rowValues = tables.scalars(ROW) ?? new Map<string, null>();
    this.checkIdentity(rowValues);
    const row = ifRowFromGet(rowValues, ifIndex);
    if (!row) return null;
    const ports = this.portMap(tables, [row]);
    // the aggregates' type and name ride along with the VLAN part's second round
    const guards = this.guarded ? protectionsOfPort(tables, ifIndex) : null;
    tables.add(await this.more({ ...vlanPart.more?.("interface", tables, ports, ifIndex), ...guards?.moreReads }));
    const view = this.viewOf(tables, row, ports);
    guards?.mark(tables, view.interface);
    return view;
  }

  /**
   * Many interfaces in one pass (Driver.learnInterfaces): the reads of learnInterface() for
   * each, merged into one plan. A read that is the same for every interface (the bridge
   * port map, IP addresses, the VLAN part's tables) is sent once, and every view is built
   * from that one answer, so they share the device-wide VLAN state (Q-BRIDGE bitmaps) that
   * the setters keep current. The interfaces' own GETs (rows, the parts' per-port objects)
   * go in GETs of at most MAX_GET_OIDS objects, side by side; from ROWS_BY_GET interfaces
   * on, the rows and the LAG/802.1X facts come from the walks learn() makes instead, so the
   * engine's requests do not grow with the number of interfaces.
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const out = new Map<string, InterfaceView | null>();
    const wanted = new Map<number, string>();
    for (const id of ids) {
      const ifIndex = ifIndexOf(id);
      if (ifIndex === null) out.set(id, null);
      else wanted.set(ifIndex, id);
    }
    if (wanted.size <= 1) {
      for (const id of wanted.values()) out.set(id, await this.learnInterface(id));
      return out;
    }
    const { vlans: vlanPart, poe } = this.family.parts;
    const walkRows = wanted.size > ROWS_BY_GET;
    const guardWalks = walkRows && this.guarded;
    const shared: Plan = {
      [IDENTITY]: { label: "sysObjectID", scalars: [SYS_OBJECT_ID] },
      [BRIDGE_PORTS]: bridgePortsRead,
      [IP_ADDR]: ipAddrRead,
      ...poe.reads("interface"),
      ...(walkRows
        ? {
            [IF_TABLE]: { label: "ifTable", columns: ifTableColumns, rowsLike: "ifIndex" },
            [IF_X_TABLE]: { label: "ifXTable", columns: ifXTableColumns },
            [DUPLEX]: { label: "dot3StatsTable", columns: [dot3StatsDuplexStatus], rowsLike: "ifIndex" },
          }
        : {}),
      ...(guardWalks ? protectionLearnReads() : {}),
    };
    const perPort = new Map<number, Plan>();
    for (const ifIndex of wanted.keys()) {
      perPort.set(ifIndex, {
        ...(walkRows ? {} : { [ROW]: { label: `interface ${ifIndex}`, scalars: interfaceRowOids(ifIndex) } }),
        ...vlanPart.reads("interface", ifIndex),
        ...(this.guarded && !walkRows ? protectionPortReads(ifIndex) : {}),
      });
    }
    const first = mergePortPlans(shared, perPort);
    const tables = await this.read(first.plan, MAX_GET_OIDS);
    this.checkIdentity(tables.scalars(IDENTITY));
    const allRows = walkRows
      ? ifRowsFromTables(tables.columns(IF_TABLE), tables.columns(IF_X_TABLE), tables.columns(DUPLEX))
      : [];
    const found: Array<{ ifIndex: number; own: Tables; row: IfRow; ports: PortMap; guards: PortGuards | null }> = [];
    const morePlans = new Map<number, Plan>();
    for (const [ifIndex, id] of wanted) {
      const own = first.tablesOf(tables, ifIndex);
      const row = walkRows
        ? (allRows.find((r) => r.ifIndex === ifIndex) ?? null)
        : ifRowFromGet(own.scalars(ROW) ?? new Map<string, null>(), ifIndex);
      if (!row) {
        out.set(id, null);
        continue;
      }
      const ports = this.portMap(own, [row]);
      const guards = this.guarded && !walkRows ? protectionsOfPort(own, ifIndex) : null;
      found.push({ ifIndex, own, row, ports, guards });
      morePlans.set(ifIndex, { ...vlanPart.more?.("interface", own, ports, ifIndex), ...guards?.moreReads });
    }
    const second = mergePortPlans(guardWalks ? protectionMoreReads(tables, allRows) : {}, morePlans);
    const more = await this.more(second.plan, MAX_GET_OIDS);
    tables.add(more);
    for (const { ifIndex, own, row, ports, guards } of found) {
      own.add(second.tablesOf(more, ifIndex));
      const view = this.viewOf(own, row, ports);
      if (guards) guards.mark(own, view.interface);
      else if (guardWalks) markProtectedPorts(tables, allRows, [view.interface]);
      out.set(wanted.get(ifIndex)!, view);
    }
    return out;
  }

  /** Whether a batch's views stay current through its writes (Driver.viewsFollowWrites). */
  get viewsFollowWrites(): boolean {
    return this.family.parts.vlans.followsWrites === true;
  }

  /** Driver.verifyWrites: "deferred" leaves out the GET after each SET (verified-write.ts). */
  verifyWrites(mode: "each" | "deferred"): void {
    this.session.deferReadBack = mode === "deferred";
  }

  /** One interface's view from the answers of its reads (its own keys in `tables`). */
  private viewOf(tables: Tables, row: IfRow, ports: PortMap): InterfaceView {
    const { vlans: vlanPart, poe } = this.family.parts;
    const ifIndex = row.ifIndex;
    const vlans = vlanPart.vlans(tables);
    const portVlans = vlanPart.ports(tables, ports, ifIndex).get(ifIndex) ?? null;
    const poePort = poe.ports(tables, ports).get(ifIndex) ?? null;
    const iface = interfaceInfo(row, {
      vlans: portVlans ?? undefined,
      poe: poePort?.info,
      routed: routedInterfaces(tables.columns(IP_ADDR), ip.ipAdEntIfIndex).has(ifIndex),
      vlanIds: new Set(vlans.map((v) => v.id)),
    });
    const context: SnmpPortContext = { ifIndex, vlans: portVlans, poe: poePort };
    return { interface: iface, vlans, driverContext: context };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const vlanPart = this.family.parts.vlans;
    const tables = await this.read({
      ...vlanPart.reads("vlans"),
      [IDENTITY]: { label: "sysObjectID", scalars: [SYS_OBJECT_ID] },
    });
    this.checkIdentity(tables.scalars(IDENTITY));
    const noPorts: PortMap = { bridge: bridgePortsFrom(undefined), ifIndexes: new Set(), names: new Map() };
    tables.add(await this.more(vlanPart.more?.("vlans", tables, noPorts)));
    return vlanPart.vlans(tables);
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    await writeVerified(this.session, [intWrite(`${ifTable.ifAdminStatus}.${portContext(view).ifIndex}`, up ? 1 : 2)]);
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    await writeVerified(this.session, [textWrite(`${ifXTable.ifAlias}.${portContext(view).ifIndex}`, text)]);
  }

  async setPoe(view: InterfaceView, on: boolean): Promise<void> {
    const { poe } = portContext(view);
    if (!poe) throw new NotSupported(`${this.session.where}: interface ${view.interface.name} has no PoE port`);
    await this.family.parts.poe.set(this.session, poe, on);
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const { ifIndex, vlans } = portContext(view);
    if (!vlans || vlans.writeState === null)
      throw new NotSupported(`${this.session.where}: interface ${view.interface.name} is not a bridge port`);
    await this.family.parts.vlans.setUntagged(this.session, ifIndex, vlans, vlan);
  }

  async setTags(view: InterfaceView, change: TagChange): Promise<void> {
    const { ifIndex, vlans } = portContext(view);
    const part = this.family.parts.vlans;
    if (!part.setTags)
      throw new NotSupported(`${this.session.where}: the ${this.info.driver} driver does not change trunk ports`);
    if (!vlans || vlans.writeState === null)
      throw new NotSupported(`${this.session.where}: interface ${view.interface.name} is not a bridge port`);
    await part.setTags(this.session, ifIndex, vlans, change);
  }

  async createVlan(id: number, name: string): Promise<void> {
    await this.family.parts.vlans.createVlan(this.session, id, name);
  }

  async renameVlan(id: number, name: string): Promise<void> {
    await this.family.parts.vlans.renameVlan(this.session, id, name);
  }

  async deleteVlan(id: number): Promise<void> {
    await this.family.parts.vlans.deleteVlan(this.session, id);
  }

  async saveConfig(): Promise<void> {
    const save = this.family.parts.save;
    if (!save)
      throw new NotSupported(
        `${this.session.where}: ${this.info.vendor} switches save their configuration by themselves or not over SNMP`,
      );
    await save.save(this.session);
  }

  async close(): Promise<void> {
    for (const s of this.contextSessions.splice(0)) s.close();
    this.session.close();
  }

  /** the replaced-hardware check: the device must still answer with the sysObjectID it was chosen for */
  private checkIdentity(values: Scalars | undefined): void {
    const expected = this.options.expectSysObjectId;
    if (!expected || !values) return;
    const observed = asText(values.get(SYS_OBJECT_ID)).replace(/^\./, "");
    if (observed && observed !== expected.replace(/^\./, "")) throw new DriverChoiceStale(observed);
  }

  private portMap(tables: Tables, rows: IfRow[]): PortMap {
    return {
      bridge: bridgePortsFrom(tables.columns(BRIDGE_PORTS)?.get(bridgeMib.dot1dBasePortIfIndex)),
      ifIndexes: new Set(rows.map((r) => r.ifIndex)),
      names: new Map(rows.map((r) => [r.ifIndex, r.name || r.descr])),
    };
  }

  private async more(plan: Plan | undefined, maxGetOids?: number): Promise<Tables> {
    return plan && Object.keys(plan).length ? this.read(plan, maxGetOids) : new Tables();
  }

  /**
   * Runs a plan with all its GETs (the engine's and the parts') merged into one PDU: one
   * request instead of one per part. The answers are handed back under their own keys.
   */
  private async read(plan: Plan, maxGetOids = Infinity): Promise<Tables> {
    const gets = new Map<string, ScalarRead>();
    const walks = new Map<string, ColumnRead>();
    for (const [k, read] of Object.entries(plan)) {
      if ("scalars" in read) gets.set(k, read);
      else walks.set(k, read);
    }
    // column reads indexed alike, by index kind: walked together in one GETBULK per round
    const alike = new Map<string, string[]>();
    for (const [k, read] of walks) {
      if (read.rowsLike) alike.set(read.rowsLike, [...(alike.get(read.rowsLike) ?? []), k]);
    }
    const walkedTogether = [...alike.entries()].filter(([, keys]) => keys.length > 1);
    const mergeGets = gets.size > 1;
    if (!mergeGets && walkedTogether.length === 0) return this.session.readPlan(plan);
    const firstGet = mergeGets ? [...gets.keys()][0] : undefined;
    const mergedKeys = new Set([...(mergeGets ? gets.keys() : []), ...walkedTogether.flatMap(([, keys]) => keys)]);
    // in the plan's order (a merged read where its first member was): the first failure
    // reported is the one of the first read, as without merging
    const merged: Plan = {};
    const getParts: string[] = [];
    for (const [k, read] of Object.entries(plan)) {
      if (!mergedKeys.has(k)) merged[k] = read;
      else if (k === firstGet) {
        // one GET, or (many interfaces) several of at most maxGetOids objects, sent side by side
        const label = [...gets].map(([key, get]) => get.label ?? key).join(", ");
        const oids = [...new Set([...gets.values()].flatMap((get) => get.scalars))];
        const parts = Math.max(1, Math.ceil(oids.length / maxGetOids));
        for (let i = 0; i < parts; i++) {
          const part = parts === 1 ? oids : oids.slice(i * maxGetOids, (i + 1) * maxGetOids);
          merged[i === 0 ? MERGED : `${MERGED}#${i}`] = { label, scalars: part };
          getParts.push(i === 0 ? MERGED : `${MERGED}#${i}`);
        }
      } else {
        const group = walkedTogether.find(([, keys]) => keys[0] === k);
        if (!group) continue;
        const [like, keys] = group;
        const reads = keys.map((key) => ({ key, read: walks.get(key)! }));
        const hints = reads.map(({ read: r }) => r.rows);
        merged[`${MERGED}.${like}`] = {
          label: reads.map(({ key, read: r }) => r.label ?? key).join(", "),
          columns: [...new Set(reads.flatMap(({ read: r }) => r.columns))],
          rows: hints.every((h) => h !== undefined) ? Math.max(...hints) : undefined,
        };
      }
    }
    const answers = await this.session.readPlan(merged);
    // the answers under the plan's own keys
    const tables = new Tables();
    for (const k of Object.keys(plan)) {
      if (mergedKeys.has(k)) continue;
      const got = answers.scalars(k);
      if (got) tables.setScalars(k, got);
      const walked = answers.columns(k);
      if (walked) tables.setColumns(k, walked);
    }
    if (mergeGets) {
      const values = new Map(getParts.flatMap((key) => [...(answers.scalars(key) ?? [])]));
      for (const [k, get] of gets)
        tables.setScalars(k, new Map(get.scalars.map((oid) => [oid, values.get(oid) ?? null])));
    }
    for (const [like, keys] of walkedTogether) {
      const walked = answers.columns(`${MERGED}.${like}`);
      for (const k of keys) {
        const columns = walks.get(k)!.columns;
        tables.setColumns(k, new Map(columns.map((c) => [c, walked?.get(c) ?? new Map<string, Varbind>()])));
      }
    }
    return tables;
  }

  private io() {
    return {
      session: this.session,
      contextSession: (context: { community: string; v3: string }) => {
        const t: SnmpTarget =
          this.target.version === "3"
            ? { ...this.target, context: context.v3 }
            : { ...this.target, community: `${this.target.community ?? "public"}@${context.community}` };
        // the same call as the main session: admitted already, never refused as busy
        const s = new SnmpSession(t, { name: this.options.name, admitted: true, gates: this.session.gates });
        this.contextSessions.push(s);
        return s;
      },
    };
  }
}
