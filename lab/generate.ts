/**
 * Seeded generation of a lab switch from its profile: which ports have a link, what is
 * plugged in (phones, access points, cameras, PCs), VLAN layout, LLDP neighbours, MAC
 * and ARP tables. Same options, same switch.
 */
import type { SwitchConfig, VlanSettings } from "./config";
import type { ArpEntry, FdbEntry, LabInterface, LldpNeighbour, PoeMain, PoweredDevice, SystemInfo } from "./hardware";
import type { SwitchProfile, VirtualInterfaceSpec } from "./profiles";
import { SeededRandom } from "./random";

export interface GenerateOptions {
  ports: number;
  /** port numbers with PoE */
  poePorts: ReadonlySet<number>;
  /** port numbers that carry an IPv4 address */
  routedPorts?: ReadonlySet<number>;
  /** port numbers that are members of the one link aggregation */
  lagPorts?: ReadonlySet<number>;
  /** port numbers in 802.1X mode */
  dot1xPorts?: ReadonlySet<number>;
  name: string;
  seed: number;
  /** chassis numbering: slot s port m is bridge port s*1000+m (see chassisBridgePort) */
  portsPerSlot?: number;
  /** VLANs besides the generated ones, ids from EXTRA_VLAN_BASE up */
  extraVlans?: number;
  /** the MAC table holds at least this many entries (more hosts behind the access ports) */
  macEntries?: number;
  /** at least this many LLDP neighbours (at most one more per Ethernet port) */
  lldpNeighbours?: number;
}

export interface SwitchBlueprint {
  system: SystemInfo;
  interfaces: LabInterface[];
  config: SwitchConfig;
  lldp: LldpNeighbour[];
  fdb: FdbEntry[];
  arp: ArpEntry[];
  poeMain: PoeMain | null;
  /** how long the switch claims to have been up when the lab starts */
  uptimeAtStartS: number;
}

const VOICE_VLAN = 20;
const USERS_VLAN = 10;
const PRINTERS_VLAN = 30;
const MGMT_VLAN = 99;
export const EXTRA_VLAN_BASE = 1000;
const MAX_VLAN_ID = 4094;

/**
 * Bridge port of Ethernet port n when ports sit in slots of `perSlot`: slot s port m is
 * s*1000+m, as chassis switches number them, so PortLists reach into the thousands of
 * ports.
 */
export function chassisBridgePort(n: number, perSlot: number): number {
  return (Math.floor((n - 1) / perSlot) + 1) * 1000 + ((n - 1) % perSlot) + 1;
}

function macFrom(base: Buffer, offset: number): Buffer {
  const out = Buffer.from(base);
  let carry = offset;
  for (let i = 5; i >= 3 && carry > 0; i--) {
    const v = out[i] + carry;
    out[i] = v & 0xff;
    carry = Math.floor(v / 256);
  }
  return out;
}

/**
 * The address of routed Ethernet port n: a /24 of its own in 172.16.0.0/12, apart from
 * the 10.x.y.0/24 of the VLAN 1 interface (no randomness, so the generated rest stays
 * the same with or without routed ports).
 */
function routedPortAddress(n: number): { address: string; mask: string } {
  return { address: `172.${16 + (n >> 8)}.${n & 0xff}.1`, mask: "255.255.255.0" };
}

