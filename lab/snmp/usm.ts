/**
 * SNMPv3 messages with the User-based Security Model (RFC 3412 framing, RFC 3414
 * processing) for the agent side: engine discovery reports, authentication, time
 * window, privacy, and encoding of authenticated and encrypted answers.
 *
 * Choices that mirror real agents: a wrong digest or an undecryptable PDU gets no
 * answer at all (the manager sees a timeout); an unknown engine ID, unknown user,
 * unsupported security level or a message outside the time window gets the RFC 3414
 * report, so managers can discover the engine and re-synchronise.
 */
import crypto from "node:crypto";
import { BerReader, encodeInteger, encodeOctets, encodeOid, encodeValue, tlv } from "../../mib/ber";
import { parseOid } from "./oid";
import { PduType, VarBindListWriter, decodePdu, encodePdu, type RequestPdu } from "../../mib/pdu";
import {
  aesDecrypt,
  aesEncrypt,
  localizedKey,
  macLength,
  messageMac,
  privacyKey,
  type AuthProtocol,
  type PrivProtocol,
} from "./usm-crypto";
import { counter32, Tag } from "../../mib/smi-values";

export interface UsmUserConfig {
  username: string;
  authProtocol: AuthProtocol;
  authKey: string;
  privProtocol: PrivProtocol;
  privKey: string;
}

interface UsmUser {
  name: string;
  auth: AuthProtocol;
  authKey: Buffer;
  priv: PrivProtocol;
  privKey: Buffer;
}

const FLAG_AUTH = 0x01;
const FLAG_PRIV = 0x02;
const FLAG_REPORTABLE = 0x04;
const USM = 3;
const TIME_WINDOW_S = 150;

// usmStats counters (SNMP-USER-BASED-SM-MIB)
const usmStats = {
  unsupportedSecLevels: "1.3.6.1.6.3.15.1.1.1.0",
  notInTimeWindows: "1.3.6.1.6.3.15.1.1.2.0",
  unknownUserNames: "1.3.6.1.6.3.15.1.1.3.0",
  unknownEngineIDs: "1.3.6.1.6.3.15.1.1.4.0",
  wrongDigests: "1.3.6.1.6.3.15.1.1.5.0",
  decryptionErrors: "1.3.6.1.6.3.15.1.1.6.0",
} as const;
type UsmStat = keyof typeof usmStats;

// SNMP-TARGET-MIB snmpUnknownContexts: requests naming a context the agent does not know
const SNMP_UNKNOWN_CONTEXTS = "1.3.6.1.6.3.12.1.5.0";

export interface V3Request {
  msgId: number;
  maxSize: number;
  /** FLAG bits of the request's security level (auth, auth+priv) */
  level: number;
  user: UsmUser;
  contextEngineId: Buffer;
  contextName: Buffer;
  pdu: RequestPdu;
}

export type V3Outcome =
  { kind: "request"; request: V3Request } | { kind: "reply"; message: Buffer } | { kind: "drop"; reason: string };

export class UsmEngine {
  readonly engineId: Buffer;
  boots = 1;
  private bootedAtMs = Date.now();
  private readonly users = new Map<string, UsmUser>();
  private readonly stats: Record<UsmStat, number> = {
    unsupportedSecLevels: 0,
    notInTimeWindows: 0,
    unknownUserNames: 0,
    unknownEngineIDs: 0,
    wrongDigests: 0,
    decryptionErrors: 0,
  };
  private salt = crypto.randomBytes(8).readBigUInt64BE();
  private unknownContexts = 0;

  constructor(
    users: readonly UsmUserConfig[],
    readonly maxMessageSize: number,
  ) {
    // RFC 3411 SnmpEngineID: enterprise 8072 (net-snmp) with the "octets" format and random bytes
    this.engineId = Buffer.concat([Buffer.from([0x80, 0x00, 0x1f, 0x88, 0x05]), crypto.randomBytes(8)]);
    for (const u of users) {
      this.users.set(u.username, {
        name: u.username,
        auth: u.authProtocol,
        authKey: localizedKey(u.authProtocol, u.authKey, this.engineId),
        priv: u.privProtocol,
        privKey: privacyKey(u.privProtocol, u.authProtocol, u.privKey, this.engineId),
      });
    }
  }

