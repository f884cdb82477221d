/**
 * Promise wrappers around net-snmp's client (an SNMP stack no one here wrote) and
 * Debian's net-snmp command line tools, for the lab's tests: they check the agent
 * from the outside, the way drivers and operators reach it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import type { LabSwitch } from "../../lab";

export interface ClientVarBind {
  oid: string;
  type: number;
  value: unknown;
}

export interface ClientError extends Error {
  /** RequestFailedError: the agent's error-status */
  status?: number;
}

type Callback<T> = (error: ClientError | null, result: T) => void;

/** A net-snmp session, as this file calls it. */
interface NetSnmpSession {
  get(oids: string[], cb: Callback<ClientVarBind[]>): void;
  getNext(oids: string[], cb: Callback<ClientVarBind[]>): void;
  /** the non-repeaters' values, then one list per repeating column */
  getBulk(
    oids: string[],
    nonRepeaters: number,
    maxRepetitions: number,
    cb: Callback<Array<ClientVarBind | ClientVarBind[]>>,
  ): void;
  set(varbinds: ClientVarBind[], cb: Callback<ClientVarBind[]>): void;
  subtree(
    oid: string,
    maxRepetitions: number,
    feed: (varbinds: ClientVarBind[]) => void,
    done: (error: ClientError | null) => void,
  ): void;
  close(): void;
  on(event: "error", listener: (error: Error) => void): void;
}

interface NetSnmpOptions {
  port: number;
  timeout: number;
  retries: number;
  backoff: number;
  context?: string;
}

/** The part of net-snmp's client this file uses. */
interface NetSnmpClient {
  createSession(target: string, community: string, options: NetSnmpOptions & { version: number }): NetSnmpSession;
  createV3Session(
    target: string,
    user: { name: string; level: number; authProtocol: number; authKey: string; privProtocol: number; privKey: string },
    options: NetSnmpOptions,
  ): NetSnmpSession;
  Version2c: number;
  ObjectType: Record<string, number>;
  ErrorStatus: Record<string, number>;
  SecurityLevel: Record<string, number>;
  AuthProtocols: Record<string, number>;
  PrivProtocols: Record<string, number>;
}

// net-snmp ships no type declarations; its API is used through the narrow typed face above.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- net-snmp ships no declarations; NetSnmpClient is its typed face
const snmp = require("net-snmp") as NetSnmpClient;

export const ObjectType = snmp.ObjectType;
export const ErrorStatus = snmp.ErrorStatus;

export interface ClientSession {
  get(oids: string[]): Promise<ClientVarBind[]>;
  getNext(oids: string[]): Promise<ClientVarBind[]>;
  /** raw GetBulk: the values in answer order (non-repeaters, then repetitions interleaved) */
  getBulk(oids: string[], nonRepeaters: number, maxRepetitions: number): Promise<ClientVarBind[]>;
  set(varbinds: ClientVarBind[]): Promise<ClientVarBind[]>;
  /** every value under oid, in the order received */
  walk(oid: string, maxRepetitions?: number): Promise<ClientVarBind[]>;
  close(): void;
}

export interface SessionOptions {
  /**
   * How long a request waits for its answer: by default as long as a lab agent on a busy
   * machine may need (it answers from the test's own process, late when the process waits
   * for a core); a test of an agent that stays silent names its own short wait.
   */
  timeoutMs?: number;
  retries?: number;
  /** SNMPv3 user instead of a community */
  v3?: {
    username: string;
    authProtocol: "SHA" | "SHA-256" | "SHA-512";
    authKey: string;
    privProtocol: "AES" | "AES-256";
    privKey: string;
  };
  /** SNMPv3 context name (Cisco's per-VLAN "vlan-10") */
  context?: string;
  community?: string;
}

