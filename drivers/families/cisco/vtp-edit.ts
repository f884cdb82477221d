/**
 * VLAN create, rename and delete through CISCO-VTP-MIB's edit buffer, the way IOS wants
 * it: take the buffer (vtpVlanEditOperation copy(2) together with vtpVlanEditBufferOwner,
 * one PDU), change rows of vtpVlanEditTable, apply(3) and wait for vtpVlanApplyStatus to
 * leave inProgress, and always release(4) the buffer, whatever happened. The VLAN table
 * is then read back: the VLAN must be there with its name (or gone).
 *
 * A switch in VTP client mode cannot change VLANs (its server does): not supported.
 */
import { vtp } from "../../../mib/cisco";
import { DeviceMismatch, DeviceRefused, NotSupported } from "../../../model/failures";
import { ObjectType } from "../../snmp/net-snmp-api";
import type { SnmpSession } from "../../snmp/session";
import { asInt, asText } from "../../snmp/varbind-values";
import { intWrite, textWrite, toVarbinds, type Write } from "../../snmp/verified-write";
import { namedFailure } from "./names";

const DOMAIN = 1;
const OP = { copy: 2, apply: 3, release: 4 } as const;
const MODE_CLIENT = 1;
const APPLY_IN_PROGRESS = 1;
const APPLY_SUCCEEDED = 2;
const applyStatusNames: Record<number, string> = {
  1: "inProgress",
  2: "succeeded",
  3: "configNumberError",
  4: "inconsistentEdit",
  5: "tooBig",
  6: "localNVStoreFail",
  7: "remoteNVStoreFail",
  8: "editBufferEmpty",
  9: "someOtherError",
  10: "notPrimaryServer",
};

export interface VtpEditOptions {
  /** vtpVlanEditBufferOwner while switchdesk holds the buffer */
  owner?: string;
  /** how often to ask whether an apply finished, and how long to wait between asks */
  applyPolls?: number;
  applyPollIntervalMs?: number;
}

const at = (column: string, id?: number) => (id === undefined ? `${column}.${DOMAIN}` : `${column}.${DOMAIN}.${id}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** 802.10 SAID of a new VLAN: 100000 + id, as IOS numbers its own */
function said(id: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(100000 + id);
  return b;
}

/** The edit: rows to set inside the buffer, then the VLAN table read back. */
async function editVlans(session: SnmpSession, what: string, rows: Write[], options: VtpEditOptions): Promise<void> {
  const where = session.where;
  const modes = await session.get(
    [at(vtp.managementDomainLocalMode), at(vtp.managementDomainName)],
    "managementDomainLocalMode",
  );
  const modeVb = modes.get(at(vtp.managementDomainLocalMode));
  if (!modeVb)
    throw new NotSupported(
      `${where} has no VTP management domain (CISCO-VTP-MIB): its VLANs cannot be changed over SNMP`,
    );
  const mode = asInt(modeVb);
  if (mode === MODE_CLIENT) {
    const domain = asText(modes.get(at(vtp.managementDomainName)));
    throw new NotSupported(
      `${where} is a VTP client (domain '${domain}'): its VLANs can only be changed on the domain's VTP server`,
    );
  }

  const owner = options.owner ?? "switchdesk";
  try {
    await session.set(
      toVarbinds([intWrite(at(vtp.vtpVlanEditOperation), OP.copy), textWrite(at(vtp.vtpVlanEditBufferOwner), owner)]),
    );
  } catch (error) {
    if (!(error instanceof DeviceRefused)) throw error;
    // a buffer someone else holds is the usual reason: say who
    const holder = await session.get([at(vtp.vtpVlanEditBufferOwner)]).then(
      (v) => asText(v.get(at(vtp.vtpVlanEditBufferOwner))),
      () => "",
    );
    const who = holder && holder !== owner ? ` (the edit buffer is held by '${holder}')` : "";
    throw new DeviceRefused(`${(error as Error).message}${who}; ${what} was not done`);
  }

  let failure: { error: unknown } | null = null;
  try {
    await session.set(toVarbinds(rows));
    await session.set(toVarbinds([intWrite(at(vtp.vtpVlanEditOperation), OP.apply)]));
    const polls = options.applyPolls ?? 20;
    let status = APPLY_IN_PROGRESS;
    for (let poll = 0; poll < polls && status === APPLY_IN_PROGRESS; poll++) {
      if (poll > 0) await sleep(options.applyPollIntervalMs ?? 250);
      status = asInt((await session.get([at(vtp.vtpVlanApplyStatus)])).get(at(vtp.vtpVlanApplyStatus)));
    }
    if (status === APPLY_IN_PROGRESS)
      throw new DeviceMismatch(
        `${where} did not finish applying the VTP edit buffer after ${polls} checks; ${what} may or may not be done`,
      );
    if (status !== APPLY_SUCCEEDED) {
      throw new DeviceRefused(
        `${where} could not apply the VTP edit buffer (vtpVlanApplyStatus ${applyStatusNames[status] ?? status}); ${what} was not done`,
      );
    }
  } catch (error) {
    failure = { error };
  }
  // the buffer is released whatever happened, or nobody can edit VLANs until it times out
  try {
    await session.set(toVarbinds([intWrite(at(vtp.vtpVlanEditOperation), OP.release)]));
  } catch (error) {
    if (!failure)
      throw new DeviceRefused(
        `${what} was applied, but ${where} did not release the VTP edit buffer: ${(error as Error).message}`,
      );
  }
  if (failure) throw failure.error;
}

