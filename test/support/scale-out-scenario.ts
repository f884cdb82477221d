/**
 * The three-instance scenario (README "Scale-out"), on whatever database the caller
 * names: one URL per instance (one MariaDB database, or the three nodes of a Galera
 * cluster holding it). A client sends concurrent writes for one lab switch through all
 * three instances and concurrent reads through all three; the lab's journal must show
 * every write's requests (learn, SET, read-back) as one block, never interleaved with
 * another write's. Then one instance is killed with SIGKILL in the middle of a write.
 */
import { startLabSwitch, type LabSwitch } from "../../lab";
import type { JournalEntry } from "../../lab/snmp/faults";
import { call, startInstance, stopAll, tokenFor, type Answer, type Instance } from "./instances";
import type { Schemas } from "./harness";

const SECRET = "c2NhbGUtb3V0LXRlc3Qta2V5LW9mLTMyLWJ5dGVzLi4u";
const PASSWORD = "scale-pass-1";
const WRITES_PER_INSTANCE = 4;
const READS_PER_INSTANCE = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The journal's write sessions (sockets that sent a SET) in order; throws on interleaving. */
export function writeBlocks(journal: readonly JournalEntry[]): string[] {
  const writers = new Set(journal.filter((e) => e.type === "set").map((e) => e.from));
  const order: string[] = [];
  for (const e of journal) {
    if (!writers.has(e.from)) continue;
    if (order.at(-1) === e.from) continue;
    if (order.includes(e.from))
      throw new Error(`write session ${e.from} resumed after another write's requests: writes interleaved`);
    order.push(e.from);
  }
  return order;
}

/**
 * Runs `check`; when it throws, the error also says what the instances logged of a write
 * lease lost mid-write (a holder whose renewals came late, on a starved machine), or that
 * none of them logged one.
 */
function withLeaseLines<T>(instances: readonly Instance[], check: () => T): T {
  try {
    return check();
  } catch (e) {
    const lost = instances.flatMap((i) => [...i.out, ...i.err].filter((l) => l.includes("was lost while writing")));
    const told = lost.length ? `the instances logged:\n${lost.join("\n")}` : "no instance logged a lost write lease";
    if (e instanceof Error) e.message = `${e.message}\n(${told})`;
    throw e;
  }
}

export interface ScenarioResult {
  instances: Instance[];
  writes: number;
  reads: number;
  killWaitMs: number;
}

/**
 * Runs the scenario with `expect`; `urls[i]` is instance i's DATABASE_URL. Every process
 * and the lab are stopped at the end, also on failure.
 */
