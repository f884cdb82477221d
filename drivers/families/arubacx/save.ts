/**
 * Saving AOS-CX's configuration over SNMP: ARUBAWIRED-CONFIG-MIB
 * arubaWiredConfigurationCopyTable. One PDU creates a row of the manager's choosing
 * (createAndGo) copying runningConfiguration(3) to startupConfiguration(2); the switch
 * then runs the copy (waiting -> running -> successful or failed) and the row ages out
 * by itself some minutes after it completed. Only one copy runs at a time: another
 * manager's copy in progress makes ours fail with busy, reported as such.
 */
import { randomInt } from "node:crypto";
import { arubaCxConfig } from "../../../mib/arubacx";
import { DeviceMismatch, DeviceRefused } from "../../../model/failures";
import type { SavePart } from "../../snmp/parts/part";
import type { SnmpSession } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";
import { intWrite, readBack, toVarbinds } from "../../snmp/verified-write";

const STARTUP = 2;
const RUNNING = 3;
const CREATE_AND_GO = 4;
const ACTIVE = 1;
const STATE = { waiting: 1, running: 2, successful: 3, failed: 4 } as const;
const CAUSES: Record<number, string> = {
  1: "authenticationFailed",
  2: "badFilename",
  3: "busy (another configuration copy is running)",
  4: "invalidConfiguration",
  5: "invalidURL",
  6: "systemNotReady",
  7: "timeout",
  8: "unknown",
};

export interface ArubaCxSaveOptions {
  /** the copy row to create (default: a random one, as the MIB asks of managers) */
  row?: () => number;
  /** how often to ask whether the copy finished, and how long to wait between asks */
  polls?: number;
  pollIntervalMs?: number;
}

export function arubaCxSave(options: ArubaCxSaveOptions = {}): SavePart {
  const polls = options.polls ?? 60;
  const interval = options.pollIntervalMs ?? 250;
  return {
    async save(session: SnmpSession): Promise<void> {
      const row = options.row?.() ?? randomInt(1, 2 ** 31 - 1);
      const at = (oid: string) => `${oid}.${row}`;
      const writes = [
        intWrite(at(arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus), CREATE_AND_GO, ACTIVE),
        intWrite(at(arubaCxConfig.arubaWiredConfigurationCopySourceFileType), RUNNING),
        intWrite(at(arubaCxConfig.arubaWiredConfigurationCopyDestFileType), STARTUP),
      ];
      await session.set(toVarbinds(writes));
      // the row must show what was asked for (a busy agent could hand back another copy)
      const problems = await readBack(session, writes.slice(1));
      if (problems.length)
        throw new DeviceMismatch(
          `${session.where} accepted the configuration copy row ${row} but reads back otherwise: ${problems.join("; ")}`,
        );

      const stateOid = at(arubaCxConfig.arubaWiredConfigurationCopyState);
      const causeOid = at(arubaCxConfig.arubaWiredConfigurationCopyFailureCause);
      let state = 0;
      for (let poll = 0; poll < polls; poll++) {
        if (poll > 0) await new Promise((resolve) => setTimeout(resolve, interval));
        const values = await session.get([stateOid, causeOid]);
        const vb = values.get(stateOid);
        if (!vb)
          throw new DeviceMismatch(
            `${session.where} accepted the configuration copy but its row ${row} is gone without a result`,
          );
        state = asInt(vb);
        if (state === STATE.successful) return;
        if (state === STATE.failed) {
          const cause = values.get(causeOid);
          const why = cause ? (CAUSES[asInt(cause)] ?? `cause ${asInt(cause)}`) : "no cause given";
          throw new DeviceRefused(
            `${session.where} could not copy the running configuration to the startup configuration: ${why}`,
          );
        }
      }
      throw new DeviceMismatch(
        `${session.where} did not finish copying the running configuration to the startup configuration after ${polls} checks (arubaWiredConfigurationCopyState ${state})`,
      );
    },
  };
}
