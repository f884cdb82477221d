/**
 * `npm run lab`: starts lab switches on 127.0.0.1 for manual use and prints how to reach
 * them, until Ctrl-C. Without flags it starts the demo lab (three switches); with
 * --count/--profile/--ports... it starts that many switches of one kind.
 */
import { parseArgs } from "node:util";
import { demoLabOptions, startLabSwitch } from "./lab-switch";
import { isProfileId, profileIds } from "./profiles";
import type { LabSwitch, LabSwitchOptions } from "./types";

export const labUsage = `usage: switchdesk lab [--count N] [--profile ${profileIds.join("|")}] [--ports 8..384]
           [--poe all|none|1,2,5-8] [--latency MS] [--seed N] [--port FIRST_UDP_PORT]
           [--community NAME] [--write-community NAME]
without flags: the demo lab (8-port generic, 24-port generic with PoE, 48-port ciscosb)`;

export interface LabCliHandle {
  switches: LabSwitch[];
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
} as const;

/**
 * The lab's command line: "help" when asked for, the switches to start (null: the demo
 * lab), or a LabUsageError naming the first problem (unknown flag, missing value, bad number).
 */
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
  if (argv.length === 0) return null;
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
  const switches: LabSwitch[] = [];
  try {
    for (const o of plan) switches.push(await startLabSwitch(o));
  } catch (e) {
    await Promise.all(switches.map((s) => s.stop()));
    throw e;
  }
  for (const s of switches) out(describe(s));
  let stopping: Promise<void> | null = null;
  const onSignal = () => void stop();
  const stop = () => {
    if (!stopping) {
      process.removeListener("SIGINT", onSignal);
      process.removeListener("SIGTERM", onSignal);
      stopping = Promise.all(switches.map((s) => s.stop())).then(() => undefined);
    }
    return stopping;
  };
  if (io.handleSignals ?? true) {
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    out("lab running; Ctrl-C stops it");
  }
  return { switches, stop };
}
