/**
 * The lab's SNMP agent: UDP on 127.0.0.1, SNMPv2c with a read and a write community,
 * SNMPv3 USM authPriv, fault injection and counters, serving any MibProvider.
 *
 * Community handling follows net-snmp's snmpd: an unknown community gets no answer
 * (the request is counted and dropped, as snmpInBadCommunityNames), a SET with the
 * read community is answered with noAccess. SNMPv1 is not served (dropped). A provider
 * with extra contexts (Cisco IOS) also takes "community@suffix" and SNMPv3 context
 * names; an SNMPv3 context it does not serve gets the snmpUnknownContexts report.
 *
 * A response limit (maxResponseBytes) reproduces agents that do not cut a GetBulk
 * answer to fit their message size: an answer to a read that is larger becomes tooBig
 * with an empty varbind list (RFC 3416 4.2.1) or is not sent at all (as snmpsimd does
 * when an answer exceeds one datagram). It applies in every context alike.
 */
import dgram from "node:dgram";
import { BerError, BerReader } from "../../mib/ber";
import { AgentCounters, AgentFaults, type OversizeMode } from "./faults";
import { formatOid } from "./oid";
import { PduType, VERSION_2C, decodePdu, encodeV2cMessage, type RequestPdu } from "../../mib/pdu";
import type { MibProvider } from "./provider";
import { handlePdu, tooBigResponse, type HandlerLimits, type SetBehaviour } from "./request-handler";
import { UsmEngine, type UsmUserConfig } from "./usm";
import { Tag } from "../../mib/smi-values";

export interface AgentOptions {
  readCommunity: string;
  /** null: no write community */
  writeCommunity: string | null;
  v3Users?: readonly UsmUserConfig[];
  latencyMs?: number;
  /** cap of values in one GetBulk answer */
  maxBulkValues?: number;
  /** largest answer in bytes (UDP over IPv4 carries at most 65507) */
  maxMessageSize?: number;
  /**
   * largest answer to a read sent as it is (the whole message, bytes); a GetBulk is not
   * cut to fit it. Larger answers are handled as `oversize` says. Default: no limit.
   */
  maxResponseBytes?: number;
  /** "tooBig" (default): error-status tooBig, no varbinds; "silent": no answer */
  oversize?: OversizeMode;
  /** called by faults.restart() after the engine rebooted (the device reloads its config) */
  onRestart?: () => void;
}

const VERSION_3 = 3;
// bytes of an answer that are not the varbind list: message and PDU headers, and for
// SNMPv3 the security parameters (engine ID, user, a MAC of up to 48 bytes, salt)
const V2C_OVERHEAD = 64;
const V3_OVERHEAD = 320;

export class SnmpAgent {
  readonly faults: AgentFaults;
  readonly counters = new AgentCounters();
  readonly usm: UsmEngine;
  private socket: dgram.Socket | null = null;
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly readCommunity: Buffer;
  private readonly writeCommunity: Buffer | null;
  private readonly maxMessageSize: number;
  maxBulkValues: number;

  constructor(
    readonly provider: MibProvider,
    opts: AgentOptions,
  ) {
    this.readCommunity = Buffer.from(opts.readCommunity);
    this.writeCommunity = opts.writeCommunity === null ? null : Buffer.from(opts.writeCommunity);
    this.maxMessageSize = opts.maxMessageSize ?? 65507;
    this.maxBulkValues = opts.maxBulkValues ?? Number.POSITIVE_INFINITY;
    this.usm = new UsmEngine(opts.v3Users ?? [], this.maxMessageSize);
    this.faults = new AgentFaults(
      opts.latencyMs ?? 0,
      () => {
        this.usm.reboot();
        opts.onRestart?.();
        provider.onRestart?.();
      },
      { maxResponseBytes: checkResponseLimit(opts.maxResponseBytes), oversize: checkOversize(opts.oversize) },
    );
  }

