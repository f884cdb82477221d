/**
 * The web UI follows the port protections as the API states them: a member of a link
 * aggregation shows why its VLAN cannot change and offers no VLAN control, while its state
 * can still be changed; an 802.1X port offers nothing at all and says why.
 */
import type { Page } from "playwright-core";
import { browserSuite, startUiWorld, loggedIn, portRow, HELPDESK, type UiWorld } from "./ui-support";
import { addDevice, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { moveAccessVlan } from "../../lab/config";

const LAG_REASON = "Vlan changes denied: interface is a member of link aggregation Po1!";
const DOT1X_MODE = "Access denied: interface in 802.1x authentication mode!";

browserSuite("web UI and the port protections", () => {
  let w: UiWorld;
  let lab: LabSwitch;
  let sid: number;

  beforeAll(async () => {
    w = await startUiWorld();
    lab = await startLab({
      profile: "ciscosb",
      ports: 8,
      name: "ui-lag-lab",
      seed: 6,
      lagPorts: [3, 4],
      dot1xPorts: [6],
    });
    // every port on a VLAN the helpdesk may use: the protections are what tells the ports apart
    const usable = w.helpdeskVlans.find((v) => v !== 1)!;
    lab.model.update((cfg) => {
      for (const n of [3, 4, 5, 6]) moveAccessVlan(cfg, lab.model.port(n).bridgePort!, usable);
    });
    sid = await addDevice(w.app, { name: "floor-2-distribution", lab, groups: [w.gid] });
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await w?.close();
  });

  const cell = (page: Page, n: number, label: string) =>
    portRow(page, lab.model.port(n).ifIndex).locator(`td[data-label="${label}"]`);

  it("a LAG member: the reason under its name, no VLAN control, the state button still there; an 802.1X port: nothing", async () => {
    const { context, page } = await loggedIn(w, HELPDESK, `/ui/switch/${w.gid}/${sid}/`);
    await page.locator("table.ports").waitFor();
    const member = lab.model.port(3);
    await expect(cell(page, 3, "Port").textContent()).resolves.toBe(`${member.name}${LAG_REASON}`);
    expect(await cell(page, 3, "VLAN").locator("select").count()).toBe(0);
    expect(await cell(page, 3, "Admin state").locator("button").count()).toBe(1);
    // ... but no Bounce: the aggregate would lose a link (docs/api-decisions.md, "Helpdesk writes")
    expect(await cell(page, 3, "Admin state").locator("button.bounce").count()).toBe(0);
    expect(await cell(page, 5, "Admin state").locator("button.bounce").count()).toBe(1);
    // a port that is no member keeps its VLAN control
    expect(await cell(page, 5, "VLAN").locator("select").count()).toBe(1);
    // the 802.1X port: its reason, and no control at all
    await expect(cell(page, 6, "Port").textContent()).resolves.toBe(`${lab.model.port(6).name}${DOT1X_MODE}`);
    for (const label of ["VLAN", "Admin state", "PoE", "Description"])
      expect({ label, controls: await cell(page, 6, label).locator("select, button, input").count() }).toEqual({
        label,
        controls: 0,
      });
    await context.close();
  }, 60000);
});
