/**
 * LOG_MAX_AGE (docs/api-decisions.md, "Ports that must not be changed, and audit
 * retention"): the service removes audit rows older than the setting by itself, a
 * bounded batch at a time, oldest first, and keeps the newer ones; several instances on
 * one database may remove at the same moment (each row is removed once, nothing fails,
 * new rows written meanwhile stay); 0 keeps every row; the serving process does it on its
 * own timer and says so in its log and metrics. On both databases: the DELETE differs by
 * dialect.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { startAppWithRoot, type TestApp } from "../support/harness";
import { createTestDatabase, describeDb } from "../support/db";
import { AuditRetention } from "../../app/audit-retention";
import type { AuditRetentionConfig } from "../../app/protection-config";
import { countAuditOlderThan } from "../../db/audit-retention";
import { openStore, type Store } from "../../db/connect";
import type { Database } from "../../db/schema";
import { loadConfig } from "../../app/config";
import { startService } from "../../server/start-service";

const DAY_MS = 86_400_000;
const MAX_AGE_DAYS = 180;
const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/** `n` audit rows, `daysAgo` old (each a second apart, so their order is known), tagged by username */
async function addRows(db: Kysely<Database>, n: number, daysAgo: number, tag: string): Promise<void> {
  const base = Date.now() - daysAgo * DAY_MS;
  const rows = Array.from({ length: n }, (_, i) => ({
    time: new Date(base + i * 1000).toISOString(),
    user_id: null,
    username: tag,
    source_address: "192.0.2.1",
    switch_id: null,
    switch_name: "retention-lab",
    group_id: null,
    interface: `Gi1/0/${i + 1}`,
    action: "description",
    old_value: "",
    new_value: `${tag} ${i}`,
    outcome: "success" as const,
    code: null,
    message: "",
  }));
  // a few inserts of bounded size
  for (let i = 0; i < rows.length; i += 100)
    await db
      .insertInto("audit_log")
      .values(rows.slice(i, i + 100))
      .execute();
}

async function usernames(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom("audit_log")
    .select(["username", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("username")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.username, Number(r.n)]));
}

const settings = (over: Partial<AuditRetentionConfig> = {}): AuditRetentionConfig => ({
  maxAgeDays: MAX_AGE_DAYS,
  batchRows: 10,
  maxBatchesPerRun: 2,
  intervalMs: 3600_000,
  firstRunDelayMs: 3600_000,
  ...over,
});

describeDb("audit log retention (LOG_MAX_AGE)", () => {
  let app: TestApp;
  let root: string;
  let db: Kysely<Database>;
  const cutoff = () => new Date(Date.now() - MAX_AGE_DAYS * DAY_MS).toISOString();

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    db = app.services.store.db;
  });
  afterAll(async () => app?.close());
  beforeEach(async () => {
    await db.deleteFrom("audit_log").execute();
  });

  it("a run removes at most its batches, oldest first; later runs the rest; newer rows stay", async () => {
    await addRows(db, 45, 400, "oldest");
    await addRows(db, 5, 181, "old");
    await addRows(db, 7, 179, "kept");
    await addRows(db, 3, 0, "today");
    const retention = new AuditRetention(app.services.store, settings(), quiet);

    expect(await retention.runOnce()).toBe(20);
    expect(await usernames(db)).toEqual({ oldest: 25, old: 5, kept: 7, today: 3 });
    expect(await retention.runOnce()).toBe(20);
    expect(await usernames(db)).toEqual({ oldest: 5, old: 5, kept: 7, today: 3 });
    // a short batch ends the run: nothing older is left
    expect(await retention.runOnce()).toBe(10);
    expect(await retention.runOnce()).toBe(0);
    expect(await usernames(db)).toEqual({ kept: 7, today: 3 });

    const log = await app.request("GET", "/api/admin/log/?page_size=100", { token: root });
    expect(log.body.count).toBe(10);
    expect(log.body.results.every((r: { time: string }) => r.time >= cutoff())).toBe(true);
  });

  it("LOG_MAX_AGE 0 keeps every row", async () => {
    await addRows(db, 12, 3000, "ancient");
    const keepAll = new AuditRetention(app.services.store, settings({ maxAgeDays: 0 }), quiet);
    expect(keepAll.cutoff()).toBeNull();
    expect(await keepAll.runOnce()).toBe(0);
    expect(await usernames(db)).toEqual({ ancient: 12 });
  });

  it("two instances removing at the same moment, while new rows are written: each old row goes once, nothing fails", async () => {
    await addRows(db, 300, 200, "old");
    const other: Store = await openStore(dbUrl(app));
    try {
      const big = settings({ batchRows: 7, maxBatchesPerRun: 100 });
      const a = new AuditRetention(app.services.store, big, quiet);
      const b = new AuditRetention(other, big, quiet);
      const writes = (async () => {
        for (let i = 0; i < 10; i++) await addRows(db, 5, 0, "new");
      })();
      const [ra, rb] = await Promise.all([a.runOnce(), b.runOnce(), writes]);
      // a run that met the other's locks ends early (quietly): the next runs finish (bounded)
      let more = 0;
      for (let run = 0; run < 10 && (await countAuditOlderThan(db, cutoff())) > 0; run++) more += await a.runOnce();
      expect(ra + rb + more).toBe(300);
      expect(await usernames(db)).toEqual({ new: 50 });
    } finally {
      await other.close();
    }
  });

  it("the serving process removes old rows by itself, says how many in its log and counts them in /metrics", async () => {
    const tdb = await createTestDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-retention-"));
    const lines: string[] = [];
    const sink = { write: (chunk: string) => void lines.push(...chunk.split("\n").filter(Boolean)) };
    const config = {
      ...loadConfig({ SWITCHDESK_DEMO: "0", LOG_LEVEL: "info", LOG_MAX_AGE: "30" }),
      databaseUrl: tdb.url,
      port: 0,
      secretKeyFile: path.join(dir, "secret.key"),
    };
    // a first run soon after the start, then every 300 ms
    config.auditRetention = { ...config.auditRetention, firstRunDelayMs: 300, intervalMs: 300, batchRows: 4 };
    const svc = await startService(config, () => undefined, { logDestination: sink });
    try {
      const sdb = svc.services.store.db;
      await addRows(sdb, 9, 31, "month-old");
      await addRows(sdb, 2, 29, "recent");
      const until = Date.now() + 10_000;
      while (Date.now() < until && (await usernames(sdb))["month-old"] !== undefined)
        await new Promise((r) => setTimeout(r, 100));
      expect(await usernames(sdb)).toEqual({ recent: 2 });
      const said = lines
        .map((l) => JSON.parse(l) as { msg?: string; removed?: number })
        .filter((l) => l.msg?.startsWith("audit log retention: removed"));
      expect(said.reduce((sum, l) => sum + (l.removed ?? 0), 0)).toBe(9);
      expect(said[0].msg).toMatch(/^audit log retention: removed \d+ rows older than 30 days \(LOG_MAX_AGE\)$/);
      const metrics = await (await fetch(`${svc.url}/metrics`)).text();
      expect(metrics).toMatch(/^switchdesk_audit_rows_removed_total 9$/m);
    } finally {
      await svc.stop();
      await tdb.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** the test app's database URL (the harness keeps it in the configuration) */
function dbUrl(app: TestApp): string {
  return app.services.config.databaseUrl;
}
