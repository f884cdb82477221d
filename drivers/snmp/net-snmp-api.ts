/**
 * The part of the net-snmp package the client side uses, typed here because the package
 * ships no declarations. Loaded with require() rather than an ambient `declare module`
 * so that another part of the project declaring the module differently cannot clash.
 */

/**
 * What net-snmp decodes a value into: number (Integer, Counter, Gauge, TimeTicks), Buffer
 * (OctetString, Opaque, Counter64), string (OID, IpAddress), boolean (Boolean), null (Null
 * and the exception types).
 */
export type VarbindValue = number | Buffer | string | boolean | null;

export interface Varbind {
  oid: string;
  type: number;
  value: VarbindValue;
}

export interface SetVarbind {
  oid: string;
  type: number;
  value: number | string | Buffer;
}

type Callback<T> = (error: Error | null, result: T) => void;

/**
 * What the driver's session (session.ts) sends PDUs through: net-snmp's session for
 * SNMPv3, the drivers' own client for v2c (v2c-client.ts). Errors are net-snmp's: name
 * RequestTimedOutError, RequestFailedError (with `status`) or ResponseInvalidError.
 */
export interface PduSession {
  get(oids: string[], cb: Callback<Varbind[]>): void;
  getBulk(oids: string[], nonRepeaters: number, maxRepetitions: number, cb: Callback<Varbind[][]>): void;
  set(varbinds: SetVarbind[], cb: Callback<Varbind[]>): void;
  close(): void;
  on(event: "error", listener: (error: Error) => void): void;
  /** retries of the next request: copied into each request when it is created */
  retries: number;
}

export interface NetSnmpSession extends PduSession {
  /** GETBULK walk of one subtree with a fixed max-repetitions (the bench's baseline) */
  subtree(
    oid: string,
    maxRepetitions: number,
    feed: (varbinds: Varbind[]) => boolean | void,
    done: (error: Error | null) => void,
  ): void;
}

export interface NetSnmpUser {
  name: string;
  level: number;
  authProtocol?: string | number;
  authKey?: string;
  privProtocol?: string | number;
  privKey?: string;
}

export interface SessionOptions {
  port: number;
  version: number;
  timeout: number;
  retries: number;
  transport?: "udp4" | "udp6";
  context?: string;
  backoff?: number;
}

interface EncryptionAlgorithm {
  CRYPTO_ALGORITHM: string;
  KEY_LENGTH: number;
  BLOCK_LENGTH: number;
  encryptPdu: unknown;
  decryptPdu: unknown;
  localizationAlgorithm: unknown;
}

interface NetSnmpModule {
  createSession(target: string, community: string, options: SessionOptions): NetSnmpSession;
  createV3Session(target: string, user: NetSnmpUser, options: SessionOptions): NetSnmpSession;
  Version2c: number;
  Version3: number;
  ObjectType: Record<string, number> & Record<number, string>;
  ErrorStatus: Record<string, number> & Record<number, string>;
  SecurityLevel: Record<string, number>;
  /** name -> number (and number -> name) */
  AuthProtocols: Record<string, number>;
  PrivProtocols: Record<string, number>;
  Encryption: {
    algorithms: Record<string | number, EncryptionAlgorithm>;
    encryptPduAes: unknown;
    decryptPduAes: unknown;
    generateLocalizedKeyBlumenthal: unknown;
  };
  RequestTimedOutError: new (...args: unknown[]) => Error;
  RequestFailedError: new (...args: unknown[]) => Error & { status?: number };
}

// net-snmp ships no declarations: NetSnmpModule above is what this project relies on
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see the file comment
const untyped: unknown = require("net-snmp");
export const netSnmp = untyped as NetSnmpModule;

export const ObjectType = {
  Integer: 2,
  OctetString: 4,
  Null: 5,
  OID: 6,
  IpAddress: 64,
  Counter: 65,
  Gauge: 66,
  TimeTicks: 67,
  Counter64: 70,
  NoSuchObject: 128,
  NoSuchInstance: 129,
  EndOfMibView: 130,
} as const;

/** noSuchObject / noSuchInstance / endOfMibView: the agent has no value here. */
export function isException(vb: Varbind): boolean {
  return (
    vb.type === ObjectType.NoSuchObject || vb.type === ObjectType.NoSuchInstance || vb.type === ObjectType.EndOfMibView
  );
}

/** Name of an SNMP error-status number as the RFC spells it (noAccess, notWritable...). */
export function errorStatusName(status: number | undefined): string {
  const name = status === undefined ? undefined : netSnmp.ErrorStatus[status];
  if (typeof name !== "string") return "genErr";
  if (name === "GeneralError") return "genErr";
  return name.charAt(0).toLowerCase() + name.slice(1);
}
