/**
 * Several switchdesk processes (the built service, `node bin/switchdesk.js serve`) on one
 * database, each on a port of its own choosing (PORT=0): for the scale-out tests and the
 * bench's scale-out scenario. Every wait is bounded; stopAll() ends every process started.
 */
import path from "node:path";
import fs from "node:fs";
import { spawn, type ChildProcess } from "node:child_process";
import { projectRoot } from "../app/paths";

export const built = fs.existsSync(path.join(projectRoot(), "dist", "server", "cli.js"));

export interface Instance {
  url: string;
  child: ChildProcess;
  out: string[];
  err: string[];
  exited: Promise<number | null>;
}

export interface Started {
  instance?: Instance;
  /** exit code when it ended before listening */
  code?: number | null;
  out: string[];
  err: string[];
}

export interface StartOptions {
  timeoutMs?: number;
  /** keep the output lines after the instance listens (false: read and dropped, e.g. under load) */
  keepOutput?: boolean;
  /** options for node itself, before the script (e.g. --cpu-prof) */
  nodeArgs?: string[];
}

/** The service's Node.js options, the same in every way it is started (bin/service-node-options.js). */
export function serviceNodeOptions(): string[] {
  // a file of bin/, outside the build: found from the project's root, from dist/ as from the sources
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
  const { SERVICE_NODE_OPTIONS } = require(path.join(projectRoot(), "bin", "service-node-options.js")) as {
    SERVICE_NODE_OPTIONS: string[];
  };
  return SERVICE_NODE_OPTIONS;
}

/** Starts one instance as it runs in production (its Node.js options included); resolves when it listens, or when it exits before (bounded). */
export function startInstance(env: Record<string, string>, options: StartOptions = {}): Promise<Started> {
  const { timeoutMs = 30_000, keepOutput = true, nodeArgs = [] } = options;
  const root = projectRoot();
  const script = path.join(root, "bin", "switchdesk.js");
  const child = spawn(process.execPath, [...serviceNodeOptions(), ...nodeArgs, script, "serve"], {
    // LOG_LEVEL info: the start-up lines (listening, the first superuser) are info lines of the JSON log
    env: { ...process.env, HOST: "127.0.0.1", PORT: "0", SWITCHDESK_DEMO: "0", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: string[] = [];
  const err: string[] = [];
  let listening = false;
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ code: null, out, err: [...err, `did not listen within ${timeoutMs} ms`] });
    }, timeoutMs);
    const lines = (into: string[]) => (d: Buffer) => {
      if (listening && !keepOutput) return;
      into.push(...d.toString().split("\n").filter(Boolean));
    };
    child.stderr.on("data", lines(err));
    child.stdout.on("data", (d: Buffer) => {
      if (listening) return lines(out)(d);
      lines(out)(d);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api\//.exec(out.join("\n"));
      if (m) {
        listening = true;
        clearTimeout(timer);
        resolve({ instance: { url: m[1], child, out, err, exited }, out, err });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** Ends the instances still running (SIGTERM, then SIGKILL after 5 s). */
export async function stopAll(instances: Instance[]): Promise<void> {
  await Promise.all(
    instances.map(async (i) => {
      if (i.child.exitCode !== null || i.child.signalCode !== null) return;
      i.child.kill("SIGTERM");
      const t = setTimeout(() => i.child.kill("SIGKILL"), 5000);
      await i.exited;
      clearTimeout(t);
    }),
  );
}

/** Each instance's share of DEVICE_CONCURRENCY, as its /metrics says (NaN where it says none). */
export async function deviceShares(instances: Instance[]): Promise<number[]> {
  return Promise.all(
    instances.map(async (i) => {
      const text = await (await fetch(`${i.url}/metrics`)).text();
      return Number(/^switchdesk_device_concurrency (\d+)$/m.exec(text)?.[1]);
    }),
  );
}

/** Polls until every instance's share is `want` (bounded: 6 s; presence beats every 2 s); the shares last seen. */
export async function settledShares(instances: Instance[], want: number): Promise<number[]> {
  let seen: number[] = [];
  for (let i = 0; i < 60; i++) {
    seen = await deviceShares(instances);
    if (seen.every((s) => s === want)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return seen;
}
