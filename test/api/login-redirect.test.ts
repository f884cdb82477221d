/**
 * Where a web login goes (docs/api-decisions.md section 8): back to the page of this
 * site named by `next` (the web UI sends its own path), never to another site: a
 * `next` that is not a plain same-site path ("//host", a scheme, a backslash, a blank or
 * control character a browser would drop) falls back to /api/. Logging out of a UI page
 * sends the browser to a login that comes back to that page. A person (a browser) who
 * opens the site's root or logs in without `next` lands on the web UI's devices page; a
 * script still lands on /api/ (docs/api-decisions.md section 18).
 */
import { startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

const USER = { username: "webber", password: "pw-webber-1" };

describeDb("where a web login goes", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser(USER.username, USER.password);
  });
  afterAll(async () => app?.close());

  /** the login page's CSRF cookie, as a browser gets it */
  async function loginCsrf(): Promise<string> {
    const page = await fetch(`${app.url}/login/`);
    return /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
  }

  /** a login through the form with this `next` (left out when undefined): its status and Location */
  async function logIn(
    next: string | undefined,
    accept?: string,
  ): Promise<{ status: number; location: string | null; session: boolean }> {
    const csrf = await loginCsrf();
    const form = new URLSearchParams({ ...USER, csrfmiddlewaretoken: csrf, ...(next === undefined ? {} : { next }) });
    const r = await fetch(`${app.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `csrftoken=${csrf}`,
        ...(accept ? { accept } : {}),
      },
      body: form.toString(),
    });
    return {
      status: r.status,
      location: r.headers.get("location"),
      session: r.headers.getSetCookie().some((c) => c.startsWith("sessionid=")),
    };
  }

  it.each(["/ui/", "/ui/switch/3/4/details/", "/ui/audit/?outcome=refused", "/api/switches/"])(
    "goes back to the same-site page %j",
    async (next) => {
      await expect(logIn(next)).resolves.toEqual({ status: 302, location: next, session: true });
    },
  );

  it.each([
    ["another host", "//evil.example/ui/"],
    ["another host with a scheme", "https://evil.example/ui/"],
    ["a script", "javascript:alert(1)"],
    ["a backslash after the slash", "/\\evil.example/"],
    ["two backslashes", "\\\\evil.example/"],
    ["a tab a browser would drop", "/\t/evil.example/"],
    ["a line break a browser would drop", "/\n/evil.example/"],
    ["a blank", "/ /evil.example/"],
    ["a relative path", "ui/"],
    ["nothing", ""],
    ["no next at all", undefined],
  ])("refuses %s and goes to /api/ instead", async (_what, next) => {
    // the login itself works: only the target is refused
    await expect(logIn(next)).resolves.toEqual({ status: 302, location: "/api/", session: true });
  });

  /** what a browser sends with a page request or a form */
  const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

  it.each([
    ["no next at all", undefined],
    ["an empty next", ""],
  ])("a browser that logs in with %s lands on the web UI's devices page", async (_what, next) => {
    await expect(logIn(next, BROWSER_ACCEPT)).resolves.toEqual({ status: 302, location: "/ui/", session: true });
  });

  it("a browser's login with a next still goes there, and with a refused one to /api/", async () => {
    await expect(logIn("/ui/tokens/", BROWSER_ACCEPT)).resolves.toMatchObject({ location: "/ui/tokens/" });
    await expect(logIn("//evil.example/", BROWSER_ACCEPT)).resolves.toMatchObject({ location: "/api/" });
  });

  it("the login page a browser opens without next sends its form to the web UI", async () => {
    const page = await (await fetch(`${app.url}/login/`, { headers: { accept: BROWSER_ACCEPT } })).text();
    expect(page).toContain('<input type="hidden" name="next" value="/ui/">');
    // a script reading the page without asking for HTML: api/, as before
    const plain = await (await fetch(`${app.url}/login/`)).text();
    expect(plain).toContain('<input type="hidden" name="next" value="/api/">');
  });

  it("the site's root sends a person to the web UI and a script to /api/", async () => {
    const root = (headers: Record<string, string>) =>
      fetch(`${app.url}/`, { redirect: "manual", headers }).then((r) => ({
        status: r.status,
        location: r.headers.get("location"),
      }));
    await expect(root({ accept: BROWSER_ACCEPT })).resolves.toEqual({ status: 302, location: "/ui/" });
    await expect(root({})).resolves.toEqual({ status: 302, location: "/api/" });
    await expect(root({ accept: "application/json" })).resolves.toEqual({ status: 302, location: "/api/" });
    // a token is a script's, whatever it accepts
    await expect(root({ accept: BROWSER_ACCEPT, authorization: `Token ${"0".repeat(40)}` })).resolves.toEqual({
      status: 302,
      location: "/api/",
    });
  });

  it("the login page carries only a safe next in its form", async () => {
    const good = await (await fetch(`${app.url}/login/?next=${encodeURIComponent("/ui/tokens/")}`)).text();
    expect(good).toContain('<input type="hidden" name="next" value="/ui/tokens/">');
    const evil = await (await fetch(`${app.url}/login/?next=${encodeURIComponent("//evil.example/")}`)).text();
    expect(evil).toContain('<input type="hidden" name="next" value="/api/">');
    expect(evil).not.toContain("evil.example");
  });

  it("a UI page's logout form names the page, and logging out sends the browser to a login that comes back to it", async () => {
    const session = await app.webLogin(USER.username, USER.password);
    const page = await app.request("GET", "/ui/tokens/", { session, headers: { accept: "text/html" } });
    expect(page.text).toContain('<input type="hidden" name="next" value="/ui/tokens/">');

    const logout = (next?: string) =>
      fetch(`${app.url}/logout/`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: `sessionid=${session.cookie}; csrftoken=${session.csrf}`,
        },
        body: new URLSearchParams({
          csrfmiddlewaretoken: session.csrf,
          ...(next === undefined ? {} : { next }),
        }).toString(),
      });
    const out = await logout("/ui/tokens/");
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`/login/?next=${encodeURIComponent("/ui/tokens/")}`);
    // the session is gone
    expect((await app.request("GET", "/ui/tokens/", { session, headers: { accept: "text/html" } })).status).toBe(302);

    // another site, or no page: the plain login page
    for (const next of ["//evil.example/", undefined]) {
      const r = await logout(next);
      expect({ next, status: r.status, location: r.headers.get("location") }).toEqual({
        next,
        status: 302,
        location: "/login/",
      });
    }
  });
});
