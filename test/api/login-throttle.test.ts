/**
 * Login throttling under load and from several addresses: every attempt takes its place in
 * the counts before its password is checked, so parallel wrong passwords, on one instance
 * or two on the same database, get no more checks than the limit; failures are locked out
 * per username and address together, so guesses from elsewhere do not lock the owner out,
 * while they still slow the username down everywhere. Clients bind their own loopback
 * addresses (127.0.0.2, ...), so the service sees real, different client addresses.
 */
import http from "node:http";
import { secondInstance, startTestApp, type TestApp, type JsonBody } from "../support/harness";
import { describeDb } from "../support/db";
import { checkResponse } from "../support/contract-check";
import { LoginGuard } from "../../app/login";

interface Answer {
  status: number;
  headers: Headers;
  body: JsonBody;
  text: string;
}

/** POST api/users/token/ to `base` from the loopback address `from`, checked against the spec. */
function tokenFrom(app: TestApp, base: string, from: string, username: string, password: string): Promise<Answer> {
  const payload = JSON.stringify({ username, password });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/users/token/`,
      {
        method: "POST",
        localAddress: from,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          accept: "application/json",
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
          const answer = { status: res.statusCode!, headers, body: JSON.parse(text), text };
          try {
            checkResponse(app.contract, "POST", "/api/users/token/", answer);
            resolve(answer);
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** `switchdesk_login_attempts_total{result=...}` as an instance's /metrics shows it. */
async function attemptsMetric(base: string, result: "checked" | "throttled"): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const m = new RegExp(`^switchdesk_login_attempts_total\\{result="${result}"\\} (\\d+)$`, "m").exec(text);
  return m ? Number(m[1]) : 0;
}

const tally = (answers: Answer[]) => {
  const byStatus: Record<number, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  return byStatus;
};

describeDb("login throttle: a place in the count before the password is checked", () => {
  let app: TestApp;
  let other: Awaited<ReturnType<typeof secondInstance>>;
  beforeAll(async () => {
    // three failures per username and address, twelve per address: few slow password checks
    app = await startTestApp({ loginMaxFailures: 3, loginWindowMs: 600_000, loginDelayStepMs: 0 });
    other = await secondInstance(app);
    await app.createUser("target", "target-pass-1");
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  it("50 parallel wrong passwords for one username, over two instances: 3 are checked, 47 get 429 with Retry-After", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        tokenFrom(app, i % 2 ? other.url : app.url, "127.0.0.2", "target", `wrong-guess-${i}`),
      ),
    );
    expect(tally(answers)).toEqual({ 400: 3, 429: 47 });
    for (const a of answers.filter((x) => x.status === 400))
      expect(a.body).toEqual({ reason: "Unable to log in with provided credentials.", code: "invalid_credentials" });
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.body.code).toBe("rate_limited");
      const retryAfter = Number(a.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(590);
      expect(retryAfter).toBeLessThanOrEqual(600);
    }
    // the passwords the two instances checked, as their /metrics count them
    expect((await attemptsMetric(app.url, "checked")) + (await attemptsMetric(other.url, "checked"))).toBe(3);
    expect((await attemptsMetric(app.url, "throttled")) + (await attemptsMetric(other.url, "throttled"))).toBe(47);
    // nothing is left pending: every checked attempt was settled as a failure
    expect(await app.services.repos.loginFailures.count()).toBe(3);
    // the right password from that address is refused too, without a check
    expect((await tokenFrom(app, app.url, "127.0.0.2", "target", "target-pass-1")).status).toBe(429);
  });

  it("50 parallel wrong passwords for 50 usernames from one address: 12 (four times the limit) are checked", async () => {
    const checkedBefore = (await attemptsMetric(app.url, "checked")) + (await attemptsMetric(other.url, "checked"));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        tokenFrom(app, i % 2 ? other.url : app.url, "127.0.0.3", `nobody-${i}`, `wrong-guess-${i}`),
      ),
    );
    expect(tally(answers)).toEqual({ 400: 12, 429: 38 });
    const checked = (await attemptsMetric(app.url, "checked")) + (await attemptsMetric(other.url, "checked"));
    expect(checked - checkedBefore).toBe(12);
  });

  it("the owner logs in from another address while the guessing address is locked out; unlock frees that one too", async () => {
    // 127.0.0.2 spent its three guesses at "target" in the first test
    expect((await tokenFrom(app, app.url, "127.0.0.2", "target", "target-pass-1")).status).toBe(429);
    const owner = await tokenFrom(app, other.url, "127.0.0.4", "target", "target-pass-1");
    expect(owner.status).toBe(200);
    expect(owner.body.token).toMatch(/^[0-9a-f]{40}$/);
    // a wrong password from a third address is checked (and counted), not refused
    expect((await tokenFrom(app, app.url, "127.0.0.5", "target", "wrong-again-1")).status).toBe(400);

    const root = await (async () => {
      await app.createUser("root", "root-pass-12", { is_superuser: true });
      return app.login("root", "root-pass-12");
    })();
    const id = (await app.services.repos.users.findByUsername("target"))!.id;
    expect((await app.request("POST", `/api/admin/users/${id}/unlock/`, { token: root })).status).toBe(204);
    expect((await tokenFrom(app, app.url, "127.0.0.2", "target", "target-pass-1")).status).toBe(200);
  });

  it("an attempt whose process died counts until the window has passed, then frees its place", async () => {
    let now = Date.parse("2031-01-01T00:00:00Z");
    const guard = new LoginGuard(
      app.services.repos.loginFailures,
      { maxFailures: 2, windowMs: 60_000, stepMs: 0 },
      () => now,
    );
    // two attempts take their places and are never settled (their process died)
    await guard.reserve("crashy", "10.1.1.1");
    await guard.reserve("crashy", "10.1.1.1");
    await expect(guard.reserve("crashy", "10.1.1.1")).rejects.toMatchObject({
      status: 429,
      code: "rate_limited",
      headers: { "Retry-After": "60" },
    });
    now += 60_000;
    const later = await guard.reserve("crashy", "10.1.1.1");
    await later.succeeded();
  });
});

describeDb("login throttle: the wait per username from every address", () => {
  let app: TestApp;
  beforeAll(async () => {
    // the wait is what this suite is about: a step of 150 ms (tests run without one otherwise)
    app = await startTestApp({ loginMaxFailures: 5, loginWindowMs: 600_000, loginDelayStepMs: 150 });
    await app.createUser("helpdesk", "helpdesk-pass-1");
  });
  afterAll(async () => app?.close());

  it("failures from other addresses slow the owner's next login down, without refusing it", async () => {
    // one wrong password from each of four addresses: no address is near its limit
    for (const from of ["127.0.0.6", "127.0.0.7", "127.0.0.8", "127.0.0.9"]) {
      expect((await tokenFrom(app, app.url, from, "helpdesk", "guess-from-afar")).status).toBe(400);
    }
    const started = Date.now();
    const owner = await tokenFrom(app, app.url, "127.0.0.10", "helpdesk", "helpdesk-pass-1");
    expect(owner.status).toBe(200);
    // four counted failures of the username: four steps of 150 ms before the check
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it("parallel guesses from many addresses wait one step more each, up to the cap", async () => {
    const guard = new LoginGuard(app.services.repos.loginFailures, { maxFailures: 5, windowMs: 600_000, stepMs: 1000 });
    const attempts = await Promise.all(
      Array.from({ length: 14 }, (_, i) => guard.reserve("spread", `10.2.0.${i + 1}`)),
    );
    // each saw the pending ones before it: 0 s, 1 s, ... up to the 10 s cap
    expect(attempts.map((a) => a.delayMs).sort((a, b) => a - b)).toEqual([
      0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000, 10_000, 10_000, 10_000,
    ]);
    await Promise.all(attempts.map((a) => a.failed()));
  });
});
