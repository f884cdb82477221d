/**
 * ARUBAWIRED-CONFIG-MIB arubaWiredConfigurationCopyTable, index a random Unsigned32 the
 * manager picks. A row is created with createAndGo (and its two file types in the same
 * PDU) or createAndWait, the file types, then active. The file types must differ and one
 * must be the startup or running configuration or a checkpoint (inconsistentValue
 * otherwise, the MIB's rule). The state goes waiting -> running -> successful over a few
 * hundred milliseconds; running -> startup is the save. Only one copy runs at a time: a
 * second one fails with busy. An active row cannot be changed, only destroyed.
 * Simplifications: checkpoints do not exist in the lab (such a copy fails, unknown), an
 * external file fails with timeout (no file server); startup -> running replaces
 * running.
 */
import { arubaCxConfig } from "../../../../mib/arubacx";
import { cloneConfig } from "../../../config";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance, timeTicks, type SnmpValue } from "../../../../mib/smi-values";
import { FamilyState, type JobTimers } from "../family-state";
import { E, isInt, plain, RowStatus, rowPhase, type SetTransaction, type WritableColumn } from "../writable";

// ARUBAWIRED-CONFIG-MIB columns mib/arubacx.ts does not list
const arubaWiredConfigurationCopyTimeStarted = "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.15"; // TimeStamp
const arubaWiredConfigurationCopyTimeCompleted = "1.3.6.1.4.1.47196.4.1.1.3.20.1.0.1.1.16"; // TimeStamp

const FILE = { externalFile: 1, startup: 2, running: 3, checkpoint: 4 } as const;
const STATE = { waiting: 1, running: 2, successful: 3, failed: 4 } as const;
const CAUSE = { busy: 3, timeout: 7, unknown: 8 } as const;
const ACTIVATE_NOTE = "arubaActivate";

interface CopyRow {
  source: number | null;
  dest: number | null;
  rowStatus: number;
  state: number;
  failureCause: number;
  started: number;
  completed: number;
}

export function arubaCopyState(): FamilyState<Map<number, CopyRow>> {
  return new FamilyState(
    new Map<number, CopyRow>(),
    (s) => new Map([...s].map(([k, r]) => [k, { ...r }])),
    (s) => [...s.keys()].join(","),
  );
}

export function addArubaCopyRows(b: MibIndexBuilder, state: FamilyState<Map<number, CopyRow>>): void {
  const rows = [...state.current().keys()].sort((x, y) => x - y);
  const col = (object: string, f: (r: CopyRow) => SnmpValue) =>
    b.column(
      object,
      rows,
      (r) => [r],
      (r) => {
        const row = state.current().get(r);
        return row ? f(row) : noSuchInstance;
      },
    );
  b.object(arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus);
  col(arubaCxConfig.arubaWiredConfigurationCopySourceFileType, (r) =>
    r.source === null ? noSuchInstance : integer(r.source),
  );
  col(arubaCxConfig.arubaWiredConfigurationCopyDestFileType, (r) =>
    r.dest === null ? noSuchInstance : integer(r.dest),
  );
  col(arubaCxConfig.arubaWiredConfigurationCopyState, (r) => integer(r.state));
  col(arubaWiredConfigurationCopyTimeStarted, (r) => timeTicks(r.started));
  col(arubaWiredConfigurationCopyTimeCompleted, (r) => timeTicks(r.completed));
  col(arubaCxConfig.arubaWiredConfigurationCopyFailureCause, (r) =>
    r.failureCause ? integer(r.failureCause) : noSuchInstance,
  );
  col(arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus, (r) => integer(r.rowStatus));
}

const rowOf = (instance: number[]) => (instance.length === 1 && instance[0] <= 0xffffffff ? instance[0] : null);

