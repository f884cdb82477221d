/**
 * `npm run lab`: starts lab switches on 127.0.0.1 for manual use and prints how to reach
 * them, until Ctrl-C. Without flags it starts the demo lab (three switches); with
 * --count/--profile/--ports... it starts that many switches of one kind.
 */
import { demoLabOptions, startLabSwitch } from "./lab-switch";
import type { LabSwitch, LabSwitchOptions } from "./index";

export const labUsage = `usage: lab [--count N] [--profile generic|ciscosb] [--ports 8..384]
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

function parsePorts(text: string): number[] | "all" | "none" {
  if (text === "all" || text === "none") return text;
  const out: number[] = [];
  for (const part of text.split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) throw new Error(`bad --poe value: ${text}\n${labUsage}`);
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    for (let p = a; p <= b; p++) out.push(p);
  }
  return out;
}

function parseFlags(argv: string[]): LabSwitchOptions[] | null {
  if (argv.length === 0) return null;
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") throw new Error(labUsage);
    if (!a.startsWith("--") || i + 1 >= argv.length) throw new Error(`unexpected argument: ${a}\n${labUsage}`);
    flags.set(a.slice(2), argv[++i]);
  }
  const known = ["count", "profile", "ports", "poe", "latency", "seed", "port", "community", "write-community"];
  for (const k of flags.keys()) if (!known.includes(k)) throw new Error(`unknown flag --${k}\n${labUsage}`);
  const num = (k: string) => {
    const v = flags.get(k);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${k} needs a whole number, got ${v}`);
    return n;
  };
  const profile = flags.get("profile") ?? "generic";
  if (profile !== "generic" && profile !== "ciscosb") throw new Error(`unknown profile: ${profile}\n${labUsage}`);
  const count = num("count") ?? 1;
  const ports = num("ports") ?? 24;
  const firstPort = num("port");
  const seed = num("seed") ?? 1;
  return Array.from({ length: count }, (_, i) => ({
    profile,
    ports,
    poePorts: flags.has("poe") ? parsePorts(flags.get("poe")!) : undefined,
    latencyMs: num("latency"),
    seed: seed + i,
    name: count === 1 ? undefined : `lab-${profile}-${ports}-${i + 1}`,
    port: firstPort === undefined ? undefined : firstPort + i,
    community: flags.get("community"),
    writeCommunity: flags.get("write-community"),
  }));
}

function describe(s: LabSwitch): string {
  const o = s.options;
  const v3 = o.v3 ? `, v3 user ${o.v3.username} (${o.v3.authProtocol} "${o.v3.authKey}", ${o.v3.privProtocol} "${o.v3.privKey}")` : "";
  const save = s.model.needsSave ? ", needs save" : "";
  return `${o.name}: ${o.profile}, ${o.ports} ports${save}, udp 127.0.0.1:${s.port}, communities "${o.community}" (read) / "${o.writeCommunity}" (write)${v3}`;
}

export async function runLabCli(argv: string[], io: LabCliIo = {}): Promise<LabCliHandle> {
  const out = io.out ?? ((line: string) => console.log(line));
  const plan = parseFlags(argv) ?? demoLabOptions();
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