  /** snmpEngineTime, seconds since the last boot */
  time(): number {
    return Math.floor((Date.now() - this.bootedAtMs) / 1000);
  }

  reboot(): void {
    this.boots++;
    this.bootedAtMs = Date.now();
  }

  /** Processes a v3 message whose version field the caller has read; r is positioned after it. */
  receive(buf: Buffer, r: BerReader): V3Outcome {
    const global = r.enter(Tag.Sequence);
    const msgId = global.readInteger();
    const maxSize = global.readInteger();
    const flagsOctets = global.readOctets();
    const model = global.readInteger();
    if (model !== USM || flagsOctets.length !== 1) return { kind: "drop", reason: "not USM" };
    const flags = flagsOctets[0];
    const level = flags & (FLAG_AUTH | FLAG_PRIV);
    if (level === FLAG_PRIV) return { kind: "drop", reason: "privacy without authentication" };
    const reportable = (flags & FLAG_REPORTABLE) !== 0;

    const secOctets = r.readOctets();
    const sec = new BerReader(secOctets).enter(Tag.Sequence);
    const engineId = sec.readOctets();
    const msgBoots = sec.readInteger();
    const msgTime = sec.readInteger();
    const userName = Buffer.from(sec.readOctets());
    const authHeader = sec.readHeader();
    sec.pos = authHeader.end;
    const authParams = secOctets.subarray(authHeader.start, authHeader.end);
    const authOffset = secOctets.byteOffset - buf.byteOffset + authHeader.start;
    const privParams = sec.readOctets();

    const report = (
      stat: UsmStat,
      user: UsmUser | null,
      requestId = 0,
      contextName: Buffer = Buffer.alloc(0),
    ): V3Outcome => {
      this.stats[stat]++;
      if (!reportable) return { kind: "drop", reason: stat };
      const vbs = new VarBindListWriter();
      vbs.add(encodeOid(parseOid(usmStats[stat])), encodeValue(counter32(this.stats[stat])));
      const pdu = encodePdu(PduType.Report, requestId, 0, 0, vbs.toBuffer());
      return {
        kind: "reply",
        message: this.encode({ msgId, level: user ? FLAG_AUTH : 0, user, userName, contextName, pdu }),
      };
    };
    // the PDU of a plaintext message, for the request-id of a report
    const plainRequestId = (): { id: number; context: Buffer } => {
      if (level & FLAG_PRIV) return { id: 0, context: Buffer.alloc(0) };
      try {
        const scoped = r.enter(Tag.Sequence);
        scoped.readOctets();
        const context = Buffer.from(scoped.readOctets());
        return { id: decodePdu(scoped).requestId, context };
      } catch {
        return { id: 0, context: Buffer.alloc(0) };
      }
    };

    if (!engineId.equals(this.engineId)) {
      const { id, context } = plainRequestId();
      return report("unknownEngineIDs", null, id, context);
    }
    const user = this.users.get(userName.toString("utf8"));
    if (!user) return report("unknownUserNames", null, plainRequestId().id);
    if (!(level & FLAG_AUTH)) return report("unsupportedSecLevels", null, plainRequestId().id);

    const zeroed = Buffer.from(buf);
    zeroed.fill(0, authOffset, authOffset + authParams.length);
    const mac = messageMac(user.auth, user.authKey, zeroed);
    if (authParams.length !== mac.length || !crypto.timingSafeEqual(mac, authParams)) {
      this.stats.wrongDigests++;
      return { kind: "drop", reason: "wrong digest" };
    }
    if (msgBoots !== this.boots || Math.abs(msgTime - this.time()) > TIME_WINDOW_S) {
      return report("notInTimeWindows", user, plainRequestId().id);
    }

    let scopedReader: BerReader;
    if (level & FLAG_PRIV) {
      if (privParams.length !== 8) {
        this.stats.decryptionErrors++;
        return { kind: "drop", reason: "bad privacy parameters" };
      }
      const plain = aesDecrypt(user.priv, user.privKey, msgBoots, msgTime, privParams, r.readOctets());
      scopedReader = new BerReader(plain);
    } else {
      scopedReader = r;
    }
    try {
      const scoped = scopedReader.enter(Tag.Sequence);
      const contextEngineId = Buffer.from(scoped.readOctets());
      const contextName = Buffer.from(scoped.readOctets());
      const pdu = decodePdu(scoped);
      return { kind: "request", request: { msgId, maxSize, level, user, contextEngineId, contextName, pdu } };
    } catch {
      // a wrong privacy password decrypts to garbage
      this.stats.decryptionErrors++;
      return { kind: "drop", reason: "undecodable scoped PDU" };
    }
  }

