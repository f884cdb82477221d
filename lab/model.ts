/**
 * VirtualSwitch: the state of one lab switch. Fixed hardware facts come from the seeded
 * generator; the configuration exists twice, RUNNING (what every change touches and the
 * agent serves) and STARTUP (what a save copies running into and a reboot reloads), so
 * tests can see whether a change was saved.
 */
import { cloneConfig, configsEqual, consistencyProblems, type SwitchConfig, type VlanSettings } from "./config";
import { generateSwitch } from "./generate";
import type { ArpEntry, FdbEntry, LabInterface, LldpNeighbour, PoeMain, SystemInfo } from "./hardware";
import { portListLength } from "../mib/portlist";
import { getProfile, type ProfileId, type SwitchProfile } from "./profiles";

export type { SwitchConfig, VlanSettings, PortSettings } from "./config";
export type { LabInterface, LldpNeighbour, FdbEntry, ArpEntry, PoeMain, SystemInfo, PoweredDevice } from "./hardware";

export interface VirtualSwitchOptions {
  profile?: ProfileId;
  /** Ethernet ports, 8..384 */
  ports?: number;
  poePorts?: number[] | "all" | "none";
  name?: string;
  seed?: number;
  /** Ethernet ports (1-based) that carry an IPv4 address (routed ports) */
  routedPorts?: number[];
  /** Ethernet ports (1-based) that are members of one link aggregation */
  lagPorts?: number[];
  /** Ethernet ports (1-based) in 802.1X mode */
  dot1xPorts?: number[];
  /** chassis numbering: slot s port m is bridge port s*1000+m (1..999 ports per slot; profiles with `chassis: true` only) */
  portsPerSlot?: number;
  /** VLANs besides the generated ones (ids from 1000 up); all VLANs together at most the profile's maximum */
  extraVlans?: number;
  /** the MAC table holds at least this many entries */
  macEntries?: number;
  /** at least this many LLDP neighbours (one per Ethernet port at most) */
  lldpNeighbours?: number;
}

/** One row of CISCOSB-COPY-MIB rlCopyTable (a copy operation the manager started). */
export interface CopyRow {
  sourceLocation: number;
  sourceFileType: number;
  destinationLocation: number;
  destinationFileType: number;
  /** 1 active */
  rowStatus: number;
  /** rlCopyOperationState: 5 copyFinished, 3 copyFailed */
  operationState: number;
}

/** pethPsePortDetectionStatus values */
export const PoeDetection = {
  disabled: 1,
  searching: 2,
  deliveringPower: 3,
  fault: 4,
  test: 5,
  otherFault: 6,
} as const;

export const MIN_PORTS = 8;
export const MAX_PORTS = 384;

export class VirtualSwitch {
  readonly profile: SwitchProfile;
  readonly portCount: number;
  readonly seed: number;
  readonly system: SystemInfo;
  /** every interface, ascending ifIndex */
  readonly interfaces: readonly LabInterface[];
  /** Ethernet port n is ethernetPorts[n - 1] */
  readonly ethernetPorts: readonly LabInterface[];
  /** ascending bridge port numbers */
  readonly bridgePorts: readonly number[];
  /** octets in a PortList of this switch (highest bridge port / 8, rounded up) */
  readonly portListLength: number;
  readonly lldp: readonly LldpNeighbour[];
  readonly fdb: readonly FdbEntry[];
  readonly arp: readonly ArpEntry[];
  readonly poeMain: PoeMain | null;
  /** rlCopyTable rows (ciscosb), by row index */
  copyRows = new Map<number, CopyRow>();
  /** bumped whenever a table row appears or disappears, so the agent rebuilds its index */
  structureVersion = 0;
  /** bumped on every committed change */
  changeCount = 0;

  private runningConfig: SwitchConfig;
  private startupConfig: SwitchConfig;
  private bootedAtMs: number;
  private readonly byIfIndex = new Map<number, LabInterface>();
  private readonly byBridgePort = new Map<number, LabInterface>();
  private readonly byPoeIndex = new Map<string, LabInterface>();

