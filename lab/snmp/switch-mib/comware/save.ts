/**
 * Comware save: HH3C-CONFIG-MAN-MIB hh3cCfgOperateTable. One PDU creates a row with
 * hh3cCfgOperateType running2Startup(1) and hh3cCfgOperateRowStatus createAndGo(4) (the
 * reference tool counts the rows and takes the next index). The outcome appears in
 * hh3cCfgOperateResultTable, a row per operation with an incrementing index:
 * opInProgress(1), then opSuccess(2) a few hundred milliseconds later, when the copy
 * happens. startup2Running(2) replaces running with startup (Comware merges: a
 * simplification); the network operations end in opTimeOut(18), the lab has no file
 * server. An active row cannot be changed (its columns answer inconsistentValue), only
 * destroyed; createAndGo on an existing index is inconsistentValue, and one without a
 * type too.
 */
import { hh3cConfig } from "../../../../mib/comware";
import { cloneConfig } from "../../../config";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance, octets, timeTicks, type SnmpValue } from "../../../../mib/smi-values";
import { FamilyState, type JobTimers } from "../family-state";
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

// HH3C-CONFIG-MAN-MIB result columns mib/comware.ts does not list
const hh3cCfgOperateTime = "1.3.6.1.4.1.25506.2.4.1.2.5.1.5"; // TimeTicks the operation took
const hh3cCfgOperateEndTime = "1.3.6.1.4.1.25506.2.4.1.2.5.1.6"; // sysUpTime at its end

interface OperateRow {
  type: number | null;
  rowStatus: number;
}
interface ResultRow {
  optIndex: number;
  opType: number;
  state: number;
  startTicks: number;
  endTicks: number;
}
export interface ComwareSaveState {
  operates: Map<number, OperateRow>;
  results: Map<number, ResultRow>;
  nextResult: number;
}

const OP = { running2Startup: 1, startup2Running: 2 } as const;
const RESULT = { inProgress: 1, success: 2, timeout: 18 } as const;
const CREATE_NOTE = "hh3cCreate";

export function comwareSaveState(): FamilyState<ComwareSaveState> {
  return new FamilyState<ComwareSaveState>(
    { operates: new Map(), results: new Map(), nextResult: 1 },
    (s) => ({
      operates: new Map([...s.operates].map(([k, r]) => [k, { ...r }])),
      results: new Map([...s.results].map(([k, r]) => [k, { ...r }])),
      nextResult: s.nextResult,
    }),
    (s) => `${[...s.operates.keys()].join(",")}|${[...s.results.keys()].join(",")}`,
  );
}

export function addComwareSaveRows(b: MibIndexBuilder, state: FamilyState<ComwareSaveState>): void {
  const s = state.current();
  const ops = [...s.operates.keys()].sort((x, y) => x - y);
  const op = (r: number, f: (o: OperateRow) => SnmpValue) => {
    const o = state.current().operates.get(r);
    return o ? f(o) : noSuchInstance;
  };
  b.object(hh3cConfig.hh3cCfgOperateRowStatus)
    .column(
      hh3cConfig.hh3cCfgOperateType,
      ops,
      (r) => [r],
      (r) => op(r, (o) => (o.type === null ? noSuchInstance : integer(o.type))),
    )
    .column(
      hh3cConfig.hh3cCfgOperateRowStatus,
      ops,
      (r) => [r],
      (r) => op(r, (o) => integer(o.rowStatus)),
    );
  const results = [...s.results.keys()].sort((x, y) => x - y);
  const res = (r: number, f: (o: ResultRow) => SnmpValue) => {
    const o = state.current().results.get(r);
    return o ? f(o) : noSuchInstance;
  };
  b.column(
    hh3cConfig.hh3cCfgOperateResultOptIndex,
    results,
    (r) => [r],
    (r) => res(r, (o) => integer(o.optIndex)),
  )
    .column(
      hh3cConfig.hh3cCfgOperateResultOpType,
      results,
      (r) => [r],
      (r) => res(r, (o) => integer(o.opType)),
    )
    .column(
      hh3cConfig.hh3cCfgOperateState,
      results,
      (r) => [r],
      (r) => res(r, (o) => integer(o.state)),
    )
    .column(
      hh3cCfgOperateTime,
      results,
      (r) => [r],
      (r) => res(r, (o) => timeTicks(o.endTicks ? o.endTicks - o.startTicks : 0)),
    )
    .column(
      hh3cCfgOperateEndTime,
      results,
      (r) => [r],
      (r) => res(r, (o) => timeTicks(o.endTicks)),
    )
    .column(
      hh3cConfig.hh3cCfgOperFailReason,
      results,
      (r) => [r],
      (r) => res(r, (o) => octets(o.state === RESULT.timeout ? "no file server answered" : "")),
    );
}

