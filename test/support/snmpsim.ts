/**
 * Debian's snmpsimd serving the third-party recordings beside the project (never copied
 * into it: the data dir is a temp dir of links), and what a recording holds, read from
 * the file itself so tests compare against the recording rather than hard-coded facts.
 */
import fs from "node:fs";
import path from "node:path";
import type { SnmpTarget } from "../../model/targets";
import { snmprecPath } from "./fixtures";
import { SNMPSIMD, freeUdpPort, startSnmpsimd } from "../../bench/snmpsimd";

export { SNMPSIMD, freeUdpPort };

export const RECORDINGS = ["dlink_dgs-1510-28", "linksys-ss_lgs318p"] as const;
export const recordingFiles = RECORDINGS.map((name) => snmprecPath(name));
/** snmpsimd and the fixtures are both present (else the suites using them are skipped) */
export const snmpsimReady = fs.existsSync(SNMPSIMD) && recordingFiles.every((f) => f !== null);

// ---- reading a recording: OID|type|value lines, "4x" = hex octets ----

interface Recorded {
  type: string;
  text: string;
  bytes: Buffer;
}

export function readRecording(file: string): Map<string, Recorded> {
  const out = new Map<string, Recorded>();
  for (const line of fs.readFileSync(file, "latin1").split("\n")) {
    const first = line.indexOf("|");
    const second = line.indexOf("|", first + 1);
    if (first < 0 || second < 0) continue;
    const oid = line.slice(0, first);
    const type = line.slice(first + 1, second);
    const raw = line.slice(second + 1);
    const bytes = type.endsWith("x") ? Buffer.from(raw, "hex") : Buffer.from(raw, "latin1");
    out.set(oid, { type, text: bytes.toString("latin1"), bytes });
  }
  return out;
}

/** instance -> value of every recorded object under `column` */
export function column(rec: Map<string, Recorded>, base: string): Map<string, Recorded> {
  const out = new Map<string, Recorded>();
  for (const [oid, value] of rec) if (oid.startsWith(`${base}.`)) out.set(oid.slice(base.length + 1), value);
  return out;
}

export const O = {
  sysObjectID: "1.3.6.1.2.1.1.2.0",
  sysName: "1.3.6.1.2.1.1.5.0",
  ifDescr: "1.3.6.1.2.1.2.2.1.2",
  ifName: "1.3.6.1.2.1.31.1.1.1.1",
  basePortIfIndex: "1.3.6.1.2.1.17.1.4.1.2",
  pvid: "1.3.6.1.2.1.17.7.1.4.5.1.1",
  staticName: "1.3.6.1.2.1.17.7.1.4.3.1.1",
  staticRowStatus: "1.3.6.1.2.1.17.7.1.4.3.1.5",
  currentTable: "1.3.6.1.2.1.17.7.1.4.2.1",
  ipAdEntIfIndex: "1.3.6.1.2.1.4.20.1.2",
  poeAdmin: "1.3.6.1.2.1.105.1.1.1.3",
  qFdbPort: "1.3.6.1.2.1.17.7.1.2.2.1.2",
  lldpRemChassisId: "1.0.8802.1.1.2.1.4.1.1.5",
};

export interface Facts {
  sysObjectID: string;
  sysName: string;
  /** ifIndex -> name (ifName, else ifDescr) */
  interfaces: Map<number, string>;
  /** VLAN id -> recorded name ("" when unnamed) */
  vlans: Map<number, string>;
  /** ifIndex -> PVID */
  pvids: Map<number, number>;
  /** ifIndex -> PoE admin enabled */
  poe: Map<number, boolean>;
  routed: Set<number>;
  /** ifIndex -> MACs forwarded there */
  macs: Map<number, string[]>;
  /** ifIndex -> LLDP chassis ids seen there */
  neighbors: Map<number, string[]>;
}

export const mac = (bytes: Buffer | number[]) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(":");

