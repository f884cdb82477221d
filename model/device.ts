/**
 * What a device looks like to everyone above the drivers: the snapshot a learn returns,
 * its interfaces, VLANs, PoE, MAC entries and LLDP neighbours. Every driver returns these
 * shapes, whatever protocol it speaks; the domain's views and rules read them; the lab
 * builds its answers so that drivers can produce them. docs/architecture.md shows an
 * example of each.
 */

export type AdminState = "Enabled" | "Disabled";
export type Duplex = "Unknown" | "Half" | "Full";
export type VlanStatus = "Other" | "Permanent" | "Dynamic";
export type PoeDetect =
  "Disabled" | "Searching" | "Delivering" | "Fault" | "Test" | "Unknown Fault" | "PS Disconnected";

/** POWER-ETHERNET-MIB pethPsePortDetectionStatus values by the names the API shows */
export const POE_DETECT_NAMES: Readonly<Record<number, PoeDetect>> = {
  1: "Disabled",
  2: "Searching",
  3: "Delivering",
  4: "Fault",
  5: "Test",
  6: "Unknown Fault",
};

export interface VlanInfo {
  id: number;
  name: string;
  state: AdminState;
  status: VlanStatus;
}

export interface PoePortInfo {
  admin_status: AdminState;
  detect_status: PoeDetect;
  power_consumption_supported: boolean;
  /** milliwatts */
  power_consumed: number;
  power_available: number;
  max_power_consumed: number;
}

export interface PowerSupplyInfo {
  id: number;
  /** watts */
  max_power: number;
  status: "On" | "Off" | "Fault";
  power_consumed: number;
  threshold: number;
}

export interface DevicePoe {
  enabled: boolean;
  max_power: number;
  power_consumed: number;
  supplies: PowerSupplyInfo[];
}

export interface MacEntry {
  address: string; // 00:11:22:33:44:55
  vlan: number;
  ipv4: string[];
  ipv6: string[];
}

export interface LldpNeighbor {
  port_name: string;
  port_description: string;
  system_name: string;
  system_description: string;
  chassis_id: string;
  chassis_type: number;
  capabilities: string;
  management_address_v4: string;
  management_address_v6: string;
}

/** Interface classes the permission model cares about. */
export type InterfaceKind = "ethernet" | "lag" | "other";

export interface InterfaceInfo {
  /** the key used in URLs: ifIndex as a string for SNMP, the name for CLI drivers */
  id: string;
  name: string;
  description: string;
  kind: InterfaceKind;
  /** IANA ifType, 0 when unknown */
  if_type: number;
  admin_up: boolean;
  oper_up: boolean;
  /** Mbps, 0 when unknown */
  speed: number;
  duplex: Duplex;
  /** the largest frame payload in bytes (IF-MIB ifMtu), when the device reports one */
  mtu?: number;
  /** untagged VLAN (PVID), 0 when none */
  untagged_vlan: number;
  /** VLANs the port is a tagged member of (the untagged one excluded), ascending */
  tagged_vlans: number[];
  /** has an IP address: a routed interface */
  routed: boolean;
  vrf: string;
  /** the driver found the port unusable (e.g. its PVID is not a defined VLAN) */
  disabled_reason?: string;
  /**
   * the link aggregation (its interface name) this port is a member of: its VLANs are the
   * aggregate's (domain/port-protection.ts); absent when none or not known
   */
  lag_member_of?: string;
  /** 802.1X port authentication decides who may use the port (port control auto); absent when not known */
  dot1x_auth?: boolean;
  poe?: PoePortInfo;
  /** details scope only */
  macs: MacEntry[];
  neighbors: LldpNeighbor[];
}

export interface DeviceSnapshot {
  /** name the device reports (SNMP sysName) */
  hostname: string;
  /** model, serial, software version, sysObjectID, uptime, description... */
  driver_info: Record<string, string | number>;
  vlans: VlanInfo[];
  interfaces: InterfaceInfo[];
  poe: DevicePoe | null;
  scope: LearnScope;
}

export type LearnScope = "basic" | "details";

/**
 * A trunk change (POST .../tags/): the port carries `tagged` (ascending, without
 * `untagged`) tagged and `untagged` as its native VLAN. Tagged empty and allowAll false
 * make it an access port on `untagged`. allowAll asks for every VLAN; the application
 * lists the device's VLANs in `tagged` then too, so a driver that cannot say "all" writes
 * the list.
 */
export interface TagChange {
  untagged: number;
  tagged: number[];
  allowAll: boolean;
}

/**
 * What a write needs to check itself: one interface row and the VLAN list. The same view
 * is handed to the setter, so the device is read once per write; `driverContext` is what
 * the driver learned beside it for that write (a bridge port, a PoE index, VLAN
 * bitmaps), read only by the driver that made the view.
 */
export interface InterfaceView {
  interface: InterfaceInfo;
  vlans: VlanInfo[];
  driverContext?: unknown;
}
