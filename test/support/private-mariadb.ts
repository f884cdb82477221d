/**
 * A private MariaDB server for one test, which the test may stop and start again: its own
 * data folder under a temporary folder, its own port on 127.0.0.1 and socket, running as
 * the mysql user (the helpers of test/support/galera.ts). The shared server on 3306 is
 * never touched. Every wait is bounded; destroy() ends the server and removes the folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { MARIADBD, installDatadir, run, sql } from "./galera";
import { freePort } from "./slapd";

export interface PrivateMariadb {
  /** mysql:// URL of the test database, for a user with all rights on it */
  url: string;
  port: number;
  /** starts the server (again) on the same data, port and socket; resolves once it answers */
  start(): Promise<void>;
  /** stops it: SIGTERM (a clean shutdown) or SIGKILL (a crash); resolves once it exited */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** a statement as root over the socket (the server must be running) */
  sql(text: string): Promise<string>;
  destroy(): Promise<void>;
}

/** Why a private server cannot run here, or null when it can. */
export function privateMariadbUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "a private mariadbd runs as the mysql user and needs root to start";
  for (const f of [MARIADBD, "/usr/bin/mariadb-install-db", "/usr/bin/mariadb"])
    if (!fs.existsSync(f)) return `${f} is missing (install mariadb-server)`;
  return null;
}

export async function createPrivateMariadb(database: string): Promise<PrivateMariadb> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-mariadb-"));
  fs.chmodSync(root, 0o755);
  const dir = path.join(root, "data");
  const socket = path.join(root, "mariadb.sock");
  const log = path.join(root, "mariadb.err");
  const tmp = path.join(root, "tmp");
  const port = await freePort();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const running = () => child !== null && child.exitCode === null && child.signalCode === null;

  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    if (!child || !running()) return;
    child.kill(signal);
    const t = setTimeout(() => child?.kill("SIGKILL"), 20_000);
    await exited;
    clearTimeout(t);
  };

  const start = async () => {
    if (running()) return;
    const args = [
      "--no-defaults",
      "--user=mysql",
      `--datadir=${dir}`,
      `--socket=${socket}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      `--pid-file=${path.join(root, "mariadb.pid")}`,
      `--log-error=${log}`,
      // its own temporary folder: a starting mariadbd deletes every "#sql*" file in its
      // tmpdir, and in the shared /tmp those are the live temporary tables of the
      // machine's MariaDB (the tests' main server), which then fails their statements
      `--tmpdir=${tmp}`,
      "--skip-name-resolve",
      "--skip-log-bin",
      "--innodb-buffer-pool-size=16M",
      "--innodb-log-file-size=8M",
    ];
    const c = spawn(MARIADBD, args, { stdio: "ignore" });
    child = c;
    exited = new Promise((r) => c.once("exit", () => r()));
    const until = Date.now() + 30_000;
    let last = "";
    while (Date.now() < until) {
      if (!running()) break;
      try {
        await sql({ socket }, "select 1");
        return;
      } catch (e) {
        last = (e as Error).message;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const tail = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").slice(-10).join("\n") : "";
    throw new Error(`private mariadbd on port ${port} did not start (${last.trim()}):\n${tail}`);
  };

  const destroy = async () => {
    await stop("SIGKILL");
    fs.rmSync(root, { recursive: true, force: true });
  };

  try {
    fs.mkdirSync(tmp);
    await run("chown", ["mysql:mysql", root, tmp]);
    await installDatadir(dir);
    await start();
    await sql(
      { socket },
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
       CREATE USER 'sdprivate'@'127.0.0.1' IDENTIFIED BY 'sdprivate';
       GRANT ALL PRIVILEGES ON \`${database}\`.* TO 'sdprivate'@'127.0.0.1';`,
    );
  } catch (e) {
    await destroy();
    throw e;
  }
  return {
    url: `mysql://sdprivate:sdprivate@127.0.0.1:${port}/${database}`,
    port,
    start,
    stop,
    sql: (text) => sql({ socket }, text),
    destroy,
  };
}