const AUTH: Record<string, number> = {
  SHA: snmp.AuthProtocols.sha,
  "SHA-256": snmp.AuthProtocols.sha256,
  "SHA-512": snmp.AuthProtocols.sha512,
};
const PRIV: Record<string, number> = { AES: snmp.PrivProtocols.aes, "AES-256": snmp.PrivProtocols.aes256b };

function flatten(varbinds: Array<ClientVarBind | ClientVarBind[]>): ClientVarBind[] {
  const out: ClientVarBind[] = [];
  for (const v of varbinds) {
    if (Array.isArray(v)) out.push(...v);
    else out.push(v);
  }
  return out;
}

const ANSWER_WAIT_MS = 5000;

/** A session to host:port (v2c with opts.community, or v3 with opts.v3). */
export function openSession(port: number, opts: SessionOptions = {}): ClientSession {
  const common = {
    port,
    timeout: opts.timeoutMs ?? ANSWER_WAIT_MS,
    retries: opts.retries ?? 0,
    backoff: 1,
    ...(opts.context ? { context: opts.context } : {}),
  };
  const s = opts.v3
    ? snmp.createV3Session(
        "127.0.0.1",
        {
          name: opts.v3.username,
          level: snmp.SecurityLevel.authPriv,
          authProtocol: AUTH[opts.v3.authProtocol],
          authKey: opts.v3.authKey,
          privProtocol: PRIV[opts.v3.privProtocol],
          privKey: opts.v3.privKey,
        },
        common,
      )
    : snmp.createSession("127.0.0.1", opts.community ?? "public", { ...common, version: snmp.Version2c });
  s.on("error", () => undefined);
  const call = <T>(fn: (cb: (err: ClientError | null, res: T) => void) => void) =>
    new Promise<T>((resolve, reject) => fn((err, res) => (err ? reject(err) : resolve(res))));
  return {
    get: (oids) => call((cb) => s.get(oids, cb)),
    getNext: (oids) => call((cb) => s.getNext(oids, cb)),
    getBulk: (oids, nr, m) =>
      call<Array<ClientVarBind | ClientVarBind[]>>((cb) => s.getBulk(oids, nr, m, cb)).then((vbs) => {
        // net-snmp regroups repeaters per column; put them back in answer order
        const nonRep = vbs.slice(0, nr) as ClientVarBind[];
        const cols = vbs.slice(nr) as ClientVarBind[][];
        const rows = Math.max(0, ...cols.map((c) => c.length));
        const out = [...nonRep];
        for (let i = 0; i < rows; i++) for (const c of cols) if (c[i]) out.push(c[i]);
        return out;
      }),
    set: (vbs) => call((cb) => s.set(vbs, cb)),
    walk: (oid, maxRepetitions = 20) =>
      new Promise((resolve, reject) => {
        const got: ClientVarBind[] = [];
        s.subtree(
          oid,
          maxRepetitions,
          (vbs: ClientVarBind[]) => {
            got.push(...flatten(vbs));
          },
          (err: ClientError | null) => (err ? reject(err) : resolve(got)),
        );
      }),
    close: () => s.close(),
  };
}

/** Session to a lab switch; write picks the write community. */
export function sessionTo(lab: LabSwitch, opts: SessionOptions & { write?: boolean } = {}): ClientSession {
  return openSession(lab.port, {
    ...opts,
    community: opts.community ?? (opts.write ? lab.options.writeCommunity : lab.options.community),
  });
}

/** Whether a Debian net-snmp tool is installed. */
export function hasTool(name: string): boolean {
  return ["/usr/bin", "/usr/local/bin"].some((d) => fs.existsSync(`${d}/${name}`));
}

/** Runs a net-snmp command line tool with numeric output (-On), resolving to stdout. */
export function runTool(name: string, args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve) => {
    execFile(name, ["-On", "-Oe", ...args], { timeout: 20000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      // execFile's error carries the exit status as a number in `code`
      const status = err ? (err as { code?: unknown }).code : 0;
      resolve({ stdout, stderr, code: typeof status === "number" ? status : 1 });
    });
  });
}