  /**
   * The report for a request naming a context the agent does not serve (RFC 3413
   * snmpUnknownContexts), at the request's security level so the manager can read it.
   */
  unknownContext(req: V3Request): Buffer {
    this.unknownContexts++;
    const vbs = new VarBindListWriter();
    vbs.add(encodeOid(parseOid(SNMP_UNKNOWN_CONTEXTS)), encodeValue(counter32(this.unknownContexts)));
    const pdu = encodePdu(PduType.Report, req.pdu.requestId, 0, 0, vbs.toBuffer());
    return this.respond(req, pdu);
  }

  /** The answer to a request, at the request's security level. */
  respond(req: V3Request, pdu: Buffer): Buffer {
    return this.encode({
      msgId: req.msgId,
      level: req.level,
      user: req.user,
      userName: Buffer.from(req.user.name),
      contextName: req.contextName,
      pdu,
    });
  }

  private nextSalt(): Buffer {
    this.salt = (this.salt + 1n) & 0xffffffffffffffffn;
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(this.salt);
    return b;
  }

  private encode(m: {
    msgId: number;
    level: number;
    user: UsmUser | null;
    userName: Buffer;
    contextName: Buffer;
    pdu: Buffer;
  }): Buffer {
    const boots = this.boots;
    const time = this.time();
    const scoped = tlv(Tag.Sequence, encodeOctets(this.engineId), encodeOctets(m.contextName), m.pdu);
    let msgData: Buffer = scoped;
    let privParams: Buffer = Buffer.alloc(0);
    if (m.level & FLAG_PRIV && m.user) {
      privParams = this.nextSalt();
      msgData = encodeOctets(aesEncrypt(m.user.priv, m.user.privKey, boots, time, privParams, scoped));
    }
    const macLen = m.level & FLAG_AUTH && m.user ? macLength(m.user.auth) : 0;
    const head = [encodeOctets(this.engineId), encodeInteger(boots), encodeInteger(time), encodeOctets(m.userName)];
    const authTlv = encodeOctets(Buffer.alloc(macLen));
    const privTlv = encodeOctets(privParams);
    const secSeq = tlv(Tag.Sequence, ...head, authTlv, privTlv);
    const secOctets = encodeOctets(secSeq);
    const version = encodeInteger(3);
    const global = tlv(
      Tag.Sequence,
      encodeInteger(m.msgId),
      encodeInteger(this.maxMessageSize),
      encodeOctets(Buffer.from([m.level])),
      encodeInteger(USM),
    );
    const message = tlv(Tag.Sequence, version, global, secOctets, msgData);
    if (macLen > 0) {
      // the MAC covers the whole message with its own field zeroed: find that field
      const headLen = head.reduce((n, h) => n + h.length, 0);
      const messageHeaderLen = message.length - (version.length + global.length + secOctets.length + msgData.length);
      const secSeqHeaderLen = secSeq.length - (headLen + authTlv.length + privTlv.length);
      const offset =
        messageHeaderLen +
        version.length +
        global.length +
        (secOctets.length - secSeq.length) +
        secSeqHeaderLen +
        headLen +
        (authTlv.length - macLen);
      messageMac(m.user!.auth, m.user!.authKey, message).copy(message, offset);
    }
    return message;
  }
}
