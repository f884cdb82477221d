/** Fixed facts of a lab switch (what a SET cannot change): interfaces, neighbours, tables. */

export interface PoweredDevice {
  kind: "phone" | "ap" | "camera";
  /** what the device draws when powered */
  powerMw: number;
  /** IEEE 802.3af/at class 0..4 */
  powerClass: number;
}

export interface PoePort {
  /** pethPsePortGroupIndex */
  group: number;
  /** pethPsePortIndex */
  index: number;
  /** a powered device on the cable, or none */
  device: PoweredDevice | null;
}

export interface LabInterface {
  ifIndex: number;
  name: string;
  descr: string;
  /** IANA ifType: 6 ethernetCsmacd, 24 softwareLoopback, 53 propVirtual, 136 l3ipvlan, 161 ieee8023adLag */
  ifType: number;
  mtu: number;
  /** Mbps: negotiated when the link is up, nominal otherwise; 0 for virtual interfaces */
  speedMbps: number;
  /** duplex when the link is up */
  duplex: "full" | "half";
  mac: Buffer;
  /** cable plugged and partner up: the port is oper up whenever it is admin up */
  link: boolean;
  /** Ethernet port number 1..N, null for other interfaces */
  portNumber: number | null;
  bridgePort: number | null;
  poe: PoePort | null;
  ipv4: { address: string; mask: string } | null;
  /** the ifIndex of the link aggregation this Ethernet port is a member of (absent: none) */
  lagMemberOf?: number;
  /** 802.1X decides who may use the port (port control auto; absent: not configured) */
  dot1x?: boolean;
  inOctets: number;
  outOctets: number;
}

export interface LldpNeighbour {
  /** lldpRemLocalPortNum: the bridge port */
  localPort: number;
  remIndex: number;
  /** 4 macAddress, 7 local */
  chassisIdSubtype: number;
  chassisId: Buffer;
  /** 3 macAddress, 5 interfaceName, 7 local */
  portIdSubtype: number;
  portId: Buffer;
  portDesc: string;
  sysName: string;
  sysDesc: string;
  /** LldpSystemCapabilitiesMap, first octet: 0x20 bridge, 0x10 wlanAccessPoint, 0x08 router, 0x04 telephone */
  capSupported: number;
  capEnabled: number;
  mgmtIpv4: string | null;
}

export interface FdbEntry {
  vlan: number;
  mac: Buffer;
  bridgePort: number;
}

export interface ArpEntry {
  ifIndex: number;
  ip: string;
  mac: Buffer;
}

export interface PoeMain {
  group: number;
  /** pethMainPsePower, watts */
  maxPowerW: number;
  /** pethMainPseUsageThreshold, percent */
  thresholdPct: number;
}

export interface SystemInfo {
  sysName: string;
  sysDescr: string;
  sysObjectID: string;
  sysContact: string;
  sysLocation: string;
  model: string;
  serial: string;
  softwareVersion: string;
  baseMac: Buffer;
}

export function formatMac(mac: Buffer): string {
  return [...mac].map((b) => b.toString(16).padStart(2, "0")).join(":");
}
