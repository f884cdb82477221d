/**
 * The subset of BER (X.690) that SNMP messages use: definite lengths, INTEGER,
 * OCTET STRING, NULL, OBJECT IDENTIFIER, SEQUENCE and the SMI application types.
 * Encoders return small Buffers that callers concatenate once; OIDs that are served
 * again and again are encoded once by the index (lab/snmp/mib-index.ts). Shared by the
 * lab's agent and the drivers' SNMPv2c client (drivers/snmp/v2c-client.ts).
 */
import { Tag, type SnmpValue } from "./smi-values";

export class BerError extends Error {}

export function lengthOfLength(len: number): number {
  return len < 0x80 ? 1 : len < 0x100 ? 2 : len < 0x10000 ? 3 : len < 0x1000000 ? 4 : 5;
}

export function header(tag: number, len: number): Buffer {
  const out = Buffer.allocUnsafe(1 + lengthOfLength(len));
  out[0] = tag;
  writeLength(out, 1, len);
  return out;
}

/** the length's encoding written at buf[at] (lengthOfLength(len) bytes); returns where it ends */
function writeLength(buf: Buffer, at: number, len: number): number {
  if (len < 0x80) {
    buf[at] = len;
    return at + 1;
  }
  const n = lengthOfLength(len) - 1;
  buf[at] = 0x80 | n;
  for (let i = n; i >= 1; i--) {
    buf[at + i] = len & 0xff;
    len = Math.floor(len / 256);
  }
  return at + n + 1;
}

/** One TLV around already encoded content parts. */
export function tlv(tag: number, ...parts: Buffer[]): Buffer {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = Buffer.allocUnsafe(1 + lengthOfLength(len) + len);
  out[0] = tag;
  let at = writeLength(out, 1, len);
  for (const p of parts) at += p.copy(out, at);
  return out;
}

/** The content length of an INTEGER: two's complement, shortest form; `signed` false treats n as unsigned (Counter32, Gauge32...). */
function integerLength(n: number, signed: boolean): number {
  if (!Number.isInteger(n)) throw new BerError(`not an integer: ${n}`);
  let len = 1;
  if (signed) {
    while (len < 6 && !(n >= -(2 ** (8 * len - 1)) && n < 2 ** (8 * len - 1))) len++;
  } else {
    if (n < 0) throw new BerError(`negative unsigned value: ${n}`);
    while (len < 6 && n >= 2 ** (8 * len - 1)) len++;
  }
  return len;
}

function bigIntContent(v: bigint): Buffer {
  if (v < 0n) throw new BerError("negative Counter64");
  const bytes: number[] = [];
  let x = v;
  do {
    bytes.unshift(Number(x & 0xffn));
    x >>= 8n;
  } while (x > 0n);
  if (bytes[0] & 0x80) bytes.unshift(0);
  return Buffer.from(bytes);
}

