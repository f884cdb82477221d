/**
 * Hardening of accounts: read-only tokens on api/admin/, the superuser gate before the
 * body, login throttling that holds (database-backed, bounded, not reset by one's own
 * good logins), unlocking, sessions and tokens that follow the password, and the last
 * superuser.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { LoginGuard } from "../../app/login";

describeDb("read-only means read-only on api/admin/", () => {
  let app: TestApp;
  let readOnlyRoot: string;
  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser("ro-root", "pw-ro-root-1", { is_superuser: true, profile: { read_only: true } });
    readOnlyRoot = await app.login("ro-root", "pw-ro-root-1");
    await app.createUser("plain", "pw-plain-1");
  });
  afterAll(async () => app?.close());

  it("a read-only superuser's token reads the admin API", async () => {
    const r = await app.request("GET", "/api/admin/users/", { token: readOnlyRoot });
    expect(r.status).toBe(200);
  });

  it("cannot create a superuser, change a profile or delete a group with it; nothing changes", async () => {
    const before = (await app.services.repos.users.list()).length;
    const group = await app.services.repos.inventory.create("switch_groups", {
      name: "kept",
      description: "",
      display_name: "",
      comments: "",
      read_only: 0,
      allow_poe_toggle: 0,
      edit_if_descr: 1,
      allow_all_vlans: 0,
    });
    const plainId = (await app.services.repos.users.findByUsername("plain"))!.id;

    const create = await app.request("POST", "/api/admin/users/", {
      token: readOnlyRoot,
      json: { username: "mallory", password: "pw-mallory-1", is_superuser: true },
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual({ reason: "This token cannot write!", code: "token_read_only" });

    const patch = await app.request("PATCH", `/api/admin/users/${plainId}/`, {
      token: readOnlyRoot,
      json: { profile: { vlan_edit: true } },
    });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe("token_read_only");

    const del = await app.request("DELETE", `/api/admin/switchgroups/${group.id}/`, { token: readOnlyRoot });
    expect(del.status).toBe(403);

    expect((await app.services.repos.users.list()).length).toBe(before);
    expect((await app.services.repos.users.get(plainId))!.profile.vlan_edit).toBe(false);
    expect(await app.services.repos.inventory.get("switch_groups", group.id)).not.toBeNull();
  });

  it("a token made while the profile could write is refused once the profile is read-only", async () => {
    const id = await app.createUser("later-ro", "pw-later-1", { is_superuser: true });
    const token = await app.login("later-ro", "pw-later-1");
    expect((await app.request("POST", "/api/admin/switchgroups/", { token, json: { name: "first" } })).status).toBe(
      201,
    );
    await app.services.repos.users.update(id, {}, { read_only: true });
    const r = await app.request("POST", "/api/admin/switchgroups/", { token, json: { name: "second" } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("token_read_only");
  });

  it("a web session of a read-only superuser cannot change anything on api/admin/ either", async () => {
    const session = await app.webLogin("ro-root", "pw-ro-root-1");
    const r = await app.request("POST", "/api/admin/switchgroups/", { session, json: { name: "via-session" } });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ reason: "Access denied!", code: "access_denied" });
  });

  it("a non-superuser gets 403 before its body is looked at (bad fields, bad JSON, wrong type)", async () => {
    const token = await app.login("plain", "pw-plain-1");
    const answers = await Promise.all([
      app.request("POST", "/api/admin/users/", { token, json: { no_such_field: 1 } }),
      app.request("POST", "/api/admin/users/", { token, raw: { body: "{not json", contentType: "application/json" } }),
      app.request("POST", "/api/admin/switches/", { token, raw: { body: "x", contentType: "text/plain" } }),
      app.request("PATCH", "/api/admin/users/1/", { token, json: { is_superuser: "yes please" } }),
    ]);
    for (const r of answers)
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: "forbidden" });
  });
});

describeDb("login throttling that holds", () => {
  let app: TestApp;
  beforeAll(async () => {
    // 2 failures per username and address, 8 per client address
    app = await startTestApp({ loginMaxFailures: 2, loginWindowMs: 600_000 });
    await app.createUser("root", "pw-root-1", { is_superuser: true });
    await app.createUser("mallory", "pw-mallory-1");
  });
  afterAll(async () => app?.close());

  it("one's own good logins in between do not reset the address's count", async () => {
    // from one address: a wrong guess at another account, then a good login of one's own,
    // until the address has its eight failures
    for (let i = 0; i < 8; i++) {
      const bad = await app.request("POST", "/api/users/token/", {
        json: { username: `victim${i}`, password: "guess" },
      });
      expect(bad.status).toBe(400);
      if (i === 7) break;
      const good = await app.request("POST", "/api/users/token/", {
        json: { username: "mallory", password: "pw-mallory-1" },
      });
      expect(good.status).toBe(200);
      await app.services.repos.tokens.revokeAllOfUser((await app.services.repos.users.findByUsername("mallory"))!.id);
    }
    const locked = await app.request("POST", "/api/users/token/", {
      json: { username: "mallory", password: "pw-mallory-1" },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("rate_limited");
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(locked.body.reason).toMatch(/^Too many failed login attempts; try again in (9|10) minutes\.$/);
    // the counts live in the database: a new guard (a restart, another instance) sees the same
    const fresh = new LoginGuard(app.services.repos.loginFailures, { maxFailures: 2, windowMs: 600_000 });
    await expect(fresh.reserve("mallory", "127.0.0.1")).rejects.toMatchObject({ status: 429, code: "rate_limited" });
    await app.services.repos.loginFailures.sweep(Date.now() + 1);
  });

  it("a locked account is unlocked by an admin through the API", async () => {
    const root = await app.login("root", "pw-root-1");
    const id = await app.createUser("typo", "pw-typo-1");
    for (let i = 0; i < 2; i++)
      await app.request("POST", "/api/users/token/", { json: { username: "typo", password: "oops" } });
    expect(
      (await app.request("POST", "/api/users/token/", { json: { username: "typo", password: "pw-typo-1" } })).status,
    ).toBe(429);
    const unlock = await app.request("POST", `/api/admin/users/${id}/unlock/`, { token: root });
    expect(unlock.status).toBe(204);
    expect(
      (await app.request("POST", "/api/users/token/", { json: { username: "typo", password: "pw-typo-1" } })).status,
    ).toBe(200);
    const log = await app.request("GET", "/api/admin/log/", { token: root });
    expect(log.body.results[0]).toMatchObject({
      action: "admin:users:unlock",
      new_value: expect.stringContaining("typo"),
    });
    expect((await app.request("POST", "/api/admin/users/999999/unlock/", { token: root })).status).toBe(404);
  });

  it("memory stays flat under 2,000 failures with distinct 50 kB usernames, and old failures are swept", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const guard = new LoginGuard(app.services.repos.loginFailures, { maxFailures: 5, windowMs: 900_000 }, () => now);
    // as many bytes of usernames as 10,000 of 10 kB, in a fifth of the failures: each
    // failure is a few short transactions, which took 26 s of CPU on MariaDB at 10,000
    const FAILURES = 2_000;
    const filler = "x".repeat(50_000);
    // what stays reachable after a full collection: RSS also moves with the allocator and
    // with whatever else this worker does, and varied by 50 MB beside other suites
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const retained = () => {
      gc();
      return process.memoryUsage().heapUsed + process.memoryUsage().external;
    };
    const before = retained();
    // eight clients at a time (each attempt is a short transaction; one after another they
    // took minutes on MariaDB)
    let next = 0;
    const client = async () => {
      for (let i = next++; i < FAILURES; i = next++) {
        now += 10;
        await (await guard.reserve(`${filler}-${i}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)).failed();
      }
    };
    await Promise.all(Array.from({ length: 8 }, client));
    const grown = (retained() - before) / 1024 / 1024;
    // 2,000 keys of 50 kB each held in memory would take 100 MB or more, as 10,000 of 10 kB did
    expect(grown).toBeLessThan(40);
    expect(await app.services.repos.loginFailures.count()).toBe(FAILURES);
    // once the window has passed, the next failure sweeps everything older
    now += 901_000;
    await (await guard.reserve("last-one", "10.9.9.9")).failed();
    expect(await app.services.repos.loginFailures.count()).toBe(1);
    await app.services.repos.loginFailures.sweep(now + 1);
  }, 120_000);
});

describeDb("sessions and tokens follow the password; the last superuser", () => {
  let app: TestApp;
  let root: string;
  let rootId: number;
  beforeAll(async () => {
    app = await startTestApp();
    rootId = await app.createUser("root", "pw-root-1", { is_superuser: true });
    root = await app.login("root", "pw-root-1");
  });
  afterAll(async () => app?.close());

  it("an admin's password change ends the user's web sessions; tokens stay unless revoke_tokens", async () => {
    const id = await app.createUser("hd", "pw-hd-1");
    const session = await app.webLogin("hd", "pw-hd-1");
    const token = await app.login("hd", "pw-hd-1");
    expect((await app.request("GET", "/api/switches/", { session })).status).toBe(200);

    const r = await app.request("PATCH", `/api/admin/users/${id}/`, {
      token: root,
      json: { password: "pw-helpdesk-2" },
    });
    expect(r.status).toBe(200);
    expect((await app.request("GET", "/api/switches/", { session })).status).toBe(403);
    expect((await app.request("GET", "/api/switches/", { token })).status).toBe(200);

    const revoke = await app.request("PATCH", `/api/admin/users/${id}/`, {
      token: root,
      form: { password: "pw-helpdesk-3", revoke_tokens: "true" },
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body).not.toHaveProperty("revoke_tokens");
    const after = await app.request("GET", "/api/switches/", { token });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe("invalid_token");
  });

  it("changing one's own password through a session keeps that session and ends the others", async () => {
    const mine = await app.webLogin("root", "pw-root-1");
    const other = await app.webLogin("root", "pw-root-1");
    const r = await app.request("POST", `/api/admin/users/${rootId}/`, {
      session: mine,
      json: { password: "pw-root-new-2" },
    });
    expect(r.status).toBe(200);
    expect((await app.request("GET", "/api/switches/", { session: mine })).status).toBe(200);
    expect((await app.request("GET", "/api/switches/", { session: other })).status).toBe(403);
  });

  it("expired sessions are deleted when the next one starts", async () => {
    const db = app.services.store.db;
    await db
      .insertInto("sessions")
      .values({
        key_hash: "f".repeat(64),
        user_id: rootId,
        csrf_token: "x",
        created: "2020-01-01T00:00:00.000Z",
        expires: "2020-01-01T08:00:00.000Z",
      })
      .execute();
    await app.webLogin("root", "pw-root-new-2");
    const stale = await db.selectFrom("sessions").select("id").where("key_hash", "=", "f".repeat(64)).execute();
    expect(stale).toEqual([]);
  });

  it("the last active superuser cannot drop its flag or deactivate itself (409); with a second one it can", async () => {
    for (const change of [{ is_superuser: false }, { is_active: false }]) {
      const r = await app.request("PATCH", `/api/admin/users/${rootId}/`, { token: root, json: change });
      expect(r.status).toBe(409);
      expect(r.body).toEqual({
        reason: "The last active superuser cannot lose superuser rights or be deactivated",
        code: "last_superuser",
      });
    }
    expect((await app.services.repos.users.get(rootId))!.is_superuser).toBe(true);
    const second = await app.createUser("root2", "pw-root2-1", { is_superuser: true });
    const ok = await app.request("PATCH", `/api/admin/users/${second}/`, { token: root, json: { is_staff: true } });
    expect(ok.status).toBe(200);
    const demoted = await app.request("PATCH", `/api/admin/users/${second}/`, {
      token: root,
      json: { is_superuser: false },
    });
    expect(demoted.status).toBe(200);
    expect(demoted.body.is_superuser).toBe(false);
  });
});
