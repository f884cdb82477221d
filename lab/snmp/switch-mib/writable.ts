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
import { ciscoSbCopy, ifTable, ifXTable, poe, qbridge } from "../../../mib/oids";
import { cloneConfig, moveAccessVlan, untaggedOutsideEgress, type SwitchConfig } from "../../config";
import type { CopyRow, VirtualSwitch } from "../../model";
import { portsOf as membersOf } from "../../../mib/portlist";
import { ErrorStatus } from "../error-status";
import { isPrefixOf, parseOid } from "../oid";
import type { PreparedSet, SetVarBind } from "../provider";
import { Tag, type SnmpValue } from "../values";

const E = ErrorStatus;

/** how the agent treats Q-BRIDGE writes (see LabSwitchOptions.qbridge) */
export type QBridgeMode = "auto" | "strict";

/** Staged changes of one SET PDU. */
class SetTransaction {
  private cfg: SwitchConfig | null = null;
  private rows: Map<number, CopyRow> | null = null;
  /** the varbind that last changed VLAN membership, blamed if the VLAN rules break */
  membershipVarbind = 0;
  /** rlCopy rows created by this PDU: their columns must come in the same PDU */
  readonly copyCreates = new Map<number, { varbind: number; fields: Partial<CopyRow> }>();
  readonly afterCommit: Array<() => void> = [];

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

  get stagedConfig(): SwitchConfig | null {
    return this.cfg;
  }

  get stagedRows(): Map<number, CopyRow> | null {
    return this.rows;
  }
}

interface WritableColumn {
  column: number[];
  /** 0 row creation, 1 plain write, 2 row destruction */
  phase(value: SnmpValue): number;
  apply(tx: SetTransaction, instance: number[], value: SnmpValue, varbind: number): number;
}

const plain = () => 1;
const isInt = (v: SnmpValue): v is { tag: 0x02; value: number } => v.tag === Tag.Integer;

function hasControlChars(b: Buffer): boolean {
  for (const c of b) if (c < 0x20 || c === 0x7f) return true;
  return false;
}

function singleIndex(instance: number[]): number | null {
  return instance.length === 1 ? instance[0] : null;
}

const validVlanId = (id: number | null): id is number => id !== null && id >= 1 && id <= 4094;

