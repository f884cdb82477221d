/** docs/api-decisions.md section 2: tokens, authentication failures, limits, throttling. */
import { startAppWithRoot, startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

describeDb("authentication and tokens", () => {
  let app: TestApp;
  let rootToken: string;
  beforeAll(async () => {
    ({ app, root: rootToken } = await startAppWithRoot({ apiMaxTokens: 3, loginMaxFailures: 3 }));
  });
  afterAll(async () => app?.close());

  describe("POST api/users/token/", () => {
    it("creates a 40-hex token with user_id and email (JSON)", async () => {
      const id = await app.createUser("alice", "pw-alice-1");
      await app.services.repos.users.update(id, { email: "alice@example.org" }, {});
      const r = await app.request("POST", "/api/users/token/", { json: { username: "alice", password: "pw-alice-1" } });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        token: expect.stringMatching(/^[0-9a-f]{40}$/),
        user_id: id,
        email: "alice@example.org",
      });
    });

    it("accepts a form body too, and every call makes a new token", async () => {
      const a = await app.request("POST", "/api/users/token/", { form: { username: "alice", password: "pw-alice-1" } });
      const b = await app.request("POST", "/api/users/token/", { form: { username: "alice", password: "pw-alice-1" } });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.token).not.toBe(b.body.token);
    });

    it("stores only a hash of the key", async () => {
      const t = rootToken;
      const rows = await app.services.store.db.selectFrom("tokens").select("key_hash").execute();
      expect(rows.some((r) => r.key_hash === t)).toBe(false);
      expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.key_hash))).toBe(true);
    });

    it("refuses bad credentials with 400 and the contract text", async () => {
      const r = await app.request("POST", "/api/users/token/", { json: { username: "alice", password: "wrong" } });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Unable to log in with provided credentials.");
      const unknown = await app.request("POST", "/api/users/token/", {
        json: { username: "nobody-here", password: "x" },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.reason).toBe("Unable to log in with provided credentials.");
    });

    it("refuses an inactive user like bad credentials", async () => {
      await app.createUser("sleepy", "pw-sleepy-1", { is_active: false });
      const r = await app.request("POST", "/api/users/token/", {
        form: { username: "sleepy", password: "pw-sleepy-1" },
      });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Unable to log in with provided credentials.");
    });

    it("names a missing field", async () => {
      const r = await app.request("POST", "/api/users/token/", { json: { password: "x" } });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Missing or invalid required parameter: 'username'");
      const r2 = await app.request("POST", "/api/users/token/", { form: { username: "alice" } });
      expect(r2.status).toBe(400);
      expect(r2.body.reason).toBe("Missing or invalid required parameter: 'password'");
      const r3 = await app.request("POST", "/api/users/token/", {});
      expect(r3.status).toBe(400);
      expect(r3.body.reason).toBe("Missing or invalid required parameter: 'username'");
    });

    it("limits live tokens per user", async () => {
      await app.createUser("bob", "pw-bob-1");
      for (let i = 0; i < 3; i++) await app.login("bob", "pw-bob-1");
      const r = await app.request("POST", "/api/users/token/", { json: { username: "bob", password: "pw-bob-1" } });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe("Too many tokens exist!");
    });

    it("updates last_login", async () => {
      const id = await app.createUser("carol", "pw-carol-1");
      expect((await app.services.repos.users.get(id))!.last_login).toBeNull();
      await app.login("carol", "pw-carol-1");
      const after = (await app.services.repos.users.get(id))!.last_login;
      expect(after).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    });

    it("gives a read-only user a read-only token", async () => {
      await app.createUser("reader", "pw-reader-1", { profile: { read_only: true } });
      const t = await app.login("reader", "pw-reader-1");
      const list = await app.request("GET", "/api/users/tokens/", { token: t });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(1);
      expect(list.body[0].write_enabled).toBe(false);
    });
  });

  describe("failed-login throttling", () => {
    it("slows and then refuses a username with 429 and Retry-After", async () => {
      await app.createUser("victim", "pw-victim-1");
      for (let i = 0; i < 3; i++) {
        const r = await app.request("POST", "/api/users/token/", {
          json: { username: "victim", password: `guess-${i}` },
        });
        expect(r.status).toBe(400);
      }
      const blocked = await app.request("POST", "/api/users/token/", {
        json: { username: "victim", password: "pw-victim-1" },
      });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe("rate_limited");
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    });
  });

  describe("using a token", () => {
    it("accepts Token and Bearer, the scheme in any case", async () => {
      const t = rootToken;
      for (const h of [`Token ${t}`, `token ${t}`, `Bearer ${t}`, `TOKEN ${t}`]) {
        const r = await app.request("GET", "/api/stats/", { headers: { authorization: h } });
        expect(r.status).toBe(200);
      }
    });

    it("answers no credentials with 403, reason = detail, WWW-Authenticate", async () => {
      const r = await app.request("GET", "/api/switches/");
      expect(r.status).toBe(403);
      expect(r.body).toEqual({
        reason: "Authentication credentials were not provided.",
        detail: "Authentication credentials were not provided.",
        code: "not_authenticated",
      });
      expect(r.headers.get("www-authenticate")).toBe("Token");
    });

    it("answers an unknown key with 403 Invalid token", async () => {
      const r = await app.request("GET", "/api/", { token: "0".repeat(40) });
      expect(r.status).toBe(403);
      expect(r.body.reason).toBe("Invalid token");
      expect(r.body.detail).toBe("Invalid token");
    });

    it("answers an expired key with 403 Token expired", async () => {
      await app.createUser("expiring", "pw-exp-1");
      const t = await app.login("expiring", "pw-exp-1");
      const { hashKey } = await import("../../db/tokens");
      await app.services.store.db
        .updateTable("tokens")
        .set({ expires: "2000-01-01T00:00:00.000Z" })
        .where("key_hash", "=", hashKey(t))
        .execute();
      const r = await app.request("GET", "/api/", { token: t });
      expect(r.status).toBe(403);
      expect(r.body.reason).toBe("Token expired");
    });

    it("answers a token of a user made inactive with 403 User inactive", async () => {
      const id = await app.createUser("leaver", "pw-leaver-1");
      const t = await app.login("leaver", "pw-leaver-1");
      await app.services.repos.users.update(id, { is_active: false }, {});
      const r = await app.request("GET", "/api/", { token: t });
      expect(r.status).toBe(403);
      expect(r.body.reason).toBe("User inactive");
    });

    it("honours a configured token lifetime", async () => {
      const short = await startTestApp({ apiTokenLifetimeMs: 3600_000 });
      try {
        await short.createUser("u", "pw-u-1");
        const t = await short.login("u", "pw-u-1");
        const list = await short.request("GET", "/api/users/tokens/", { token: t });
        const exp = Date.parse(list.body[0].expires);
        expect(exp - Date.now()).toBeGreaterThan(3500_000);
        expect(exp - Date.now()).toBeLessThanOrEqual(3600_000);
      } finally {
        await short.close();
      }
    });
  });

  describe("token list and revocation", () => {
    it("lists only the caller's tokens, never a key, and revokes one", async () => {
      await app.createUser("dave", "pw-dave-1");
      const t1 = await app.login("dave", "pw-dave-1");
      const t2 = await app.login("dave", "pw-dave-1");
      const list = await app.request("GET", "/api/users/tokens/", { token: t1 });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(2);
      expect(JSON.stringify(list.body)).not.toContain(t1);
      for (const t of list.body)
        expect(Object.keys(t).sort()).toEqual([
          "created",
          "description",
          "expires",
          "id",
          "last_used",
          "write_enabled",
        ]);
      const other = await app.request("DELETE", `/api/users/tokens/${list.body[0].id}/`, { token: rootToken });
      expect(other.status).toBe(404);
      const del = await app.request("DELETE", `/api/users/tokens/${list.body[1].id}/`, { token: t1 });
      expect(del.status).toBe(204);
      const gone = await app.request("GET", "/api/", { token: t2 });
      expect(gone.status).toBe(403);
      expect(gone.body.reason).toBe("Invalid token");
    });
  });
});
