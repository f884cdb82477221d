/**
 * The controls of a device page come from each port's rights as the API gives them
 * (`allow_poe_toggle`, `can_edit_description`), not from the user's profile: a group that
 * allows PoE toggling opens the PoE toggle on a port the helpdesk cannot otherwise manage,
 * though the profile does not allow it; a device with edit_if_descr off shows descriptions
 * as plain text; bulk edit offers only the changes the selected ports allow and lists a
 * port that does not allow one with the reason.
 */
import type { Page } from "playwright-core";
import { browserSuite, startUiWorld, loggedIn, portRow, HELPDESK, type UiWorld } from "./ui-support";
import { addDevice } from "../support/lab-inventory";
import { cloneConfig, moveAccessVlan, type SwitchConfig } from "../../lab/config";

const VLAN_NOT_ACCESSIBLE = "Interface access denied: you do not have access to the interface vlan!";

browserSuite("web UI controls from each port's rights", () => {
  let w: UiWorld;
  /** the same lab switch as a second device, with edit_if_descr off */
  let noDescr: number;
  /** a port on a VLAN the helpdesk may not use, and one on a VLAN it may */
  let locked: ReturnType<UiWorld["lab"]["model"]["port"]>;
  let open: ReturnType<UiWorld["lab"]["model"]["port"]>;
  let baseline: SwitchConfig;

  beforeAll(async () => {
    // PoE toggling: not on the helpdesk's profile, on the group
    w = await startUiWorld({ helpdeskProfile: { allow_poe_toggle: false }, group: { allow_poe_toggle: true } });
    noDescr = await addDevice(w.app, { name: "floor-3-access", lab: w.lab, groups: [w.gid], edit_if_descr: false });
    open = w.lab.model.port(2);
    locked = w.lab.model.port(3);
    const outside = w.lab.model.vlanIds().find((v) => !w.helpdeskVlans.includes(v))!;
    const inside = w.helpdeskVlans.find((v) => v !== 1)!;
    w.lab.model.update((cfg) => {
      moveAccessVlan(cfg, open.bridgePort!, inside);
      moveAccessVlan(cfg, locked.bridgePort!, outside);
      cfg.ports.set(open.ifIndex, { adminUp: true, alias: "desk 2.01", poeEnabled: true });
      cfg.ports.set(locked.ifIndex, { adminUp: true, alias: "camera 2.02", poeEnabled: true });
    });
    expect(w.lab.model.consistencyProblems()).toEqual([]);
    baseline = cloneConfig(w.lab.model.running);
  }, 60000);
  afterAll(async () => w?.close());
  beforeEach(() => w.lab.model.commit(cloneConfig(baseline)));

  const devicePage = async (sid: number) => {
    const s = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${sid}/`);
    await s.page.locator("table.ports").waitFor();
    return s;
  };
  const cell = (page: Page, port: typeof open, label: string) =>
    portRow(page, port.ifIndex).locator(`td[data-label="${label}"]`);

  it("offers the PoE toggle where the group allows it, though the profile does not, and it works", async () => {
    const { context, page } = await devicePage(w.sid);
    // not manageable for the helpdesk: the reason, and no VLAN, state or description control
    await expect(cell(page, locked, "Port").textContent()).resolves.toBe(`${locked.name}${VLAN_NOT_ACCESSIBLE}`);
    expect(await cell(page, locked, "VLAN").locator("select").count()).toBe(0);
    expect(await cell(page, locked, "Admin state").locator("button").count()).toBe(0);
    expect(await cell(page, locked, "Description").locator("input").count()).toBe(0);
    await expect(cell(page, locked, "Description").textContent()).resolves.toBe("camera 2.02");

    // the PoE toggle is there, and the switch follows it
    const asked = page.waitForEvent("dialog").then((d) => {
      expect(d.message()).toBe(`Turn PoE off on ${locked.name}?`);
      return d.accept();
    });
    await cell(page, locked, "PoE")
      .getByRole("button", { name: `Turn PoE off on ${locked.name}` })
      .click();
    await asked;
    await portRow(page, locked.ifIndex).locator("td.result span.ok").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    await expect(cell(page, locked, "Result").textContent()).resolves.toBe(
      `Interface ${locked.name} PoE is now Disabled`,
    );
    expect(w.lab.model.poeState(locked.ifIndex)!.enabled).toBe(false);
    // the row was read again: the toggle now turns PoE back on
    await expect(cell(page, locked, "PoE").locator("button").textContent()).resolves.toBe("PoE on");
    await context.close();
  }, 60000);

  it("shows descriptions as plain text on a device with edit_if_descr off, as fields where it is on", async () => {
    const off = await devicePage(noDescr);
    expect(await off.page.locator('table.ports td[data-label="Description"] input').count()).toBe(0);
    await expect(cell(off.page, open, "Description").textContent()).resolves.toBe("desk 2.01");
    // the port is still the helpdesk's to manage: VLAN and PoE controls are there
    expect(await cell(off.page, open, "VLAN").locator("select").count()).toBe(1);
    expect(await cell(off.page, open, "PoE").locator("button:not(.poe-cycle)").count()).toBe(1);
    // bulk edit does not offer descriptions there either
    await off.page.click("#bulk summary");
    await portRow(off.page, open.ifIndex)
      .getByRole("checkbox", { name: `Select ${open.name}` })
      .check();
    expect(await off.page.locator('#bulk [data-action="vlan"]').isVisible()).toBe(true);
    expect(await off.page.locator('#bulk [data-action="description"]').isVisible()).toBe(false);
    await off.context.close();

    const on = await devicePage(w.sid);
    await expect(cell(on.page, open, "Description").locator("input").inputValue()).resolves.toBe("desk 2.01");
    await on.context.close();
  }, 60000);

  it("bulk edit offers only what the selected ports allow, and lists a port that does not allow a change with the reason", async () => {
    const { context, page } = await devicePage(w.sid);
    await page.click("#bulk summary");
    const offered = async () => {
      const out: string[] = [];
      for (const action of ["vlan", "state", "poe", "description"])
        if (await page.locator(`#bulk [data-action="${action}"]`).isVisible()) out.push(action);
      return out;
    };
    expect(await offered()).toEqual([]);
    await expect(page.locator("#bulk-none").textContent()).resolves.toBe(
      "Select ports in the table: the changes they allow are offered here.",
    );

    // the locked port alone allows PoE only; with the open port everything is offered
    await portRow(page, locked.ifIndex)
      .getByRole("checkbox", { name: `Select ${locked.name}` })
      .check();
    expect(await offered()).toEqual(["poe"]);
    await portRow(page, open.ifIndex)
      .getByRole("checkbox", { name: `Select ${open.name}` })
      .check();
    expect(await offered()).toEqual(["vlan", "state", "poe", "description"]);

    await page.selectOption("#bulk-poe", "off");
    await page.check("#bulk-set-description");
    await page.fill("#bulk-description", "bulk desk");
    page.once("dialog", (d) => void d.accept());
    await page.click("#bulk button[type=submit]");
    await page.locator("#bulk-status.ok, #bulk-status.error").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();

    const items = page.locator("#bulk-results li");
    await expect(items.count()).resolves.toBe(2);
    await expect(items.nth(0).getAttribute("class")).resolves.toBe("done");
    await expect(items.nth(0).textContent()).resolves.toBe(
      `${open.name}: Interface ${open.name} PoE is now Disabled; Interface ${open.name} description was changed!`,
    );
    await expect(items.nth(1).getAttribute("class")).resolves.toBe("failed");
    await expect(items.nth(1).textContent()).resolves.toBe(
      `${locked.name}: Interface ${locked.name} PoE is now Disabled; failed: description "bulk desk": ${VLAN_NOT_ACCESSIBLE}`,
    );
    await expect(page.locator("#bulk-status").textContent()).resolves.toBe(
      "Done: 1 of 2 ports changed, 1 with errors (listed below).",
    );

    // the switch has what the list says
    expect([open, locked].map((p) => w.lab.model.poeState(p.ifIndex)!.enabled)).toEqual([false, false]);
    expect([open, locked].map((p) => w.lab.model.alias(p.ifIndex))).toEqual(["bulk desk", "camera 2.02"]);
    await context.close();
  }, 60000);
});
