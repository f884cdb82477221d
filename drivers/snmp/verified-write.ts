/**
 * Every SET is followed by a GET of the same objects; a value that reads back different
 * is a DeviceMismatch naming what was written and what the device reports. In a batch
 * (session.deferReadBack, Driver.verifyWrites "deferred") the GET is left out: the batch
 * reads every touched interface once at its end and compares there.
 */
import { DeviceMismatch } from "../../model/failures";
import { ObjectType, type SetVarbind, type Varbind } from "./net-snmp-api";
import { oidName } from "./oid";
import { portsOf, sameMembers } from "../../mib/portlist";
import type { SnmpSession } from "./session";
import { asBytes, asInt, asText } from "./varbind-values";

export interface Write {
  oid: string;
  type: number;
  value: number | string | Buffer;
  /** what a read must show afterwards when it differs from `value` (RowStatus createAndGo
   *  reads back active; "absent" after destroy) */
  expect?: number | "absent";
  /** PortList bitmaps are shown as port lists in messages */
  portList?: boolean;
}

export function intWrite(oid: string, value: number, expect?: number | "absent"): Write {
  return { oid, type: ObjectType.Integer, value, expect };
}
export function gaugeWrite(oid: string, value: number): Write {
  return { oid, type: ObjectType.Gauge, value };
}
export function textWrite(oid: string, value: string): Write {
  return { oid, type: ObjectType.OctetString, value };
}
export function portListWrite(oid: string, value: Buffer): Write {
  return { oid, type: ObjectType.OctetString, value, portList: true };
}

function show(write: Write, value: number | string | Buffer | null): string {
  if (value === null) return "nothing (no such object)";
  if (Buffer.isBuffer(value)) {
    const ports = portsOf(value);
    return write.portList ? `ports [${ports.join(",")}]` : `'${value.toString("latin1")}'`;
  }
  return typeof value === "string" ? `'${value}'` : String(value);
}

/** null when the device shows what was written, else "what: wrote X, device reports Y". */
export function compare(write: Write, vb: Varbind | null): string | null {
  const name = oidName(write.oid);
  const expected = write.expect ?? write.value;
  if (expected === "absent")
    return vb === null ? null : `${name}: wrote destroy, device still reports ${show(write, readValue(write, vb))}`;
  if (vb === null) return `${name}: wrote ${show(write, expected)}, device reports ${show(write, null)}`;
  const actual = readValue(write, vb);
  let same: boolean;
  if (Buffer.isBuffer(expected)) same = sameMembers(expected, asBytes(vb));
  else if (typeof expected === "string") same = actual === expected;
  else same = actual === expected;
  return same ? null : `${name}: wrote ${show(write, expected)}, device reports ${show(write, actual)}`;
}

function readValue(write: Write, vb: Varbind): number | string | Buffer {
  if (write.portList || Buffer.isBuffer(write.value)) return asBytes(vb);
  if (typeof write.value === "string") return asText(vb);
  return asInt(vb);
}

/** Reads the written objects back; the list of differences (empty when all match). */
export async function readBack(session: SnmpSession, writes: Write[]): Promise<string[]> {
  const values = await session.get(writes.map((w) => w.oid));
  const problems: string[] = [];
  for (const write of writes) {
    const problem = compare(write, values.get(write.oid) ?? null);
    if (problem) problems.push(problem);
  }
  return problems;
}

export function toVarbinds(writes: Write[]): SetVarbind[] {
  return writes.map(({ oid, type, value }) => ({ oid, type, value }));
}

/** One SET PDU with all writes, then the read-back; throws DeviceRefused/Unreachable/Mismatch. */
export async function writeVerified(session: SnmpSession, writes: Write[]): Promise<void> {
  await session.set(toVarbinds(writes));
  if (session.deferReadBack) return;
  const problems = await readBack(session, writes);
  if (problems.length > 0) {
    throw new DeviceMismatch(`${session.where} accepted the change but reads back otherwise: ${problems.join("; ")}`);
  }
}
