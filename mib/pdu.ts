/**
 * SNMP PDUs (RFC 3416) and the v2c message around them: the lab's agent decodes requests
 * and encodes responses and reports with them, the drivers' v2c client
 * (drivers/snmp/v2c-client.ts) encodes its requests.
 */
import { BerReader, encodeInteger, encodeOctets, header, lengthOfLength, tlv } from "./ber";
import { Tag, type SnmpValue } from "./smi-values";

export const PduType = {
  GetRequest: 0xa0,
  GetNextRequest: 0xa1,
  Response: 0xa2,
  SetRequest: 0xa3,
  TrapV1: 0xa4,
  GetBulkRequest: 0xa5,
  InformRequest: 0xa6,
  TrapV2: 0xa7,
  Report: 0xa8,
} as const;

export interface RequestVarBind {
  oid: number[];
  /** null when the type is not one SNMP defines */
  value: SnmpValue | null;
  /** the value TLV as received, echoed in SET answers */
  raw: Buffer;
}

export interface RequestPdu {
  type: number;
  requestId: number;
  /** error-status, or non-repeaters in a GetBulk */
  field2: number;
  /** error-index, or max-repetitions in a GetBulk */
  field3: number;
  varbinds: RequestVarBind[];
}

export function decodePdu(r: BerReader): RequestPdu {
  const h = r.readHeader();
  r.pos = h.end;
  const p = new BerReader(r.buf, h.start, h.end);
  const requestId = p.readInteger();
  const field2 = p.readInteger();
  const field3 = p.readInteger();
  const list = p.enter(Tag.Sequence);
  const varbinds: RequestVarBind[] = [];
  while (!list.atEnd()) {
    const vb = list.enter(Tag.Sequence);
    const oid = vb.readOid();
    const start = vb.pos;
    const value = vb.readValue();
    varbinds.push({ oid, value, raw: vb.buf.subarray(start, vb.pos) });
  }
  return { type: h.tag, requestId, field2, field3, varbinds };
}

/** Accumulates encoded varbinds and their size, so a GetBulk can stop at a byte budget. */
export class VarBindListWriter {
  private readonly parts: Buffer[] = [];
  bytes = 0;
  count = 0;

  /** encoded size of a varbind with these TLVs */
  static sizeOf(oidTlv: Buffer, valueTlv: Buffer): number {
    const inner = oidTlv.length + valueTlv.length;
    return 1 + lengthOfLength(inner) + inner;
  }

  add(oidTlv: Buffer, valueTlv: Buffer): void {
    const inner = oidTlv.length + valueTlv.length;
    this.parts.push(header(Tag.Sequence, inner), oidTlv, valueTlv);
    this.bytes += 1 + lengthOfLength(inner) + inner;
    this.count++;
  }

  /** the SEQUENCE OF VarBind TLV */
  toBuffer(): Buffer {
    return Buffer.concat(
      [header(Tag.Sequence, this.bytes), ...this.parts],
      1 + lengthOfLength(this.bytes) + this.bytes,
    );
  }
}

export function encodePdu(
  type: number,
  requestId: number,
  errorStatus: number,
  errorIndex: number,
  varbindList: Buffer,
): Buffer {
  const id = encodeInteger(requestId);
  const es = encodeInteger(errorStatus);
  const ei = encodeInteger(errorIndex);
  const len = id.length + es.length + ei.length + varbindList.length;
  return Buffer.concat([header(type, len), id, es, ei, varbindList]);
}

/** the version field of an SNMPv2c message */
export const VERSION_2C = 1;

/** An SNMPv2c message: version, community and an encoded PDU. */
export function encodeV2cMessage(community: Buffer, pdu: Buffer): Buffer {
  return tlv(Tag.Sequence, encodeInteger(VERSION_2C), encodeOctets(community), pdu);
}
