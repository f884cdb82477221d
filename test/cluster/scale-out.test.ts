/**
 * Several instances on one MariaDB database (README "Scale-out"): writes to one device
 * stay in order across three processes, an instance killed mid-write holds nobody up for
 * longer than its lease, and three instances starting at once on an empty database
 * migrate once and create the first superuser once; a database migrated by a later
 * version is refused at start with one line. The instances share the per-device bound:
 * a switch read through all three at once sees no more than DEVICE_CONCURRENCY requests.
 */
import { openStore } from "../../db/connect";
import { createTestDatabase, describeDb, type TestDatabase } from "../support/db";
import { startLabSwitch } from "../../lab";
import { built, call, settledShares, startInstance, stopAll, tokenFor, type Instance } from "../support/instances";
import { runScaleOutScenario } from "../support/scale-out-scenario";

/** Kysely's own table of applied migrations (not part of the schema's types). */
type MigrationTables = {
  kysely_migration: { name: string; timestamp: string };
};

const SECRET = "c2NhbGUtb3V0LXRlc3Qta2V5LW9mLTMyLWJ5dGVzLi4u";

describeDb("three instances on one database", () => {
  let db: TestDatabase;
  beforeEach(async () => {
    if (!built) throw new Error("the service is not built: run `npm run build` (npm ci does it)");
    db = await createTestDatabase();
  });
  afterEach(async () => {
    await db.drop();
  });

  it("orders concurrent writes through three instances, answers every read, and goes on when one is killed mid-write", async () => {
    const r = await runScaleOutScenario([db.url, db.url, db.url]);
    expect(r.writes).toBe(14);
    console.log(
      `three instances: ${r.writes} writes, ${r.reads} reads; after SIGKILL the next writes finished in ${r.killWaitMs} ms (lease 2 s)`,
    );
  }, 120_000);

  it("three instances share DEVICE_CONCURRENCY: a switch read through all three at once sees at most that many requests in flight", async () => {
    const lab = await startLabSwitch({ profile: "generic", ports: 48, latencyMs: 20 });
    const instances: Instance[] = [];
    try {
      const env = {
        DATABASE_URL: db.url,
        SWITCHDESK_SECRET_KEY: SECRET,
        SWITCHDESK_ADMIN_PASSWORD: "share-pass-1",
        DEVICE_CONCURRENCY: "3",
      };
      const started = await Promise.all([0, 1, 2].map(() => startInstance(env)));
      for (const s of started) if (s.instance) instances.push(s.instance);
      expect(instances).toHaveLength(3);
      // each instance's share, as its /metrics says (it follows within a beat, 2 s)
      expect(await settledShares(instances, 1)).toEqual([1, 1, 1]);

      const [a, b, c] = instances;
      const token = await tokenFor(a.url, "admin", "share-pass-1");
      const t = lab.snmpTarget({ write: false });
      const profile = (
        await call(a.url, "POST", "/api/admin/snmpprofiles/", token, {
          name: "lab",
          community: t.community,
          timeout_ms: 2000,
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
      const read = (i: Instance, view: string) =>
        call(i.url, "GET", `/api/switches/${group}/${sw.body.id}/${view}`, token);
      await read(a, ""); // stores the driver choice

      const burst = async (through: Instance[]) => {
        lab.counters.reset();
        const answers = await Promise.all(
          through.flatMap((i) => [0, 1, 2, 3].map((k) => read(i, k % 2 ? "details/" : ""))),
        );
        expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
        return lab.counters.maxInFlight;
      };
      const shared = await burst(instances);
      expect(shared).toBeGreaterThanOrEqual(1);
      expect(shared).toBeLessThanOrEqual(3);

      // two stop: the one left takes the whole bound at its next beat
      await stopAll([b, c]);
      instances.splice(1);
      expect(await settledShares(instances, 3)).toEqual([3]);
      const alone = await burst([a, a, a]);
      expect(alone).toBeLessThanOrEqual(3);
      console.log(
        `per-device bound 3 over instances: at most ${shared} SNMP requests in flight with three instances (1 each), ${alone} with one`,
      );
    } finally {
      await stopAll(instances);
      await lab.stop();
    }
  }, 90_000);

  it("three instances started at once on an empty database migrate once and create one first superuser", async () => {
    const instances: Instance[] = [];
    try {
      const started = await Promise.all(
        [0, 1, 2].map(() => startInstance({ DATABASE_URL: db.url, SWITCHDESK_SECRET_KEY: SECRET })),
      );
      for (const s of started) if (s.instance) instances.push(s.instance);
      expect(instances).toHaveLength(3);
      // the JSON log says which instance made the superuser; only that one shows a password (on stderr)
      const created = started.filter((s) => s.out.some((l) => l.includes("Created superuser 'admin'.")));
      expect(created).toHaveLength(1);
      expect(created[0].err.some((l) => l.includes("Its generated password (shown only now): "))).toBe(true);
      const others = started.filter((s) => s !== created[0]);
      for (const s of others) expect(s.err.join(" | ")).toBe("");
      const store = await openStore(db.url);
      try {
        const users = await store.db.selectFrom("users").select("username").execute();
        expect(users.map((u) => u.username)).toEqual(["admin"]);
        const applied = await store.db
          .withTables<MigrationTables>()
          .selectFrom("kysely_migration")
          .select("name")
          .execute();
        expect(applied.map((m) => m.name)).toContain("0005_device_leases");
        expect(new Set(applied.map((m) => m.name)).size).toBe(applied.length);
      } finally {
        await store.close();
      }
    } finally {
      await stopAll(instances);
    }
  }, 90_000);

  it("refuses to start on a database a later version migrated, with one clear line", async () => {
    const first = await startInstance({
      DATABASE_URL: db.url,
      SWITCHDESK_SECRET_KEY: SECRET,
      SWITCHDESK_ADMIN_PASSWORD: "future-pass-1",
    });
    await stopAll(first.instance ? [first.instance] : []);
    const store = await openStore(db.url);
    try {
      await store.db
        .withTables<MigrationTables>()
        .insertInto("kysely_migration")
        .values({ name: "9999_from_the_future", timestamp: new Date().toISOString() })
        .execute();
    } finally {
      await store.close();
    }
    const later = await startInstance({ DATABASE_URL: db.url, SWITCHDESK_SECRET_KEY: SECRET });
    await stopAll(later.instance ? [later.instance] : []);
    expect(later.instance).toBeUndefined();
    expect(later.code).toBe(1);
    expect(later.err).toEqual([
      "switchdesk: This database was migrated by a newer switchdesk (migration 9999_from_the_future is unknown to this version): start the newer version, or restore the backup taken before the upgrade",
    ]);
  }, 60_000);
});