export function encodeInteger(n: number, tag: number = Tag.Integer): Buffer {
  const len = integerLength(n, tag === Tag.Integer);
  const out = Buffer.allocUnsafe(2 + len);
  out[0] = tag;
  out[1] = len;
  let v = n < 0 ? 2 ** (8 * len) + n : n;
  for (let i = len + 1; i >= 2; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

export function encodeOctets(value: Buffer | string, tag: number = Tag.OctetString): Buffer {
  const b = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return tlv(tag, b);
}

export function oidContent(oid: readonly number[]): Buffer {
  if (oid.length === 0) return Buffer.alloc(0);
  const bytes: number[] = [];
  const pushSub = (n: number) => {
    if (n < 0x80) {
      bytes.push(n);
      return;
    }
    const tmp: number[] = [];
    let v = n;
    tmp.push(v & 0x7f);
    v = Math.floor(v / 128);
    while (v > 0) {
      tmp.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    for (let i = tmp.length - 1; i >= 0; i--) bytes.push(tmp[i]);
  };
  pushSub(oid[0] * 40 + (oid.length > 1 ? oid[1] : 0));
  for (let i = 2; i < oid.length; i++) pushSub(oid[i]);
  return Buffer.from(bytes);
}

export function encodeOid(oid: readonly number[]): Buffer {
  return tlv(Tag.ObjectIdentifier, oidContent(oid));
}

/** a NULL value (the value of every varbind of a GET or GETBULK) */
export const NULL_TLV = Buffer.from([Tag.Null, 0]);
const EXCEPTION_TLVS: Record<number, Buffer> = {
  [Tag.NoSuchObject]: Buffer.from([Tag.NoSuchObject, 0]),
  [Tag.NoSuchInstance]: Buffer.from([Tag.NoSuchInstance, 0]),
  [Tag.EndOfMibView]: Buffer.from([Tag.EndOfMibView, 0]),
};

export function encodeValue(v: SnmpValue): Buffer {
  switch (v.tag) {
    case Tag.Integer:
    case Tag.Counter32:
    case Tag.Gauge32:
    case Tag.TimeTicks:
      return encodeInteger(v.value, v.tag);
    case Tag.OctetString:
    case Tag.IpAddress:
    case Tag.Opaque:
      return tlv(v.tag, v.value);
    case Tag.ObjectIdentifier:
      return encodeOid(v.value);
    case Tag.Counter64:
      return tlv(Tag.Counter64, bigIntContent(v.value));
    case Tag.Null:
      return NULL_TLV;
    default:
      return EXCEPTION_TLVS[v.tag];
  }
}

/** Reads TLVs from buf[pos, end); sub-readers share the buffer (no copies). */
export class BerReader {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  atEnd(): boolean {
    return this.pos >= this.end;
  }

  peekTag(): number {
    if (this.pos >= this.end) throw new BerError("unexpected end of data");
    return this.buf[this.pos];
  }

  /** the tag of the last header step() read, and its content's bounds */
  tag = 0;
  valueStart = 0;
  valueEnd = 0;

  /**
   * Reads tag and length into tag, valueStart and valueEnd (no object per header: a walk's
   * answer has three headers per value); leaves pos at the content and returns the tag.
   * The header and its content must lie before `limit` (the reader's end, or that of an
   * enclosing TLV the caller walks in place).
   */
  step(limit: number = this.end): number {
    const buf = this.buf;
    if (this.pos + 2 > limit) throw new BerError("truncated header");
    const tag = buf[this.pos++];
    let len = buf[this.pos++];
    if (len & 0x80) {
      const n = len & 0x7f;
      if (n === 0 || n > 4) throw new BerError("unsupported length form");
      if (this.pos + n > limit) throw new BerError("truncated length");
      len = 0;
      for (let i = 0; i < n; i++) len = len * 256 + buf[this.pos++];
    }
    const start = this.pos;
    const end = start + len;
    if (end > limit) throw new BerError("length beyond end of data");
    this.tag = tag;
    this.valueStart = start;
    this.valueEnd = end;
    return tag;
  }

  /** step() into a TLV that must have `expectedTag` (a constructed one, read in place). */
  stepInto(expectedTag: number, limit: number = this.end): void {
    const tag = this.step(limit);
    if (tag !== expectedTag)
      throw new BerError(`expected tag 0x${expectedTag.toString(16)}, got 0x${tag.toString(16)}`);
  }

  /** Reads tag and length; leaves pos at the content and returns where it ends. */
  readHeader(): { tag: number; start: number; end: number } {
    const tag = this.step();
    return { tag, start: this.valueStart, end: this.valueEnd };
  }

  /** Enters a constructed TLV with the expected tag: returns a reader over its content. */
  enter(expectedTag: number): BerReader {
    this.stepInto(expectedTag);
    this.pos = this.valueEnd;
    return new BerReader(this.buf, this.valueStart, this.valueEnd);
  }

  /** The raw bytes of the next TLV, header included, without decoding it. */
  readRaw(): Buffer {
    const begin = this.pos;
    this.step();
    this.pos = this.valueEnd;
    return this.buf.subarray(begin, this.valueEnd);
  }

  readInteger(expectedTag: number = Tag.Integer): number {
    if (this.step() !== expectedTag) throw new BerError(`expected integer tag 0x${expectedTag.toString(16)}`);
    this.pos = this.valueEnd;
    return decodeInteger(this.buf, this.valueStart, this.valueEnd, expectedTag === Tag.Integer);
  }

  readOctets(expectedTag: number = Tag.OctetString): Buffer {
    if (this.step() !== expectedTag) throw new BerError(`expected octets tag 0x${expectedTag.toString(16)}`);
    this.pos = this.valueEnd;
    return this.buf.subarray(this.valueStart, this.valueEnd);
  }

  readOid(): number[] {
    if (this.step() !== Tag.ObjectIdentifier) throw new BerError("expected OBJECT IDENTIFIER");
    this.pos = this.valueEnd;
    return decodeOid(this.buf, this.valueStart, this.valueEnd);
  }

  /** A value of a varbind; null when its type is not one SNMP defines. */
  readValue(): SnmpValue | null {
    const tag = this.step();
    const { buf, valueStart: start, valueEnd: end } = this;
    this.pos = end;
    switch (tag) {
      case Tag.Integer:
        return { tag: Tag.Integer, value: decodeInteger(buf, start, end, true) };
      case Tag.Counter32:
      case Tag.Gauge32:
      case Tag.TimeTicks:
        return { tag, value: decodeInteger(buf, start, end, false) };
      case Tag.OctetString:
      case Tag.IpAddress:
      case Tag.Opaque:
        return { tag, value: Buffer.from(buf.subarray(start, end)) };
      case Tag.ObjectIdentifier:
        return { tag: Tag.ObjectIdentifier, value: decodeOid(buf, start, end) };
      case Tag.Counter64: {
        let v = 0n;
        for (let i = start; i < end; i++) v = (v << 8n) | BigInt(buf[i]);
        return { tag: Tag.Counter64, value: v };
      }
      case Tag.Null:
      case Tag.NoSuchObject:
      case Tag.NoSuchInstance:
      case Tag.EndOfMibView:
        return { tag };
      default:
        return null;
    }
  }
}

/** INTEGER content in buf[start, end): two's complement when `signed`, else unsigned (Counter32, Gauge32...). */
export function decodeInteger(buf: Buffer, start: number, end: number, signed: boolean): number {
  const len = end - start;
  if (len === 0) throw new BerError("empty integer");
  if (len > 6) throw new BerError("integer too long");
  let v = 0;
  for (let i = start; i < end; i++) v = v * 256 + buf[i];
  if (signed && buf[start] & 0x80) v -= 2 ** (8 * len);
  return v;
}

function decodeOid(buf: Buffer, start: number, end: number): number[] {
  if (start === end) return [];
  const out: number[] = [];
  let v = 0;
  let first = true;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    v = v * 128 + (b & 0x7f);
    if (v > 0xffffffff + 80) throw new BerError("OID sub-identifier too large");
    if ((b & 0x80) === 0) {
      if (first) {
        const a = v < 40 ? 0 : v < 80 ? 1 : 2;
        out.push(a, v - 40 * a);
        first = false;
      } else {
        out.push(v);
      }
      v = 0;
    }
  }
  if (buf[end - 1] & 0x80) throw new BerError("truncated OID");
  return out;
}

/** where decodeOidText writes an OID's digits before they become one flat string */
const OID_TEXT = Buffer.allocUnsafe(2048);

/**
 * The OBJECT IDENTIFIER content in buf[start, end) as dotted text ("1.3.6.1.2.1.1.5.0"):
 * the digits written into a scratch buffer and read out as one flat string (no array of
 * arcs, no string pieces joined; a walk's every value goes through here and the text is
 * then compared and cut).
 */
export function decodeOidText(buf: Buffer, start: number, end: number): string {
  if (start === end) return "";
  if (buf[end - 1] & 0x80) throw new BerError("truncated OID");
  // a content byte adds at most four characters (".127"), the first one five ("2.47")
  const most = 4 * (end - start) + 1;
  const out = most <= OID_TEXT.length ? OID_TEXT : Buffer.allocUnsafe(most);
  let n = 0;
  let first = true;
  let v = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    v = v * 128 + (b & 0x7f);
    if (b & 0x80) {
      if (v > 0xffffffff + 80) throw new BerError("OID sub-identifier too large");
      continue;
    }
    if (first) {
      // the first byte holds two arcs: 40 x the first (0, 1 or 2) + the second
      const a = v < 40 ? 0 : v < 80 ? 1 : 2;
      out[n++] = 48 + a;
      v -= 40 * a;
      first = false;
    }
    out[n++] = 46; // "."
    if (v < 10) out[n++] = 48 + v;
    else if (v < 100) {
      out[n++] = 48 + ((v / 10) | 0);
      out[n++] = 48 + (v % 10);
    } else n += out.write(String(v), n, "latin1");
    v = 0;
  }
  return out.toString("latin1", 0, n);
}
