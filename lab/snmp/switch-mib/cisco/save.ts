/**
 * Saving an IOS configuration: CISCO-CONFIG-COPY-MIB ccCopyTable (a row naming source
 * and destination, made active; ccCopyState then goes waiting -> running -> successful
 * over a few hundred milliseconds, and the copy happens when it completes) and the old
 * OLD-CISCO-SYS-MIB writeMem.0 = 1 (saves at once; IOS-XE 16 dropped it, so a profile
 * option turns it off and the SET then meets notWritable like any unknown object).
 *
 * Rows may be created with createAndGo (one PDU), createAndWait, or - as IOS also takes
 * and OpenL2M relies on - by setting a column of a new row and then active. Activation
 * needs both file types, different, one of them startupConfig or runningConfig
 * (inconsistentValue otherwise, the MIB's rule); a network copy needs server and file
 * name and then fails with timeout (the lab has no file server). startupConfig ->
 * runningConfig replaces running (IOS merges: a simplification). An active row cannot
 * be changed until its copy completes; a completed row may be activated again.
 * writeMem = 0 ("erase the configuration", per the MIB) is refused with wrongValue: the
 * lab never erases its startup configuration.
 */
import { configCopy, oldCiscoSys } from "../../../../mib/cisco";
import { cloneConfig } from "../../../config";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, ipAddress, noSuchInstance, octets, timeTicks, type SnmpValue } from "../../../../mib/smi-values";
import type { FamilyState, JobTimers } from "../family-state";
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
import type { CiscoState, CopyJob } from "./state";

const FILE = {
  networkFile: 1,
  iosFile: 2,
  startupConfig: 3,
  runningConfig: 4,
  terminal: 5,
  fabricStartupConfig: 6,
} as const;
const STATE = { waiting: 1, running: 2, successful: 3, failed: 4 } as const;
const FAIL = { unknown: 1, badFileName: 2, timeout: 3 } as const;
const ACTIVATE_NOTE = "ccCopyActivate";

export function addCopyRows(b: MibIndexBuilder, state: FamilyState<CiscoState>): void {
  const rows = [...state.current().copies.keys()].sort((x, y) => x - y);
  const byRow = (r: number) => [r];
  const col = (object: string, f: (j: CopyJob) => SnmpValue) =>
    b.column(object, rows, byRow, (r) => {
      const job = state.current().copies.get(r);
      return job ? f(job) : noSuchInstance;
    });
  b.object(configCopy.ccCopyEntryRowStatus);
  col(configCopy.ccCopyProtocol, (j) => integer(j.protocol));
  col(configCopy.ccCopySourceFileType, (j) => (j.source === null ? noSuchInstance : integer(j.source)));
  col(configCopy.ccCopyDestFileType, (j) => (j.dest === null ? noSuchInstance : integer(j.dest)));
  col(configCopy.ccCopyServerAddress, (j) => ipAddress(j.server ?? "0.0.0.0"));
  col(configCopy.ccCopyFileName, (j) => octets(j.fileName));
  col(configCopy.ccCopyState, (j) => integer(j.state));
  col(configCopy.ccCopyTimeStarted, (j) => timeTicks(j.startedTicks));
  col(configCopy.ccCopyTimeCompleted, (j) => timeTicks(j.completedTicks));
  col(configCopy.ccCopyFailCause, (j) => (j.failCause ? integer(j.failCause) : noSuchInstance));
  col(configCopy.ccCopyEntryRowStatus, (j) => integer(j.rowStatus));
}

const newJob = (): CopyJob => ({
  protocol: 1,
  source: null,
  dest: null,
  server: null,
  fileName: "",
  rowStatus: RowStatus.notReady,
  state: STATE.waiting,
  failCause: 0,
  startedTicks: 0,
  completedTicks: 0,
  run: 0,
});

const busy = (j: CopyJob) =>
  j.rowStatus === RowStatus.active && (j.state === STATE.waiting || j.state === STATE.running);
const rowOf = (instance: number[]) => {
  const r = singleIndex(instance);
  return r !== null && r >= 1 && r <= 2147483647 ? r : null;
};

function activations(tx: SetTransaction): Map<number, number> {
  let m = tx.notes.get(ACTIVATE_NOTE) as Map<number, number> | undefined;
  if (!m) tx.notes.set(ACTIVATE_NOTE, (m = new Map()));
  return m;
}

