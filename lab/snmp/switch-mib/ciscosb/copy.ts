/**
 * CISCOSB-COPY-MIB rlCopyTable: the rows of copies the manager started (read side) and
 * the one-PDU save (write side).
 */
import { ciscoSbCopy } from "../../../../mib/oids";
import type { CopyRow, VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance } from "../../../../mib/smi-values";
import {
  E,
  isInt,
  plain,
  RowStatus,
  rowPhase,
  singleIndex,
  type SetTransaction,
  type WritableColumn,
} from "../writable";

export function addCiscoSbCopy(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const rows = [...sw.copyRows.keys()];
  const byRow = (r: number) => [r];
  const col = (object: string, pick: (r: NonNullable<ReturnType<typeof sw.copyRows.get>>) => number) =>
    b.column(object, rows, byRow, (r) => {
      const row = sw.copyRows.get(r);
      return row ? integer(pick(row)) : noSuchInstance;
    });
  col(ciscoSbCopy.rlCopySourceLocation, (r) => r.sourceLocation);
  col(ciscoSbCopy.rlCopySourceFileType, (r) => r.sourceFileType);
  col(ciscoSbCopy.rlCopyDestinationLocation, (r) => r.destinationLocation);
  col(ciscoSbCopy.rlCopyDestinationFileType, (r) => r.destinationFileType);
  col(ciscoSbCopy.rlCopyOperationState, (r) => r.operationState);
  col(ciscoSbCopy.rlCopyRowStatus, (r) => r.rowStatus);
}

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

/** The writable rlCopy columns. */
export const ciscoSbCopyColumns: WritableColumn[] = [
  rlCopyRowStatus,
  copyColumn(ciscoSbCopy.rlCopySourceLocation, "sourceLocation"),
  copyColumn(ciscoSbCopy.rlCopySourceFileType, "sourceFileType"),
  copyColumn(ciscoSbCopy.rlCopyDestinationLocation, "destinationLocation"),
  copyColumn(ciscoSbCopy.rlCopyDestinationFileType, "destinationFileType"),
];

/** Finishes rlCopy rows created by the PDU; returns [status, varbind] of the first problem. */
export function finishCiscoSbCopies(tx: SetTransaction): [number, number] {
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
