/**
 * Comware save through HH3C-CONFIG-MAN-MIB: one PDU creating a free hh3cCfgOperateTable
 * row with hh3cCfgOperateType running2Startup(1) and hh3cCfgOperateRowStatus
 * createAndGo(4); the switch then reports the operation in hh3cCfgOperateResultTable (a
 * row per operation, hh3cCfgOperateResultOptIndex naming the operate row) whose
 * hh3cCfgOperateState goes from opInProgress(1) to opSuccess(2) or a failure (3..20).
 *
 * The row taken is one past the highest in use (a count of the rows, as the reference
 * tool takes, may name a row still there when rows were deleted out of order). Polls
 * are bounded; a save that does not finish in them is an error, never success.
 */
import { hh3cConfig } from "../../../mib/comware";
import { DeviceMismatch, DeviceRefused } from "../../../model/failures";
import type { SavePart } from "../../snmp/parts/part";
import type { SnmpSession } from "../../snmp/session";
import { asInt, asText } from "../../snmp/varbind-values";
import { intWrite, toVarbinds } from "../../snmp/verified-write";

const RUNNING_TO_STARTUP = 1;
const CREATE_AND_GO = 4;
const IN_PROGRESS = 1;
const SUCCESS = 2;
const MAX_ROW = 2147483647;

export interface ComwareSaveOptions {
  /** how often to look for the result, and how long to wait between looks */
  polls?: number;
  pollIntervalMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The highest index of a column walk ("9.3" style indexes are not expected here). */
function highestIndex(column: Map<string, unknown> | undefined): number {
  let max = 0;
  for (const index of column?.keys() ?? []) max = Math.max(max, Number(index) || 0);
  return max;
}

export function comwareSave(options: ComwareSaveOptions = {}): SavePart {
  const polls = options.polls ?? 40;
  const interval = options.pollIntervalMs ?? 250;
  return {
    async save(session: SnmpSession): Promise<void> {
      const rows = await session.readColumns([hh3cConfig.hh3cCfgOperateRowStatus], {
        label: "hh3cCfgOperateTable",
        rows: 16,
      });
      const row = highestIndex(rows.get(hh3cConfig.hh3cCfgOperateRowStatus)) + 1;
      if (row > MAX_ROW) throw new DeviceRefused(`${session.where} has no free hh3cCfgOperateTable row`);
      // results already there belong to earlier operations (perhaps of a row with this index, since deleted)
      const earlier = highestIndex(
        (
          await session.readColumns([hh3cConfig.hh3cCfgOperateResultOptIndex], {
            label: "hh3cCfgOperateResultTable",
            rows: 16,
          })
        ).get(hh3cConfig.hh3cCfgOperateResultOptIndex),
      );

      await session.set(
        toVarbinds([
          intWrite(`${hh3cConfig.hh3cCfgOperateType}.${row}`, RUNNING_TO_STARTUP),
          intWrite(`${hh3cConfig.hh3cCfgOperateRowStatus}.${row}`, CREATE_AND_GO),
        ]),
      );

      let result: number | null = null;
      let state = 0;
      for (let poll = 0; poll < polls; poll++) {
        if (poll > 0) await sleep(interval);
        if (result === null) {
          // this operation's result row: a new row whose OptIndex names our operate row
          const opt = (
            await session.readColumns([hh3cConfig.hh3cCfgOperateResultOptIndex], {
              label: "hh3cCfgOperateResultTable",
              rows: 16,
            })
          ).get(hh3cConfig.hh3cCfgOperateResultOptIndex);
          for (const [index, vb] of opt ?? [])
            if (Number(index) > earlier && asInt(vb) === row) result = Math.max(result ?? 0, Number(index));
          if (result === null) continue;
        }
        const stateOid = `${hh3cConfig.hh3cCfgOperateState}.${result}`;
        const reasonOid = `${hh3cConfig.hh3cCfgOperFailReason}.${result}`;
        const values = await session.get([stateOid, reasonOid]);
        state = asInt(values.get(stateOid));
        if (state === SUCCESS) return;
        if (state !== IN_PROGRESS && state !== 0) {
          const reason = asText(values.get(reasonOid));
          throw new DeviceRefused(
            `${session.where} could not save running to startup (hh3cCfgOperateState ${state}${reason ? `: ${reason}` : ""})`,
          );
        }
      }
      if (result === null)
        throw new DeviceMismatch(
          `${session.where} accepted the save (hh3cCfgOperateTable row ${row}) but showed no result for it after ${polls} checks`,
        );
      throw new DeviceMismatch(
        `${session.where} did not finish saving running to startup after ${polls} checks (hh3cCfgOperateState ${state})`,
      );
    },
  };
}
