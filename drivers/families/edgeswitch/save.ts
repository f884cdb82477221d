/**
 * Saving the running configuration of a Broadcom FASTPATH agent: one SET of the scalar
 * agentSaveConfig.0 = enable(1), then agentSaveConfigStatus.0 is asked until it reads
 * savingComplete(3); savingFailed(4) is a refusal, notInitiated(1) and savingInProcess(2)
 * mean "ask again". The agent sets the status to savingInProcess as it accepts the SET,
 * so a savingComplete read afterwards belongs to this save. Polls are bounded: a save
 * that never completes is a DeviceMismatch, never a success.
 */
import { saveConfigStatus as STATUS } from "../../../mib/fastpath";
import { DeviceMismatch, DeviceRefused } from "../../../model/failures";
import type { SavePart } from "../../snmp/parts/part";
import type { SnmpSession } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";
import { intWrite, toVarbinds } from "../../snmp/verified-write";

const ENABLE = 1;

export interface FastpathSaveOptions {
  /** the agentSaveConfig and agentSaveConfigStatus scalars of the vendor's MIB (no instance) */
  saveOid: string;
  statusOid: string;
  /** how often to ask for the status, and how long to wait between asks */
  polls?: number;
  pollIntervalMs?: number;
}

const statusName = (value: number): string =>
  Object.entries(STATUS).find(([, v]) => v === value)?.[0] ?? `unknown value ${value}`;

export function fastpathSave(options: FastpathSaveOptions): SavePart {
  const polls = options.polls ?? 60;
  const interval = options.pollIntervalMs ?? 250;
  const statusOid = `${options.statusOid}.0`;
  return {
    async save(session: SnmpSession): Promise<void> {
      // a refusal or silence of the SET throws here (DeviceRefused / DeviceUnreachable)
      await session.set(toVarbinds([intWrite(`${options.saveOid}.0`, ENABLE)]));
      let status = 0;
      for (let poll = 0; poll < polls; poll++) {
        if (poll > 0) await new Promise((resolve) => setTimeout(resolve, interval));
        const vb = (await session.get([statusOid])).get(statusOid);
        if (!vb)
          throw new DeviceMismatch(
            `${session.where} accepted agentSaveConfig but has no agentSaveConfigStatus to tell whether the save happened`,
          );
        status = asInt(vb);
        if (status === STATUS.savingComplete) return;
        if (status === STATUS.savingFailed)
          throw new DeviceRefused(
            `${session.where} could not save its configuration (agentSaveConfigStatus savingFailed)`,
          );
        if (status !== STATUS.savingInProcess && status !== STATUS.notInitiated) {
          throw new DeviceMismatch(`${session.where} answers agentSaveConfigStatus ${statusName(status)} after a save`);
        }
      }
      throw new DeviceMismatch(
        `${session.where} did not finish saving its configuration after ${polls} checks (agentSaveConfigStatus ${statusName(status)})`,
      );
    },
  };
}