export function factsOf(file: string): Facts {
  const rec = readRecording(file);
  const interfaces = new Map<number, string>();
  for (const [i, v] of column(rec, O.ifDescr)) interfaces.set(Number(i), v.text);
  for (const [i, v] of column(rec, O.ifName)) if (v.text) interfaces.set(Number(i), v.text);
  const portToIf = new Map<number, number>();
  for (const [p, v] of column(rec, O.basePortIfIndex)) portToIf.set(Number(p), Number(v.text));
  const ifOfPort = (p: number) => (portToIf.size ? portToIf.get(p) : p);

  const vlans = new Map<number, string>();
  for (const [i] of column(rec, O.staticRowStatus)) vlans.set(Number(i), "");
  for (const [i] of column(rec, O.currentTable))
    vlans.set(Number(i.split(".").pop()), vlans.get(Number(i.split(".").pop())) ?? "");
  for (const [i, v] of column(rec, O.staticName)) vlans.set(Number(i), v.text);

  const pvids = new Map<number, number>();
  for (const [p, v] of column(rec, O.pvid)) {
    const ifIndex = ifOfPort(Number(p));
    if (ifIndex !== undefined) pvids.set(ifIndex, Number(v.text));
  }
  const poe = new Map<number, boolean>();
  for (const [i, v] of column(rec, O.poeAdmin)) {
    const port = Number(i.split(".")[1]);
    if (interfaces.has(port)) poe.set(port, v.text === "1");
  }
  const routed = new Set([...column(rec, O.ipAdEntIfIndex).values()].map((v) => Number(v.text)));
  const macs = new Map<number, string[]>();
  for (const [i, v] of column(rec, O.qFdbPort)) {
    const ifIndex = Number(v.text) > 0 ? ifOfPort(Number(v.text)) : undefined;
    if (ifIndex === undefined) continue;
    macs.set(ifIndex, [...(macs.get(ifIndex) ?? []), mac(i.split(".").slice(1).map(Number))]);
  }
  const neighbors = new Map<number, string[]>();
  for (const [i, v] of column(rec, O.lldpRemChassisId)) {
    const ifIndex = ifOfPort(Number(i.split(".")[1]));
    if (ifIndex !== undefined) neighbors.set(ifIndex, [...(neighbors.get(ifIndex) ?? []), mac(v.bytes)]);
  }
  return {
    sysObjectID: rec.get(O.sysObjectID)!.text,
    sysName: rec.get(O.sysName)!.text,
    interfaces,
    vlans,
    pvids,
    poe,
    routed,
    macs,
    neighbors,
  };
}

// ---- snmpsimd on a free UDP port, data dir = temp dir of links to the recordings ----

export const V3 = {
  username: "sd-aes256",
  auth_protocol: "SHA-256",
  auth_key: "recording-auth-1",
  priv_protocol: "AES-256",
  priv_key: "recording-priv-1",
} as const;
export const V3_AES192 = {
  username: "sd-aes192",
  auth_protocol: "SHA-512",
  auth_key: "recording-auth-2",
  priv_protocol: "AES-192",
  priv_key: "recording-priv-2",
} as const;

export interface Snmpsim {
  port: number;
  /** v2c target for a recording (the community is the file name) */
  target(community: string, extra?: Partial<SnmpTarget>): SnmpTarget;
  stop(): Promise<void>;
}

export interface SnmpsimOptions {
  /** community (file name) -> .snmprec file to serve; default: RECORDINGS */
  recordings?: Record<string, string>;
  /** snmpsimd's --max-varbinds: values in one GETBULK answer at most (snmpsimd's default: 64) */
  maxVarBinds?: number;
}

/** snmpsimd's arguments: the two v3 users, and --max-varbinds when asked */
function agentArgs(maxVarBinds?: number): string[] {
  const args = [V3, V3_AES192].flatMap((u) => [
    `--v3-user=${u.username}`,
    `--v3-auth-key=${u.auth_key}`,
    `--v3-auth-proto=${u.auth_protocol.replace("-", "")}`,
    `--v3-priv-key=${u.priv_key}`,
    // Blumenthal key extension, as Net-SNMP's C tools do it
    `--v3-priv-proto=${u.priv_protocol.replace("-", "")}BLMT`,
  ]);
  if (maxVarBinds !== undefined) args.push(`--max-varbinds=${maxVarBinds}`);
  return args;
}

/** The run's folder of recording indexes (snmpsim-setup.js), which every agent of the run reads. */
export const SNMPSIM_CACHE_VARIABLE = "SWITCHDESK_TEST_SNMPSIM_CACHE";

/**
 * The run's shared snmpsimd, started by the global set-up (snmpsim-setup.js): one agent
 * serving every recording of the fixtures folder under its file name (community@context
 * files included), with the two v3 users and snmpsimd's defaults. Its port and folder
 * reach the workers in this variable (JSON: port, dir, pid).
 */
