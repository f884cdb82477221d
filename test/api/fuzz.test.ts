/**
 * Property-based fuzzing of every operation of spec/openapi.yaml (fast-check): at least
 * 10,000 generated requests with every kind of caller, valid, near-valid, hostile and
 * malformed bodies and odd path parameters, against the real service with lab switches
 * behind it (device writes reach simulated switches). No answer may be >= 500, no
 * connection may be dropped, every error carries `reason` and `code`, and every answer
 * matches the spec.
 *
 * The seed is printed; SWITCHDESK_FUZZ_SEED=<n> sends the same requests again (with
 * SWITCHDESK_FUZZ_CONCURRENCY=1 also in the same order), SWITCHDESK_FUZZ_REQUESTS sets
 * how many, SWITCHDESK_FUZZ_KEEP_GOING=1 collects every finding instead of stopping at
 * the first batch with one, SWITCHDESK_FUZZ_PATH=<path fast-check printed> sends only the
 * failing batch again, SWITCHDESK_FUZZ_DEBUG=1 prints the reason of every 400.
 */
import http from "node:http";
import fc from "fast-check";
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb, dialect } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import { operationsOf, requestArb, type FuzzRequest } from "../support/fuzz/requests";
import { sendAndJudge, type Finding, type World } from "../support/fuzz/client";
import type { LabSwitch } from "../../lab";

const envInt = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const SEED = envInt("SWITCHDESK_FUZZ_SEED", Date.now() % 2 ** 31);
const REQUESTS = envInt("SWITCHDESK_FUZZ_REQUESTS", 10_000);
const CONCURRENCY = envInt("SWITCHDESK_FUZZ_CONCURRENCY", 8);
const BATCH = 50;
const KEEP_GOING = process.env.SWITCHDESK_FUZZ_KEEP_GOING === "1";
const DEBUG = process.env.SWITCHDESK_FUZZ_DEBUG === "1";

/**
 * Operations that cost the most per call are chosen a sixth as often as the others, so
 * that the run stays within a minute: those that hash or check a password (argon2), and
 * the metrics text (every series the process has, histogram buckets included, written out
 * on each call: about 7% of the suite's CPU at the others' share).
 */
const COSTLY = new Set(["createToken", "createUser", "updateUser", "patchUser", "getMetrics"]);

/**
 * Once per run, on SQLite: the shell, validation and handlers it exercises are the same on
 * both stores, and the store's own behaviour is tried on MariaDB by the suites that run there
 * (test/support/api-databases.js). SWITCHDESK_FUZZ_ALL_DBS=1 runs it on MariaDB as well.
 */
const fuzzHere = dialect === "sqlite" || process.env.SWITCHDESK_FUZZ_ALL_DBS === "1";
if (!fuzzHere) console.log("API fuzzer: runs on SQLite only (SWITCHDESK_FUZZ_ALL_DBS=1 runs it here too)");

