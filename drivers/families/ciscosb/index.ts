/**
 * Cisco small business switches (SG/CBS, sysObjectID under 1.3.6.1.4.1.9.6.1): the
 * standard parts with PoE from the standard table or else CISCOSB-POE-MIB (poe.ts), plus
 * saving the running configuration through CISCOSB-COPY-MIB (one PDU creating a copy
 * row, then polling its state).
 */
import { ciscoSbCopy } from "../../../mib/oids";
import { DeviceMismatch, DeviceRefused } from "../../../model/failures";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { SavePart } from "../../snmp/parts/part";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import type { SnmpSession } from "../../snmp/session";
import { asInt } from "../../snmp/varbind-values";
import { intWrite, toVarbinds } from "../../snmp/verified-write";
import { standardCapabilities } from "../generic";
import { ciscoSbPoePart } from "./poe";

// CISCOSB-COPY-MIB values
const LOCAL = 1;
const RUNNING_CONFIG = 2;
const STARTUP_CONFIG = 3;
const COPY_FAILED = 3;
const COPY_TIMED_OUT = 4;
const COPY_FINISHED = 5;
const CREATE_AND_GO = 4;

export interface CiscoSbSaveOptions {
  /** rlCopyTable row used for the save; Cisco's own examples use 1 */
  copyRow?: number;
  /** how often to ask whether the copy finished, and how long to wait between asks */
  savePolls?: number;
  savePollIntervalMs?: number;
}

/** copy running-config startup-config: one PDU creating the copy row, then polling its state. */
export function ciscoSbSave(options: CiscoSbSaveOptions = {}): SavePart {
  const row = options.copyRow ?? 1;
  const polls = options.savePolls ?? 40;
  const interval = options.savePollIntervalMs ?? 500;
  return {
    async save(session: SnmpSession): Promise<void> {
      await session.set(
        toVarbinds([
          intWrite(`${ciscoSbCopy.rlCopyRowStatus}.${row}`, CREATE_AND_GO),
          intWrite(`${ciscoSbCopy.rlCopySourceLocation}.${row}`, LOCAL),
          intWrite(`${ciscoSbCopy.rlCopySourceFileType}.${row}`, RUNNING_CONFIG),
          intWrite(`${ciscoSbCopy.rlCopyDestinationLocation}.${row}`, LOCAL),
          intWrite(`${ciscoSbCopy.rlCopyDestinationFileType}.${row}`, STARTUP_CONFIG),
        ]),
      );
      const stateOid = `${ciscoSbCopy.rlCopyOperationState}.${row}`;
      let state = 0;
      for (let poll = 0; poll < polls; poll++) {
        if (poll > 0) await new Promise((resolve) => setTimeout(resolve, interval));
        const vb = (await session.get([stateOid])).get(stateOid);
        if (!vb)
          throw new DeviceMismatch(
            `${session.where} accepted the save but its copy row ${row} is gone without a result`,
          );
        state = asInt(vb);
        if (state === COPY_FINISHED) return;
        if (state === COPY_FAILED || state === COPY_TIMED_OUT) {
          const what = state === COPY_FAILED ? "copyFailed" : "copyTimedout";
          throw new DeviceRefused(
            `${session.where} could not copy running-config to startup-config (rlCopyOperationState ${what})`,
          );
        }
      }
      throw new DeviceMismatch(
        `${session.where} did not finish copying running-config to startup-config after ${polls} checks (rlCopyOperationState ${state})`,
      );
    },
  };
}

export const ciscoSbFamily: SnmpFamily = {
  info: { vendor: "Cisco Small Business", driver: "ciscosb" },
  can: { ...standardCapabilities, save_config: true },
  parts: { vlans: qBridgeVlans(), poe: ciscoSbPoePart(), save: ciscoSbSave(), clientData: standardClientData() },
};

export const ciscosb: DriverEntry = {
  name: "ciscosb",
  vendor: "Cisco Small Business",
  description: "Cisco SG/CBS switches: standard MIBs plus saving through CISCOSB-COPY-MIB",
  connector: 0,
  can: ciscoSbFamily.can,
  match: { sysObjectIds: ["1.3.6.1.4.1.9.6.1"] },
  open: (connection, options) => new SnmpDriver(ciscoSbFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["ciscosb"], recordings: ["ciscosb_cbs350-4x"] },
};
