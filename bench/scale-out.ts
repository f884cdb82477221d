/**
 * load-64x32 on one and on three instances (README "Scale-out"): service processes on one
 * MariaDB database behind the bench's round-robin proxy, the same 32 lab switches and the
 * same load mix (runLoad) for both, one after the other in the same run. Each row has the
 * calls per second and the p99, the processes' CPU time per call, the database statements
 * per call (MariaDB's own counters), those of one basic read (a short phase of basic reads
 * only after the mix) and the most requests in flight at one switch; the
 * three-instance row adds its ratios to the one-instance row.
 *
 * MariaDB is found at SWITCHDESK_BENCH_MYSQL_URL, else SWITCHDESK_TEST_MYSQL_URL, else
 * mysql://root@127.0.0.1:3306/; the bench creates a database named sdtest_bench_… there
 * (the tests' prefix, so one grant serves both) and drops it afterwards. Without a server
 * the scenario says so and gives no rows.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { LabSwitch } from "../lab";
import { shareOf } from "../app/instance-presence";
import { httpRequest } from "./api-app";
import { settledShares, startInstance, stopAll, type Instance } from "./instances";
import { startRoundRobinProxy } from "./proxy";
import { scenarioRow, type ScenarioResult } from "./results";
import { addLoadDevices, fixture, runLoad, startLoadLabs, type LoadTarget, type ScenarioOptions } from "./scenarios";
import { summary } from "./stats";

const CLIENTS = 64;
const SWITCHES = 32;
const DEVICE_CONCURRENCY = 4;

function serverUrl(): string {
  return (
    process.env.SWITCHDESK_BENCH_MYSQL_URL ?? process.env.SWITCHDESK_TEST_MYSQL_URL ?? "mysql://root@127.0.0.1:3306/"
  );
}

const redacted = (url: string) => url.replace(/\/\/[^@/]*@/, "//");

interface BenchDatabase {
  url: string;
  /** INSERT/UPDATE/DELETE and SELECT statements the server ran so far (all sessions) */
  counts(): Promise<{ writes: number; reads: number }>;
  drop(): Promise<void>;
}

async function createDatabase(server: string): Promise<BenchDatabase | string> {
  const mysql = await import("mysql2/promise");
  let admin: Awaited<ReturnType<typeof mysql.createConnection>>;
  try {
    admin = await mysql.createConnection(server);
  } catch (e) {
    return `no MariaDB answers at ${redacted(server)} (${(e as Error).message}); set SWITCHDESK_BENCH_MYSQL_URL`;
  }
  const name = `sdtest_bench_${crypto.randomBytes(4).toString("hex")}`;
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } catch (e) {
    await admin.end();
    return `cannot create a database at ${redacted(server)} (${(e as Error).message})`;
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async counts() {
      const [rows] = await admin.query(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_insert', 'Com_update', 'Com_delete', 'Com_replace', 'Com_select')",
      );
      const v = Object.fromEntries(
        (rows as { Variable_name: string; Value: string }[]).map((r) => [
          r.Variable_name.toLowerCase(),
          Number(r.Value),
        ]),
      );
      return {
        writes: (v.com_insert ?? 0) + (v.com_update ?? 0) + (v.com_delete ?? 0) + (v.com_replace ?? 0),
        reads: v.com_select ?? 0,
      };
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.end();
    },
  };
}

/** CPU time (user + system, ms) and peak RSS (MiB) of a process, from /proc (Linux). */
function processUse(pid: number): { cpuMs: number; peakMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  // the fields after the command name (which may hold spaces) start at ") "
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const hwm = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  // USER_HZ is 100 on Linux
  return { cpuMs: ticks * 10, peakMb: hwm / 1024 };
}

/** Busy and total CPU time of the whole machine so far (ms, all cores), from /proc/stat. */
function machineUse(): { busyMs: number; totalMs: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0];
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  const total = user + nice + system + idle + iowait + irq + softirq + steal;
  return { busyMs: (total - idle - iowait) * 10, totalMs: total * 10 };
}

