/** What the agent serves: a sorted index to read, and a SET that is tested over the whole PDU before anything is applied. */
import type { MibIndex } from "./mib-index";
import type { SnmpValue } from "../../mib/smi-values";

export interface SetVarBind {
  oid: number[];
  /** null when the manager sent a type SNMP does not define */
  value: SnmpValue | null;
}

export interface PreparedSet {
  /** 0 when every varbind passed */
  errorStatus: number;
  /** 1-based position of the failing varbind, 0 on success */
  errorIndex: number;
  /** applies the whole PDU; only called when errorStatus is 0 */
  commit(): void;
}

export interface MibProvider {
  /** the index of a context ("" the default one; others only as `contexts` allows) */
  index(context?: string): MibIndex;
  prepareSet(varbinds: readonly SetVarBind[]): PreparedSet;
  /** SNMP contexts besides the default one (Cisco's community@vlan); none when absent */
  contexts?: {
    /** the context a v2c community suffix ("public@10") selects, or null: an unknown community */
    fromCommunity(suffix: string): string | null;
    /** whether an SNMPv3 contextName is served */
    has(context: string): boolean;
  };
  /** the device rebooted */
  onRestart?(): void;
  /** the agent stops */
  close?(): void;
}
