/**
 * A real browser (Debian's chromium through playwright-core) sent to paths and logins
 * built to lead it to another site ends on this site. Requests for any other host are
 * answered inside the browser (they never reach a network) and counted: a browser led
 * away would land on that answer.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { startTestApp, type TestApp } from "../support/harness";
import { browserSuite, openBrowser } from "./ui-support";

const USER = { username: "browsing", password: "pw-browsing-1" };

browserSuite("a browser is never sent to another site", () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser(USER.username, USER.password);
    // the run's browser resolves no name but this machine's (test/support/browser-server.js):
    // a request that escaped the route below fails
    browser = await openBrowser();
  }, 60000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** a context whose requests for other hosts get a page saying so, each one recorded */
  async function watchedContext(): Promise<{ context: BrowserContext; elsewhere: string[] }> {
    const context = await browser.newContext();
    const elsewhere: string[] = [];
    const own = new URL(app.url).host;
    await context.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.host === own) return route.continue();
      elsewhere.push(url.href);
      return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>phished</h1>" });
    });
    return { context, elsewhere };
  }

  it.each([
    "//x//attacker.example/phish",
    "/.//x//attacker.example/phish",
    "/..//attacker.example/phish",
    "/ui//attacker.example/phish",
    "/%2F%2Fattacker.example/phish",
  ])("opening %s ends on this site", async (path) => {
    const { context, elsewhere } = await watchedContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.url}${path}`);
      expect({ path, origin: new URL(page.url()).origin, elsewhere }).toEqual({ path, origin: app.url, elsewhere: [] });
      expect(await page.content()).not.toContain("phished");
    } finally {
      await context.close();
    }
  });

  it("a login whose next leads elsewhere ends on this site's api/", async () => {
    const { context, elsewhere } = await watchedContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.url}/login/?next=${encodeURIComponent("/.//x//attacker.example/phish")}`);
      await page.fill("input[name=username]", USER.username);
      await page.fill("input[name=password]", USER.password);
      await Promise.all([page.waitForURL(`${app.url}/api/`), page.click("button[type=submit]")]);
      expect({ url: page.url(), elsewhere }).toEqual({ url: `${app.url}/api/`, elsewhere: [] });
    } finally {
      await context.close();
    }
  });
});
