/**
 * Changes in place on a device page, in a real browser: the VLAN choice (only the VLANs
 * the user may use), the admin state and PoE toggles, the description field, each through
 * the API with its result or error in words next to the port and the row read again from
 * the switch; "Are you sure?" from the profile; the Save button; VLAN add, rename, delete.
 */
import type { Page } from "playwright-core";
import { browserSuite, startUiWorld, loggedIn, portRow, screenshot, ADMIN, HELPDESK, type UiWorld } from "./ui-support";

browserSuite("web UI changes in place", () => {
  let w: UiWorld;
  let page: Page;
  let close: () => Promise<void>;
  /** Ethernet ports 2..8 whose VLAN the helpdesk may use (port 1 is a phone port with a tagged VLAN) */
  let ports: ReturnType<UiWorld["lab"]["model"]["port"]>[];

  beforeAll(async () => {
    w = await startUiWorld();
    ports = [2, 3, 4, 5, 6, 7, 8]
      .map((n) => w.lab.model.port(n))
      .filter((p) => w.helpdeskVlans.includes(w.lab.model.pvid(p.bridgePort!)!));
    expect(ports.length).toBeGreaterThanOrEqual(3);
    const s = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/`);
    page = s.page;
    close = () => s.context.close();
    await page.locator("table.ports").waitFor();
  }, 60000);
  afterAll(async () => {
    await close?.();
    await w?.close();
  });

  /** the answer next to the port once the change is done and the row read again */
  async function resultText(ifIndex: number): Promise<{ kind: string; text: string }> {
    const out = portRow(page, ifIndex).locator("td.result span");
    await page.locator("table.ports .result span.ok, table.ports .result span.error").first().waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    return { kind: (await out.getAttribute("class")) ?? "", text: (await out.textContent()) ?? "" };
  }
  const clearResults = () =>
    page
      .locator("td.result span")
      .evaluateAll((spans) => spans.forEach((s) => ((s.className = ""), (s.textContent = ""))));

  it("offers only the VLANs the user may use, asks first, and moves the port", async () => {
    const port = ports[0];
    const from = w.lab.model.pvid(port.bridgePort!)!;
    const to = w.helpdeskVlans.find((v) => v !== from && v !== 1)!;
    const select = portRow(page, port.ifIndex).locator('td[data-label="VLAN"] select');
    const offered = await select.locator("option").evaluateAll((os) => os.map((o) => Number(o.getAttribute("value"))));
    expect(offered).toEqual(w.helpdeskVlans);
    expect(await page.locator("#save-config").getAttribute("class")).not.toContain("attention");

    // "Are you sure?" declined: nothing sent, the choice shows the port's VLAN again
    const declined = page.waitForEvent("dialog").then((d) => {
      expect(d.message()).toBe(`Change the VLAN of ${port.name} from ${from} to ${to}?`);
      return d.dismiss();
    });
    await select.selectOption(String(to));
    await declined;
    await expect(portRow(page, port.ifIndex).locator("td.result span").textContent()).resolves.toBe("Not changed.");
    await expect(portRow(page, port.ifIndex).locator('td[data-label="VLAN"] select').inputValue()).resolves.toBe(
      String(from),
    );
    expect(w.lab.model.pvid(port.bridgePort!)).toBe(from);

    page.once("dialog", (d) => void d.accept());
    await portRow(page, port.ifIndex).locator('td[data-label="VLAN"] select').selectOption(String(to));
    await expect(resultText(port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} changed to vlan ${to}`,
    });
    expect(w.lab.model.pvid(port.bridgePort!)).toBe(to);
    await expect(portRow(page, port.ifIndex).locator('td[data-label="VLAN"] select').inputValue()).resolves.toBe(
      String(to),
    );
    // the device needs a save: the button says so
    await expect(page.locator("#save-config").textContent()).resolves.toBe("Save configuration (unsaved changes)");
    expect(await page.locator("#save-config").getAttribute("class")).toContain("attention");
  });

  it("toggles the admin state and PoE of a port", async () => {
    await clearResults();
    const port = ports[1];
    expect(w.lab.model.adminUp(port.ifIndex)).toBe(true);
    page.once("dialog", (d) => void d.accept());
    await portRow(page, port.ifIndex)
      .getByRole("button", { name: `Disable ${port.name}` })
      .click();
    await expect(resultText(port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} is now Disabled`,
    });
    expect(w.lab.model.adminUp(port.ifIndex)).toBe(false);
    await expect(
      portRow(page, port.ifIndex).locator('td[data-label="Admin state"] button').textContent(),
    ).resolves.toBe("Enable");

    await clearResults();
    expect(w.lab.model.poeState(port.ifIndex)!.enabled).toBe(true);
    page.once("dialog", (d) => void d.accept());
    await portRow(page, port.ifIndex)
      .getByRole("button", { name: `Turn PoE off on ${port.name}` })
      .click();
    await expect(resultText(port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} PoE is now Disabled`,
    });
    expect(w.lab.model.poeState(port.ifIndex)!.enabled).toBe(false);
    await expect(portRow(page, port.ifIndex).locator('td[data-label="PoE"]').textContent()).resolves.toContain(
      "Disabled",
    );
  });

  it("sets a description, and shows a device's refusal in words", async () => {
    await clearResults();
    const port = ports[2];
    const field = () => portRow(page, port.ifIndex).locator('td[data-label="Description"] input');
    await field().fill("printer room 2");
    page.once("dialog", (d) => void d.accept());
    await field().press("Enter");
    await expect(resultText(port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} description was changed!`,
    });
    expect(w.lab.model.alias(port.ifIndex)).toBe("printer room 2");

    // the switch refuses every SET: the API's reason next to the port, nothing changed
    await clearResults();
    w.lab.faults.refuseSets = "noAccess";
    try {
      await field().fill("never written");
      page.once("dialog", (d) => void d.accept());
      await portRow(page, port.ifIndex)
        .getByRole("button", { name: `Set the description of ${port.name}` })
        .click();
      const shown = await resultText(port.ifIndex);
      expect(shown.kind).toBe("error");
      expect(shown.text).toContain("floor-2-access");
      await portRow(page, port.ifIndex).scrollIntoViewIfNeeded();
      await screenshot(w, page, "error");
    } finally {
      w.lab.faults.reset();
    }
    expect(w.lab.model.alias(port.ifIndex)).toBe("printer room 2");
    // the row was read again: the field shows what the switch has
    await expect(field().inputValue()).resolves.toBe("printer room 2");
  });

  it("saves the configuration with the highlighted Save button", async () => {
    expect(w.lab.model.isSaved()).toBe(false);
    page.once("dialog", (d) => void d.accept());
    await page.click("#save-config");
    await page.locator("#save-config:not(.attention)").waitFor();
    await expect(page.locator("#save-config + [role=status]").textContent()).resolves.toBe("Configuration saved!");
    expect(w.lab.model.isSaved()).toBe(true);
  });

  it("adds, renames and deletes a VLAN for a user allowed to", async () => {
    const admin = await loggedIn(w, ADMIN, `/ui/switch/${w.gid}/${w.sid}/vlans/`);
    const p = admin.page;
    await p.locator("#vlan-add").waitFor();
    await p.fill("#new-vlan-id", "300");
    await p.fill("#new-vlan-name", "ui-made");
    await p.click("#vlan-add button");
    await p.locator("#vlan-status.ok").waitFor();
    await expect(p.locator("#vlan-status").textContent()).resolves.toBe("Vlan 300 (ui-made) created.");
    expect(w.lab.model.vlan(300)?.name).toBe("ui-made");

    await p.fill("#vlan-name-300", "ui-renamed");
    await p.getByRole("button", { name: "Rename VLAN 300" }).click();
    await p.locator("#vlan-status.ok").waitFor();
    await expect(p.locator("#vlan-status").textContent()).resolves.toBe("Updated name for vlan 300 to 'ui-renamed'");
    expect(w.lab.model.vlan(300)?.name).toBe("ui-renamed");

    await p.getByRole("button", { name: "Delete VLAN 300" }).click();
    await p.locator("#vlan-status.ok").waitFor();
    await expect(p.locator("#vlan-status").textContent()).resolves.toBe("Vlan 300 was deleted!");
    expect(w.lab.model.vlanIds()).not.toContain(300);
    expect(await p.locator('tr[data-vlan="300"]').count()).toBe(0);

    // a refusal in words: an id that exists
    await p.fill("#new-vlan-id", "10");
    await p.fill("#new-vlan-name", "again");
    await p.click("#vlan-add button");
    await p.locator("#vlan-status.error").waitFor();
    await expect(p.locator("#vlan-status").textContent()).resolves.toBe("Vlan 10 already exists!");
    await admin.context.close();
  });
});