  constructor(opts: VirtualSwitchOptions = {}) {
    this.profile = getProfile(opts.profile ?? "generic");
    const ports = opts.ports ?? 24;
    if (!Number.isInteger(ports) || ports < MIN_PORTS || ports > MAX_PORTS) {
      throw new RangeError(`ports must be an integer from ${MIN_PORTS} to ${MAX_PORTS}, got ${ports}`);
    }
    this.portCount = ports;
    this.seed = opts.seed ?? 1;
    const poeOpt = opts.poePorts ?? this.profile.defaultPoe;
    const poePorts = new Set<number>(
      poeOpt === "all" ? Array.from({ length: ports }, (_, i) => i + 1) : poeOpt === "none" ? [] : poeOpt,
    );
    for (const p of poePorts) {
      if (!Number.isInteger(p) || p < 1 || p > ports)
        throw new RangeError(`PoE port ${p} is not a port of this switch`);
    }
    const routedPorts = new Set(opts.routedPorts ?? []);
    for (const p of routedPorts) {
      if (!Number.isInteger(p) || p < 1 || p > ports)
        throw new RangeError(`routed port ${p} is not a port of this switch`);
    }
    const portSet = (list: number[] | undefined, what: string) => {
      const set = new Set(list ?? []);
      for (const p of set)
        if (!Number.isInteger(p) || p < 1 || p > ports)
          throw new RangeError(`${what} ${p} is not a port of this switch`);
      return set;
    };
    const lagPorts = portSet(opts.lagPorts, "LAG member port");
    const dot1xPorts = portSet(opts.dot1xPorts, "802.1X port");
    const perSlot = opts.portsPerSlot;
    if (perSlot !== undefined && (!Number.isInteger(perSlot) || perSlot < 1 || perSlot > 999)) {
      throw new RangeError(`portsPerSlot must be an integer from 1 to 999, got ${perSlot}`);
    }
    const chassis = this.profile.chassis;
    if (perSlot !== undefined && chassis !== true) {
      throw new RangeError(`portsPerSlot is not available on the ${this.profile.id} profile: ${chassis.refused}`);
    }
    const extraVlans = opts.extraVlans ?? 0;
    if (!Number.isInteger(extraVlans) || extraVlans < 0)
      throw new RangeError(`extraVlans must be an integer >= 0, got ${extraVlans}`);
    const bp = generateSwitch(this.profile, {
      ports,
      poePorts,
      routedPorts,
      lagPorts,
      dot1xPorts,
      name: opts.name ?? `lab-${this.profile.id}-${ports}`,
      seed: this.seed,
      portsPerSlot: perSlot,
      extraVlans,
      macEntries: opts.macEntries,
      lldpNeighbours: opts.lldpNeighbours,
    });
    if (bp.config.vlans.size > this.profile.maxVlans) {
      throw new RangeError(
        `${bp.config.vlans.size} VLANs are more than the ${this.profile.maxVlans} this profile supports (extraVlans ${extraVlans})`,
      );
    }
    this.system = bp.system;
    this.interfaces = bp.interfaces;
    this.lldp = bp.lldp;
    this.fdb = bp.fdb;
    this.arp = bp.arp;
    this.poeMain = bp.poeMain;
    this.runningConfig = bp.config;
    this.startupConfig = cloneConfig(bp.config);
    this.bootedAtMs = Date.now() - bp.uptimeAtStartS * 1000;
    for (const i of this.interfaces) {
      this.byIfIndex.set(i.ifIndex, i);
      if (i.bridgePort !== null) this.byBridgePort.set(i.bridgePort, i);
      if (i.poe) this.byPoeIndex.set(`${i.poe.group}.${i.poe.index}`, i);
    }
    this.ethernetPorts = this.interfaces
      .filter((i) => i.portNumber !== null)
      .sort((a, b) => a.portNumber! - b.portNumber!);
    this.bridgePorts = [...this.byBridgePort.keys()].sort((a, b) => a - b);
    this.portListLength = portListLength(this.bridgePorts[this.bridgePorts.length - 1]);
  }

  get running(): SwitchConfig {
    return this.runningConfig;
  }

  get startup(): SwitchConfig {
    return this.startupConfig;
  }

  get needsSave(): boolean {
    return this.profile.needsSave;
  }

  interface(ifIndex: number): LabInterface | undefined {
    return this.byIfIndex.get(ifIndex);
  }

