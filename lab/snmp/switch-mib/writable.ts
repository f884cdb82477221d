/**
 * SETs on a lab switch, all-or-nothing: every varbind is checked and applied to a copy
 * of the running configuration (row creations first, then plain columns, then row
 * destructions, whatever their order in the PDU, because SNMP treats a PDU's varbinds
 * as set at once), the VLAN rules are checked on the result, and only then is the copy
 * committed. The first failing varbind gives error-status and error-index, following
 * RFC 3416 section 4.2.5: no writable object under the name -> notWritable, bad ASN.1
 * type -> wrongType, too long -> wrongLength, bad value -> wrongValue, an instance that
 * can never exist -> noCreation, one that does not exist now -> inconsistentName, a
 * value that conflicts with other state -> inconsistentValue.
 *
 * Q-BRIDGE writes follow the switch's mode. "auto": a PVID or an untagged PortList
 * moves the port's access VLAN (the other memberships follow) and the result must keep
 * every VLAN rule. "strict": each object changes only itself and only "untagged within
 * egress" is checked, so a manager that writes half of a change leaves the switch
 * inconsistent, as it would on such an agent.
 */
import { ifTable, ifXTable, poe, qbridge } from "../../../mib/oids";
import { cloneConfig, moveAccessVlan, untaggedOutsideEgress, type SwitchConfig } from "../../config";
import type { CopyRow, VirtualSwitch } from "../../model";
import { portsOf as membersOf } from "../../../mib/portlist";
import { ErrorStatus } from "../error-status";
import { isPrefixOf, parseOid } from "../oid";
import type { PreparedSet, SetVarBind } from "../provider";
import { Tag, type SnmpValue } from "../../../mib/smi-values";

export const E = ErrorStatus;

/** how the agent treats Q-BRIDGE writes (see LabSwitchOptions.qbridge) */
export type QBridgeMode = "auto" | "strict";

/**
 * State a family keeps beside the switch configuration (VTP edit buffer, copy rows):
 * a SET works on a copy, committed with the rest of the PDU or dropped with it.
 */
export interface StagedState<S> {
  current(): S;
  copy(state: S): S;
  /** installs the committed copy; returns whether table rows appeared or disappeared */
  commit(state: S): boolean;
}

/** Staged changes of one SET PDU. */
export class SetTransaction {
  private cfg: SwitchConfig | null = null;
  private rows: Map<number, CopyRow> | null = null;
  private readonly staged = new Map<StagedState<unknown>, unknown>();
  /** the varbind that last changed VLAN membership, blamed if the VLAN rules break */
  membershipVarbind = 0;
  /** rlCopy rows created by this PDU: their columns must come in the same PDU */
  readonly copyCreates = new Map<number, { varbind: number; fields: Partial<CopyRow> }>();
  readonly afterCommit: Array<() => void> = [];
  /** free-form notes a family's columns leave for its finish step (rows created by this PDU and the like) */
  readonly notes = new Map<string, unknown>();

  constructor(
    readonly sw: VirtualSwitch,
    readonly mode: QBridgeMode,
  ) {}

  config(): SwitchConfig {
    if (!this.cfg) this.cfg = cloneConfig(this.sw.running);
    return this.cfg;
  }

  /** the staged config if anything changed, else running */
  view(): SwitchConfig {
    return this.cfg ?? this.sw.running;
  }

  copyRows(): Map<number, CopyRow> {
    if (!this.rows) this.rows = new Map(this.sw.copyRows);
    return this.rows;
  }

  /** a family's state as this PDU has changed it so far (copied on first use) */
  state<S>(owner: StagedState<S>): S {
    const key = owner as StagedState<unknown>;
    if (!this.staged.has(key)) this.staged.set(key, owner.copy(owner.current()));
    return this.staged.get(key) as S;
  }

  /** the family's state as this PDU sees it, without copying it */
  peek<S>(owner: StagedState<S>): S {
    const key = owner as StagedState<unknown>;
    return (this.staged.has(key) ? this.staged.get(key) : owner.current()) as S;
  }

  get stagedConfig(): SwitchConfig | null {
    return this.cfg;
  }