export async function runScaleOutScenario(urls: string[]): Promise<ScenarioResult> {
  const lab: LabSwitch = await startLabSwitch({ profile: "generic", ports: 8, latencyMs: 15 });
  const instances: Instance[] = [];
  try {
    const env = (url: string) => ({
      DATABASE_URL: url,
      SWITCHDESK_SECRET_KEY: SECRET,
      SWITCHDESK_ADMIN_PASSWORD: PASSWORD,
      DEVICE_LEASE_SECONDS: "2",
    });
    const started = await Promise.all(urls.map((u) => startInstance(env(u))));
    for (const s of started) if (s.instance) instances.push(s.instance);
    expect(started.map((s) => (s.instance ? "listening" : `exit ${s.code}: ${s.err.join(" | ")}`))).toEqual(
      urls.map(() => "listening"),
    );
    // one first superuser among the three
    expect(started.filter((s) => s.out.some((l) => l.includes("Created superuser"))).length).toBe(1);

    const [a, b, c] = instances;
    const token = await tokenFor(a.url, "admin", PASSWORD);
    const t = lab.snmpTarget({ write: true });
    const profile = (
      await call(a.url, "POST", "/api/admin/snmpprofiles/", token, {
        name: "lab",
        community: t.community,
        timeout_ms: 1000,
      })
    ).body.id;
    const group = (await call(b.url, "POST", "/api/admin/switchgroups/", token, { name: "Lab" })).body.id;
    const sw = await call(c.url, "POST", "/api/admin/switches/", token, {
      name: "lab-1",
      primary_ipv4: "127.0.0.1",
      snmp_port: lab.port,
      snmp_profile: profile,
      switchgroups: [group],
    });
    expect(sw.status).toBe(201);
    const port = lab.model.port(1);
    const base = `/api/switches/${group}/${sw.body.id}`;
    const setDescription = (i: Instance, text: string) =>
      call(i.url, "POST", `${base}/interface/${port.ifIndex}/description/`, token, { description: text });

    // concurrent writes through all three and concurrent reads through all three
    lab.counters.reset();
    const writes: Promise<Answer>[] = [];
    const reads: Promise<Answer>[] = [];
    const texts: string[] = [];
    for (let k = 0; k < WRITES_PER_INSTANCE; k++) {
      instances.forEach((inst, n) => {
        const text = `write ${n}.${k}`;
        texts.push(text);
        writes.push(setDescription(inst, text));
      });
    }
    for (let k = 0; k < READS_PER_INSTANCE; k++)
      for (const inst of instances) reads.push(call(inst.url, "GET", `${base}/`, token));
    const [wrote, read] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
    for (const w of wrote)
      expect({ status: w.status, body: w.body }).toEqual({
        status: 200,
        body: { result: expect.stringContaining(port.name) },
      });
    for (const r of read) {
      expect(r.status).toBe(200);
      expect(r.body.interfaces.length).toBe(lab.model.interfaces.length);
      // a read sees some complete write's value (or the first one), never a torn one
      expect([lab.model.alias(port.ifIndex), ...texts, ""]).toContain(
        r.body.interfaces.find((i: Schemas["Interface"]) => i.id === String(port.ifIndex)).description,
      );
    }
    // one block per API write in the lab's journal, each with its SET and read-back
    const blocks = withLeaseLines(instances, () => writeBlocks(lab.counters.journal));
    expect(blocks.length).toBe(texts.length);
    for (const from of blocks) {
      const own = lab.counters.journal.filter((e) => e.from === from);
      const set = own.findIndex((e) => e.type === "set");
      expect(own.slice(set + 1).some((e) => e.type === "get")).toBe(true);
    }
    // every instance now reads the value of the last SET
    const final = lab.model.alias(port.ifIndex);
    expect(texts).toContain(final);
    for (const inst of instances) {
      const r = await call(inst.url, "GET", `${base}/`, token);
      expect(r.body.interfaces.find((i: Schemas["Interface"]) => i.id === String(port.ifIndex)).description).toBe(
        final,
      );
    }

    // SIGKILL an instance in the middle of a write: its lease expires, the others go on
    lab.faults.latencyMs = 300;
    lab.counters.reset();
    const killed = setDescription(a, "killed write").catch((e: Error) => e);
    for (let i = 0; i < 100 && lab.counters.journal.length < 2; i++) await sleep(50);
    expect(lab.counters.journal.length).toBeGreaterThanOrEqual(2);
    a.child.kill("SIGKILL");
    await a.exited;
    // the connection died with its process: no answer at all (fetch's TypeError)
    expect(await killed).toMatchObject({ name: "TypeError", message: "fetch failed" });
    lab.faults.latencyMs = 15;
    const t0 = Date.now();
    const after = await Promise.all([setDescription(b, "after kill b"), setDescription(c, "after kill c")]);
    const killWaitMs = Date.now() - t0;
    for (const w of after) expect(w.status).toBe(200);
    expect(["after kill b", "after kill c"]).toContain(lab.model.alias(port.ifIndex));

    // the audit log: the instance that took the lease over settled what is known of the
    // killed write, as one row of outcome unknown: the write's own row, written as pending
    // before the device was changed, when it got that far; else a row of its lease
    const log = await call(b.url, "GET", `/api/admin/log/?switch=${sw.body.id}&page_size=100`, token);
    expect(log.status).toBe(200);
    const rows = log.body.results as Schemas["LogEntry"][];
    expect(rows.filter((r) => r.outcome === "pending")).toEqual([]);
    const own = rows.filter((r) => r.new_value === "killed write");
    const cut = rows.filter((r) => r.action === "request:device_write");
    expect(own.length + cut.length).toBe(1);
    const [told] = [...own, ...cut];
    expect(told).toMatchObject({ outcome: "unknown", code: "device_outcome_unknown", switch_name: "lab-1" });
    expect(told.message).toMatch(
      own.length
        ? /^The outcome of this write to device 'lab-1' \(started .+\) was never recorded: /
        : /^A write to device 'lab-1' through instance .+ was cut off: the instance stopped renewing its write lease/,
    );
    expect(rows.filter((r) => r.action === "description" && r.outcome === "success")).toHaveLength(texts.length + 2);

    return { instances, writes: wrote.length + after.length, reads: read.length, killWaitMs };
  } finally {
    await stopAll(instances);
    await lab.stop();
  }
}
