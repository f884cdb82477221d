/**
 * Cisco small business switches (SG/CBS, sysObjectID under 1.3.6.1.4.1.9.6.1): the
 * generic driver, plus saving the running configuration through CISCOSB-COPY-MIB.
 */
import { ciscoSbCopy } from "../../mib/oids";
import { type Capabilities } from "../../model/capabilities";
import { DeviceMismatch, DeviceRefused } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
import { GenericSnmpDriver, genericCapabilities, type SnmpDriverOptions } from "./generic";
import { asInt } from "./values";
import { intWrite, toVarbinds } from "./verified-write";

// CISCOSB-COPY-MIB values
const LOCAL = 1;
const RUNNING_CONFIG = 2;
const STARTUP_CONFIG = 3;
const COPY_FAILED = 3;
const COPY_TIMED_OUT = 4;
const COPY_FINISHED = 5;
const CREATE_AND_GO = 4;

export interface CiscoSbOptions extends SnmpDriverOptions {
  /** rlCopyTable row used for the save; Cisco's own examples use 1 */
  copyRow?: number;
  /** how often to ask whether the copy finished, and how long to wait between asks */
  savePolls?: number;
  savePollIntervalMs?: number;
}

export class CiscoSbSnmpDriver extends GenericSnmpDriver {
  override readonly info = { vendor: "Cisco Small Business", driver: "ciscosb" };
  override readonly can: Capabilities = { ...genericCapabilities, save_config: true };
  private readonly copyRow: number;
  private readonly savePolls: number;
  private readonly savePollIntervalMs: number;

  constructor(target: SnmpTarget, options: CiscoSbOptions = {}) {
    super(target, options);
    this.copyRow = options.copyRow ?? 1;
    this.savePolls = options.savePolls ?? 40;
    this.savePollIntervalMs = options.savePollIntervalMs ?? 500;
  }

  /** copy running-config startup-config: one PDU creating the copy row, then polling its state. */
  override async saveConfig(): Promise<void> {
    const row = this.copyRow;
    await this.session.set(
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
    for (let poll = 0; poll < this.savePolls; poll++) {
      if (poll > 0) await new Promise((resolve) => setTimeout(resolve, this.savePollIntervalMs));
      const vb = (await this.session.get([stateOid])).get(stateOid);
      if (!vb) {
        throw new DeviceMismatch(`${this.session.where} accepted the save but its copy row ${row} is gone without a result`);
      }
      state = asInt(vb);
      if (state === COPY_FINISHED) return;
      if (state === COPY_FAILED || state === COPY_TIMED_OUT) {
        const what = state === COPY_FAILED ? "copyFailed" : "copyTimedout";
        throw new DeviceRefused(`${this.session.where} could not copy running-config to startup-config (rlCopyOperationState ${what})`);
      }
    }
    throw new DeviceMismatch(
      `${this.session.where} did not finish copying running-config to startup-config after ${this.savePolls} checks (rlCopyOperationState ${state})`,
    );
  }
}