  get stagedRows(): Map<number, CopyRow> | null {
    return this.rows;
  }

  /** commits the staged family states; whether rows appeared or disappeared */
  commitStates(): boolean {
    let structural = false;
    for (const [owner, state] of this.staged) if (owner.commit(state)) structural = true;
    return structural;
  }
}

export interface WritableColumn {
  column: number[];
  /** 0 row creation, 1 plain write, 2 row destruction */
  phase(value: SnmpValue): number;
  apply(tx: SetTransaction, instance: number[], value: SnmpValue, varbind: number): number;
}

export const plain = () => 1;
export const isInt = (v: SnmpValue): v is { tag: 0x02; value: number } => v.tag === Tag.Integer;

export function hasControlChars(b: Buffer): boolean {
  for (const c of b) if (c < 0x20 || c === 0x7f) return true;
  return false;
}

export function singleIndex(instance: number[]): number | null {
  return instance.length === 1 ? instance[0] : null;
}

export const validVlanId = (id: number | null): id is number => id !== null && id >= 1 && id <= 4094;

export const ifAdminStatus: WritableColumn = {
  column: parseOid(ifTable.ifAdminStatus),
  phase: plain,
  apply(tx, instance, value) {
    if (!isInt(value)) return E.wrongType;
    if (value.value !== 1 && value.value !== 2) return E.wrongValue;
    const ifIndex = singleIndex(instance);
    const port = ifIndex === null ? undefined : tx.view().ports.get(ifIndex);
    if (!port) return E.noCreation;
    tx.config().ports.get(ifIndex!)!.adminUp = value.value === 1;
    return E.noError;
  },
};

export const ifAlias: WritableColumn = {
  column: parseOid(ifXTable.ifAlias),
  phase: plain,
  apply(tx, instance, value) {
    if (value.tag !== Tag.OctetString) return E.wrongType;
    if (value.value.length > tx.sw.profile.maxAliasLength) return E.wrongLength;
    if (hasControlChars(value.value)) return E.wrongValue;
    const ifIndex = singleIndex(instance);
    if (ifIndex === null || !tx.view().ports.has(ifIndex)) return E.noCreation;
    tx.config().ports.get(ifIndex)!.alias = value.value.toString("utf8");
    return E.noError;
  },
};

export const dot1qPvid: WritableColumn = {
  column: parseOid(qbridge.dot1qPvid),
  phase: plain,
  apply(tx, instance, value, varbind) {
    // VlanIndex is Unsigned32: Gauge32 on the wire
    if (value.tag !== Tag.Gauge32) return E.wrongType;
    if (!validVlanId(value.value)) return E.wrongValue;
    const bp = singleIndex(instance);
    if (bp === null || !tx.sw.interfaceOfBridgePort(bp)) return E.noCreation;
    const vlan = tx.view().vlans.get(value.value);
    if (!vlan || !vlan.active) return E.inconsistentValue;
    if (tx.mode === "strict") tx.config().pvid.set(bp, value.value);
    else moveAccessVlan(tx.config(), bp, value.value);
    tx.membershipVarbind = varbind;
    return E.noError;
  },
};

export const dot1qVlanStaticName: WritableColumn = {
  column: parseOid(qbridge.dot1qVlanStaticName),
  phase: plain,
  apply(tx, instance, value) {
    if (value.tag !== Tag.OctetString) return E.wrongType;
    if (value.value.length > tx.sw.profile.maxVlanNameLength) return E.wrongLength;
    if (hasControlChars(value.value)) return E.wrongValue;
    const id = singleIndex(instance);
    if (!validVlanId(id)) return E.noCreation;
    if (!tx.view().vlans.has(id)) return E.inconsistentName;
    tx.config().vlans.get(id)!.name = value.value.toString("utf8");
    return E.noError;
  },
};

/** a PortList naming only bridge ports of this switch, or null */
function portsOf(tx: SetTransaction, bitmap: Buffer): number[] | null {
  const ports = membersOf(bitmap);
  for (const p of ports) if (!tx.sw.interfaceOfBridgePort(p)) return null;
  return ports;
}

