/** What the agent serves: a sorted index to read, and a SET that is tested over the whole PDU before anything is applied. */
import type { MibIndex } from "./mib-index";
import type { SnmpValue } from "./values";

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
  index(): MibIndex;
  prepareSet(varbinds: readonly SetVarBind[]): PreparedSet;
}