const rowOf = (instance: number[]) => {
  const r = singleIndex(instance);
  return r !== null && r >= 1 && r <= 2147483647 ? r : null;
};

export function comwareSaveColumns(state: FamilyState<ComwareSaveState>): WritableColumn[] {
  const rowStatus: WritableColumn = {
    column: parseOid(hh3cConfig.hh3cCfgOperateRowStatus),
    phase: rowPhase,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      const status = value.value;
      if (status !== RowStatus.createAndGo && status !== RowStatus.destroy && status !== RowStatus.active)
        return E.wrongValue;
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const s = tx.state(state);
      const row = s.operates.get(r);
      if (status === RowStatus.active) return row ? E.noError : E.inconsistentName;
      if (status === RowStatus.destroy) {
        s.operates.delete(r);
        return E.noError;
      }
      if (row) return E.inconsistentValue;
      s.operates.set(r, { type: null, rowStatus: RowStatus.active });
      const created = (tx.notes.get(CREATE_NOTE) as Map<number, number> | undefined) ?? new Map<number, number>();
      created.set(r, varbind);
      tx.notes.set(CREATE_NOTE, created);
      return E.noError;
    },
  };
  const type: WritableColumn = {
    column: parseOid(hh3cConfig.hh3cCfgOperateType),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 6) return E.wrongValue;
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const created = tx.notes.get(CREATE_NOTE) as Map<number, number> | undefined;
      const row = tx.state(state).operates.get(r);
      if (!row) return E.inconsistentName;
      // an active row's values may not change (the MIB's rule)
      if (!created?.has(r)) return E.inconsistentValue;
      row.type = value.value;
      return E.noError;
    },
  };
  return [rowStatus, type];
}

/** After the PDU: a created row needs its type; its operation starts when the PDU commits. */
export function finishComwareSave(
  tx: SetTransaction,
  state: FamilyState<ComwareSaveState>,
  sw: VirtualSwitch,
  timers: JobTimers,
): [number, number] {
  const created = tx.notes.get(CREATE_NOTE) as Map<number, number> | undefined;
  if (!created) return [E.noError, 0];
  const s = tx.state(state);
  for (const [r, varbind] of created) {
    const row = s.operates.get(r);
    if (!row) continue;
    if (row.type === null) return [E.inconsistentValue, varbind];
    const result = s.nextResult++;
    s.results.set(result, {
      optIndex: r,
      opType: row.type,
      state: RESULT.inProgress,
      startTicks: sw.uptimeTicks(),
      endTicks: 0,
    });
    const opType = row.type;
    tx.afterCommit.push(() =>
      timers.job(
        () => undefined,
        () => {
          const res = state.current().results.get(result);
          if (!res) return;
          if (opType === OP.running2Startup) sw.save();
          else if (opType === OP.startup2Running) sw.commit(cloneConfig(sw.startup));
          res.state = opType === OP.running2Startup || opType === OP.startup2Running ? RESULT.success : RESULT.timeout;
          res.endTicks = sw.uptimeTicks();
        },
      ),
    );
  }
  return [E.noError, 0];
}