export function membershipColumn(object: string, untagged: boolean): WritableColumn {
  return {
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (value.tag !== Tag.OctetString) return E.wrongType;
      const ports = portsOf(tx, value.value);
      if (!ports) return E.wrongValue;
      const id = singleIndex(instance);
      if (!validVlanId(id)) return E.noCreation;
      if (!tx.view().vlans.has(id)) return E.inconsistentName;
      const cfg = tx.config();
      const vlan = cfg.vlans.get(id)!;
      const wanted = new Set(ports);
      if (untagged && tx.mode === "strict") {
        vlan.untagged = wanted;
      } else if (untagged) {
        // Adding a port untagged makes this VLAN its access VLAN (PVID follows); a port
        // taken out stays a tagged member and must get another untagged VLAN in the same PDU.
        for (const p of vlan.untagged) if (!wanted.has(p)) vlan.untagged.delete(p);
        for (const p of wanted) if (!vlan.untagged.has(p)) moveAccessVlan(cfg, p, id);
      } else {
        vlan.egress = wanted;
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };
}

export const RowStatus = {
  active: 1,
  notInService: 2,
  notReady: 3,
  createAndGo: 4,
  createAndWait: 5,
  destroy: 6,
} as const;

export const rowPhase = (v: SnmpValue) =>
  isInt(v) && (v.value === RowStatus.createAndGo || v.value === RowStatus.createAndWait)
    ? 0
    : isInt(v) && v.value === RowStatus.destroy
      ? 2
      : 1;

export const dot1qVlanStaticRowStatus: WritableColumn = {
  column: parseOid(qbridge.dot1qVlanStaticRowStatus),
  phase: rowPhase,
  apply(tx, instance, value, varbind) {
    if (!isInt(value)) return E.wrongType;
    const status = value.value;
    if (status < 1 || status > 6 || status === RowStatus.notReady) return E.wrongValue;
    const id = singleIndex(instance);
    if (!validVlanId(id)) return E.noCreation;
    const exists = tx.view().vlans.has(id);
    const isPvid = () => [...tx.view().pvid.values()].includes(id);
    switch (status) {
      case RowStatus.createAndGo:
      case RowStatus.createAndWait: {
        if (exists) return E.inconsistentValue;
        if (tx.view().vlans.size >= tx.sw.profile.maxVlans) return E.resourceUnavailable;
        tx.config().vlans.set(id, {
          name: tx.sw.profile.newVlanName(id),
          active: status === RowStatus.createAndGo,
          egress: new Set(),
          untagged: new Set(),
        });
        return E.noError;
      }
      case RowStatus.active:
        if (!exists) return E.inconsistentName;
        tx.config().vlans.get(id)!.active = true;
        return E.noError;
      case RowStatus.notInService:
        if (!exists) return E.inconsistentName;
        if (isPvid()) return E.inconsistentValue;
        tx.config().vlans.get(id)!.active = false;
        return E.noError;
      default: {
        // destroy: a missing row is fine (RFC 2579); the default VLAN and any port's
        // PVID VLAN cannot go.
        if (!exists) return E.noError;
        if (id === 1 || isPvid()) return E.inconsistentValue;
        tx.config().vlans.delete(id);
        tx.membershipVarbind = varbind;
        return E.noError;
      }
    }
  },
};

export const pethPsePortAdminEnable: WritableColumn = {
  column: parseOid(poe.pethPsePortAdminEnable),
  phase: plain,
  apply(tx, instance, value) {
    if (!isInt(value)) return E.wrongType;
    if (value.value !== 1 && value.value !== 2) return E.wrongValue;
    const port = instance.length === 2 ? tx.sw.interfaceOfPoePort(instance[0], instance[1]) : undefined;
    if (!port) return E.noCreation;
    tx.config().ports.get(port.ifIndex)!.poeEnabled = value.value === 1;
    return E.noError;
  },
};

/** The standard writable objects of a Q-BRIDGE switch: IF-MIB, the Q-BRIDGE VLAN tables and PVIDs, PoE admin state. */
export function qbridgeColumns(sw: VirtualSwitch): WritableColumn[] {
  const cols = [
    ifAdminStatus,
    ifAlias,
    dot1qPvid,
    dot1qVlanStaticName,
    membershipColumn(qbridge.dot1qVlanStaticEgressPorts, false),
    membershipColumn(qbridge.dot1qVlanStaticUntaggedPorts, true),
    dot1qVlanStaticRowStatus,
  ];
  if (sw.poeMain) cols.push(pethPsePortAdminEnable);
  return cols;
}

/** How a family takes SETs (see lab/snmp/switch-mib/family.ts). */
export interface SetRules {
  columns: readonly WritableColumn[];
  /** a refusal of the whole PDU before any varbind is looked at: [error-status, error-index] */
  refuseAll?(varbinds: readonly SetVarBind[]): [number, number] | null;
  /** after every varbind is staged: completes row creations; [error-status, varbind] of a problem */
  finish?(tx: SetTransaction): [number, number];
  /** the VLAN rules the staged configuration must keep (default: those of the Q-BRIDGE mode) */
  vlanProblems?(staged: SwitchConfig, tx: SetTransaction): string[];
  /** after a PDU was committed (implicit save and the like) */
  afterCommit?(tx: SetTransaction): void;
}

/** A SET processor bound to one switch. */
export function switchSetter(
  sw: VirtualSwitch,
  mode: QBridgeMode = "auto",
  rules: SetRules = { columns: qbridgeColumns(sw) },
): (varbinds: readonly SetVarBind[]) => PreparedSet {
  const columns = rules.columns.map((c) => c);
  const failed = (errorStatus: number, errorIndex: number): PreparedSet => ({
    errorStatus,
    errorIndex,
    commit: () => {
      throw new Error("a failed SET cannot be committed");
    },
  });

  return (varbinds) => {
    const refusal = rules.refuseAll?.(varbinds);
    if (refusal) return failed(refusal[0], refusal[1]);
    const tx = new SetTransaction(sw, mode);
    const planned: Array<{ vb: SetVarBind; pos: number; col: WritableColumn | null; phase: number }> = [];
    for (let i = 0; i < varbinds.length; i++) {
      const vb = varbinds[i];
      const col = columns.find((c) => vb.oid.length > c.column.length && isPrefixOf(c.column, vb.oid)) ?? null;
      if (!col) return failed(E.notWritable, i + 1);
      if (!vb.value) return failed(E.wrongType, i + 1);
      planned.push({ vb, pos: i + 1, col, phase: col.phase(vb.value) });
    }
    planned.sort((a, b) => a.phase - b.phase || a.pos - b.pos);

    let firstError: [number, number] | null = null;
    for (const p of planned) {
      const status = p.col!.apply(tx, p.vb.oid.slice(p.col!.column.length), p.vb.value!, p.pos);
      // report the failure of the earliest varbind in PDU order
      if (status !== E.noError && (!firstError || p.pos < firstError[1])) firstError = [status, p.pos];
    }
    if (firstError) return failed(firstError[0], firstError[1]);

    if (rules.finish) {
      const [finishStatus, finishVarbind] = rules.finish(tx);
      if (finishStatus !== E.noError) return failed(finishStatus, finishVarbind);
    }

    const staged = tx.stagedConfig;
    const broken = !staged
      ? []
      : rules.vlanProblems
        ? rules.vlanProblems(staged, tx)
        : mode === "strict"
          ? untaggedOutsideEgress(staged)
          : sw.consistencyProblems(staged);
    if (broken.length > 0) {
      return failed(E.inconsistentValue, tx.membershipVarbind || 1);
    }

    return {
      errorStatus: E.noError,
      errorIndex: 0,
      commit: () => {
        if (staged) sw.commit(staged);
        const rows = tx.stagedRows;
        let structural = tx.commitStates();
        if (rows) {
          if ([...rows.keys()].join(",") !== [...sw.copyRows.keys()].join(",")) structural = true;
          sw.copyRows = rows;
        }
        if (structural) sw.structureVersion++;
        for (const f of tx.afterCommit) f();
        rules.afterCommit?.(tx);
      },
    };
  };
}