export function generateSwitch(profile: SwitchProfile, opts: GenerateOptions): SwitchBlueprint {
  const rng = new SeededRandom(opts.seed * 7919 + opts.ports * 31 + profile.seedSalt);
  const N = opts.ports;
  const layout = profile.layout(N);
  const baseMac = Buffer.from([0x02, 0x1a, ...rng.bytes(3), 0x00]);
  const net = `10.${rng.int(1, 250)}.${rng.int(0, 255)}`;
  const poe = opts.poePorts.size > 0;

  const system: SystemInfo = {
    sysName: opts.name,
    sysDescr: profile.sysDescr(N, poe),
    sysObjectID: profile.sysObjectID(N),
    sysContact: "lab@switchdesk.invalid",
    sysLocation: `lab rack ${rng.int(1, 9)}`,
    model: profile.model(N, poe),
    serial: `LAB${opts.seed.toString(16).toUpperCase().padStart(4, "0")}${rng.int(10000, 99999)}`,
    softwareVersion: profile.softwareVersion,
    baseMac,
  };

  const vlans = new Map<number, VlanSettings>();
  const addVlan = (id: number, name: string) =>
    vlans.set(id, { name, active: true, egress: new Set(), untagged: new Set() });
  addVlan(1, profile.defaultVlanName);
  addVlan(USERS_VLAN, "users");
  addVlan(VOICE_VLAN, "voice");
  addVlan(PRINTERS_VLAN, "printers");
  addVlan(MGMT_VLAN, "management");
  const floorVlans: number[] = [];
  for (let k = 1; k <= Math.floor(N / 48); k++) {
    addVlan(100 + k, `floor-${k}`);
    floorVlans.push(100 + k);
  }
  const extraVlans: number[] = [];
  // ids the family keeps for itself (Cisco's 1002-1005) are skipped: they are not
  // Ethernet VLANs a manager could move ports into
  const reserved = new Set(profile.reservedVlans ?? []);
  for (let id = EXTRA_VLAN_BASE; extraVlans.length < (opts.extraVlans ?? 0); id++) {
    if (reserved.has(id)) continue;
    if (id > MAX_VLAN_ID) throw new RangeError(`extraVlans ${opts.extraVlans} need VLAN ids past ${MAX_VLAN_ID}`);
    addVlan(id, `vlan${id}`);
    extraVlans.push(id);
  }
  const accessChoices = [USERS_VLAN, USERS_VLAN, USERS_VLAN, PRINTERS_VLAN, 1, ...floorVlans, ...extraVlans];

  const config: SwitchConfig = {
    ports: new Map(),
    pvid: new Map(),
    vlans,
    portModes: new Map(),
    switchport: new Map(),
  };
  const setAccess = (bp: number, vlan: number) => {
    config.pvid.set(bp, vlan);
    const v = vlans.get(vlan)!;
    v.untagged.add(bp);
    v.egress.add(bp);
  };
  const addTagged = (bp: number, vlan: number) => vlans.get(vlan)!.egress.add(bp);

  const interfaces: LabInterface[] = [];
  const lldp: LldpNeighbour[] = [];
  const fdb: FdbEntry[] = [];
  const arp: ArpEntry[] = [];
  // MACs from counters under two OUIs, so no two entries of the MAC table can collide
  let hostCounter = rng.int(0, 0xffff) << 8;
  const hostMac = () => {
    const c = hostCounter++;
    return Buffer.from([0x00, 0x50, 0x56, (c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff]);
  };
  let deviceCounter = rng.int(0, 0xffff) << 8;
  const deviceMac = () => {
    const c = deviceCounter++;
    return Buffer.from([0x00, 0x1e, 0x7a, (c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff]);
  };
  let arpHost = 10;
  const sviIfIndex = layout.svi.ifIndex;
  const learn = (vlan: number, mac: Buffer, bp: number, ip?: string) => {
    fdb.push({ vlan, mac, bridgePort: bp });
    // the /24 of the routed VLAN 1 interface has room for hosts .10 to .250
    if (vlan === 1 && (ip || arpHost <= 250)) arp.push({ ifIndex: sviIfIndex, ip: ip ?? `${net}.${arpHost++}`, mac });
  };

  for (let n = 1; n <= N; n++) {
    const ifIndex = profile.portIfIndex(n);
    const bp = opts.portsPerSlot ? chassisBridgePort(n, opts.portsPerSlot) : profile.portBridgePort(n);
    const uplink = n === N;
    const link = uplink || rng.chance(0.6);
    const speedMbps = uplink ? 10000 : link && rng.chance(0.1) ? 100 : 1000;
    const duplex = speedMbps === 100 && rng.chance(0.3) ? "half" : "full";
    const hasPoe = opts.poePorts.has(n);
    let device: PoweredDevice | null = null;
    let alias = "";
    let adminUp = true;
    let poeEnabled = hasPoe;

    if (uplink) {
      alias = "uplink core-1";
      setAccess(bp, 1);
      for (const id of vlans.keys()) if (id !== 1) addTagged(bp, id);
      const coreMac = Buffer.from([0x00, 0x1b, 0x54, ...rng.bytes(3)]);
      lldp.push({
        localPort: bp,
        remIndex: 1,
        chassisIdSubtype: 4,
        chassisId: coreMac,
        portIdSubtype: 5,
        portId: Buffer.from(`TenGigabitEthernet1/1/${rng.int(1, 8)}`),
        portDesc: `downlink ${opts.name}`,
        sysName: "core-1",
        sysDesc: "Core switch, lab network",
        capSupported: 0x28,
        capEnabled: 0x28,
        mgmtIpv4: `${net}.254`,
      });
      learn(1, coreMac, bp, `${net}.254`);
      for (const id of vlans.keys()) if (id !== 1) learn(id, macFrom(coreMac, id), bp);
    } else if (link && hasPoe && rng.chance(0.5)) {
      const roll = rng.next();
      const mac = deviceMac();
      if (roll < 0.6) {
        device = { kind: "phone", powerClass: 2, powerMw: rng.int(30, 65) * 100 };
        alias = `phone ${n}`;
        setAccess(bp, USERS_VLAN);
        addTagged(bp, VOICE_VLAN);
        learn(VOICE_VLAN, mac, bp);
        if (rng.chance(0.7)) learn(USERS_VLAN, hostMac(), bp);
        lldp.push({
          localPort: bp,
          remIndex: 1,
          chassisIdSubtype: 4,
          chassisId: mac,
          portIdSubtype: 3,
          portId: mac,
          portDesc: "SW PORT",
          sysName: `SEP${mac.toString("hex").toUpperCase()}`,
          sysDesc: "IP phone, lab model 8841",
          capSupported: 0x24,
          capEnabled: 0x04,
          mgmtIpv4: null,
        });
      } else if (roll < 0.85) {
        device = { kind: "ap", powerClass: 4, powerMw: rng.int(90, 220) * 100 };
        alias = `ap-${n}`;
        setAccess(bp, MGMT_VLAN);
        addTagged(bp, USERS_VLAN);
        addTagged(bp, VOICE_VLAN);
        learn(MGMT_VLAN, mac, bp);
        lldp.push({
          localPort: bp,
          remIndex: 1,
          chassisIdSubtype: 4,
          chassisId: mac,
          portIdSubtype: 5,
          portId: Buffer.from("eth0"),
          portDesc: "eth0",
          sysName: `ap-${n}`,
          sysDesc: "Wireless access point, lab model 320",
          capSupported: 0x30,
          capEnabled: 0x10,
          mgmtIpv4: `${net.replace(/\.\d+$/, "")}.99.${n % 250}`,
        });
      } else {
        device = { kind: "camera", powerClass: 3, powerMw: rng.int(40, 110) * 100 };
        alias = `camera ${n}`;
        setAccess(bp, PRINTERS_VLAN);
        learn(PRINTERS_VLAN, mac, bp);
      }
    } else {
      const vlan = rng.pick(accessChoices);
      setAccess(bp, vlan);
      if (link) {
        learn(vlan, hostMac(), bp);
        if (rng.chance(0.3)) alias = `${rng.pick(["desk", "printer", "lab bench", "meeting room"])} ${n}`;
      }
      if (rng.chance(0.05)) adminUp = false;
      if (hasPoe && rng.chance(0.08)) poeEnabled = false;
    }

    config.ports.set(ifIndex, { adminUp, alias, poeEnabled });
    interfaces.push({
      ifIndex,
      // a chassis names its ports by slot and position (slot 2 port 5: .../2/0/5)
      name: opts.portsPerSlot ? profile.portName(bp % 1000, Math.floor(bp / 1000)) : profile.portName(n),
      descr: opts.portsPerSlot ? profile.portDescr(bp % 1000, Math.floor(bp / 1000)) : profile.portDescr(n),
      ifType: 6,
      mtu: 1500,
      speedMbps,
      duplex,
      mac: macFrom(baseMac, n),
      link,
      portNumber: n,
      bridgePort: bp,
      // chassis numbering: PoE ports are indexed 1.<bridge port>, which managers map to
      // interfaces through the bridge port table (RFC 3621 leaves the link to vendors)
      poe: hasPoe ? { ...(opts.portsPerSlot ? { group: 1, index: bp } : profile.poePort(n)), device } : null,
      ipv4: opts.routedPorts?.has(n) ? routedPortAddress(n) : null,
      ...(opts.dot1xPorts?.has(n) ? { dot1x: true } : {}),
      inOctets: link ? rng.int(1e6, 4e9) : 0,
      outOctets: link ? rng.int(1e6, 4e9) : 0,
    });
  }

  addBusyHosts(interfaces, config, fdb, opts.macEntries ?? 0);
  addNeighbours(interfaces, lldp, opts.lldpNeighbours ?? 0, opts.name);

  if (layout.lag) {
    const { ifIndex, bridgePort, name } = layout.lag;
    config.ports.set(ifIndex, { adminUp: true, alias: "", poeEnabled: false });
    setAccess(bridgePort, 1);
    interfaces.push({
      ifIndex,
      name,
      descr: layout.lag.descr ?? name,
      ifType: layout.lag.ifType,
      mtu: 1500,
      speedMbps: 0,
      duplex: "full",
      mac: macFrom(baseMac, 0x800),
      link: false,
      portNumber: null,
      bridgePort,
      poe: null,
      ipv4: null,
      inOctets: 0,
      outOctets: 0,
    });
  }

  const virtual = (
    { ifIndex, name, descr, ifType }: VirtualInterfaceSpec,
    ipv4: LabInterface["ipv4"],
  ): LabInterface => {
    config.ports.set(ifIndex, { adminUp: true, alias: "", poeEnabled: false });
    return {
      ifIndex,
      name,
      descr: descr ?? name,
      ifType,
      mtu: ifType === 24 ? 65536 : 1500,
      speedMbps: 0,
      duplex: "full",
      mac: ifType === 24 ? Buffer.alloc(0) : baseMac,
      link: true,
      portNumber: null,
      bridgePort: null,
      poe: null,
      ipv4,
      inOctets: 0,
      outOctets: 0,
    };
  };
  interfaces.push(virtual(layout.svi, { address: `${net}.1`, mask: "255.255.255.0" }));
  if (layout.loopback) interfaces.push(virtual(layout.loopback, null));
  for (const extra of layout.extra) interfaces.push(virtual(extra, null));
  if (opts.lagPorts && opts.lagPorts.size > 0) {
    // the members' aggregate: the family's own LAG, else a Port-channel1 after every other interface
    let aggregate = layout.lag?.ifIndex;
    if (aggregate === undefined) {
      aggregate = Math.max(...interfaces.map((i) => i.ifIndex)) + 1;
      interfaces.push(virtual({ ifIndex: aggregate, ifType: 161, name: "Port-channel1" }, null));
    }
    for (const i of interfaces) if (i.portNumber !== null && opts.lagPorts.has(i.portNumber)) i.lagMemberOf = aggregate;
  }
  interfaces.sort((a, b) => a.ifIndex - b.ifIndex);

  // a port that sends tagged VLANs besides its PVID is configured as a trunk (on the
  // families that have a port mode; the others only look at the memberships)
  for (const [bp, pvid] of config.pvid) {
    if ([...vlans].some(([id, v]) => id !== pvid && v.egress.has(bp))) config.portModes.set(bp, "trunk");
  }

  const poeMain: PoeMain | null = poe
    ? { group: 1, maxPowerW: Math.max(60, Math.round(opts.poePorts.size * 7.7)), thresholdPct: 80 }
    : null;

  return {
    system,
    interfaces,
    config,
    lldp,
    fdb,
    arp,
    poeMain,
    uptimeAtStartS: rng.int(3600, 90 * 86400),
  };
}

/**
 * A busier network on demand (the bench's large MAC and neighbour tables): hosts behind
 * the Ethernet ports in their PVID VLANs, port after port, until the MAC table holds
 * `atLeast` entries. No random draws, so the rest of the switch stays as generated.
 */
function addBusyHosts(interfaces: LabInterface[], config: SwitchConfig, fdb: FdbEntry[], atLeast: number): void {
  const ports = interfaces.filter((i) => i.bridgePort !== null);
  const missing = atLeast - fdb.length;
  for (let k = 0; k < missing && ports.length > 0; k++) {
    const bp = ports[k % ports.length].bridgePort!;
    const mac = Buffer.from([0x00, 0x0c, 0x29, (k >> 16) & 0xff, (k >> 8) & 0xff, k & 0xff]);
    fdb.push({ vlan: config.pvid.get(bp) ?? 1, mac, bridgePort: bp });
  }
}

/** LLDP neighbours (small desk switches) on Ethernet ports that have none, in port order, until there are `atLeast`. */
function addNeighbours(interfaces: LabInterface[], lldp: LldpNeighbour[], atLeast: number, name: string): void {
  const taken = new Set(lldp.map((n) => n.localPort));
  const free = interfaces.filter((i) => i.bridgePort !== null && i.portNumber !== null && !taken.has(i.bridgePort));
  for (let k = 0; lldp.length < atLeast && k < free.length; k++) {
    const port = free[k];
    const mac = Buffer.from([0x00, 0x0d, 0x3a, (k >> 16) & 0xff, (k >> 8) & 0xff, k & 0xff]);
    lldp.push({
      localPort: port.bridgePort!,
      remIndex: 1,
      chassisIdSubtype: 4,
      chassisId: mac,
      portIdSubtype: 5,
      portId: Buffer.from("port 1"),
      portDesc: `uplink to ${name}`,
      sysName: `desk-switch-${port.portNumber}`,
      sysDesc: "Desk switch, lab model 5",
      capSupported: 0x20,
      capEnabled: 0x20,
      mgmtIpv4: null,
    });
  }
}