  /** Binds 127.0.0.1:port (0 picks a free port); resolves to the port. */
  start(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = dgram.createSocket("udp4");
      socket.once("error", reject);
      socket.on("message", (msg, rinfo) => this.receive(msg, rinfo.port, rinfo.address));
      socket.bind(port, "127.0.0.1", () => {
        socket.removeListener("error", reject);
        socket.on("error", () => undefined);
        this.socket = socket;
        resolve(socket.address().port);
      });
    });
  }

  get port(): number {
    if (!this.socket) throw new Error("agent not started");
    return this.socket.address().port;
  }

  stop(): Promise<void> {
    this.provider.close?.();
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    const socket = this.socket;
    this.socket = null;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => socket.close(() => resolve()));
  }

  private receive(msg: Buffer, port: number, address: string): void {
    this.counters.requests++;
    if (!this.faults.admit()) return;
    const c = this.counters;
    c.inFlight++;
    c.maxInFlight = Math.max(c.maxInFlight, c.inFlight);
    const answer = () => {
      c.inFlight--;
      const setsBefore = c.byType.set;
      const out = this.handleMessage(msg, `${address}:${port}`);
      const send = this.faults.release();
      if (!out || !send || !this.socket) return;
      const hold = c.byType.set > setsBefore ? this.faults.setAnswerDelayMs : 0;
      if (hold <= 0) return void this.socket.send(out, port, address);
      const t = setTimeout(() => {
        this.pending.delete(t);
        this.socket?.send(out, port, address);
      }, hold);
      this.pending.add(t);
    };
    const delay = this.faults.latencyMs;
    if (delay > 0) {
      const t = setTimeout(() => {
        this.pending.delete(t);
        answer();
      }, delay);
      this.pending.add(t);
    } else {
      answer();
    }
  }

  /**
   * The agent's whole processing of one request message: decode, security, the PDU
   * itself, encode. Returns the answer, or null when the request gets none. No latency
   * or drop faults here (those act on the UDP path), so the bench can time it directly.
   */
  handleMessage(msg: Buffer, from = ""): Buffer | null {
    let out: Buffer | null;
    try {
      out = this.process(msg, from);
    } catch (e) {
      if (e instanceof BerError) return null; // malformed: snmpInASNParseErrs, no answer
      throw e;
    }
    if (out) this.counters.responses++;
    return out;
  }

  private setBehaviour(): SetBehaviour {
    return {
      refusal: (varbinds) => this.faults.refusalOf(varbinds.map((vb) => vb.oid)),
      lie: (varbinds) => this.faults.liesAbout(varbinds.map((vb) => vb.oid)),
    };
  }

  private limits(overhead: number, managerMax = Number.POSITIVE_INFINITY): HandlerLimits {
    return {
      maxVarBindBytes: Math.min(this.maxMessageSize, managerMax) - overhead,
      maxBulkValues: this.maxBulkValues,
    };
  }

  private count(pdu: RequestPdu, from: string): boolean {
    const kinds = {
      [PduType.GetRequest]: "get",
      [PduType.GetNextRequest]: "getNext",
      [PduType.GetBulkRequest]: "getBulk",
      [PduType.SetRequest]: "set",
    } as const;
    const type = kinds[pdu.type as keyof typeof kinds];
    if (!type) {
      this.counters.byType.other++;
      return false; // responses, traps, reports: nothing to answer
    }
    this.counters.byType[type]++;
    const at = performance.timeOrigin + performance.now();
    this.counters.record(
      type === "set" ? { type, from, at, oids: pdu.varbinds.map((vb) => formatOid(vb.oid)) } : { type, from, at },
    );
    return true;
  }

  /** rights and context a v2c community gives, or null for an unknown community */
  private communityAccess(community: Buffer): { write: boolean; context: string } | null {
    if (this.writeCommunity !== null && community.equals(this.writeCommunity)) return { write: true, context: "" };
    if (community.equals(this.readCommunity)) return { write: false, context: "" };
    // Cisco's community indexing: "public@10" is the read community in VLAN 10's context
    const text = community.toString("latin1");
    const at = text.lastIndexOf("@");
    const contexts = this.provider.contexts;
    if (at <= 0 || !contexts) return null;
    const base = Buffer.from(text.slice(0, at), "latin1");
    const write = this.writeCommunity !== null && base.equals(this.writeCommunity);
    if (!write && !base.equals(this.readCommunity)) return null;
    const context = contexts.fromCommunity(text.slice(at + 1));
    return context === null ? null : { write, context };
  }

  private process(msg: Buffer, from: string): Buffer | null {
    const r = new BerReader(msg).enter(Tag.Sequence);
    const version = r.readInteger();
    if (version === VERSION_2C) {
      const community = r.readOctets();
      const access = this.communityAccess(community);
      if (!access) return null;
      const pdu = decodePdu(r);
      if (!this.count(pdu, from)) return null;
      const handled = handlePdu(
        this.provider,
        pdu,
        access.write,
        this.limits(V2C_OVERHEAD + community.length),
        this.setBehaviour(),
        access.context,
      );
      const message = (responsePdu: Buffer) => encodeV2cMessage(community, responsePdu);
      return this.withinLimit(pdu, message(handled.pdu), handled.values, () => message(tooBigResponse(pdu.requestId)));
    }
    if (version === VERSION_3) {
      const outcome = this.usm.receive(msg, r);
      if (outcome.kind === "drop") return null;
      if (outcome.kind === "reply") return outcome.message;
      const req = outcome.request;
      const context = req.contextName.toString("utf8");
      if (context !== "" && !this.provider.contexts?.has(context)) return this.usm.unknownContext(req);
      if (!this.count(req.pdu, from)) return null;
      const handled = handlePdu(
        this.provider,
        req.pdu,
        true,
        this.limits(V3_OVERHEAD, req.maxSize),
        this.setBehaviour(),
        context,
      );
      return this.withinLimit(req.pdu, this.usm.respond(req, handled.pdu), handled.values, () =>
        this.usm.respond(req, tooBigResponse(req.pdu.requestId)),
      );
    }
    return null;
  }

  /**
   * The answer as encoded, or what the response limit makes of it. SET answers are left
   * alone: the SET is applied by then, and a tooBig would say it was not.
   */
  private withinLimit(pdu: RequestPdu, message: Buffer, values: number, tooBig: () => Buffer): Buffer | null {
    const limit = this.faults.maxResponseBytes;
    if (limit === null || message.length <= limit || pdu.type === PduType.SetRequest) {
      this.counters.values += values;
      return message;
    }
    this.counters.oversize++;
    return this.faults.oversize === "silent" ? null : tooBig();
  }
}

/** RFC 3417: every SNMP engine takes messages of 484 octets; UDP over IPv4 carries 65507. */
function checkResponseLimit(bytes: number | undefined): number | null {
  if (bytes === undefined) return null;
  if (!Number.isInteger(bytes) || bytes < 484 || bytes > 65507) {
    throw new RangeError(`maxResponseBytes must be an integer from 484 to 65507, got ${bytes}`);
  }
  return bytes;
}

function checkOversize(mode: OversizeMode | undefined): OversizeMode {
  if (mode === undefined) return "tooBig";
  if (mode !== "tooBig" && mode !== "silent")
    throw new RangeError(`oversize must be "tooBig" or "silent", got ${String(mode)}`);
  return mode;
}
