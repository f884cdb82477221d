/**
 * Turns an SnmpTarget (profile names as the admin API spells them) into a session: v2c
 * with a community (the drivers' own client), v3 with USM (authNoPriv or authPriv, net-snmp).
 */
import { createCipheriv } from "node:crypto";
import { NotSupported } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
import { netSnmp, type NetSnmpSession, type NetSnmpUser, type PduSession, type SessionOptions } from "./net-snmp-api";
import { V2cSession } from "./v2c-client";

// net-snmp names its protocols in lower case; the table maps them to its own constants
const authProtocolNames: Record<NonNullable<SnmpTarget["auth_protocol"]>, string> = {
  MD5: "md5",
  SHA: "sha",
  "SHA-224": "sha224",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};

/**
 * AES-192 and AES-256 with the key extension of draft-blumenthal-aes-usm, which is what
 * Net-SNMP's C tools (and so OpenL2M, through ezsnmp) call "AES-192"/"AES-256".
 * net-snmp 3.29 has no AES-192 at all: we add it to the package's own algorithm table,
 * built from the package's AES-256 (Blumenthal) entry with a 24-byte key. Client and any
 * net-snmp agent in the same process then both understand it.
 */
/** Key of the added algorithm; a name, not a number, so it cannot collide with the package's own. */
export const AES192_BLUMENTHAL = "aes192b";
export function ensureAes192(): void {
  const table = netSnmp.Encryption.algorithms;
  if (table[AES192_BLUMENTHAL]) return;
  const aes256 = table[netSnmp.PrivProtocols.aes256b];
  table[AES192_BLUMENTHAL] = { ...aes256, CRYPTO_ALGORITHM: "aes-192-cfb", KEY_LENGTH: 24 };
}

const privProtocols: Record<NonNullable<SnmpTarget["priv_protocol"]>, () => string | number> = {
  DES: () => {
    requireDes();
    return netSnmp.PrivProtocols.des;
  },
  AES: () => netSnmp.PrivProtocols.aes,
  "AES-192": () => {
    ensureAes192();
    return AES192_BLUMENTHAL;
  },
  "AES-256": () => netSnmp.PrivProtocols.aes256b,
};

/**
 * OpenSSL 3 (Node 17+) keeps DES in its legacy provider, off unless node runs with
 * --openssl-legacy-provider; without it every DES message would fail obscurely.
 */
function requireDes(): void {
  try {
    createCipheriv("des-cbc", Buffer.alloc(8), Buffer.alloc(8));
  } catch {
    throw new NotSupported(
      "SNMPv3 DES privacy needs Node.js started with --openssl-legacy-provider (OpenSSL 3 disables DES); use AES",
    );
  }
}

/** The v3 user for a target, or an Error naming the missing piece. */
function v3User(target: SnmpTarget): NetSnmpUser {
  if (!target.username) throw new NotSupported("SNMPv3 profile has no username");
  const user: NetSnmpUser = { name: target.username, level: netSnmp.SecurityLevel.noAuthNoPriv };
  if (target.auth_protocol && target.auth_key) {
    user.level = netSnmp.SecurityLevel.authNoPriv;
    user.authProtocol = netSnmp.AuthProtocols[authProtocolNames[target.auth_protocol]];
    user.authKey = target.auth_key;
    if (target.priv_protocol && target.priv_key) {
      user.level = netSnmp.SecurityLevel.authPriv;
      user.privProtocol = privProtocols[target.priv_protocol]();
      user.privKey = target.priv_key;
    }
  }
  return user;
}

/** The session the driver sends its PDUs through: the drivers' client for v2c, net-snmp for v3. */
export function openSnmpSession(target: SnmpTarget): PduSession {
  if (target.version === "3") return openNetSnmpSession(target);
  return new V2cSession(target.host, target.community ?? "public", {
    port: target.port,
    timeout: target.timeout_ms,
    retries: target.retries,
  });
}

/** A net-snmp session for the target (v2c or v3), with net-snmp's walk (the bench uses it). */
export function openNetSnmpSession(target: SnmpTarget): NetSnmpSession {
  const options: SessionOptions = {
    port: target.port,
    version: target.version === "3" ? netSnmp.Version3 : netSnmp.Version2c,
    timeout: target.timeout_ms,
    retries: target.retries,
    transport: target.host.includes(":") ? "udp6" : "udp4",
  };
  if (target.version === "3") {
    if (target.context) options.context = target.context;
    return netSnmp.createV3Session(target.host, v3User(target), options);
  }
  return netSnmp.createSession(target.host, target.community ?? "public", options);
}