  /** Ethernet port n (1-based) */
  port(n: number): LabInterface {
    const p = this.ethernetPorts[n - 1];
    if (!p) throw new RangeError(`no port ${n}`);
    return p;
  }

  interfaceOfBridgePort(bridgePort: number): LabInterface | undefined {
    return this.byBridgePort.get(bridgePort);
  }

  interfaceOfPoePort(group: number, index: number): LabInterface | undefined {
    return this.byPoeIndex.get(`${group}.${index}`);
  }

  adminUp(ifIndex: number, cfg: SwitchConfig = this.runningConfig): boolean {
    return cfg.ports.get(ifIndex)?.adminUp ?? false;
  }

  /** oper status follows admin status on a port with a link */
  operUp(ifIndex: number): boolean {
    const i = this.byIfIndex.get(ifIndex);
    return !!i && i.link && this.adminUp(ifIndex);
  }

  alias(ifIndex: number): string {
    return this.runningConfig.ports.get(ifIndex)?.alias ?? "";
  }

  pvid(bridgePort: number): number | undefined {
    return this.runningConfig.pvid.get(bridgePort);
  }

  /** PoE of one interface as the device reports it; null without PoE */
  poeState(ifIndex: number): { enabled: boolean; detection: number; powerMw: number } | null {
    const i = this.byIfIndex.get(ifIndex);
    if (!i?.poe) return null;
    const enabled = this.runningConfig.ports.get(ifIndex)?.poeEnabled ?? false;
    if (!enabled) return { enabled, detection: PoeDetection.disabled, powerMw: 0 };
    if (!i.poe.device) return { enabled, detection: PoeDetection.searching, powerMw: 0 };
    return { enabled, detection: PoeDetection.deliveringPower, powerMw: i.poe.device.powerMw };
  }

  /** pethMainPseConsumptionPower: watts drawn by all ports (of one PSE group when given) */
  poeConsumedW(group?: number): number {
    let mw = 0;
    for (const i of this.interfaces)
      if (i.poe && (group === undefined || i.poe.group === group)) mw += this.poeState(i.ifIndex)!.powerMw;
    return Math.round(mw / 1000);
  }

  /** sysUpTime in hundredths of a second */
  uptimeTicks(): number {
    return Math.floor((Date.now() - this.bootedAtMs) / 10) % 2 ** 32;
  }

  /** static VLAN rows (active and notInService), ascending id */
  vlanIds(cfg: SwitchConfig = this.runningConfig): number[] {
    return [...cfg.vlans.keys()].sort((a, b) => a - b);
  }

  activeVlanIds(): number[] {
    return this.vlanIds().filter((id) => this.runningConfig.vlans.get(id)!.active);
  }

  vlan(id: number): VlanSettings | undefined {
    return this.runningConfig.vlans.get(id);
  }

  /** Replaces the running configuration (the agent's SET commit). */
  commit(next: SwitchConfig): void {
    const before = this.vlanIds().join(",") + "|" + this.activeVlanIds().join(",");
    this.runningConfig = next;
    const after = this.vlanIds().join(",") + "|" + this.activeVlanIds().join(",");
    if (before !== after) this.structureVersion++;
    this.changeCount++;
  }

  /** Changes running state directly (test set-up): fn edits a copy that is then committed. */
  update(fn: (cfg: SwitchConfig) => void): void {
    const next = cloneConfig(this.runningConfig);
    fn(next);
    this.commit(next);
  }

  /** copy running-config startup-config */
  save(): void {
    this.startupConfig = cloneConfig(this.runningConfig);
  }

  /** true when startup holds everything running holds */
  isSaved(): boolean {
    return configsEqual(this.runningConfig, this.startupConfig);
  }

  /** A reboot: running is reloaded from startup and the uptime starts again. */
  reboot(): void {
    this.commit(cloneConfig(this.startupConfig));
    this.bootedAtMs = Date.now();
    if (this.copyRows.size > 0) {
      this.copyRows = new Map();
      this.structureVersion++;
    }
  }

  /** Broken VLAN rules of a configuration (running by default); empty when consistent. */
  consistencyProblems(cfg: SwitchConfig = this.runningConfig): string[] {
    return consistencyProblems(cfg, this.bridgePorts);
  }
}
