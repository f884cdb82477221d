/**
 * A network namespace of the bench's own for an agent no one here wrote: one veth pair
 * joins it to the root namespace (a /30 of 10.0.0.0/8 that nothing of the machine uses,
 * the root end first), and more veth pairs inside it give the agent interfaces to list.
 * Deleting the namespace deletes every link in it and the root end's peer with it.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";

/** where Debian keeps iproute2's `ip` (the first that exists is used) */
const IP_PATHS = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"];

function ipTool(): string | null {
  return IP_PATHS.find((p) => fs.existsSync(p)) ?? null;
}

function ip(args: string[], input?: string): string {
  const tool = ipTool();
  if (!tool) throw new Error("no ip tool (Debian package iproute2)");
  return execFileSync(tool, args, { input, stdio: "pipe", encoding: "utf8", timeout: 10_000 });
}

function ipQuietly(args: string[]): void {
  try {
    ip(args);
  } catch {
    // removing what may already be gone
  }
}

/**
 * Why a namespace cannot be made here (null: it can), checked at once and synchronously:
 * root, iproute2, the programs the scenario runs, and a namespace actually added and deleted.
 */
export function namespaceUnavailable(programs: string[] = []): string | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0)
    return "not running as root (a network namespace needs it)";
  if (!ipTool()) return "no ip tool (Debian package iproute2)";
  for (const p of programs) if (!fs.existsSync(p)) return `no ${p}`;
  const probe = `sdbench-probe-${process.pid}`;
  try {
    ip(["netns", "add", probe]);
  } catch (e) {
    const why = (e as { stderr?: string }).stderr?.trim() || (e as Error).message;
    return `"ip netns add" failed: ${why}`;
  }
  ipQuietly(["netns", "del", probe]);
  return null;
}

const ipv4ToNumber = (a: string) => a.split(".").reduce((n, part) => n * 256 + Number(part), 0);
const numberToIpv4 = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join(".");

/** The IPv4 ranges the root namespace has addresses or routes in (narrower than /8), as [first, last]. */
function rangesInUse(): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const take = (address: string, prefix: number) => {
    if (prefix <= 8) return; // a default or a 10/8 route: our /30 is more specific and wins
    const size = 2 ** (32 - prefix);
    const first = Math.floor(ipv4ToNumber(address) / size) * size;
    ranges.push([first, first + size - 1]);
  };
  const routes = JSON.parse(ip(["-j", "-4", "route", "show", "table", "all"]) || "[]") as Array<{ dst?: string }>;
  for (const r of routes) {
    const m = /^([\d.]+)(?:\/(\d+))?$/.exec(r.dst ?? "");
    if (m) take(m[1], m[2] === undefined ? 32 : Number(m[2]));
  }
  const links = JSON.parse(ip(["-j", "-4", "addr", "show"]) || "[]") as Array<{
    addr_info?: Array<{ local?: string; prefixlen?: number }>;
  }>;
  for (const l of links) for (const a of l.addr_info ?? []) if (a.local) take(a.local, a.prefixlen ?? 32);
  return ranges;
}

/** two host addresses of a /30 in 10.0.0.0/8 that overlaps nothing the root namespace uses */
function unusedPair(): [string, string] {
  const used = rangesInUse();
  for (let attempt = 0; attempt < 64; attempt++) {
    const r = randomBytes(3);
    const first = ipv4ToNumber(`10.${r[0]}.${r[1]}.${r[2] & 0xfc}`);
    if (used.every(([lo, hi]) => first + 3 < lo || first > hi))
      return [numberToIpv4(first + 1), numberToIpv4(first + 2)];
  }
  throw new Error("no unused /30 in 10.0.0.0/8 for the namespace's link");
}

export interface BenchNamespace {
  name: string;
  /** the root namespace's end of the joining pair */
  rootAddress: string;
  /** the namespace's end: where its agent listens */
  address: string;
  /** the links in the namespace (lo, the joining end, both ends of every inner pair) */
  links(): string[];
  /** a program started inside the namespace (`ip netns exec` execs it, so the child is the program) */
  spawn(program: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess;
  /** deletes the namespace (and every link in it); safe to call twice */
  stop(): void;
}

/** A namespace joined to this one by a veth pair, with `pairs` more veth pairs inside it, all up. */
export function startNamespace(pairs: number): BenchNamespace {
  const id = randomBytes(3).toString("hex");
  const name = `sdbench-${id}`;
  const rootEnd = `sdbr-${id}`;
  const innerEnd = `sdbn-${id}`;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    ipQuietly(["netns", "del", name]);
    ipQuietly(["link", "del", rootEnd]);
  };
  try {
    ip(["netns", "add", name]);
    const [rootAddress, address] = unusedPair();
    ip(["link", "add", rootEnd, "type", "veth", "peer", "name", innerEnd, "netns", name]);
    ip(["addr", "add", `${rootAddress}/30`, "dev", rootEnd]);
    ip(["link", "set", rootEnd, "up"]);
    // everything inside in one `ip -batch` run: lo, the joining end, then the inner pairs
    const batch = [`addr add ${address}/30 dev ${innerEnd}`, `link set ${innerEnd} up`, "link set lo up"];
    for (let n = 1; n <= pairs; n++)
      batch.push(
        `link add eth${n} type veth peer name eth${n}-peer`,
        `link set eth${n} up`,
        `link set eth${n}-peer up`,
      );
    ip(["-n", name, "-batch", "-"], batch.join("\n") + "\n");
    const tool = ipTool()!;
    return {
      name,
      rootAddress,
      address,
      links: () =>
        (JSON.parse(ip(["-n", name, "-j", "link", "show"])) as Array<{ ifname: string }>).map((l) => l.ifname),
      spawn: (program, args, env) =>
        spawn(tool, ["netns", "exec", name, program, ...args], { stdio: ["ignore", "pipe", "pipe"], env }),
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}
