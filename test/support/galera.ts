/**
 * A three-node MariaDB Galera cluster on loopback for one test: Debian's mariadb-server
 * and galera-4, each node with its own data folder under a temporary folder and its own
 * ports (client, group communication, IST, rsync SST), running as the mysql user (rsync
 * state transfer fails as root). Node 1 starts the cluster (--wsrep-new-cluster); nodes 2
 * and 3 join it one after the other. Every wait is bounded; stop() ends the three servers
 * and removes the folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFile, spawn, type ChildProcess } from "node:child_process";

export const GALERA_PROVIDER = "/usr/lib/galera/libgalera_smm.so";
export const MARIADBD = "/usr/sbin/mariadbd";

/** Why the cluster cannot run here, or null when it can. */
export function galeraUnavailable(): string | null {
  if (process.getuid?.() !== 0) return "the Galera test starts mariadbd as the mysql user and needs root";
  for (const f of [GALERA_PROVIDER, MARIADBD, "/usr/bin/mariadb-install-db", "/usr/bin/rsync"]) {
    if (!fs.existsSync(f)) return `${f} is missing (install mariadb-server, galera-4 and rsync)`;
  }
  return null;
}

interface Node {
  n: number;
  dir: string;
  socket: string;
  port: number;
  gcomm: number;
  child?: ChildProcess;
  exited?: Promise<void>;
}

export interface GaleraCluster {
  /** mysql:// URLs of the one test database, one per node */
  urls: string[];
  stop(): Promise<void>;
}

/** runs a command (bounded), its standard output */
export const run = (cmd: string, args: string[], timeoutMs = 30_000) =>
  new Promise<string>((resolve, reject) =>
    execFile(cmd, args, { timeout: timeoutMs }, (e, out, err) =>
      e ? reject(new Error(`${cmd} ${args.join(" ")}: ${err || e.message}`)) : resolve(out),
    ),
  );

/** a statement as root over the server's socket (bounded) */
export const sql = (node: { socket: string }, text: string) =>
  run("mariadb", ["--no-defaults", "--protocol=socket", `--socket=${node.socket}`, "-uroot", "-N", "-e", text], 10_000);

/**
 * A data folder at `dir` as `mariadb-install-db` makes it (system tables, root by socket,
 * no test database, owned by mysql): copied from one made once per server binary and kept
 * in the temporary folder. mariadb-install-db takes seconds, nearly all of them waiting
 * for the disk; the copy takes a fraction of one. `dir`'s parent must belong to mysql.
 */
export async function installDatadir(dir: string): Promise<void> {
  const binary = fs.statSync(MARIADBD);
  const template = path.join(os.tmpdir(), `switchdesk-mariadb-datadir-${binary.size}-${Math.floor(binary.mtimeMs)}`);
  if (!fs.existsSync(template)) {
    // made beside it and renamed into place when complete: a concurrent run either finds
    // a whole one or makes its own, and the second rename loses
    const making = fs.mkdtempSync(`${template}.making-`);
    try {
      fs.chmodSync(making, 0o755);
      await run("chown", ["mysql:mysql", making]);
      await run(
        "mariadb-install-db",
        [
          "--no-defaults",
          "--user=mysql",
          `--datadir=${path.join(making, "data")}`,
          "--skip-test-db",
          "--auth-root-authentication-method=socket",
        ],
        120_000,
      );
      fs.renameSync(making, template);
    } catch (e) {
      fs.rmSync(making, { recursive: true, force: true });
      if (!fs.existsSync(template)) throw e;
    }
  }
  await run("cp", ["-a", path.join(template, "data"), dir], 60_000);
}