async function measure(
  n: number,
  db: BenchDatabase,
  secretKey: string,
  target: LoadTarget,
  o: ScenarioOptions,
): Promise<ScenarioResult> {
  const instances: Instance[] = [];
  try {
    const env = {
      DATABASE_URL: db.url,
      SWITCHDESK_SECRET_KEY: secretKey,
      DEVICE_CONCURRENCY: String(DEVICE_CONCURRENCY),
    };
    // with --cpu-prof=DIR: each process writes its profile there when it stops (the load and its start-up)
    const nodeArgs = o.cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.join(o.cpuProfDir, `${n}-instance`)}`] : [];
    const started = await Promise.all(
      Array.from({ length: n }, () => startInstance(env, { keepOutput: false, nodeArgs })),
    );
    for (const s of started) if (s.instance) instances.push(s.instance);
    if (instances.length !== n)
      throw new Error(`an instance did not start: ${started.map((s) => s.err.join(" | ")).join(" / ")}`);
    const want = shareOf(DEVICE_CONCURRENCY, n);
    const shares = await settledShares(instances, want);
    if (shares.some((x) => x !== want))
      throw new Error(`the instances' shares of DEVICE_CONCURRENCY did not settle on ${want}: ${shares.join(", ")}`);
    const proxy = await startRoundRobinProxy(instances.map((i) => i.url));
    try {
      for (const lab of target.labs) lab.counters.reset();
      const snapshot = async () => ({
        use: instances.map((i) => processUse(i.child.pid!)),
        db: await db.counts(),
        bench: process.cpuUsage(),
        machine: machineUse(),
      });
      const before = await snapshot();
      const run = await runLoad(
        (m, p, opts) => httpRequest(proxy.url, m, p, opts),
        target,
        CLIENTS,
        o.loadSeconds,
        `-${n}`,
      );
      const after = await snapshot();
      const reads = await readPhase((m, p, opts) => httpRequest(proxy.url, m, p, opts), target, db);
      const calls = run.latencies.length;
      const cpuMs = after.use.reduce((t, u, i) => t + u.cpuMs - before.use[i].cpuMs, 0);
      const s = summary(run.latencies);
      // where the machine's CPU went: the service processes, this process (labs, proxy, clients), the rest (MariaDB)
      const cores = (ms: number) => (ms / (run.seconds * 1000)).toFixed(2);
      const benchMs = (after.bench.user + after.bench.system - before.bench.user - before.bench.system) / 1000;
      const machineMs = after.machine.busyMs - before.machine.busyMs;
      const machineCores = (after.machine.totalMs - before.machine.totalMs) / (run.seconds * 1000);
      o.log(
        `  ${n} instance(s): calls per instance ${proxy.sent.join(", ")}; cores busy ${cores(machineMs)} of ${machineCores.toFixed(1)}: ` +
          `service ${cores(cpuMs)}, bench process ${cores(benchMs)}, other (MariaDB) ${cores(machineMs - cpuMs - benchMs)}`,
      );
      return scenarioRow(`load-${CLIENTS}x${SWITCHES}-${n === 1 ? "1-instance" : `${n}-instances`}`, {
        ports: 48,
        latency_ms: o.latencyMs,
        instances: n,
        requests: target.labs.reduce((t, l) => t + l.counters.requests, 0),
        errors: run.statuses.errors,
        statuses: run.statuses.counts,
        rps: calls / run.seconds,
        p50_ms: s.median,
        p99_ms: s.p99,
        peak_rss_mb: after.use.reduce((t, u) => t + u.peakMb, 0),
        max_in_flight: Math.max(...target.labs.map((l: LabSwitch) => l.counters.maxInFlight)),
        cpu_ms_per_call: cpuMs / calls,
        db_writes_per_call: (after.db.writes - before.db.writes) / calls,
        db_reads_per_call: (after.db.reads - before.db.reads) / calls,
        db_reads_per_read_call: reads.reads,
        db_writes_per_read_call: reads.writes,
      });
    } finally {
      await proxy.close();
    }
  } finally {
    await stopAll(instances);
  }
}

/** basic reads per client in the read-only phase */
const READS_PER_CLIENT = 4;

/**
 * The statements of one basic read, after the mix: every client reads its switch's basic
 * view READS_PER_CLIENT times, nothing else runs (the mix's own figures include what its
 * description writes cost). MariaDB's counters are the server's: another session's
 * statements in the meantime count too.
 */
async function readPhase(
  request: (method: string, p: string, opts: { token: string }) => Promise<unknown>,
  t: LoadTarget,
  db: BenchDatabase,
): Promise<{ reads: number; writes: number }> {
  const before = await db.counts();
  let calls = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      const path = `/api/switches/${t.group}/${t.ids[c % t.ids.length]}/`;
      for (let n = 0; n < READS_PER_CLIENT; n++) {
        // a refused read (busy) costs its statements too: every answer counts
        await request("GET", path, { token: t.token });
        calls++;
      }
    }),
  );
  const after = await db.counts();
  return { reads: (after.reads - before.reads) / calls, writes: (after.writes - before.writes) / calls };
}

/** The two rows: load-64x32 through one instance, then through three, on the same switches and database. */
export async function scaleOutScenario(o: ScenarioOptions): Promise<ScenarioResult[]> {
  const db = await createDatabase(serverUrl());
  if (typeof db === "string") {
    o.log(`  skipped: ${db}`);
    return [];
  }
  const secretKey = crypto.randomBytes(32).toString("base64");
  const labs = await startLoadLabs(o, SWITCHES);
  try {
    // the inventory, a user and a token, written by the bench's own service on that database
    const f = await fixture({ databaseUrl: db.url, secretKey });
    let target: LoadTarget;
    try {
      target = await addLoadDevices(f, labs);
    } finally {
      await f.app.close();
    }
    const one = await measure(1, db, secretKey, target, o);
    const three = await measure(3, db, secretKey, target, o);
    const { name, ...measured } = three;
    return [
      one,
      scenarioRow(name, { ...measured, rps_ratio: three.rps! / one.rps!, p99_ratio: three.p99_ms! / one.p99_ms! }),
    ];
  } finally {
    await Promise.all(labs.map((l) => l.stop()));
    await db.drop();
  }
}
