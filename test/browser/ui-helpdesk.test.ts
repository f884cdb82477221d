/**
 * The helpdesk writes in a real browser (issue 20): the Bounce button takes the port down
 * and up again, the Power cycle button PoE off and on, each with its result next to the
 * port; bulk edit sends its changes as one batch call (POST .../batch/) and no single
 * writes. The two buttons use the API's default wait (3 s), which is what a user gets:
 * the test takes about that long for each.
 */
import type { Request } from "playwright-core";
import { browserSuite, startUiWorld, loggedIn, portRow, HELPDESK, type UiWorld } from "./ui-support";

browserSuite("web UI bounce, power cycle and bulk edit as one batch", () => {
  let w: UiWorld;
  beforeAll(async () => {
    w = await startUiWorld();
  }, 60000);
  afterAll(async () => w?.close());

  /** ports 2..8 the helpdesk may manage (VLAN allowed), enabled */
  const manageable = () =>
    [2, 3, 4, 5, 6, 7, 8]
      .map((n) => w.lab.model.port(n))
      .filter((p) => w.helpdeskVlans.includes(w.lab.model.pvid(p.bridgePort!)!) && w.lab.model.adminUp(p.ifIndex));

  it("bounces a port and power cycles a PoE port from their buttons", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/`);
    await page.locator("table.ports").waitFor();
    const port = manageable()[0];
    const seen: boolean[] = [];
    const poll = setInterval(() => seen.push(w.lab.model.adminUp(port.ifIndex)), 20);
    const asked = page.waitForEvent("dialog").then((d) => {
      expect(d.message()).toBe(`Bounce ${port.name}? It goes down for 3 seconds, then up again.`);
      return d.accept();
    });
    await portRow(page, port.ifIndex)
      .getByRole("button", { name: `Bounce ${port.name}` })
      .click();
    await asked;
    const out = portRow(page, port.ifIndex).locator("td.result span");
    await out.locator("xpath=self::*[contains(@class,'ok') or contains(@class,'error')]").waitFor({ timeout: 10000 });
    clearInterval(poll);
    await expect(out.textContent()).resolves.toBe(`Interface ${port.name} was bounced (down 3 s, now Enabled)`);
    expect(seen).toContain(false);
    expect(w.lab.model.adminUp(port.ifIndex)).toBe(true);

    // a PoE port with PoE on: its power cycle
    const poePort = [1, 2, 3, 4, 5, 6, 7, 8]
      .map((n) => w.lab.model.port(n))
      .find((p) => w.lab.model.poeState(p.ifIndex)?.enabled && p.ifIndex !== port.ifIndex)!;
    expect(poePort).toBeDefined();
    const poe: boolean[] = [];
    const poePoll = setInterval(() => poe.push(w.lab.model.poeState(poePort.ifIndex)!.enabled), 20);
    page.once("dialog", (d) => void d.accept());
    await portRow(page, poePort.ifIndex)
      .getByRole("button", { name: `Power cycle ${poePort.name}` })
      .click();
    const poeOut = portRow(page, poePort.ifIndex).locator("td.result span");
    await poeOut
      .locator("xpath=self::*[contains(@class,'ok') or contains(@class,'error')]")
      .waitFor({ timeout: 10000 });
    clearInterval(poePoll);
    await expect(poeOut.textContent()).resolves.toBe(
      `Interface ${poePort.name} PoE was power cycled (off 3 s, now Enabled)`,
    );
    expect(poe).toContain(false);
    expect(w.lab.model.poeState(poePort.ifIndex)!.enabled).toBe(true);

    // a disabled port offers no Bounce
    w.lab.model.update((cfg) => (cfg.ports.get(port.ifIndex)!.adminUp = false));
    await page.reload();
    await page.locator("table.ports").waitFor();
    expect(
      await portRow(page, port.ifIndex)
        .getByRole("button", { name: `Bounce ${port.name}` })
        .count(),
    ).toBe(0);
    w.lab.model.update((cfg) => (cfg.ports.get(port.ifIndex)!.adminUp = true));
    await context.close();
  }, 30000);

  it("sends a bulk edit as one batch call", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/`);
    await page.locator("table.ports").waitFor();
    const ports = manageable().slice(0, 3);
    expect(ports).toHaveLength(3);
    const posts: string[] = [];
    page.on("request", (r: Request) => {
      if (r.method() === "POST") posts.push(new URL(r.url()).pathname);
    });
    await page.click("#bulk summary");
    for (const p of ports)
      await portRow(page, p.ifIndex)
        .getByRole("checkbox", { name: `Select ${p.name}` })
        .check();
    await page.check("#bulk-set-description");
    await page.fill("#bulk-description", "one call");
    await page.selectOption("#bulk-state", "off");
    page.once("dialog", (d) => void d.accept());
    await page.click("#bulk button[type=submit]");
    await page.locator("#bulk-status.ok, #bulk-status.error").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    expect(posts).toEqual([`/api/switches/${w.gid}/${w.sid}/batch/`]);
    await expect(page.locator("#bulk-status").textContent()).resolves.toBe("Done: 3 of 3 ports changed.");
    for (const p of ports) {
      expect(w.lab.model.alias(p.ifIndex)).toBe("one call");
      expect(w.lab.model.adminUp(p.ifIndex)).toBe(false);
    }
    // the audit log ties the six rows together with one batch id
    const root = await w.app.services.repos.audit.page({ page: 1, pageSize: 10 });
    const ids = new Set(root.results.slice(0, 6).map((r) => r.batch_id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
    await context.close();
  }, 30000);
});
