/**
 * The client's address behind reverse proxies (TRUSTED_PROXIES, README "Behind a reverse
 * proxy"): two real proxies on loopback addresses of their own forward the way HAProxy
 * does (each adds an X-Forwarded-For line with its peer), clients on other loopback
 * addresses send forged entries, and the service must see each client's true address in
 * the login throttle, METRICS_ALLOW and the audit log, and take scheme and host only from
 * what the proxies wrote.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { requestFrom, startForwardingProxy, type ForwardingProxy } from "../support/forwarding-proxy";
import { ADDRESS_FACTOR } from "../../domain/throttle";

/** the proxies' own addresses: the outer one faces clients, the inner one the service */
const OUTER = "127.0.0.2";
const INNER = "127.0.0.3";
/** allowed to scrape /metrics besides 127.0.0.1 */
const SCRAPER = "127.0.0.10";
/** failures per username; an address may fail ADDRESS_FACTOR times that */
const MAX_FAILURES = 1;

describeDb("the client's address behind two trusted proxies", () => {
  let app: TestApp;
  let root: string;
  let inner: ForwardingProxy;
  let outer: ForwardingProxy;
  let direct: { host: string; port: number };

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({
      trustedProxies: [OUTER, INNER],
      metricsAllow: ["127.0.0.1", SCRAPER],
      loginMaxFailures: MAX_FAILURES,
    }));
    direct = { host: "127.0.0.1", port: Number(new URL(app.url).port) };
    inner = await startForwardingProxy({ listen: INNER, from: INNER, target: direct });
    outer = await startForwardingProxy({
      listen: OUTER,
      from: OUTER,
      target: inner,
      add: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "sd.example.org" },
    });
  });
  afterAll(async () => {
    await outer?.close();
    await inner?.close();
    await app?.close();
  });

  /** a request of a client at `from` through both proxies */
  const viaProxies = (
    from: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) => requestFrom(from, outer, method, path, headers, body);
  const tokenLogin = (from: string, username: string, forged: string, to: { host: string; port: number } = outer) =>
    requestFrom(
      from,
      to,
      "POST",
      "/api/users/token/",
      { "content-type": "application/json", "x-forwarded-for": forged },
      JSON.stringify({ username, password: "not-the-password" }),
    );

  async function auditRow(username: string): Promise<Record<string, unknown> | undefined> {
    const log = await app.request("GET", "/api/admin/log/?page_size=100", { token: root });
    expect(log.status).toBe(200);
    return (log.body.results as Record<string, unknown>[]).find((r) => r.username === username);
  }

  it("the audit log records the true address of a failed login, not a forged one", async () => {
    const r = await tokenLogin("127.0.0.9", "ghost-audit", "127.0.0.1, 198.51.100.7");
    expect(r.status).toBe(400);
    expect(await auditRow("ghost-audit")).toMatchObject({ source_address: "127.0.0.9", outcome: "refused" });
  });

  it("a client reaching the service directly cannot name an address either", async () => {
    const r = await tokenLogin("127.0.0.8", "ghost-direct", "203.0.113.99", direct);
    expect(r.status).toBe(400);
    expect(await auditRow("ghost-direct")).toMatchObject({ source_address: "127.0.0.8" });
  });

  it("a fresh forged address per guess does not escape the per-address login limit", async () => {
    const limit = MAX_FAILURES * ADDRESS_FACTOR;
    const statuses: number[] = [];
    // a new username each time (no username limit is reached) and a new forged address each time
    for (let i = 0; i <= limit; i++)
      statuses.push((await tokenLogin("127.0.0.20", `guess-${i}`, `198.51.100.${i + 1}, 203.0.113.${i + 1}`)).status);
    expect(statuses).toEqual([...Array(limit).fill(400), 429]);
    // the limit is the true address's: another client through the same proxies is not held up
    expect((await tokenLogin("127.0.0.21", "guess-other", "127.0.0.20")).status).toBe(400);
    expect(await auditRow(`guess-${limit}`)).toMatchObject({ source_address: "127.0.0.20", code: "rate_limited" });
  });

  it("METRICS_ALLOW sees the true address: a forged allowed one is refused", async () => {
    for (const forged of ["127.0.0.1", SCRAPER, `${SCRAPER}, 127.0.0.1`]) {
      const r = await viaProxies("127.0.0.9", "GET", "/metrics", { "x-forwarded-for": forged });
      expect({ forged, status: r.status, body: r.body }).toEqual({
        forged,
        status: 403,
        body: { reason: "Metrics are not served to 127.0.0.9 (METRICS_ALLOW)", code: "forbidden" },
      });
    }
    // directly, the header counts for nothing
    expect((await requestFrom("127.0.0.9", direct, "GET", "/metrics", { "x-forwarded-for": SCRAPER })).status).toBe(
      403,
    );
    // an allowed client through the proxies, whatever it forges, and one on the service's own host
    const allowed = await viaProxies(SCRAPER, "GET", "/metrics", { "x-forwarded-for": "192.0.2.1" });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("switchdesk_http");
    expect((await requestFrom("127.0.0.1", direct, "GET", "/metrics")).status).toBe(200);
  });

  it("scheme and host come from what the proxies wrote, never from the client", async () => {
    const forged = { authorization: `Token ${root}`, "x-forwarded-proto": "http", "x-forwarded-host": "evil.example" };
    const proxied = await viaProxies("127.0.0.9", "GET", "/api/", forged);
    expect(proxied.status).toBe(200);
    expect(proxied.body.admin).toBe("https://sd.example.org/api/admin/");
    const straight = await requestFrom("127.0.0.1", direct, "GET", "/api/", {
      ...forged,
      "x-forwarded-proto": "https",
    });
    expect(straight.body.admin).toBe(`${app.url}/api/admin/`);
    // the session cookies: Secure when the proxies say https, not when a direct client does
    const page = await viaProxies("127.0.0.9", "GET", "/login/");
    expect(String(page.headers["set-cookie"])).toContain("Secure");
    const plain = await requestFrom("127.0.0.9", direct, "GET", "/login/", { "x-forwarded-proto": "https" });
    expect(String(plain.headers["set-cookie"])).not.toContain("Secure");
  });
});