(fuzzHere ? describeDb : describe.skip)("API fuzzer (every operation of the spec)", () => {
  let app: TestApp;
  let labs: LabSwitch[] = [];
  let world: World;

  beforeAll(async () => {
    const started = await startAppWithRoot();
    app = started.app;
    // one model three times: device calls run one after another per switch
    labs = await Promise.all(
      [1, 2, 3].map(() =>
        startLab({ profile: "generic", ports: 8, poePorts: [1, 2, 3, 4], name: "fuzz-lab", seed: 11 }),
      ),
    );
    const roId = await app.createUser("ro-user", "pw-ro-1", { profile: { read_only: true } });
    const group = await addGroup(app, { name: "fuzz-lab-group", users: [roId], allow_poe_toggle: true });
    const switches: number[] = [];
    for (const [i, lab] of labs.entries())
      switches.push(await addDevice(app, { name: i ? `fuzz-lab-${i}` : "fuzz-lab", lab, groups: [group] }));
    const readOnly = await app.login("ro-user", "pw-ro-1");
    const session = await app.webLogin("root", "pw-root-1");
    const tokenIds = async (t: string) =>
      (await app.request("GET", "/api/users/tokens/", { token: t })).body.map((x: Schemas["TokenInfo"]) => x.id);
    const profiles = (await app.services.repos.inventory.list("snmp_profiles")).map((p) => p.id);
    world = {
      port: Number(new URL(app.url).port),
      labGroup: group,
      labSwitches: switches,
      labSwitchName: "fuzz-lab",
      ifIndexes: labs[0].model.interfaces.map((i) => i.ifIndex),
      superuser: started.root,
      readOnly,
      session,
      pools: {},
      protected: {
        users: new Set([started.rootId, roId]),
        switchgroups: new Set([group]),
        switches: new Set(switches),
        snmpprofiles: new Set(profiles),
        credentials: new Set(),
        tokens: new Set([...(await tokenIds(started.root)), ...(await tokenIds(readOnly))]),
      },
    };
  }, 60_000);

  afterAll(async () => {
    await Promise.all(labs.map((l) => l.stop()));
    await app?.close();
  });

  it(`sends ${REQUESTS} generated requests: no 5xx, no dropped connection, errors with reason and code, answers as the spec says`, async () => {
    const doc = app.contract.document;
    const ops = operationsOf(doc);
    const maxBody = app.services.config.maxBodyBytes;
    const hints = { vlans: labs[0].model.vlanIds(), maxBodyBytes: maxBody };
    // the server ends a keep-alive connection idle for 5 s (Node's default); the agent drops
    // its idle ones first, so that reusing one the server is closing at that moment (a reset
    // that is nobody's fault) cannot pass for a dropped connection
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, timeout: 4000 });
    const perOp = new Map<string, Map<number, number>>(ops.map((o) => [o.operationId, new Map()]));
    const time = new Map<string, number>();
    const findings: Finding[] = [];
    let sent = 0;
    const sets = () => labs.reduce((n, l) => n + l.counters.byType.set, 0);
    const setsBefore = sets();
    process.stdout.write(
      `API fuzzer: seed ${SEED} (SWITCHDESK_FUZZ_SEED=${SEED} repeats it), ${REQUESTS} requests, ${CONCURRENCY} at a time\n`,
    );

    const weighted = ops.map((op) => ({
      weight: COSTLY.has(op.operationId) ? 1 : 6,
      arbitrary: requestArb(op, doc, hints),
    }));
    // fast-check prints a failing batch: by its operations only (its values may nest thousands deep)
    const batch = fc.array(fc.oneof(...weighted), { minLength: BATCH, maxLength: BATCH }).map((requests) =>
      Object.assign(requests, {
        [fc.toStringMethod]: () => `[${requests.map((r) => `${r.method} ${r.op.template}`).join(", ")}]`,
      }),
    );
    const property = fc.asyncProperty(batch, async (requests: FuzzRequest[]) => {
      const queue = [...requests];
      const found: Finding[] = [];
      const worker = async () => {
        for (let r = queue.shift(); r; r = queue.shift()) {
          const t0 = performance.now();
          const res = await sendAndJudge(agent, app.contract, world, r);
          time.set(r.op.operationId, (time.get(r.op.operationId) ?? 0) + performance.now() - t0);
          if (DEBUG && res.status === 400 && r.method === r.op.method)
            process.stdout.write(`${r.op.operationId} 400 ${res.reason}\n`);
          sent++;
          const counts = perOp.get(r.op.operationId)!;
          counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
          found.push(...res.findings);
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      if (KEEP_GOING) findings.push(...found);
      else if (found.length)
        throw new Error(
          `${found.length} finding(s):\n${found.map((f) => `- ${f.kind}: ${f.detail}\n  ${f.request}`).join("\n")}`,
        );
    });
    try {
      await fc.assert(property, {
        seed: SEED,
        numRuns: Math.ceil(REQUESTS / BATCH),
        endOnFailure: true,
        path: process.env.SWITCHDESK_FUZZ_PATH,
      });
    } finally {
      agent.destroy();
      const table = [...perOp]
        .map(
          ([id, m]) =>
            `${id}: ${[...m]
              .sort((a, b) => a[0] - b[0])
              .map(([s, n]) => `${s}x${n}`)
              .join(" ")}; ${Math.round(time.get(id) ?? 0)} ms`,
        )
        .join("\n");
      process.stdout.write(
        `API fuzzer: ${sent} requests sent; statuses per operation:\n${table}\nlab SETs: ${sets() - setsBefore}\n`,
      );
    }
    if (findings.length) {
      const classes = new Map<string, Finding[]>();
      for (const f of findings) {
        const key = `${f.kind} ${f.status ?? ""} ${f.request.split(" ")[0]} ${
          f.request
            .split(" ")[1]
            ?.replace(/\/[^/]*\d[^/]*\//g, "/:x/")
            .split("?")[0]
        }`;
        classes.set(key, [...(classes.get(key) ?? []), f]);
      }
      throw new Error(
        `${findings.length} findings in ${classes.size} classes:\n${[...classes].map(([k, fs]) => `${k} (${fs.length}x)\n  ${fs[0].detail}\n  ${fs[0].request}`).join("\n")}`,
      );
    }
    expect(sent).toBeGreaterThanOrEqual(REQUESTS);
    // every operation was called (the rarer ones at a sixth of the others' share, see COSTLY)
    const fair = REQUESTS / weighted.reduce((a, w) => a + w.weight, 0);
    for (const [id, m] of perOp)
      expect([id, [...m.values()].reduce((a, b) => a + b, 0) > fair / 3]).toEqual([id, true]);
    // and writes got far enough to change a lab switch
    expect(sets() - setsBefore).toBeGreaterThan(0);
  }, 600_000);
});
