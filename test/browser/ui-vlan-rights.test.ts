/**
 * The VLAN page for a user with `vlan_edit` whose group allows only some VLANs: renaming
 * is offered only on the VLANs marked as the user's to use, a rename there works, and an
 * add outside the group's list shows the API's refusal and changes nothing.
 */
import { browserSuite, startUiWorld, loggedIn, HELPDESK, type UiWorld } from "./ui-support";

browserSuite("web UI VLAN page within the group's VLANs", () => {
  let w: UiWorld;
  beforeAll(async () => {
    w = await startUiWorld({ helpdeskProfile: { vlan_edit: true } });
  }, 60000);
  afterAll(async () => w?.close());

  it("offers renaming only on the group's VLANs, and shows the refusal of an add outside them", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${w.sid}/vlans/`);
    await page.locator("table.vlans").waitFor();
    const ids = (await page.locator("table.vlans tbody td[data-label=VLAN]").allTextContents()).map(Number);
    const outside = ids.filter((id) => !w.helpdeskVlans.includes(id));
    expect(outside.length).toBeGreaterThan(0);
    for (const id of ids) {
      const offered = await page.getByRole("button", { name: `Rename VLAN ${id}`, exact: true }).count();
      expect({ id, offered }).toEqual({ id, offered: w.helpdeskVlans.includes(id) ? 1 : 0 });
    }

    const mine = w.helpdeskVlans.find((id) => id !== 1)!;
    page.once("dialog", (d) => void d.accept());
    await page.fill(`#vlan-name-${mine}`, "ui-mine");
    await page.getByRole("button", { name: `Rename VLAN ${mine}`, exact: true }).click();
    await page.locator("#vlan-status.ok").waitFor();
    await expect(page.locator("#vlan-status").textContent()).resolves.toBe(
      `Updated name for vlan ${mine} to 'ui-mine'`,
    );
    expect(w.lab.model.vlan(mine)?.name).toBe("ui-mine");

    const before = w.lab.model.vlanIds();
    page.once("dialog", (d) => void d.accept());
    await page.fill("#new-vlan-id", "888");
    await page.fill("#new-vlan-name", "not-mine");
    await page.click("#vlan-add button");
    await page.locator("#vlan-status.error").waitFor();
    await expect(page.locator("#vlan-status").textContent()).resolves.toBe("You are not allowed to change vlan 888");
    expect(w.lab.model.vlanIds()).toEqual(before);
    await context.close();
  });
});
