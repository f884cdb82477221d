/**
 * Instances on one database count each other and share DEVICE_CONCURRENCY (README
 * "Scale-out"): three instances of a bound of 4 take 1 each; when one stops, the others
 * take 2 at their next beat; an instance that died (no more beats) stops counting after
 * the row's lifetime, and its row is deleted later.
 */
import { openStore, type Store } from "../../db/connect";
import { migrateToLatest } from "../../db/migrations";
import { LeaseRepo } from "../../db/leases";
import { InstancePresence, shareOf } from "../../app/instance-presence";
import { createTestDatabase, describeDb, type TestDatabase } from "../support/db";

const SETTINGS = { beatMs: 1000, ttlMs: 5000 };

describeDb("instance presence and the per-device share", () => {
  let db: TestDatabase;
  let store: Store;
  let leases: LeaseRepo;
  beforeAll(async () => {
    db = await createTestDatabase();
    store = await openStore(db.url);
    await migrateToLatest(store);
    leases = new LeaseRepo(store.db, "device_leases");
  });
  afterAll(async () => {
    await store.close();
    await db.drop();
  });

  function instance(id: string) {
    const shares: number[] = [];
    const presence = new InstancePresence(leases, 4, (s) => shares.push(s), SETTINGS, id);
    return { presence, shares };
  }

  it("three instances of a bound of 4 take one request each; when one stops the others take two", async () => {
    const t0 = Date.now();
    const [a, b, c] = [instance("host-a:1:aa"), instance("host-b:2:bb"), instance("host-c:3:cc")];
    await a.presence.beat(t0);
    expect(a.shares.at(-1)).toBe(4); // alone so far
    await b.presence.beat(t0 + 10);
    await c.presence.beat(t0 + 20);
    await a.presence.beat(t0 + 1000);
    await b.presence.beat(t0 + 1010);
    expect([a.presence.live, b.presence.live, c.presence.live]).toEqual([3, 3, 3]);
    expect([a.shares.at(-1), b.shares.at(-1), c.shares.at(-1)]).toEqual([1, 1, 1]);

    await c.presence.stop();
    await a.presence.beat(t0 + 2000);
    await b.presence.beat(t0 + 2010);
    expect([a.shares.at(-1), b.shares.at(-1)]).toEqual([2, 2]);
    // a dead instance (b beats no more) counts until its row's lifetime has passed
    await a.presence.beat(t0 + 2010 + SETTINGS.ttlMs - 1);
    expect(a.shares.at(-1)).toBe(2);
    await a.presence.beat(t0 + 2010 + SETTINGS.ttlMs + 1);
    expect(a.shares.at(-1)).toBe(4);
    expect(await leases.holder("instance:host-b:2:bb")).not.toBeNull();
    // long gone: its row is deleted by the next beat of a live instance
    await a.presence.beat(t0 + 2010 + SETTINGS.ttlMs + 61_000);
    expect(await leases.holder("instance:host-b:2:bb")).toBeNull();
    await a.presence.stop();
    await b.presence.stop();
    expect(await leases.countLive("instance:", Date.now())).toBe(0);
  });

  it("instance rows never count as a device's write lease, nor write leases as instances", async () => {
    const p = instance("host-d:4:dd");
    const now = Date.now();
    expect((await leases.take("switch:7", "host-d:4:dd#1", 15_000, now)).taken).toBe(true);
    await p.presence.beat(now);
    expect(p.presence.live).toBe(1);
    expect(await leases.holder("switch:7")).toMatchObject({ owner: "host-d:4:dd#1" });
    await p.presence.stop();
    expect(await leases.holder("switch:7")).toMatchObject({ owner: "host-d:4:dd#1" });
    await leases.release("switch:7", "host-d:4:dd#1");
  });

  it("the share is floor(total / live), never below one request", () => {
    expect([1, 2, 3, 4, 5, 8].map((live) => shareOf(4, live))).toEqual([4, 2, 1, 1, 1, 1]);
    expect(shareOf(12, 3)).toBe(4);
  });
});
