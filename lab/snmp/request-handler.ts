/**
 * The agent's processing of one PDU against a MibProvider: GET, GETNEXT, GETBULK and
 * SET, producing the response PDU. No I/O and no security here, so the bench can time
 * it directly.
 */
import { encodeOid, encodeValue } from "../../mib/ber";
import { ErrorStatus } from "./error-status";
import type { MibIndex } from "./mib-index";
import { PduType, VarBindListWriter, encodePdu, type RequestPdu } from "../../mib/pdu";
import type { MibProvider, SetVarBind } from "./provider";
import { endOfMibView, noSuchInstance, noSuchObject } from "../../mib/smi-values";

export interface HandlerLimits {
  /** room for the varbind list in the answer, bytes */
  maxVarBindBytes: number;
  /** cap of values in one GetBulk answer */
  maxBulkValues: number;
}

export interface SetBehaviour {
  /** called once per SET with write access: an error-status and error-index to answer with, applying nothing, or null */
  refusal(varbinds: readonly SetVarBind[]): { status: number; index: number } | null;
  /** answer noError without applying (decided per SET: a fault may cover some objects only) */
  lie(varbinds: readonly SetVarBind[]): boolean;
}

const NO_FAULTS: SetBehaviour = { refusal: () => null, lie: () => false };

export interface HandledPdu {
  /** the encoded Response PDU */
  pdu: Buffer;
  /** values in it */
  values: number;
}

const END_TLV = encodeValue(endOfMibView);
const NO_OBJECT_TLV = encodeValue(noSuchObject);
const NO_INSTANCE_TLV = encodeValue(noSuchInstance);

function get(index: MibIndex, pdu: RequestPdu, out: VarBindListWriter): void {
  for (const vb of pdu.varbinds) {
    const pos = index.find(vb.oid);
    const oidTlv = pos >= 0 ? index.entries[pos].oidTlv : encodeOid(vb.oid);
    const valueTlv =
      pos >= 0
        ? encodeValue(index.entries[pos].read())
        : index.isInstanceOfKnownObject(vb.oid)
          ? NO_INSTANCE_TLV
          : NO_OBJECT_TLV;
    out.add(oidTlv, valueTlv);
  }
}

function getNext(index: MibIndex, pdu: RequestPdu, out: VarBindListWriter): void {
  for (const vb of pdu.varbinds) {
    const pos = index.nextAfter(vb.oid);
    if (pos < index.size) out.add(index.entries[pos].oidTlv, encodeValue(index.entries[pos].read()));
    else out.add(encodeOid(vb.oid), END_TLV);
  }
}

/**
 * RFC 3416 4.2.3: the first N varbinds (non-repeaters) get one GETNEXT each, the other R
 * get up to M GETNEXTs each, interleaved by repetition. A column past the end keeps
 * answering endOfMibView; the answer stops early once every column is past the end, or
 * at the byte budget / value cap (a short answer the manager continues from).
 */
function getBulk(index: MibIndex, pdu: RequestPdu, out: VarBindListWriter, limits: HandlerLimits): void {
  const vbs = pdu.varbinds;
  const n = Math.min(Math.max(pdu.field2, 0), vbs.length);
  const m = Math.max(pdu.field3, 0);
  const fits = (oidTlv: Buffer, valueTlv: Buffer) =>
    out.count < limits.maxBulkValues &&
    out.bytes + VarBindListWriter.sizeOf(oidTlv, valueTlv) <= limits.maxVarBindBytes;

  for (let i = 0; i < n; i++) {
    const pos = index.nextAfter(vbs[i].oid);
    const [oidTlv, valueTlv] =
      pos < index.size
        ? [index.entries[pos].oidTlv, encodeValue(index.entries[pos].read())]
        : [encodeOid(vbs[i].oid), END_TLV];
    if (!fits(oidTlv, valueTlv)) return;
    out.add(oidTlv, valueTlv);
  }
  const r = vbs.length - n;
  if (r === 0) return;
  // next position of each repeated column; after the first step a column advances one
  // slot per repetition, no search
  const next = new Array<number>(r);
  const endOid = new Array<Buffer | null>(r).fill(null);
  for (let j = 0; j < r; j++) next[j] = index.nextAfter(vbs[n + j].oid);
  for (let rep = 0; rep < m; rep++) {
    let live = 0;
    for (let j = 0; j < r; j++) {
      const pos = next[j];
      let oidTlv: Buffer;
      let valueTlv: Buffer;
      if (pos < index.size) {
        oidTlv = index.entries[pos].oidTlv;
        valueTlv = encodeValue(index.entries[pos].read());
        next[j] = pos + 1;
        live++;
      } else {
        oidTlv =
          endOid[j] ?? (endOid[j] = rep === 0 ? encodeOid(vbs[n + j].oid) : index.entries[index.size - 1].oidTlv);
        valueTlv = END_TLV;
      }
      if (!fits(oidTlv, valueTlv)) return;
      out.add(oidTlv, valueTlv);
    }
    if (live === 0) return;
  }
}

function echo(pdu: RequestPdu): Buffer {
  const out = new VarBindListWriter();
  for (const vb of pdu.varbinds) out.add(encodeOid(vb.oid), vb.raw);
  return out.toBuffer();
}

/**
 * Processes one request PDU; `write` false means the request came with read-only
 * rights, `context` is the SNMP context the request named ("" the default one).
 */
export function handlePdu(
  provider: MibProvider,
  pdu: RequestPdu,
  write: boolean,
  limits: HandlerLimits,
  setBehaviour: SetBehaviour = NO_FAULTS,
  context = "",
): HandledPdu {
  if (pdu.type === PduType.SetRequest) {
    const answer = (status: number, index: number): HandledPdu => ({
      pdu: encodePdu(PduType.Response, pdu.requestId, status, index, echo(pdu)),
      values: pdu.varbinds.length,
    });
    // a read-only community may not write anything: noAccess, as snmpd answers
    if (!write) return answer(ErrorStatus.noAccess, 1);
    // the extra contexts (Cisco's per-VLAN bridge instances) hold nothing writable
    if (context !== "") return answer(ErrorStatus.notWritable, 1);
    const refused = setBehaviour.refusal(pdu.varbinds);
    if (refused) return answer(refused.status, refused.index);
    const prepared = provider.prepareSet(pdu.varbinds);
    if (prepared.errorStatus === ErrorStatus.noError && !setBehaviour.lie(pdu.varbinds)) prepared.commit();
    return answer(prepared.errorStatus, prepared.errorIndex);
  }

  const index = provider.index(context);
  const out = new VarBindListWriter();
  if (pdu.type === PduType.GetRequest) get(index, pdu, out);
  else if (pdu.type === PduType.GetNextRequest) getNext(index, pdu, out);
  else getBulk(index, pdu, out, limits);

  if (pdu.type !== PduType.GetBulkRequest && out.bytes > limits.maxVarBindBytes) {
    return { pdu: tooBigResponse(pdu.requestId), values: 0 };
  }
  return { pdu: encodePdu(PduType.Response, pdu.requestId, 0, 0, out.toBuffer()), values: out.count };
}

/** A Response with error-status tooBig and an empty varbind list (RFC 3416 4.2.1, 4.2.2, 4.2.3). */
export function tooBigResponse(requestId: number): Buffer {
  return encodePdu(PduType.Response, requestId, ErrorStatus.tooBig, 0, new VarBindListWriter().toBuffer());
}
