/**
 * `npm run lab`: starts lab switches on 127.0.0.1 for manual use and prints how to reach
 * them, until Ctrl-C. Without flags it starts the demo lab (three switches); with
 * --count/--profile/--ports... it starts that many switches of one kind. Each switch
 * shows every face its profile has (SNMP always; the IOS command line, AOS-CX REST, eAPI
 * or NETCONF: lab/faces.ts); --json prints one JSON object per switch on its own line.
 */
import { parseArgs } from "node:util";
import { startFaces, type StartedFace } from "./faces";
import { demoLabOptions, startLabSwitch } from "./lab-switch";
import { isProfileId, profileIds } from "./profiles";
import type { LabSwitch, LabSwitchOptions } from "./types";

export const labUsage = `usage: switchdesk lab [--count N] [--profile ${profileIds.join("|")}] [--ports 8..384]
           [--poe all|none|1,2,5-8] [--latency MS] [--seed N] [--port FIRST_UDP_PORT]
           [--community NAME] [--write-community NAME] [--json]
without flags: the demo lab (8-port generic, 24-port generic with PoE, 48-port ciscosb)
every switch shows the faces its profile has: SNMP, and the IOS command line (cisco),
AOS-CX REST (arubacx), eAPI (arista) or NETCONF (juniper); --json prints one JSON object
per switch on its own line`;

export interface LabCliHandle {
  switches: LabSwitch[];
  /** the faces beside SNMP, per switch (same order as switches) */
  faces: StartedFace[][];
  stop(): Promise<void>;
}

export interface LabCliIo {
  out?: (line: string) => void;
  /** stop on SIGINT/SIGTERM (default true); tests pass false and call stop() */
  handleSignals?: boolean;
}

/** A command line the lab cannot run: one line for the user, exit code 2. */
export class LabUsageError extends Error {
  readonly exitCode = 2;
}

function parsePorts(text: string): number[] | "all" | "none" {
  if (text === "all" || text === "none") return text;
  const out: number[] = [];
  for (const part of text.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new LabUsageError(`bad --poe value: ${text} (expected all, none or a list such as 1,2,5-8)`);
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    if (b < a || b - a > 4096) throw new LabUsageError(`bad --poe range: ${part}`);
    for (let p = a; p <= b; p++) out.push(p);
  }
  return out;
}

const LAB_OPTIONS = {
  help: { type: "boolean", short: "h" },
  count: { type: "string" },
  profile: { type: "string" },
  ports: { type: "string" },
  poe: { type: "string" },
  latency: { type: "string" },
  seed: { type: "string" },
  port: { type: "string" },
  community: { type: "string" },
  "write-community": { type: "string" },
  json: { type: "boolean" },
} as const;

/**
 * The lab's command line: "help" when asked for, the switches to start (null: the demo
 * lab), or a LabUsageError naming the first problem (unknown flag, missing value, bad number).
 */
/** Whether the command line asks for JSON lines (parseLabArgs checks the rest). */
export function wantsJson(argv: readonly string[]): boolean {
  return argv.includes("--json");
}

export function parseLabArgs(argv: string[]): "help" | LabSwitchOptions[] | null {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof LAB_OPTIONS; strict: true; allowPositionals: false }>
  >;
  try {
    parsed = parseArgs({ args: argv, options: LAB_OPTIONS, strict: true, allowPositionals: false });
  } catch (e) {
    throw new LabUsageError((e as Error).message.split("\n")[0]);
  }
  const flags = parsed.values;
  if (flags.help) return "help";
  if (argv.filter((a) => a !== "--json").length === 0) return null;
  const num = (k: keyof typeof LAB_OPTIONS) => {
    const v = flags[k] as string | undefined;
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new LabUsageError(`--${k} needs a whole number, got ${v}`);
    return n;
  };
  const profile = flags.profile ?? "generic";
  if (!isProfileId(profile)) throw new LabUsageError(`unknown profile: ${profile} (${profileIds.join(", ")})`);
  const count = num("count") ?? 1;
  if (count < 1 || count > 256) throw new LabUsageError(`--count must be 1 to 256, got ${count}`);
  const ports = num("ports") ?? 24;
  const firstPort = num("port");
  const seed = num("seed") ?? 1;
  return Array.from({ length: count }, (_, i) => ({
    profile,
    ports,
    poePorts: flags.poe !== undefined ? parsePorts(flags.poe) : undefined,
    latencyMs: num("latency"),
    seed: seed + i,
    name: count === 1 ? undefined : `lab-${profile}-${ports}-${i + 1}`,
    port: firstPort === undefined ? undefined : firstPort + i,
    community: flags.community,
    writeCommunity: flags["write-community"],
  }));
}

/** One switch as `--json` prints it: its name, profile and every face with how to reach it. */
export function switchJson(s: LabSwitch, faces: readonly StartedFace[]): string {
  const o = s.options;
  const all: Record<string, unknown> = {
    snmp: { host: s.host, port: s.port, community: o.community, write_community: o.writeCommunity },
  };
  for (const f of faces) all[f.kind] = { ...f.access };
  return JSON.stringify({ name: o.name, profile: o.profile, faces: all });
}

function describe(s: LabSwitch): string {
  const o = s.options;
  const v3 = o.v3
    ? `, v3 user ${o.v3.username} (${o.v3.authProtocol} "${o.v3.authKey}", ${o.v3.privProtocol} "${o.v3.privKey}")`
    : "";
  const save = s.model.needsSave ? ", needs save" : "";
  return `${o.name}: ${o.profile}, ${o.ports} ports${save}, udp 127.0.0.1:${s.port}, communities "${o.community}" (read) / "${o.writeCommunity}" (write)${v3}`;
}

export async function runLabCli(argv: string[], io: LabCliIo = {}): Promise<LabCliHandle> {
  const out = io.out ?? ((line: string) => console.log(line));
  const parsed = parseLabArgs(argv);
  if (parsed === "help") throw new LabUsageError("runLabCli: --help is answered by the caller (labUsage)");
  const plan = parsed ?? demoLabOptions();
  const json = wantsJson(argv);
  const switches: LabSwitch[] = [];
  const faces: StartedFace[][] = [];
  const stopAll = () =>
    Promise.all([...faces.flat().map((f) => f.stop()), ...switches.map((s) => s.stop())]).then(() => undefined);
  try {
    for (const o of plan) {
      const s = await startLabSwitch(o);
      switches.push(s);
      faces.push(await startFaces(s));
    }
  } catch (e) {
    await stopAll();
    throw e;
  }
  switches.forEach((s, i) => {
    if (json) return out(switchJson(s, faces[i]));
    out(describe(s));
    for (const f of faces[i]) out(`  ${f.describe()}`);
  });
  let stopping: Promise<void> | null = null;
  const onSignal = () => void stop();
  const stop = () => {
    if (!stopping) {
      process.removeListener("SIGINT", onSignal);
      process.removeListener("SIGTERM", onSignal);
      stopping = stopAll();
    }
    return stopping;
  };
  if (io.handleSignals ?? true) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    // a JSON reader gets JSON lines only
    if (!json) out("lab running; Ctrl-C stops it");
  }
  return { switches, faces, stop };
}
