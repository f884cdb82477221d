/**
 * Saving the running configuration of Cisco IOS / IOS-XE: CISCO-CONFIG-COPY-MIB first
 * (one PDU creating a ccCopyTable row, running-config -> startup-config, with
 * createAndGo; ccCopyState polled until successful or failed, bounded; the row destroyed
 * afterwards), and OLD-CISCO-SYS-MIB writeMem.0 = 1 only where the device has no copy
 * table (it answers the row's creation with noSuchName, notWritable, noCreation or
 * noAccess). writeMem is write-only: the device's noError is all it tells.
 */
import { configCopy, oldCiscoSys } from "../../../mib/cisco";
import { DeviceMismatch, DeviceRefused } from "../../../model/failures";
import type { SavePart } from "../../snmp/parts/part";
import { SetRefused, type SnmpSession } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";
import { intWrite, toVarbinds } from "../../snmp/verified-write";
import { nameCiscoOids, namedFailure } from "./names";

const FILE = { startupConfig: 3, runningConfig: 4 } as const;
const STATE = { waiting: 1, running: 2, successful: 3, failed: 4 } as const;
const CREATE_AND_GO = 4;
const DESTROY = 6;
const failCauses: Record<number, string> = {
  1: "unknown",
  2: "badFileName",
  3: "timeout",
  4: "noMem",
  5: "noConfig",
  6: "unsupportedProtocol",
  7: "someConfigApplyFailed",
  8: "systemNotReady",
  9: "requestAborted",
};
/** SET answers that say "this agent has no such table", not "this copy is wrong" */
const NO_COPY_TABLE = new Set(["noSuchName", "notWritable", "noCreation", "noAccess"]);

export interface CiscoSaveOptions {
  /** ccCopyTable row to use (default: a random one, so two managers do not collide) */
  copyRow?: number;
  savePolls?: number;
  savePollIntervalMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function copyRunningToStartup(session: SnmpSession, row: number, polls: number, interval: number): Promise<void> {
  const stateOid = `${configCopy.ccCopyState}.${row}`;
  let state = 0;
  for (let poll = 0; poll < polls; poll++) {
    await sleep(poll === 0 ? Math.min(interval, 100) : interval);
    const values = await session.get([stateOid, `${configCopy.ccCopyFailCause}.${row}`]);
    const vb = values.get(stateOid);
    if (!vb)
      throw new DeviceMismatch(`${session.where} accepted the save but its copy row ${row} is gone without a result`);
    state = asInt(vb);
    if (state === STATE.successful) return;
    if (state === STATE.failed) {
      const cause = values.get(`${configCopy.ccCopyFailCause}.${row}`);
      const why = cause ? ` (ccCopyFailCause ${failCauses[asInt(cause)] ?? asInt(cause)})` : "";
      throw new DeviceRefused(`${session.where} could not copy running-config to startup-config${why}`);
    }
  }
  throw new DeviceMismatch(
    `${session.where} did not finish copying running-config to startup-config after ${polls} checks (ccCopyState ${state})`,
  );
}

export function ciscoSave(options: CiscoSaveOptions = {}): SavePart {
  const polls = options.savePolls ?? 60;
  const interval = options.savePollIntervalMs ?? 500;
  return {
    async save(session: SnmpSession): Promise<void> {
      const row = options.copyRow ?? 1 + Math.floor(Math.random() * 65000);
      try {
        await session.set(
          toVarbinds([
            intWrite(`${configCopy.ccCopySourceFileType}.${row}`, FILE.runningConfig),
            intWrite(`${configCopy.ccCopyDestFileType}.${row}`, FILE.startupConfig),
            intWrite(`${configCopy.ccCopyEntryRowStatus}.${row}`, CREATE_AND_GO),
          ]),
        );
      } catch (error) {
        if (!(error instanceof SetRefused) || !NO_COPY_TABLE.has(error.status)) throw namedError(error);
        // no copy table: the old write memory object is all this device has
        try {
          await session.set(toVarbinds([intWrite(`${oldCiscoSys.writeMem}.0`, 1)]));
          return;
        } catch (old) {
          if (old instanceof DeviceRefused) {
            throw new DeviceRefused(`${nameCiscoOids(error.message)}; writeMem too: ${nameCiscoOids(old.message)}`);
          }
          throw old;
        }
      }
      try {
        await namedFailure(copyRunningToStartup(session, row, polls, interval));
      } finally {
        // the row is the manager's to remove; a failed removal does not undo the save
        await session
          .set(toVarbinds([intWrite(`${configCopy.ccCopyEntryRowStatus}.${row}`, DESTROY)]))
          .catch(() => undefined);
      }
    },
  };
}

function namedError(error: unknown): unknown {
  if (error instanceof Error) error.message = nameCiscoOids(error.message);
  return error;
}