export function copyColumns(state: FamilyState<CiscoState>): WritableColumn[] {
  const rowStatus: WritableColumn = {
    column: parseOid(configCopy.ccCopyEntryRowStatus),
    phase: rowPhase,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      const status = value.value;
      if (status < 1 || status > 6 || status === RowStatus.notReady) return E.wrongValue;
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const copies = tx.state(state).copies;
      const job = copies.get(r);
      switch (status) {
        case RowStatus.createAndGo:
        case RowStatus.createAndWait:
          if (job) return E.inconsistentValue;
          copies.set(r, newJob());
          if (status === RowStatus.createAndGo) activations(tx).set(r, varbind);
          return E.noError;
        case RowStatus.active:
          if (!job) return E.inconsistentName;
          if (busy(job)) return E.inconsistentValue;
          activations(tx).set(r, varbind);
          return E.noError;
        case RowStatus.notInService:
          if (!job) return E.inconsistentName;
          if (busy(job)) return E.inconsistentValue;
          job.rowStatus = RowStatus.notInService;
          return E.noError;
        default:
          copies.delete(r);
          return E.noError;
      }
    },
  };

  const column = (object: string, set: (j: CopyJob, v: SnmpValue) => number): WritableColumn => ({
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value) {
      const r = rowOf(instance);
      if (r === null) return E.noCreation;
      const copies = tx.state(state).copies;
      let job = copies.get(r);
      if (job && busy(job)) return E.inconsistentValue;
      const fresh = !job;
      if (!job) job = newJob();
      const status = set(job, value);
      if (status !== E.noError) return status;
      // IOS creates a row whose first column is set (OpenL2M's save relies on it)
      if (fresh) copies.set(r, job);
      if (job.rowStatus === RowStatus.notReady && job.source !== null && job.dest !== null)
        job.rowStatus = RowStatus.notInService;
      return E.noError;
    },
  });
  const fileType = (v: SnmpValue) => (!isInt(v) ? E.wrongType : v.value < 1 || v.value > 6 ? E.wrongValue : E.noError);

  return [
    rowStatus,
    column(configCopy.ccCopyProtocol, (j, v) => {
      if (!isInt(v)) return E.wrongType;
      if (v.value < 1 || v.value > 5) return E.wrongValue;
      j.protocol = v.value;
      return E.noError;
    }),
    column(configCopy.ccCopySourceFileType, (j, v) => {
      const bad = fileType(v);
      if (bad !== E.noError) return bad;
      j.source = (v as { value: number }).value;
      return E.noError;
    }),
    column(configCopy.ccCopyDestFileType, (j, v) => {
      const bad = fileType(v);
      if (bad !== E.noError) return bad;
      j.dest = (v as { value: number }).value;
      return E.noError;
    }),
    column(configCopy.ccCopyServerAddress, (j, v) => {
      if (v.tag !== 0x40) return E.wrongType;
      j.server = [...v.value].join(".");
      return E.noError;
    }),
    column(configCopy.ccCopyFileName, (j, v) => {
      if (v.tag !== 0x04) return E.wrongType;
      if (v.value.length > 255) return E.wrongLength;
      j.fileName = v.value.toString("utf8");
      return E.noError;
    }),
  ];
}

/** whether a row names a copy the agent can start (the MIB's rules for the file types) */
function startable(j: CopyJob): boolean {
  if (j.source === null || j.dest === null || j.source === j.dest) return false;
  const agentFile = (t: number) => t === FILE.startupConfig || t === FILE.runningConfig;
  if (!agentFile(j.source) && !agentFile(j.dest)) return false;
  const needs = (t: number) =>
    t === FILE.networkFile ? j.server !== null && j.fileName !== "" : t === FILE.iosFile ? j.fileName !== "" : true;
  return needs(j.source) && needs(j.dest);
}

/** After the PDU's varbinds: rows made active start their copy (when the PDU commits). */
export function finishCopies(
  tx: SetTransaction,
  state: FamilyState<CiscoState>,
  sw: VirtualSwitch,
  timers: JobTimers,
): [number, number] {
  const acts = tx.notes.get(ACTIVATE_NOTE) as Map<number, number> | undefined;
  if (!acts) return [E.noError, 0];
  const copies = tx.state(state).copies;
  for (const [r, varbind] of acts) {
    const job = copies.get(r);
    if (!job) continue; // destroyed later in the same PDU
    if (!startable(job)) return [E.inconsistentValue, varbind];
    job.rowStatus = RowStatus.active;
    job.state = STATE.waiting;
    job.failCause = 0;
    job.startedTicks = sw.uptimeTicks();
    job.completedTicks = 0;
    const run = ++job.run;
    tx.afterCommit.push(() => startJob(sw, state, timers, r, run));
  }
  return [E.noError, 0];
}

function startJob(sw: VirtualSwitch, state: FamilyState<CiscoState>, timers: JobTimers, r: number, run: number): void {
  // the row as it is when a phase begins (it may have been destroyed or started again)
  const current = () => {
    const j = state.current().copies.get(r);
    return j && j.run === run ? j : null;
  };
  timers.job(
    () => {
      const j = current();
      if (j) j.state = STATE.running;
    },
    () => {
      const j = current();
      if (!j) return;
      if (j.source === FILE.runningConfig && j.dest === FILE.startupConfig) {
        sw.save();
        j.state = STATE.successful;
      } else if (j.source === FILE.startupConfig && j.dest === FILE.runningConfig) {
        sw.commit(cloneConfig(sw.startup));
        j.state = STATE.successful;
      } else {
        j.state = STATE.failed;
        j.failCause = j.source === FILE.networkFile || j.dest === FILE.networkFile ? FAIL.timeout : FAIL.unknown;
      }
      j.completedTicks = sw.uptimeTicks();
    },
  );
}

/** writeMem.0 = 1: write memory, at once */
export const writeMem: WritableColumn = {
  column: parseOid(oldCiscoSys.writeMem),
  phase: plain,
  apply(tx, instance, value) {
    if (!isInt(value)) return E.wrongType;
    if (instance.length !== 1 || instance[0] !== 0) return E.noCreation;
    if (value.value !== 1) return E.wrongValue;
    tx.afterCommit.push(() => tx.sw.save());
    return E.noError;
  },
};
