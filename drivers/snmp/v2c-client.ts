/**
 * The drivers' SNMPv2c client: GET, GETBULK and SET PDUs over UDP, with the calls,
 * answers and errors of net-snmp's session (drivers/snmp/net-snmp-api.ts), which SNMPv3
 * still uses.
 *
 * Why not net-snmp for v2c too: it decodes each value through a generic ASN.1 reader into
 * a message object, and each OID into an array of arcs joined to text. A view of a
 * 48-port switch is about 500 values in 8 requests, once per API call. Here an answer is
 * decoded in one pass over the datagram (mib/ber.ts), each OID straight to text: the
 * driver's CPU per basic view of a 48-port lab switch is about 8 % lower
 * (docs/performance.md). Like net-snmp, a session has a UDP socket of its own.
 */
import dgram from "node:dgram";
import {
  BerError,
  BerReader,
  decodeInteger,
  decodeOidText,
  encodeInteger,
  encodeOctets,
  encodeOid,
  NULL_TLV,
  tlv,
} from "../../mib/ber";
import { parseOid } from "../../mib/oid-arcs";
import { PduType, VERSION_2C, VarBindListWriter, encodePdu, encodeV2cMessage } from "../../mib/pdu";
import { Tag } from "../../mib/smi-values";
import { netSnmp, type PduSession, type SetVarbind, type Varbind, type VarbindValue } from "./net-snmp-api";

type Callback<T> = (error: Error | null, result: T) => void;

interface Answer {
  errorStatus: number;
  errorIndex: number;
  varbinds: Varbind[];
}

interface Pending {
  message: Buffer;
  triesLeft: number;
  timer: NodeJS.Timeout | null;
  done: (error: Error | null, answer: Answer | null) => void;
}

export interface V2cOptions {
  port: number;
  timeout: number;
  retries: number;
}

/**
 * A v2c session with net-snmp's session interface: a UDP socket of its own, requests told
 * apart by request-id, each sent again on its timeout while it has tries left.
 */
