/**
 * Shared pieces of the lab-vendor-* tests: outcomes of requests, varbinds, bitmaps, and
 * bounded waiting for a job a switch runs in the background (a config copy).
 */
import type { ClientError, ClientSession, ClientVarBind } from "../support/snmp-client";

export interface Failure {
  status?: number;
  message: string;
  name: string;
}

/** the error a request ends with; fails the test when it succeeds */
export async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (e) {
    const err = e as ClientError;
    return { status: err.status, message: err.message, name: err.name };
  }
  throw new Error("expected the request to fail");
}

export const vb = (oid: string, type: number, value: unknown): ClientVarBind => ({ oid, type, value });

/** a walk as instance suffix -> value */
export async function walkMap(s: ClientSession, column: string): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for (const v of await s.walk(column)) out.set(v.oid.slice(column.length + 1), v.value);
  return out;
}

/** PortList bits set, as bridge port numbers (MSB of the first octet is port 1) */
export function members(list: Buffer): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length * 8; i++) if (list[i >> 3] & (0x80 >> (i & 7))) out.push(i + 1);
  return out;
}

export function portList(ports: Iterable<number>, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (const p of ports) out[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
  return out;
}

/** reads `read` every 25 ms until `done` holds, at most `tries` times; returns the last value */
export async function pollUntil<T>(read: () => Promise<T>, done: (v: T) => boolean, tries = 80): Promise<T> {
  let last = await read();
  for (let i = 0; i < tries && !done(last); i++) {
    await new Promise((r) => setTimeout(r, 25));
    last = await read();
  }
  return last;
}
