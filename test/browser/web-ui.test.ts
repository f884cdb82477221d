/**
 * The web UI in a real browser (Debian's chromium driven by playwright-core): log in,
 * open the browsable api/, follow a link, submit a form, log out.
 */
import type { Browser } from "playwright-core";
import { startTestApp, type TestApp } from "../support/harness";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { browserSuite, openBrowser } from "./ui-support";

browserSuite("web UI session in a browser", () => {
  let app: TestApp;
  let browser: Browser;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser("webadmin", "pw-web-admin-1", { is_superuser: true });
    lab = await startLab({ profile: "generic", ports: 8, name: "browser-lab" });
    gid = await addGroup(app, { name: "Web" });
    sid = await addDevice(app, { name: "web-sw", lab, groups: [gid] });
    browser = await openBrowser();
  }, 60000);
  afterAll(async () => {
    await browser?.close();
    await lab?.stop();
    await app?.close();
  });

  it("sends a browser without a session to the login page", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/api/`);
    expect(new URL(page.url()).pathname).toBe("/login/");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/api/");
    await page.close();
  });

  it("refuses a wrong password on the login page", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/login/?next=/api/`);
    await page.fill("input[name=username]", "webadmin");
    await page.fill("input[name=password]", "wrong");
    await page.click("button[type=submit]");
    await expect(page.locator("[role=alert]").textContent()).resolves.toContain(
      "Unable to log in with provided credentials.",
    );
    expect(new URL(page.url()).pathname).toBe("/login/");
    await page.close();
  });

  it("logs in, browses api/, follows a link, submits a form, logs out", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/api/`);
    await page.fill("input[name=username]", "webadmin");
    await page.fill("input[name=password]", "pw-web-admin-1");
    await Promise.all([page.waitForURL(`${app.url}/api/`), page.click("button[type=submit]")]);

    // the session cookie is HttpOnly and SameSite=Lax
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === "sessionid")!;
    expect(session.httpOnly).toBe(true);
    expect(session.sameSite).toBe("Lax");

    // the browsable root: formatted JSON with links, the endpoint list, forms
    const result = await page.locator("#result").textContent();
    expect(JSON.parse(result!)).toMatchObject({ switches: `${app.url}/api/switches/` });
    await expect(page.locator("table").textContent()).resolves.toContain(
      "/api/switches/{group}/{switch}/interface/{interface}/vlan/",
    );
    expect(await page.locator("form.op").count()).toBeGreaterThan(10);

    // follow a link from the JSON
    await Promise.all([page.waitForURL(`${app.url}/api/stats/`), page.click(`#result a[href="/api/stats/"]`)]);
    const stats = JSON.parse((await page.locator("#result").textContent())!);
    expect(stats.database.users.value).toBe(1);

    // submit the user-create form (session POST with the CSRF token)
    await page.goto(`${app.url}/api/`);
    const form = page.locator("#form-createUser");
    await form.locator("input[name=username]").fill("made-in-browser");
    await form.locator("input[name=password]").fill("pw-browser-1");
    await form.locator("input[name=email]").fill("browser@example.org");
    await form.locator("button[type=submit]").click();
    await form.locator(".answer:not([hidden])").waitFor();
    expect(await form.locator(".answer").textContent()).toMatch(/^HTTP 201\n/);
    const made = await app.services.repos.users.findByUsername("made-in-browser");
    expect(made?.email).toBe("browser@example.org");

    // log out: the session ends, api/ sends us to the login page again
    await Promise.all([page.waitForURL(/\/login\//), page.click("form.logout button")]);
    await page.goto(`${app.url}/api/`);
    expect(new URL(page.url()).pathname).toBe("/login/");
    await context.close();
  });

  it("a switch's page offers its actions with the switch filled in", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/login/?next=/api/switches/${gid}/${sid}/`);
    await page.fill("input[name=username]", "webadmin");
    await page.fill("input[name=password]", "pw-web-admin-1");
    await Promise.all([page.waitForURL(`${app.url}/api/switches/${gid}/${sid}/`), page.click("button[type=submit]")]);
    const shown = JSON.parse((await page.locator("#result").textContent())!);
    expect(shown.switch.name).toBe("web-sw");
    // only the actions under this switch, group and switch already known
    expect(await page.locator("#form-createUser").count()).toBe(0);
    const form = page.locator("#form-setInterfaceDescription");
    expect(await form.locator("input[data-path=group]").getAttribute("type")).toBe("hidden");
    const port = lab.model.port(3);
    await form.locator("input[data-path=interface]").fill(String(port.ifIndex));
    await form.locator("input[name=description]").fill("set from the browser");
    await form.locator("button[type=submit]").click();
    await form.locator(".answer:not([hidden])").waitFor();
    expect(await form.locator(".answer").textContent()).toContain("description was changed!");
    expect(lab.model.alias(port.ifIndex)).toBe("set from the browser");
    await context.close();
  });

  it("refuses a session POST without the CSRF token", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/login/`);
    await page.fill("input[name=username]", "webadmin");
    await page.fill("input[name=password]", "pw-web-admin-1");
    // a login without next lands on the web UI (docs/api-decisions.md section 18)
    await Promise.all([page.waitForURL(`${app.url}/ui/`), page.click("button[type=submit]")]);
    const status = await page.evaluate(async () => {
      const r = await fetch("/api/admin/users/", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: "username=sneaky&password=sneaky-pass-1",
      });
      return [r.status, ((await r.json()) as { code: string }).code];
    });
    expect(status).toEqual([403, "csrf_failed"]);
    expect(await app.services.repos.users.findByUsername("sneaky")).toBeNull();
    await context.close();
  });
});
