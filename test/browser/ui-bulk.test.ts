/**
 * Bulk edit in a real browser (profile bulk_edit): many ports selected, one change for
 * all, a result per port with progress, and a port that fails shown as failed beside the
 * ones that worked. A user without bulk_edit gets no bulk form.
 */
import { browserSuite, startUiWorld, loggedIn, portRow, screenshot, HELPDESK, type UiWorld } from "./ui-support";

browserSuite("web UI bulk edit", () => {
  let w: UiWorld;
  beforeAll(async () => {
    w = await startUiWorld({
      moreUsers: [{ username: "nobulk", password: "pw-no-bulk-1", profile: { bulk_edit: false } }],
    });
  }, 60000);
  afterAll(async () => w?.close());

  it("sets a VLAN and a description on many ports, one result each, a failure shown as failed", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/`);
    await page.locator("table.ports").waitFor();
    const ports = [2, 3, 4, 5, 6, 7, 8]
      .map((n) => w.lab.model.port(n))
      .filter((p) => w.helpdeskVlans.includes(w.lab.model.pvid(p.bridgePort!)!))
      .slice(0, 3);
    expect(ports).toHaveLength(3);
    const to = w.helpdeskVlans.find((v) => v !== 1 && ports.every((p) => w.lab.model.pvid(p.bridgePort!) !== v))!;

    await page.click("#bulk summary");
    for (const p of ports)
      await portRow(page, p.ifIndex)
        .getByRole("checkbox", { name: `Select ${p.name}` })
        .check();
    await page.selectOption("#bulk-vlan", String(to));
    await page.check("#bulk-set-description");
    await page.fill("#bulk-description", "bulk room 7");

    // the switch refuses the second port's description (its ifAlias), nothing else
    const sets = w.lab.counters.byType.set;
    w.lab.faults.refuseSetsMatching(`1.3.6.1.2.1.31.1.1.1.18.${ports[1].ifIndex}`, "noAccess");
    const asked = page.waitForEvent("dialog").then((d) => {
      expect(d.message()).toBe(`Set VLAN ${to}, description "bulk room 7" on 3 ports?`);
      return d.accept();
    });
    await page.click("#bulk button[type=submit]");
    await asked;
    await page.locator("#bulk-status.ok, #bulk-status.error").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    w.lab.faults.reset();
    expect(w.lab.counters.byType.set).toBeGreaterThanOrEqual(sets + 6);

    const items = page.locator("#bulk-results li");
    await expect(items.count()).resolves.toBe(3);
    await expect(items.nth(0).getAttribute("class")).resolves.toBe("done");
    await expect(items.nth(0).textContent()).resolves.toBe(
      `${ports[0].name}: Interface ${ports[0].name} changed to vlan ${to}; Interface ${ports[0].name} description was changed!`,
    );
    await expect(items.nth(1).getAttribute("class")).resolves.toBe("failed");
    await expect(items.nth(1).textContent()).resolves.toMatch(
      new RegExp(
        `^${ports[1].name}: Interface ${ports[1].name} changed to vlan ${to}; failed: Device 'floor-2-access' refused`,
      ),
    );
    await expect(items.nth(2).getAttribute("class")).resolves.toBe("done");
    await expect(page.locator("#bulk-status").textContent()).resolves.toBe(
      "Done: 2 of 3 ports changed, 1 with errors (listed below).",
    );
    await expect(
      page.locator("#bulk-progress").evaluate((p: { value: number; max: number }) => [p.value, p.max]),
    ).resolves.toEqual([3, 3]);

    // the switch has what the list says
    for (const p of ports) expect(w.lab.model.pvid(p.bridgePort!)).toBe(to);
    expect(ports.map((p) => w.lab.model.alias(p.ifIndex))).toEqual([
      "bulk room 7",
      w.lab.model.alias(ports[1].ifIndex),
      "bulk room 7",
    ]);
    expect(w.lab.model.alias(ports[1].ifIndex)).not.toBe("bulk room 7");
    // the rows were read again, and say the same next to each port
    await expect(portRow(page, ports[0].ifIndex).locator('td[data-label="VLAN"] select').inputValue()).resolves.toBe(
      String(to),
    );
    await expect(portRow(page, ports[1].ifIndex).locator("td.result span").getAttribute("class")).resolves.toBe(
      "error",
    );
    await page.locator("#bulk").scrollIntoViewIfNeeded();
    await screenshot(w, page, "bulk-edit");
    await context.close();
  });

  it("offers no bulk form to a user whose profile has no bulk_edit", async () => {
    const { context, page } = await loggedIn(
      w,
      { username: "nobulk", password: "pw-no-bulk-1" },
      `/ui/switch/${w.gid}/${w.sid}/`,
    );
    await page.locator("table.ports").waitFor();
    expect(await page.locator("#bulk").count()).toBe(0);
    expect(await page.locator("table.ports input.pick").count()).toBe(0);
    await context.close();
  });
});