export class V2cSession implements PduSession {
  retries: number;
  private readonly timeout: number;
  private readonly port: number;
  private readonly community: Buffer;
  private readonly socket: dgram.Socket;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    private readonly host: string,
    community: string,
    options: V2cOptions,
  ) {
    this.retries = options.retries;
    this.timeout = options.timeout;
    this.port = options.port;
    this.community = Buffer.from(community, "utf8");
    this.socket = dgram.createSocket(host.includes(":") ? "udp6" : "udp4");
    this.socket.on("message", (msg) => this.receive(msg));
    // a socket-level failure ends what is out; later requests fail at once
    this.socket.on("error", (error) => this.end(error));
    this.socket.unref();
  }

  get(oids: string[], cb: Callback<Varbind[]>): void {
    this.request(PduType.GetRequest, 0, 0, nullVarbinds(oids), (error, answer) => {
      if (error) return cb(error, []);
      if (answer!.varbinds.length !== oids.length)
        return cb(responseInvalid("Requested OIDs do not match response OIDs"), []);
      cb(null, answer!.varbinds);
    });
  }

  /** nonRepeaters other than 0 are not used by the drivers and not supported here */
  getBulk(oids: string[], nonRepeaters: number, maxRepetitions: number, cb: Callback<Varbind[][]>): void {
    if (nonRepeaters !== 0) throw new Error("GETBULK with non-repeaters is not supported");
    this.request(PduType.GetBulkRequest, 0, maxRepetitions, nullVarbinds(oids), (error, answer) => {
      if (error) return cb(error, []);
      const columns: Varbind[][] = oids.map(() => []);
      const vbs = answer!.varbinds;
      for (let i = 0; i < vbs.length; i++) columns[i % oids.length].push(vbs[i]);
      cb(null, columns);
    });
  }

  set(varbinds: SetVarbind[], cb: Callback<Varbind[]>): void {
    const list = new VarBindListWriter();
    for (const vb of varbinds) list.add(encodeOid(parseOid(vb.oid)), encodeSetValue(vb));
    this.request(PduType.SetRequest, 0, 0, list, (error, answer) => {
      if (error) return cb(error, []);
      if (answer!.varbinds.length !== varbinds.length)
        return cb(responseInvalid("Requested OIDs do not match response OIDs"), []);
      cb(null, answer!.varbinds);
    });
  }

  on(): void {
    // errors reach the requests' callbacks; the session emits none
  }

  /** Closes the socket; requests still out are called back with an error, as net-snmp does. */
  close(): void {
    if (this.closed) return;
    setImmediate(() => this.end(new Error("Socket forcibly closed")));
    this.closed = true;
    this.socket.close();
  }

  private end(error: Error): void {
    if (!this.closed) {
      this.closed = true;
      this.socket.close();
    }
    for (const id of [...this.pending.keys()]) this.finish(id, error, null);
  }

  private request(
    type: number,
    field2: number,
    field3: number,
    varbinds: VarBindListWriter,
    cb: (error: Error | null, answer: Answer | null) => void,
  ): void {
    if (this.closed) throw new Error("session closed");
    let id: number;
    do id = 1 + Math.floor(Math.random() * 0x7ffffffe);
    while (this.pending.has(id));
    const done = (error: Error | null, answer: Answer | null) => {
      if (error || answer!.errorStatus === 0) return cb(error, answer);
      cb(requestFailed(answer!), null);
    };
    const message = encodeV2cMessage(this.community, encodePdu(type, id, field2, field3, varbinds.toBuffer()));
    if (this.pending.size === 0) this.socket.ref();
    const p: Pending = { message, triesLeft: this.retries, timer: null, done };
    this.pending.set(id, p);
    this.transmit(id, p);
  }

  private transmit(id: number, p: Pending): void {
    this.socket.send(p.message, this.port, this.host, (error) => {
      if (this.pending.get(id) !== p) return;
      if (error) return this.finish(id, error, null);
      p.timer = setTimeout(() => {
        p.timer = null;
        if (p.triesLeft-- > 0 && !this.closed) this.transmit(id, p);
        else this.finish(id, new netSnmp.RequestTimedOutError("Request timed out"), null);
      }, this.timeout);
    });
  }

  /** Ends a request: its callback runs once. */
  private finish(id: number, error: Error | null, answer: Answer | null): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    if (this.pending.size === 0 && !this.closed) this.socket.unref();
    p.done(error, answer);
  }

  private receive(msg: Buffer): void {
    let decoded: { id: number; answer: Answer | Error };
    try {
      decoded = decodeResponse(msg, this.community);
    } catch {
      // not an SNMP answer we can read: like net-snmp, drop it (the request times out)
      return;
    }
    if (decoded.answer instanceof Error) this.finish(decoded.id, decoded.answer, null);
    else this.finish(decoded.id, null, decoded.answer);
  }
}

// ---- encoding

/** the varbinds of a GET or GETBULK: each OID with a NULL value */
function nullVarbinds(oids: string[]): VarBindListWriter {
  const list = new VarBindListWriter();
  for (const oid of oids) list.add(encodeOid(parseOid(oid)), NULL_TLV);
  return list;
}

/** a SET value as net-snmp takes it: numbers for the integer types, text or bytes for strings, dotted text for OIDs and addresses */
function encodeSetValue(vb: SetVarbind): Buffer {
  const v = vb.value;
  switch (vb.type) {
    case Tag.Integer:
    case Tag.Counter32:
    case Tag.Gauge32:
    case Tag.TimeTicks:
      if (typeof v !== "number") throw new Error(`value of ${vb.oid} is not a number`);
      return encodeInteger(v, vb.type);
    case Tag.OctetString:
    case Tag.Opaque:
      return encodeOctets(typeof v === "number" ? String(v) : v, vb.type);
    case Tag.ObjectIdentifier:
      return encodeOid(parseOid(String(v)));
    case Tag.IpAddress: {
      const bytes = typeof v === "string" ? v.split(".").map(Number) : [];
      if (bytes.length !== 4 || bytes.some((b) => !Number.isInteger(b) || b < 0 || b > 255))
        throw new Error(`value of ${vb.oid} is not an IPv4 address`);
      return tlv(Tag.IpAddress, Buffer.from(bytes));
    }
    default:
      throw new Error(`SET of type ${vb.type} is not supported (${vb.oid})`);
  }
}