export function arubaCopyColumns(state: FamilyState<Map<number, CopyRow>>): WritableColumn[] {
  const acts = (tx: SetTransaction) => {
    let m = tx.notes.get(ACTIVATE_NOTE) as Map<number, number> | undefined;
    if (!m) tx.notes.set(ACTIVATE_NOTE, (m = new Map()));
    return m;
  };
  const rowStatus: WritableColumn = {
    column: parseOid(arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus),
    phase: rowPhase,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      const status = value.value;
      if (status < 1 || status > 6 || status === RowStatus.notReady) return E.wrongValue;
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const rows = tx.state(state);
      const row = rows.get(r);
      switch (status) {
        case RowStatus.createAndGo:
        case RowStatus.createAndWait:
          if (row) return E.inconsistentValue;
          rows.set(r, {
            source: null,
            dest: null,
            rowStatus: RowStatus.notReady,
            state: STATE.waiting,
            failureCause: 0,
            started: 0,
            completed: 0,
          });
          if (status === RowStatus.createAndGo) acts(tx).set(r, varbind);
          return E.noError;
        case RowStatus.active:
          if (!row) return E.inconsistentName;
          if (row.rowStatus === RowStatus.active) return E.noError;
          acts(tx).set(r, varbind);
          return E.noError;
        case RowStatus.notInService:
          if (!row) return E.inconsistentName;
          return row.rowStatus === RowStatus.active ? E.inconsistentValue : E.noError;
        default:
          rows.delete(r);
          return E.noError;
      }
    },
  };
  const fileType = (object: string, field: "source" | "dest"): WritableColumn => ({
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 4) return E.wrongValue;
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const row = tx.state(state).get(r);
      if (!row) return E.inconsistentName;
      // once active, the entry cannot be modified (the MIB's rule)
      if (row.rowStatus === RowStatus.active) return E.inconsistentValue;
      row[field] = value.value;
      if (row.source !== null && row.dest !== null) row.rowStatus = RowStatus.notInService;
      return E.noError;
    },
  });
  return [
    rowStatus,
    fileType(arubaCxConfig.arubaWiredConfigurationCopySourceFileType, "source"),
    fileType(arubaCxConfig.arubaWiredConfigurationCopyDestFileType, "dest"),
  ];
}

export function finishArubaCopies(
  tx: SetTransaction,
  state: FamilyState<Map<number, CopyRow>>,
  sw: VirtualSwitch,
  timers: JobTimers,
): [number, number] {
  const acts = tx.notes.get(ACTIVATE_NOTE) as Map<number, number> | undefined;
  if (!acts) return [E.noError, 0];
  const rows = tx.state(state);
  const local = (t: number) => t === FILE.startup || t === FILE.running || t === FILE.checkpoint;
  for (const [r, varbind] of acts) {
    const row = rows.get(r);
    if (!row) continue;
    if (
      row.source === null ||
      row.dest === null ||
      row.source === row.dest ||
      !(local(row.source) || local(row.dest))
    ) {
      return [E.inconsistentValue, varbind];
    }
    row.rowStatus = RowStatus.active;
    row.started = sw.uptimeTicks();
    const running = [...rows].some(
      ([k, o]) =>
        k !== r && o.rowStatus === RowStatus.active && (o.state === STATE.waiting || o.state === STATE.running),
    );
    if (running) {
      // only one copy at a time: the MIB's busy
      row.state = STATE.failed;
      row.failureCause = CAUSE.busy;
      row.completed = row.started;
      continue;
    }
    const { source, dest } = row;
    tx.afterCommit.push(() =>
      timers.job(
        () => {
          const now = state.current().get(r);
          if (now) now.state = STATE.running;
        },
        () => {
          const now = state.current().get(r);
          if (!now) return;
          if (source === FILE.running && dest === FILE.startup) {
            sw.save();
            now.state = STATE.successful;
          } else if (source === FILE.startup && dest === FILE.running) {
            sw.commit(cloneConfig(sw.startup));
            now.state = STATE.successful;
          } else {
            now.state = STATE.failed;
            now.failureCause =
              source === FILE.externalFile || dest === FILE.externalFile ? CAUSE.timeout : CAUSE.unknown;
          }
          now.completed = sw.uptimeTicks();
        },
      ),
    );
  }
  return [E.noError, 0];
}