const ifAdminStatus: WritableColumn = {
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

const ifAlias: WritableColumn = {
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

const dot1qPvid: WritableColumn = {
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

const dot1qVlanStaticName: WritableColumn = {
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

function membershipColumn(object: string, untagged: boolean): WritableColumn {
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

const RowStatus = { active: 1, notInService: 2, notReady: 3, createAndGo: 4, createAndWait: 5, destroy: 6 } as const;

const rowPhase = (v: SnmpValue) =>
  isInt(v) && (v.value === RowStatus.createAndGo || v.value === RowStatus.createAndWait)
    ? 0
    : isInt(v) && v.value === RowStatus.destroy
      ? 2
      : 1;

const dot1qVlanStaticRowStatus: WritableColumn = {
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
          name: `VLAN${String(id).padStart(4, "0")}`,
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

const pethPsePortAdminEnable: WritableColumn = {
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

/** CISCOSB-COPY-MIB: a copy is one PDU creating a row with createAndGo and its four file columns. */
const COPY_LOCAL = 1;
const FILE_RUNNING = 2;
const FILE_STARTUP = 3;
const COPY_FINISHED = 5;
const COPY_FAILED = 3;

function copyRowIndex(instance: number[]): number | null {
  const r = singleIndex(instance);
  return r !== null && r >= 1 && r <= 2147483647 ? r : null;
}

const rlCopyRowStatus: WritableColumn = {
  column: parseOid(ciscoSbCopy.rlCopyRowStatus),
  phase: rowPhase,
  apply(tx, instance, value, varbind) {
    if (!isInt(value)) return E.wrongType;
    const row = copyRowIndex(instance);
    const status = value.value;
    if (status !== RowStatus.createAndGo && status !== RowStatus.destroy && status !== RowStatus.active) {
      return E.wrongValue;
    }
    if (row === null) return E.noCreation;
    const existing = tx.copyRows().get(row);
    if (status === RowStatus.active) return existing ? E.noError : E.inconsistentName;
    if (status === RowStatus.destroy) {
      tx.copyRows().delete(row);
      return E.noError;
    }
    // A finished copy's row may be reused by the next createAndGo (managers such as
    // OpenL2M always use row 1).
    if (tx.copyCreates.has(row)) return E.inconsistentValue;
    tx.copyCreates.set(row, { varbind, fields: {} });
    return E.noError;
  },
};

function copyColumn(object: string, field: keyof Omit<CopyRow, "rowStatus" | "operationState">): WritableColumn {
  return {
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 20) return E.wrongValue;
      const row = copyRowIndex(instance);
      if (row === null) return E.noCreation;
      const create = tx.copyCreates.get(row);
      if (!create) return tx.copyRows().has(row) ? E.notWritable : E.inconsistentName;
      create.fields[field] = value.value;
      return E.noError;
    },
  };
}

function columnsFor(sw: VirtualSwitch): WritableColumn[] {
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
  if (sw.profile.copyMib) {
    cols.push(
      rlCopyRowStatus,
      copyColumn(ciscoSbCopy.rlCopySourceLocation, "sourceLocation"),
      copyColumn(ciscoSbCopy.rlCopySourceFileType, "sourceFileType"),
      copyColumn(ciscoSbCopy.rlCopyDestinationLocation, "destinationLocation"),
      copyColumn(ciscoSbCopy.rlCopyDestinationFileType, "destinationFileType"),
    );
  }
  return cols;
}

/** Finishes rlCopy rows created by the PDU; returns [status, varbind] of the first problem. */
function finishCopies(tx: SetTransaction): [number, number] {
  for (const [row, { varbind, fields }] of tx.copyCreates) {
    const { sourceLocation, sourceFileType, destinationLocation, destinationFileType } = fields;
    if (
      sourceLocation === undefined ||
      sourceFileType === undefined ||
      destinationLocation === undefined ||
      destinationFileType === undefined
    ) {
      return [E.inconsistentValue, varbind];
    }
    const isSave =
      sourceLocation === COPY_LOCAL &&
      sourceFileType === FILE_RUNNING &&
      destinationLocation === COPY_LOCAL &&
      destinationFileType === FILE_STARTUP;
    tx.copyRows().set(row, {
      sourceLocation,
      sourceFileType,
      destinationLocation,
      destinationFileType,
      rowStatus: RowStatus.active,
      operationState: isSave ? COPY_FINISHED : COPY_FAILED,
    });
    if (isSave) tx.afterCommit.push(() => tx.sw.save());
  }
  return [E.noError, 0];
}

/** A SET processor bound to one switch. */
export function switchSetter(sw: VirtualSwitch, mode: QBridgeMode = "auto"): (varbinds: readonly SetVarBind[]) => PreparedSet {
  const columns = columnsFor(sw);
  const failed = (errorStatus: number, errorIndex: number): PreparedSet => ({
    errorStatus,
    errorIndex,
    commit: () => {
      throw new Error("a failed SET cannot be committed");
    },
  });

  return (varbinds) => {
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

    const [copyStatus, copyVarbind] = finishCopies(tx);
    if (copyStatus !== E.noError) return failed(copyStatus, copyVarbind);

    const staged = tx.stagedConfig;
    const broken = !staged ? [] : mode === "strict" ? untaggedOutsideEgress(staged) : sw.consistencyProblems(staged);
    if (broken.length > 0) {
      return failed(E.inconsistentValue, tx.membershipVarbind || 1);
    }

    return {
      errorStatus: E.noError,
      errorIndex: 0,
      commit: () => {
        if (staged) sw.commit(staged);
        const rows = tx.stagedRows;
        if (rows) {
          const structural = [...rows.keys()].join(",") !== [...sw.copyRows.keys()].join(",");
          sw.copyRows = rows;
          if (structural) sw.structureVersion++;
        }
        for (const f of tx.afterCommit) f();
      },
    };
  };
}
