/**
 * The driver contract. Every driver (generic SNMP, vendor SNMP variants, SSH command
 * line) returns the same snapshot shape and throws the same typed failures, so handlers
 * and the domain never look at a protocol. Modelled on NAPALM's NetworkDriver: the
 * shapes are written down here once, and one shared test suite checks every driver.
 */

export type AdminState = "Enabled" | "Disabled";
export type Duplex = "Unknown" | "Half" | "Full";
export type VlanStatus = "Other" | "Permanent" | "Dynamic";
export type PoeDetect =
  | "Disabled"
  | "Searching"
  | "Delivering"
  | "Fault"
  | "Test"
  | "Unknown Fault"
  | "PS Disconnected";

/** What a driver can change on the device it talks to. */
export interface Capabilities {
  change_admin_status: boolean;
  change_vlan: boolean;
  change_poe: boolean;
  change_description: boolean;
  edit_vlans: boolean;
  change_vlan_name: boolean;
  /** true: changes live in the running config until an explicit save. */
  save_config: boolean;
  /** the details scope (MAC table, LLDP) is available. */
  client_data: boolean;
  /** longest interface description the device accepts. */
  max_description_length: number;
  /** longest VLAN name the device accepts. */
  max_vlan_name_length: number;
}

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
  /** untagged VLAN (PVID), 0 when none */
  untagged_vlan: number;
  /** VLANs the port is a tagged member of (the untagged one excluded), ascending */
  tagged_vlans: number[];
  /** has an IP address: a routed interface */
  routed: boolean;
  vrf: string;
  /** the driver found the port unusable (e.g. its PVID is not a defined VLAN) */
  disabled_reason?: string;
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

/** What a write needs to check itself: one interface row and the VLAN list. */
export interface InterfaceView {
  interface: InterfaceInfo;
  vlans: VlanInfo[];
}

export interface Driver {
  readonly info: { vendor: string; driver: string };
  readonly can: Capabilities;
  learn(scope: LearnScope): Promise<DeviceSnapshot>;
  /** learn only what a write to one interface needs; null when it does not exist */
  learnInterface(ifId: string): Promise<InterfaceView | null>;
  /** the VLAN list alone (for VLAN add/edit/delete checks) */
  learnVlans(): Promise<VlanInfo[]>;
  setAdminState(ifId: string, up: boolean): Promise<void>;
  setUntaggedVlan(ifId: string, vlan: number): Promise<void>;
  setPoe(ifId: string, on: boolean): Promise<void>;
  setDescription(ifId: string, text: string): Promise<void>;
  createVlan(id: number, name: string): Promise<void>;
  renameVlan(id: number, name: string): Promise<void>;
  deleteVlan(id: number): Promise<void>;
  saveConfig(): Promise<void>;
  close(): Promise<void>;
}

/** Base of every device failure; `code` is the contract's stable slug. */
export class DeviceError extends Error {
  constructor(
    readonly code:
      | "device_unreachable"
      | "device_refused"
      | "not_supported"
      | "device_mismatch"
      | "device_hostkey_changed",
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** No answer (timeout, wrong v3 keys, port closed), also in the middle of a walk. */
export class DeviceUnreachable extends DeviceError {
  constructor(message: string) {
    super("device_unreachable", message);
  }
}

/** The device answered a write with an error (noAccess, notWritable, wrongValue...). */
export class DeviceRefused extends DeviceError {
  constructor(message: string) {
    super("device_refused", message);
  }
}

/** The device accepted a write but reading it back shows another value. */
export class DeviceMismatch extends DeviceError {
  constructor(message: string) {
    super("device_mismatch", message);
  }
}

/** The driver or the device has no way to do this. */
export class NotSupported extends DeviceError {
  constructor(message: string) {
    super("not_supported", message);
  }
}

/** How a driver reaches its device; secrets already decrypted by the caller. */
export interface SnmpTarget {
  host: string;
  port: number;
  version: "2c" | "3";
  community?: string;
  /** SNMPv3 */
  username?: string;
  auth_protocol?: "MD5" | "SHA" | "SHA-224" | "SHA-256" | "SHA-384" | "SHA-512";
  auth_key?: string;
  priv_protocol?: "DES" | "AES" | "AES-192" | "AES-256";
  priv_key?: string;
  context?: string;
  timeout_ms: number;
  retries: number;
}