/** the VLAN's row in vtpVlanTable after the edit, or null when it has none */
async function vlanRow(session: SnmpSession, id: number): Promise<{ name: string } | null> {
  const values = await session.get([at(vtp.vtpVlanState, id), at(vtp.vtpVlanName, id)]);
  if (!values.get(at(vtp.vtpVlanState, id)) && !values.get(at(vtp.vtpVlanName, id))) return null;
  return { name: asText(values.get(at(vtp.vtpVlanName, id))) };
}

async function expectName(session: SnmpSession, id: number, name: string, what: string): Promise<void> {
  const row = await vlanRow(session, id);
  if (!row)
    throw new DeviceMismatch(
      `${session.where} applied the VTP edit buffer but has no VLAN ${id} afterwards; ${what} did not happen`,
    );
  if (row.name !== name)
    throw new DeviceMismatch(
      `${session.where} applied the VTP edit buffer but VLAN ${id} is named '${row.name}', not '${name}'`,
    );
}

export async function createVlan(
  session: SnmpSession,
  id: number,
  name: string,
  options: VtpEditOptions = {},
): Promise<void> {
  const what = `creating VLAN ${id}`;
  const rows: Write[] = [
    intWrite(at(vtp.vtpVlanEditRowStatus, id), 4), // createAndGo, with everything a row needs to become active
    intWrite(at(vtp.vtpVlanEditType, id), 1), // ethernet
    textWrite(at(vtp.vtpVlanEditName, id), name),
    { oid: at(vtp.vtpVlanEditDot10Said, id), type: ObjectType.OctetString, value: said(id) },
    intWrite(at(vtp.vtpVlanEditMtu, id), 1500),
    intWrite(at(vtp.vtpVlanEditState, id), 1), // operational
  ];
  await namedFailure(editVlans(session, what, rows, options));
  await expectName(session, id, name, what);
}

export async function renameVlan(
  session: SnmpSession,
  id: number,
  name: string,
  options: VtpEditOptions = {},
): Promise<void> {
  const what = `renaming VLAN ${id}`;
  await namedFailure(editVlans(session, what, [textWrite(at(vtp.vtpVlanEditName, id), name)], options));
  await expectName(session, id, name, what);
}

export async function deleteVlan(session: SnmpSession, id: number, options: VtpEditOptions = {}): Promise<void> {
  const what = `deleting VLAN ${id}`;
  await namedFailure(editVlans(session, what, [intWrite(at(vtp.vtpVlanEditRowStatus, id), 6)], options));
  if (await vlanRow(session, id))
    throw new DeviceMismatch(`${session.where} applied the VTP edit buffer but still lists VLAN ${id}`);
}