// ---- decoding

/**
 * A v2c Response: its request-id and the answer, or the error net-snmp would give for a
 * message that does not match the request. Throws BerError on a datagram that is not one.
 */
function decodeResponse(msg: Buffer, community: Buffer): { id: number; answer: Answer | Error } {
  const outer = new BerReader(msg).enter(Tag.Sequence);
  const version = outer.readInteger();
  const got = outer.readOctets();
  const h = outer.readHeader();
  const pdu = new BerReader(msg, h.start, h.end);
  const id = pdu.readInteger();
  if (version !== VERSION_2C)
    return {
      id,
      answer: responseInvalid(`Version in request '${VERSION_2C}' does not match version in response '${version}'`),
    };
  if (!got.equals(community))
    return {
      id,
      answer: responseInvalid(
        `Community '${community.toString()}' in request does not match community '${got.toString()}' in response`,
      ),
    };
  if (h.tag !== PduType.Response) return { id, answer: responseInvalid(`Unknown PDU type '${h.tag}' in response`) };
  const errorStatus = pdu.readInteger();
  const errorIndex = pdu.readInteger();
  return { id, answer: { errorStatus, errorIndex, varbinds: decodeVarbinds(pdu) } };
}

/** The VarBindList at the reader's position, each value as net-snmp gives it (net-snmp-api.ts VarbindValue). */
function decodeVarbinds(pdu: BerReader): Varbind[] {
  const list = pdu.enter(Tag.Sequence);
  const buf = list.buf;
  const out: Varbind[] = [];
  // each VarBind read in place, its two TLVs held within it (no reader or header objects per value)
  while (!list.atEnd()) {
    list.stepInto(Tag.Sequence);
    const vbEnd = list.valueEnd;
    if (list.step(vbEnd) !== Tag.ObjectIdentifier) throw new BerError("expected OBJECT IDENTIFIER");
    const oid = decodeOidText(buf, list.valueStart, list.valueEnd);
    list.pos = list.valueEnd;
    const tag = list.step(vbEnd);
    out.push({ oid, type: tag, value: decodeValue(buf, tag, list.valueStart, list.valueEnd) });
    list.pos = vbEnd;
  }
  return out;
}

function decodeValue(buf: Buffer, tag: number, start: number, end: number): VarbindValue {
  switch (tag) {
    case Tag.Integer:
      return decodeInteger(buf, start, end, true);
    case Tag.Counter32:
    case Tag.Gauge32:
    case Tag.TimeTicks:
      return decodeInteger(buf, start, end, false);
    case Tag.OctetString:
    case Tag.Opaque:
    case Tag.Counter64:
      return buf.subarray(start, end);
    case Tag.ObjectIdentifier:
      return decodeOidText(buf, start, end);
    case Tag.IpAddress:
      return Array.from(buf.subarray(start, end)).join(".");
    case 0x01:
      return end > start && buf[start] !== 0;
    default:
      // Null and the exceptions (noSuchObject, noSuchInstance, endOfMibView)
      return null;
  }
}

function responseInvalid(message: string): Error {
  const e = new Error(message);
  e.name = "ResponseInvalidError";
  return e;
}

/** net-snmp's RequestFailedError: the status's name, and the OID the error-index points at */
function requestFailed(answer: Answer): Error {
  const known = typeof netSnmp.ErrorStatus[answer.errorStatus] === "string";
  const status = known ? answer.errorStatus : netSnmp.ErrorStatus.GeneralError;
  const name = netSnmp.ErrorStatus[status];
  const at = answer.errorIndex > 0 && answer.errorIndex <= answer.varbinds.length;
  const message = at ? `${name}: ${answer.varbinds[answer.errorIndex - 1].oid}` : name;
  return new netSnmp.RequestFailedError(message, status);
}
