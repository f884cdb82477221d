/**
 * The startup scenarios: time from starting a process to the service's first answer of
 * /api/ (its own answer: a 403 without credentials; the 503 "starting" the socket gives
 * while the service starts does not count), for the built server (`node
 * bin/switchdesk.js serve`) and for `npm start` with nothing changed since the last
 * build. One start first creates the database and its superuser; the timed starts find
 * them, as every restart of a service does.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "../app/paths";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, msSince } from "./stats";

const GIVE_UP_MS = 120_000;
const POLL_MS = 10;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Ends the started process and everything it started (its own process group). */
function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      resolve();
    }
  });
}

/** Starts the command and waits for the first answer of /api/ that is not the starting 503. */
async function firstAnswer(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; status: number }> {
  const port = await freePort();
  const start = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd: projectRoot(),
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  try {
    const deadline = Date.now() + GIVE_UP_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null)
        throw new Error(`${command} ${args.join(" ")} ended (${child.exitCode}): ${stderr.trim()}`);
      const status = await fetch(`http://127.0.0.1:${port}/api/`).then(
        (r) => r.arrayBuffer().then(() => r.status),
        () => 0,
      );
      if (status !== 0 && status !== 503) return { ms: msSince(start), status };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`${command} ${args.join(" ")} gave no answer within ${GIVE_UP_MS / 1000} s`);
  } finally {
    await stop(child);
  }
}

export async function startupScenarios(runs: number, log: (line: string) => void): Promise<ScenarioResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-startup-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${path.join(dir, "startup.db")}`,
    SWITCHDESK_SECRET_KEY_FILE: path.join(dir, "secret.key"),
    SWITCHDESK_DEMO: "0",
    SWITCHDESK_ADMIN_PASSWORD: "pw-startup-admin-1",
  };
  const built = ["node", [path.join("bin", "switchdesk.js"), "serve"]] as const;
  const npmStart = ["npm", ["start", "--silent"]] as const;
  try {
    const first = await firstAnswer(built[0], [...built[1]], env);
    log(`  startup: first start (new database) ${first.ms.toFixed(0)} ms, answer ${first.status}`);
    const out: ScenarioResult[] = [];
    for (const [name, [cmd, args]] of [
      ["startup", built],
      ["startup-npm-start", npmStart],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push((await firstAnswer(cmd, [...args], env)).ms);
      log(`  ${name}: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
      out.push(scenarioRow(name, { first_answer_ms: median(times), median_ms: median(times), errors: 0 }));
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
