/**
 * Serves a recorded walk of a real device (.snmprec: one `OID|type|value` line per
 * object, snmpsim's type numbers, a trailing "x" meaning the value is hex) read-only
 * through the lab agent, so drivers can be tried against what real switches answered;
 * and writes such a recording of what a lab agent serves, so agents no one here wrote
 * (snmpsimd) can serve a lab switch.
 */
import fs from "node:fs";
import { MibIndexBuilder } from "./snmp/mib-index";
import { SnmpAgent } from "./snmp/agent";
import { ErrorStatus } from "./snmp/error-status";
import type { OversizeMode } from "./snmp/faults";
import { compareOids, formatOid, parseOid } from "./snmp/oid";
import type { MibProvider } from "./snmp/provider";
import { Tag, type SnmpValue } from "../mib/smi-values";

export interface RecordingAgent {
  port: number;
  host: "127.0.0.1";
  /** values served */
  size: number;
  agent: SnmpAgent;
  stop(): Promise<void>;
}

function parseValue(type: string, text: string): SnmpValue | null {
  const hex = type.endsWith("x");
  const t = hex ? type.slice(0, -1) : type;
  const bytes = () => (hex ? Buffer.from(text, "hex") : Buffer.from(text, "utf8"));
  const num = () => {
    const n = Number(hex ? parseInt(text, 16) : text);
    return Number.isFinite(n) && Number.isInteger(n) ? n : null;
  };
  switch (t) {
    case "2": {
      const n = num();
      return n === null || n < -2147483648 || n > 2147483647 ? null : { tag: Tag.Integer, value: n };
    }
    case "4":
      return { tag: Tag.OctetString, value: bytes() };
    case "5":
      return { tag: Tag.Null };
    case "6":
      try {
        return { tag: Tag.ObjectIdentifier, value: parseOid(text) };
      } catch {
        return null;
      }
    case "64": {
      const b = hex ? Buffer.from(text, "hex") : Buffer.from(text.split(".").map(Number));
      return b.length === 4 ? { tag: Tag.IpAddress, value: b } : null;
    }
    case "65":
    case "66":
    case "67": {
      const n = num();
      const tag = t === "65" ? Tag.Counter32 : t === "66" ? Tag.Gauge32 : Tag.TimeTicks;
      return n === null || n < 0 || n > 4294967295 ? null : { tag, value: n };
    }
    case "70":
      try {
        return { tag: Tag.Counter64, value: BigInt(hex ? `0x${text}` : text) };
      } catch {
        return null;
      }
    default:
      return null;
  }
}

/** Reads a .snmprec file into a read-only provider; lines it cannot read are skipped. */
export function recordingProvider(file: string): { provider: MibProvider; size: number } {
  const rows: Array<{ oid: number[]; value: SnmpValue }> = [];
  for (const line of fs.readFileSync(file, "utf8").split(/\r?\n/)) {
    const first = line.indexOf("|");
    const second = line.indexOf("|", first + 1);
    if (first <= 0 || second < 0) continue;
    let oid: number[];
    try {
      oid = parseOid(line.slice(0, first));
    } catch {
      continue;
    }
    const value = parseValue(line.slice(first + 1, second), line.slice(second + 1));
    if (value) rows.push({ oid, value });
  }
  rows.sort((a, b) => compareOids(a.oid, b.oid));
  const b = new MibIndexBuilder();
  let last: number[] | null = null;
  for (const row of rows) {
    if (last && compareOids(last, row.oid) === 0) continue;
    last = row.oid;
    // the object of an instance is not recorded; treat the OID minus its last arc as one
    b.object(row.oid.slice(0, -1).join("."));
    const value = row.value;
    b.add(row.oid, () => value);
  }
  const index = b.build();
  const provider: MibProvider = {
    index: () => index,
    prepareSet: () => ({
      errorStatus: ErrorStatus.notWritable,
      errorIndex: 1,
      commit: () => undefined,
    }),
  };
  return { provider, size: index.size };
}

export interface RecordingAgentOptions {
  community?: string;
  port?: number;
  /** cap of values in one GetBulk answer */
  maxBulkValues?: number;
  /** largest answer to a read in bytes; see LabSwitchOptions.maxResponseBytes */
  maxResponseBytes?: number;
  oversize?: OversizeMode;
}

export async function startRecordingAgent(file: string, opts: RecordingAgentOptions = {}): Promise<RecordingAgent> {
  const { provider, size } = recordingProvider(file);
  const agent = new SnmpAgent(provider, {
    readCommunity: opts.community ?? "public",
    writeCommunity: null,
    maxBulkValues: opts.maxBulkValues,
    maxResponseBytes: opts.maxResponseBytes,
    oversize: opts.oversize,
  });
  const port = await agent.start(opts.port ?? 0);
  return { port, host: "127.0.0.1", size, agent, stop: () => agent.stop() };
}

/** snmpsim writes octet strings of letters and digits as text, anything else in hex */
const PLAIN = /^[A-Za-z0-9]*$/;

/** One value as snmprec's `type|value`; null for the exceptions, which are not recorded. */
function recordedValue(value: SnmpValue): string | null {
  switch (value.tag) {
    case Tag.Integer:
      return `2|${value.value}`;
    case Tag.OctetString: {
      const text = value.value.toString("latin1");
      return PLAIN.test(text) ? `4|${text}` : `4x|${value.value.toString("hex")}`;
    }
    case Tag.Null:
      return "5|";
    case Tag.ObjectIdentifier:
      return `6|${formatOid(value.value)}`;
    case Tag.IpAddress:
      return `64x|${value.value.toString("hex")}`;
    case Tag.Counter32:
      return `65|${value.value}`;
    case Tag.Gauge32:
      return `66|${value.value}`;
    case Tag.TimeTicks:
      return `67|${value.value}`;
    case Tag.Opaque:
      return `68x|${value.value.toString("hex")}`;
    case Tag.Counter64:
      return `70|${value.value.toString()}`;
    default:
      return null;
  }
}

/**
 * Writes every value a provider serves now, in OID order, as a .snmprec file (what
 * snmpsimd and startRecordingAgent read); returns the number of values written.
 */
export function writeRecording(provider: MibProvider, file: string): number {
  const lines: string[] = [];
  for (const entry of provider.index().entries) {
    const recorded = recordedValue(entry.read());
    if (recorded !== null) lines.push(`${formatOid(entry.oid)}|${recorded}`);
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return lines.length;
}