async function waitReady(node: Node, size: number, log: string): Promise<void> {
  const until = Date.now() + 90_000;
  let last = "";
  while (Date.now() < until) {
    if (node.child?.exitCode !== null && node.child?.exitCode !== undefined) break;
    try {
      last = await sql(
        node,
        "SHOW STATUS WHERE Variable_name IN ('wsrep_ready','wsrep_cluster_size','wsrep_local_state_comment')",
      );
      if (
        /wsrep_ready\s+ON/.test(last) &&
        new RegExp(`wsrep_cluster_size\\s+${size}\\b`).test(last) &&
        /Synced/.test(last)
      )
        return;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  const tail = fs.existsSync(log) ? fs.readFileSync(log, "utf8").split("\n").slice(-15).join("\n") : "";
  throw new Error(`Galera node ${node.n} not ready (${last.trim()}):\n${tail}`);
}

export async function startGaleraCluster(database: string): Promise<GaleraCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-galera-"));
  fs.chmodSync(root, 0o755);
  // below the kernel's ephemeral range (32768 and up), so no outgoing connection of this
  // machine holds one of the cluster's ports when a node binds it
  const base = 20000 + Math.floor(Math.random() * 1200) * 10;
  const nodes: Node[] = [1, 2, 3].map((n) => ({
    n,
    dir: path.join(root, `node${n}`),
    socket: path.join(root, `node${n}.sock`),
    port: base + n,
    gcomm: base + 10 + n * 3,
  }));
  const cluster = `gcomm://${nodes.map((x) => `127.0.0.1:${x.gcomm}`).join(",")}`;
  const stop = async () => {
    await Promise.all(
      nodes.map(async (x) => {
        if (!x.child || x.child.exitCode !== null || x.child.signalCode !== null) return;
        x.child.kill("SIGTERM");
        const t = setTimeout(() => x.child!.kill("SIGKILL"), 20_000);
        await x.exited;
        clearTimeout(t);
      }),
    );
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    // one temporary folder per node: each deletes the "#sql*" files of its own at start
    const tmps = nodes.map((x) => `${x.dir}-tmp`);
    for (const t of tmps) fs.mkdirSync(t);
    await run("chown", ["mysql:mysql", root, ...tmps]);
    for (const x of nodes) await installDatadir(x.dir);
    for (const x of nodes) {
      const log = path.join(root, `node${x.n}.err`);
      const args = [
        "--no-defaults",
        "--user=mysql",
        `--datadir=${x.dir}`,
        `--socket=${x.socket}`,
        `--port=${x.port}`,
        "--bind-address=127.0.0.1",
        `--pid-file=${path.join(root, `node${x.n}.pid`)}`,
        `--log-error=${log}`,
        // not the shared /tmp: a starting mariadbd deletes every "#sql*" file in its tmpdir
        // (private-mariadb.ts says why that matters)
        `--tmpdir=${x.dir}-tmp`,
        "--skip-name-resolve",
        "--innodb-buffer-pool-size=32M",
        "--binlog-format=ROW",
        "--default-storage-engine=InnoDB",
        "--innodb-autoinc-lock-mode=2",
        "--wsrep-on=ON",
        `--wsrep-provider=${GALERA_PROVIDER}`,
        "--wsrep-cluster-name=switchdesk-test",
        `--wsrep-cluster-address=${cluster}`,
        "--wsrep-node-address=127.0.0.1",
        `--wsrep-node-name=node${x.n}`,
        `--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:${x.gcomm};ist.recv_addr=127.0.0.1:${x.gcomm + 1};gcache.size=32M`,
        "--wsrep-sst-method=rsync",
        `--wsrep-sst-receive-address=127.0.0.1:${x.gcomm + 2}`,
        ...(x.n === 1 ? ["--wsrep-new-cluster"] : []),
      ];
      x.child = spawn(MARIADBD, args, { stdio: "ignore" });
      x.exited = new Promise((r) => x.child!.once("exit", () => r()));
      await waitReady(x, x.n, log);
    }
    await sql(
      nodes[0],
      `CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
       CREATE USER 'sdgalera'@'127.0.0.1' IDENTIFIED BY 'sdgalera';
       GRANT ALL PRIVILEGES ON \`${database}\`.* TO 'sdgalera'@'127.0.0.1';`,
    );
    return { urls: nodes.map((x) => `mysql://sdgalera:sdgalera@127.0.0.1:${x.port}/${database}`), stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