export const SHARED_SNMPSIM_VARIABLE = "SWITCHDESK_TEST_SNMPSIM_SHARED";

interface SharedSnmpsim {
  port: number;
  /** the folder whose NAME.snmprec files it serves, community NAME */
  dir: string;
  pid: number;
}

/** Starts the shared agent over every recording of `dir` (the run's global set-up), with the run's indexes. */
export async function startSharedSnmpsim(dir: string, cacheDir: string | undefined) {
  const recordings = Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith(".snmprec"))
      .map((name) => [name.slice(0, -".snmprec".length), path.join(dir, name)]),
  );
  const agent = await startSnmpsimd({ recordings, args: agentArgs(), cacheDir, quiet: true });
  const described: SharedSnmpsim = { port: agent.port, dir, pid: agent.pid };
  return { agent, variable: JSON.stringify(described) };
}

/** The shared agent's port when it serves exactly these recordings under these names, with the default options. */
function sharedPort(recordings: Record<string, string>, options: SnmpsimOptions): number | null {
  const named = process.env[SHARED_SNMPSIM_VARIABLE];
  if (!named || options.maxVarBinds !== undefined) return null;
  const shared = JSON.parse(named) as SharedSnmpsim;
  const same = (a: string, b: string) => {
    try {
      return fs.realpathSync(a) === fs.realpathSync(b);
    } catch {
      return false;
    }
  };
  const served = Object.entries(recordings).every(([community, file]) =>
    same(file, path.join(shared.dir, `${community}.snmprec`)),
  );
  return served ? shared.port : null;
}

/**
 * snmpsimd on 127.0.0.1 serving RECORDINGS (or the files given), with the two v3 users:
 * the run's shared agent when it serves them under the same names with the same options
 * (stop() then leaves it running: the run's teardown stops it), else an agent of its own
 * on a free UDP port. A start of snmpsimd costs about half a second of CPU and as long
 * before it answers; most suites' agents serve the shared recordings as they are.
 */
export async function startSnmpsim(options: SnmpsimOptions = {}): Promise<Snmpsim> {
  const recordings = options.recordings ?? Object.fromEntries(RECORDINGS.map((name, i) => [name, recordingFiles[i]!]));
  const shared = sharedPort(recordings, options);
  // the run's index folder (snmpsim-setup.js) when there is one
  const agent =
    shared !== null
      ? { port: shared, stop: async () => undefined }
      : await startSnmpsimd({
          recordings,
          args: agentArgs(options.maxVarBinds),
          cacheDir: process.env[SNMPSIM_CACHE_VARIABLE],
          quiet: true,
        });
  const target = (community: string, extra: Partial<SnmpTarget> = {}): SnmpTarget => ({
    host: "127.0.0.1",
    port: agent.port,
    version: "2c",
    community,
    timeout_ms: 1500,
    retries: 1,
    ...extra,
  });
  return { port: agent.port, target, stop: () => agent.stop() };
}

/**
 * describe() for suites that need snmpsimd only (they write their own recordings):
 * skipped when it is absent, a failure under CI (where .ci/run installs it).
 */
export function describeSnmpsimd(name: string, fn: () => void): void {
  if (fs.existsSync(SNMPSIMD)) return describe(name, fn);
  if (process.env.CI) {
    describe(name, () => {
      it("needs snmpsimd", () => {
        throw new Error(`${SNMPSIMD} is missing: .ci/run must install the snmpsim package`);
      });
    });
    return;
  }
  describe.skip(`${name} (snmpsimd is absent)`, fn);
}

/**
 * describe() for suites that need snmpsimd and the recordings: skipped (reported as
 * skipped) when either is absent; under CI, where .ci/run installs snmpsim, a missing
 * snmpsimd beside present fixtures is a failure rather than a silent skip.
 */
export function describeRecordings(name: string, fn: () => void): void {
  const fixtures = recordingFiles.every((f) => f !== null);
  if (snmpsimReady) return describe(name, fn);
  if (process.env.CI && fixtures) {
    describe(name, () => {
      it("needs snmpsimd", () => {
        throw new Error(`${SNMPSIMD} is missing: .ci/run must install the snmpsim package`);
      });
    });
    return;
  }
  describe.skip(`${name} (snmpsimd or the recordings are absent)`, fn);
}
