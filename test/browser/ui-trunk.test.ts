/**
 * The trunk editor on a device page, in a real browser (docs/api-decisions.md section 8
 * and 14): shown only where the API would take the change (`can_edit_tags`, the switch's
 * `change_tags`), offering the native VLAN and a box for each VLAN the user may tag
 * (`allowed_tagged`), sending POST .../tags/ with the answer in words next to the port and
 * the row read again from the switch; a staff user sees only the group's VLANs, and a
 * tagged VLAN of the port that is not theirs is named and stays on the port.
 */
import type { Page } from "playwright-core";
import { browserSuite, startUiWorld, loggedIn, portRow, ADMIN, HELPDESK, type UiWorld } from "./ui-support";

const STAFF = { username: "trunkstaff", password: "pw-trunk-staff-1" };

browserSuite("web UI trunk editor", () => {
  let w: UiWorld;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    w = await startUiWorld();
    await w.app.createUser(STAFF.username, STAFF.password, { is_staff: true, profile: { are_you_sure: false } });
  }, 60000);
  afterAll(async () => {
    for (const close of closers) await close();
    await w?.close();
  });

  async function pageOf(who: { username: string; password: string }): Promise<Page> {
    const s = await loggedIn(w, who, `/ui/switch/${w.gid}/${w.sid}/`);
    closers.push(() => s.context.close());
    await s.page.locator("table.ports").waitFor();
    return s.page;
  }
  /** the answer next to the port once the change is done and the row read again */
  async function resultOf(page: Page, ifIndex: number): Promise<{ kind: string; text: string }> {
    const out = portRow(page, ifIndex).locator("td.result span");
    await portRow(page, ifIndex).locator(".result span.ok, .result span.error").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    return { kind: (await out.getAttribute("class")) ?? "", text: (await out.textContent()) ?? "" };
  }
  const editor = (page: Page, ifIndex: number) => portRow(page, ifIndex).locator("details.trunk");
  const offered = (page: Page, ifIndex: number) =>
    editor(page, ifIndex)
      .locator('input[name="tagged"]')
      .evaluateAll((boxes) => boxes.map((b) => Number(b.getAttribute("value"))));
  /** bridge port -> the VLANs whose egress holds it besides its PVID */
  const taggedOn = (bp: number) =>
    w.lab.model.vlanIds().filter((id) => id !== w.lab.model.pvid(bp) && w.lab.model.vlan(id)!.egress.has(bp));

  it("is shown where the API would take the change: for the superuser, never for the helpdesk", async () => {
    const admin = await pageOf(ADMIN);
    const ports = w.lab.model.ethernetPorts;
    for (const p of ports) await expect(editor(admin, p.ifIndex).count()).resolves.toBe(1);
    const helpdesk = await pageOf(HELPDESK);
    await expect(helpdesk.locator("details.trunk").count()).resolves.toBe(0);
    // the helpdesk still has its VLAN choice: only the trunk editor is withheld
    await expect(portRow(helpdesk, ports[2].ifIndex).locator('td[data-label="VLAN"] select').count()).resolves.toBe(1);
  });

  it("makes an access port a trunk through the API, with the answer in words and the row read again", async () => {
    const page = await pageOf(ADMIN);
    const port = w.lab.model.port(3);
    const bp = port.bridgePort!;
    const home = w.lab.model.pvid(bp)!;
    const before = taggedOn(bp);
    const [a, b] = w.lab.model.activeVlanIds().filter((v) => v !== home && !before.includes(v));
    // every VLAN is the superuser's: all are offered, with "every VLAN" besides
    await expect(offered(page, port.ifIndex)).resolves.toEqual(w.lab.model.vlanIds());
    await editor(page, port.ifIndex).locator("summary").click();
    const form = editor(page, port.ifIndex);
    await expect(form.locator(`#native-${port.ifIndex}`).inputValue()).resolves.toBe(String(home));
    await expect(form.locator('input[name="allow_all"]').count()).resolves.toBe(1);
    for (const id of before) await form.locator(`input[name="tagged"][value="${id}"]`).uncheck();
    await form.locator(`input[name="tagged"][value="${a}"]`).check();
    await form.locator(`input[name="tagged"][value="${b}"]`).check();
    await form.getByRole("button", { name: `Set the VLANs of ${port.name}` }).click();
    await expect(resultOf(page, port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} vlans have been set!`,
    });
    expect({ pvid: w.lab.model.pvid(bp), tagged: taggedOn(bp) }).toEqual({ pvid: home, tagged: [a, b] });
    expect(w.lab.model.consistencyProblems()).toEqual([]);
    // the row was read again: it shows the trunk, and the editor its boxes
    await expect(portRow(page, port.ifIndex).locator('td[data-label="VLAN"] .muted').textContent()).resolves.toBe(
      `tagged ${a}, ${b}`,
    );
    await editor(page, port.ifIndex).locator("summary").click();
    for (const id of [a, b])
      await expect(editor(page, port.ifIndex).locator(`input[name="tagged"][value="${id}"]`).isChecked()).resolves.toBe(
        true,
      );
  });

  // two tests where there was one: on a slow, busy machine the whole round trip in one
  // page came near Jest's 30 s for a test
  it("makes that trunk an access port again", async () => {
    const port = w.lab.model.port(3);
    const bp = port.bridgePort!;
    // the trunk the test before made
    const tagged = taggedOn(bp);
    expect(tagged).toHaveLength(2);
    const [a, b] = tagged;
    const page = await pageOf(ADMIN);
    await editor(page, port.ifIndex).locator("summary").click();
    await editor(page, port.ifIndex).locator(`input[name="tagged"][value="${a}"]`).uncheck();
    await editor(page, port.ifIndex).locator(`input[name="tagged"][value="${b}"]`).uncheck();
    await editor(page, port.ifIndex)
      .getByRole("button", { name: `Set the VLANs of ${port.name}` })
      .click();
    await expect(resultOf(page, port.ifIndex)).resolves.toEqual({
      kind: "ok",
      text: `Interface ${port.name} vlans have been set!`,
    });
    expect(taggedOn(bp)).toEqual([]);
  });

  it("a staff user is offered only the group's VLANs; a tagged VLAN that is not theirs is named and stays", async () => {
    w.app.services.config.staffAllowTagsEdit = true;
    try {
      const port = w.lab.model.port(4);
      const bp = port.bridgePort!;
      const home = w.lab.model.pvid(bp)!;
      const foreign = w.lab.model.vlanIds().find((v) => !w.helpdeskVlans.includes(v))!;
      const mine = w.helpdeskVlans.find((v) => v !== home && v !== 1)!;
      w.lab.model.update((cfg) => {
        cfg.vlans.get(foreign)!.egress.add(bp);
        cfg.vlans.get(mine)!.egress.add(bp);
      });
      const page = await pageOf(STAFF);
      await expect(offered(page, port.ifIndex)).resolves.toEqual(w.helpdeskVlans);
      await editor(page, port.ifIndex).locator("summary").click();
      const form = editor(page, port.ifIndex);
      // not every VLAN is theirs: no "every VLAN" box
      await expect(form.locator('input[name="allow_all"]').count()).resolves.toBe(0);
      await expect(form.locator("p.muted").textContent()).resolves.toBe(
        `Also tagged, not yours (stays on the port): ${foreign}`,
      );
      await form.locator(`input[name="tagged"][value="${mine}"]`).uncheck();
      await form.getByRole("button", { name: `Set the VLANs of ${port.name}` }).click();
      await expect(resultOf(page, port.ifIndex)).resolves.toEqual({
        kind: "ok",
        text: `Interface ${port.name} vlans have been set!`,
      });
      expect(taggedOn(bp)).toContain(foreign);
      expect(taggedOn(bp)).not.toContain(mine);
    } finally {
      w.app.services.config.staffAllowTagsEdit = false;
    }
  });
});
