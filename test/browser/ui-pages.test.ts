/**
 * The web UI's pages in a real browser: login, the menu with search, a device's ports
 * table and details view, the VLAN list, the audit log (superusers only), the tokens
 * page, and the links between the browsable API, the UI and the interactive reference.
 */
import { browserSuite, startUiWorld, loggedIn, portRow, screenshot, ADMIN, HELPDESK, type UiWorld } from "./ui-support";
import { addDevice } from "../support/lab-inventory";
import type { Schemas } from "../support/harness";

browserSuite("web UI pages", () => {
  let w: UiWorld;
  beforeAll(async () => {
    w = await startUiWorld();
    // a second device in the same group, for the menu's search
    await addDevice(w.app, { name: "lobby-core", lab: w.lab, groups: [w.gid] });
  }, 60000);
  afterAll(async () => w?.close());

  it("sends a browser without a session to the login page and back to the UI after it", async () => {
    const context = await w.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${w.app.url}/ui/tokens/`);
    expect(new URL(page.url()).pathname).toBe("/login/");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/ui/tokens/");
    await page.fill("input[name=username]", HELPDESK.username);
    await page.fill("input[name=password]", HELPDESK.password);
    await Promise.all([page.waitForURL(`${w.app.url}/ui/tokens/`), page.click("button[type=submit]")]);
    await expect(page.locator("h1").textContent()).resolves.toBe("My API tokens");
    await expect(page.locator("header [aria-current=page]").textContent()).resolves.toBe("My tokens");
    await context.close();
  });

  it("logging out of a UI page, and in again, lands back on that page", async () => {
    const device = `/ui/switch/${w.gid}/${w.sid}/`;
    const { context, page } = await loggedIn(w, HELPDESK, device);
    await page.locator("table.ports").waitFor();
    await Promise.all([page.waitForURL(/\/login\//), page.click("header form.logout button")]);
    expect(new URL(page.url()).searchParams.get("next")).toBe(device);
    await page.fill("input[name=username]", HELPDESK.username);
    await page.fill("input[name=password]", HELPDESK.password);
    await Promise.all([page.waitForURL(`${w.app.url}${device}`), page.click("button[type=submit]")]);
    await expect(page.locator("h1").textContent()).resolves.toBe("floor-2-access");
    await context.close();
  }, 60000);

  it("says so when the session ends under an open page, with a login that comes back to the page", async () => {
    const device = `/ui/switch/${w.gid}/${w.sid}/`;
    const { context, page } = await loggedIn(w, HELPDESK, device);
    await page.locator("table.ports").waitFor();
    // the session ends on the server while the page is open
    const key = (await context.cookies()).find((c) => c.name === "sessionid")!.value;
    await w.app.services.repos.sessions.remove(decodeURIComponent(key));

    const port = w.lab.model.port(2);
    page.once("dialog", (d) => void d.accept());
    await portRow(page, port.ifIndex)
      .getByRole("button", { name: `Disable ${port.name}` })
      .click();
    await page.locator("#session-ended").waitFor();
    await expect(portRow(page, port.ifIndex).locator("td.result span").textContent()).resolves.toMatch(
      /^Your session has ended: please log in again\./,
    );
    expect(w.lab.model.adminUp(port.ifIndex)).toBe(true);
    await expect(page.locator("#session-ended").textContent()).resolves.toBe(
      "Your session has ended. Log in again to come back to this page.",
    );

    await Promise.all([page.waitForURL(/\/login\//), page.click("#session-ended a")]);
    expect(new URL(page.url()).searchParams.get("next")).toBe(device);
    await page.fill("input[name=username]", HELPDESK.username);
    await page.fill("input[name=password]", HELPDESK.password);
    await Promise.all([page.waitForURL(`${w.app.url}${device}`), page.click("button[type=submit]")]);
    await page.locator("table.ports").waitFor();
    expect(await page.locator("#session-ended").count()).toBe(0);
    await context.close();
  }, 60000);

  it("shows the menu of groups and devices, filters it as one types, and opens a device by exact name", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, "/ui/");
    await page.locator("ul.devices li").first().waitFor();
    await expect(page.locator("h2").allTextContents()).resolves.toEqual(["Helpdesk floor"]);
    await expect(page.locator("ul.devices li a").allTextContents()).resolves.toEqual(["floor-2-access", "lobby-core"]);
    await screenshot(w, page, "menu");

    await page.fill("#device-search", "lobby");
    await expect(page.locator("ul.devices li:visible a").allTextContents()).resolves.toEqual(["lobby-core"]);
    await expect(page.locator("[role=status]").textContent()).resolves.toBe("1 of 2 devices match.");

    // Enter asks the API's search for that exact name and opens the device
    await page.fill("#device-search", "floor-2-access");
    await Promise.all([
      page.waitForURL(`${w.app.url}/ui/switch/${w.gid}/${w.sid}/`),
      page.press("#device-search", "Enter"),
    ]);
    await page.locator("table.ports").waitFor();

    // no such device: the API's answer in words
    await page.goto(`${w.app.url}/ui/`);
    await page.fill("#device-search", "no-such-switch");
    await page.press("#device-search", "Enter");
    await expect(page.locator("[role=alert]").textContent()).resolves.toBe("Device 'no-such-switch' not found!");
    await context.close();
  });

  it("shows a device's ports table as the switch has it", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/`);
    await page.locator("table.ports").waitFor();
    await expect(page.locator("h1").textContent()).resolves.toBe("floor-2-access");
    await expect(page.locator("table.ports thead th").allTextContents()).resolves.toEqual([
      "Select",
      "Port",
      "Description",
      "Admin state",
      "Link",
      "Speed",
      "VLAN",
      "PoE",
      "Result",
    ]);
    const ethernet = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => w.lab.model.port(n));
    for (const port of ethernet) {
      const row = portRow(page, port.ifIndex);
      const cells = row.locator("td");
      await expect(cells.nth(1).locator("strong").textContent()).resolves.toBe(port.name);
      await expect(cells.nth(4).textContent()).resolves.toBe(w.lab.model.operUp(port.ifIndex) ? "Up" : "Down");
      await expect(cells.nth(5).textContent()).resolves.toBe(
        port.speedMbps >= 1000 ? `${port.speedMbps / 1000} Gbps` : `${port.speedMbps} Mbps`,
      );
      const pvid = w.lab.model.pvid(port.bridgePort!);
      const select = cells.nth(6).locator("select");
      if (pvid !== undefined && w.helpdeskVlans.includes(pvid)) {
        await expect(select.inputValue()).resolves.toBe(String(pvid));
        await expect(cells.nth(2).locator("input").inputValue()).resolves.toBe(w.lab.model.alias(port.ifIndex));
      } else {
        // a port on a VLAN the helpdesk may not use: shown, not changeable, and why
        expect(await select.count()).toBe(0);
        await expect(cells.nth(1).textContent()).resolves.toContain("not");
      }
      await expect(cells.nth(7).textContent()).resolves.toContain(
        w.lab.model.poeState(port.ifIndex)!.enabled ? "Enabled" : "Disabled",
      );
    }
    await context.close();
  });

  it("shows MAC addresses with their vendor and LLDP neighbours on the details view", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/details/`);
    await page.locator("table.ports").waitFor();
    await expect(page.locator("table.ports thead th").allTextContents()).resolves.toContain("LLDP neighbours");
    // what the API says of port 1 is what the page shows
    const token = await w.app.login(ADMIN.username, ADMIN.password);
    const api = (await w.app.request("GET", `/api/switches/${w.gid}/${w.sid}/details/`, { token })).body;
    const withMacs = api.interfaces.find(
      (i: Schemas["Interface"]) => i.ethernet_addresses.some((m) => m.vendor) && i.neighbors.length,
    );
    expect(withMacs).toBeDefined();
    const row = portRow(page, withMacs.id);
    const macs = await row.locator('td[data-label="MAC addresses"] li').allTextContents();
    const mac = withMacs.ethernet_addresses.find((m: Schemas["EthernetAddress"]) => m.vendor);
    expect(macs).toContain(`${mac.address} vlan ${mac.vlan} · ${mac.vendor}`);
    await expect(row.locator('td[data-label="LLDP neighbours"]').textContent()).resolves.toContain(
      withMacs.neighbors[0].system_name,
    );
    await context.close();
  });

  it("lists the device's VLANs, with add, rename and delete only for those allowed", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/vlans/`);
    await page.locator("table.vlans").waitFor();
    const ids = await page.locator("table.vlans tbody td[data-label=VLAN]").allTextContents();
    expect(ids.map(Number)).toEqual(w.lab.model.vlanIds());
    const yours = await page.locator('table.vlans tbody td[data-label="Yours to use"]').allTextContents();
    expect(ids.filter((_id, n) => yours[n] === "yes").map(Number)).toEqual(w.helpdeskVlans);
    // the helpdesk profile has no vlan_edit: no forms that would only be refused
    expect(await page.locator("#vlan-add").count()).toBe(0);
    expect(await page.locator("table.vlans button").count()).toBe(0);
    await context.close();
  });

  it("shows the audit log to superusers only", async () => {
    // a failed login is an audit row: the newest one when the page opens
    expect(
      (await w.app.request("POST", "/api/users/token/", { json: { username: "helpdesk", password: "wrong" } })).status,
    ).toBe(400);
    const { context, page } = await loggedIn(w, ADMIN, "/ui/audit/");
    await page.locator("table.audit").waitFor();
    const newest = page.locator("table.audit tbody tr").first();
    await expect(newest.locator('td[data-label="Action"]').textContent()).resolves.toBe("login");
    await expect(newest.locator('td[data-label="User"]').textContent()).resolves.toBe("helpdesk");
    await expect(newest.locator('td[data-label="Outcome"]').textContent()).resolves.toBe("refused");
    await expect(newest.locator('td[data-label="Message"]').textContent()).resolves.toBe(
      "Unable to log in with provided credentials.",
    );
    await page.selectOption("#audit-outcome", "refused");
    await Promise.all([page.waitForURL(/outcome=refused/), page.click("form.toolbar button")]);
    await page.locator("table.audit").waitFor();
    const outcomes = await page.locator('table.audit td[data-label="Outcome"]').allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    expect(outcomes.every((o) => o === "refused")).toBe(true);
    await context.close();

    const help = await loggedIn(w, HELPDESK, "/ui/");
    expect(await help.page.locator("header a[href='/ui/audit/']").count()).toBe(0);
    await help.page.goto(`${w.app.url}/ui/audit/`);
    await expect(help.page.locator("[role=alert]").textContent()).resolves.toBe(
      "You do not have permission to perform this action.",
    );
    await help.context.close();
  });

  it("creates, lists and revokes the user's own API tokens", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, "/ui/tokens/");
    await page.locator("#token-create").waitFor();
    const before = await page.locator("table.tokens tbody tr").count();

    await page.fill("#token-password", "not my password");
    await page.click("#token-create button");
    await expect(page.locator("#token-status.error").textContent()).resolves.toBe(
      "Unable to log in with provided credentials.",
    );

    await page.fill("#token-password", HELPDESK.password);
    await page.click("#token-create button");
    const key = (await page.locator("#new-token code").textContent())!;
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    // the key works against the API
    const menu = await w.app.request<Schemas["Menu"]>("GET", "/api/switches/", { token: key });
    expect(menu.body.user.name).toBe(HELPDESK.username);
    await expect(page.locator("table.tokens tbody tr").count()).resolves.toBe(before + 1);

    // revoke it (the profile asks "Are you sure?")
    const id = (await w.app.services.repos.tokens.findByKey(key))!.id;
    page.once("dialog", (d) => void d.accept());
    await page.click(`tr[data-token="${id}"] button`);
    // the status line is on the page already (empty) while the revocation is under way
    await page.locator("#token-status", { hasText: "revoked" }).waitFor({ timeout: 10_000 });
    await expect(page.locator("#token-status").textContent()).resolves.toBe(`Token ${id} was revoked.`);
    expect(await page.locator(`tr[data-token="${id}"]`).count()).toBe(0);
    expect((await w.app.request("GET", "/api/switches/", { token: key })).status).toBe(403);
    await context.close();
  });

  it("links the browsable API to the UI and to the interactive reference, which works under the CSP", async () => {
    const { context, page } = await loggedIn(w, ADMIN, "/api/");
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
    });
    await expect(page.locator("header a[href='/ui/']").textContent()).resolves.toBe("Web UI");
    await Promise.all([page.waitForURL(`${w.app.url}/ui/reference/`), page.click("header a[href='/ui/reference/']")]);
    // Swagger UI, from the package, showing the spec read from /api/schema/
    await page.locator(".swagger-ui .opblock-summary-path").first().waitFor({ timeout: 15000 });
    const paths = await page.locator(".swagger-ui .opblock-summary-path").allTextContents();
    expect(paths.map((p) => p.replace(/\u200b/g, ""))).toContain(
      "/api/switches/{group}/{switch}/interface/{interface}/vlan/",
    );
    expect(violations).toEqual([]);
    await context.close();
  });
});
