/**
 * What a vendor family adds to the lab's agent: the MIB tables it serves, how it takes
 * SETs, SNMP contexts, and what a reboot or a stop does to its own state. One factory
 * per family, registered in families.ts.
 */
import type { VirtualSwitch } from "../../model";
import type { MibIndex, MibIndexBuilder } from "../mib-index";
import type { QBridgeMode, SetRules } from "./writable";

/** VTP mode of a Cisco switch (managementDomainLocalMode) */
export type VtpMode = "client" | "server" | "transparent" | "off";

/** Family-specific options of a lab switch (LabSwitchOptions.vendor). */
export interface VendorOptions {
  cisco?: {
    /** managementDomainLocalMode at start; default "transparent" */
    vtpMode?: VtpMode;
    /** serve OLD-CISCO-SYS-MIB writeMem (IOS-XE 16+ dropped it); default true */
    writeMem?: boolean;
  };
}

export interface FamilyEnv {
  qbridge: QBridgeMode;
  vendor: VendorOptions;
}

/** Extra SNMP contexts of a family (Cisco's per-VLAN BRIDGE-MIB instances). */
export interface ContextSupport {
  /** the context a v2c community suffix selects ("10" of "public@10"), or null: then the community is unknown */
  fromCommunity(suffix: string): string | null;
  /** whether an SNMPv3 contextName names a context of this agent */
  has(context: string): boolean;
  index(context: string): MibIndex;
}

export interface FamilyMib {
  /** tables whose rows never change while the lab runs (values still read live) */
  addFixed(b: MibIndexBuilder): void;
  /** tables whose rows SETs create and destroy; rebuilt when rows appear or disappear */
  addRows(b: MibIndexBuilder): void;
  /** rebuild the rows part after every committed change (rows that follow port memberships) */
  rowsFollowConfig?: boolean;
  set: SetRules;
  contexts?: ContextSupport;
  /** after the switch rebooted (copy jobs and edit buffers are gone) */
  onReboot?(): void;
  /** the agent stops: end timers */
  close?(): void;
}

export type FamilyFactory = (sw: VirtualSwitch, env: FamilyEnv) => FamilyMib;
