/**
 * Themes and access in a real browser: light and dark from the profile, axe-core's
 * automated check (no serious or critical issue) on every page in both themes, keyboard
 * use, and the pages at 1280 and 390 pixels wide. Writes the README's screenshots of the
 * device page in both themes.
 */
import fs from "node:fs";
import type { Page } from "playwright-core";
import {
  browserSuite,
  startUiWorld,
  portRow,
  screenshot,
  loggedIn,
  ADMIN,
  HELPDESK,
  type UiUser,
  type UiWorld,
  type PageGlobals,
} from "./ui-support";

const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeIssue {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core injected into the page (not through a script tag: the CSP would refuse it) */
async function seriousIssues(page: Page): Promise<AxeIssue[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate<
    {
      id: string;
      impact: string;
      help: string;
      nodes: { target: string[] }[];
    }[]
  >(
    `axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }).then((r) => r.violations)`,
  );
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

/** a property of the page, read as text (the test code has no DOM types) */
const read = (page: Page, expression: string) => page.evaluate<unknown>(expression);

browserSuite("web UI themes and access", () => {
  let w: UiWorld;
  const DARK: UiUser = {
    username: "nightshift",
    password: "pw-night-1",
    profile: { theme: "dark", are_you_sure: true, bulk_edit: true, allow_poe_toggle: true },
  };
  beforeAll(async () => {
    w = await startUiWorld({ moreUsers: [DARK] });
  }, 60000);
  afterAll(async () => w?.close());

  async function open(who: UiUser, path: string, width = 1280) {
    const { context, page } = await loggedIn(w, who, path, { width, height: 900 });
    await page.locator("main h1").waitFor();
    await page.locator("main .loading").waitFor({ state: "detached" });
    return { context, page };
  }

  const device = () => `/ui/switch/${w.gid}/${w.sid}/`;
  const pages = () => [
    ["menu", "/ui/"],
    ["device", device()],
    ["details", `${device()}details/`],
    ["vlans", `${device()}vlans/`],
    ["tokens", "/ui/tokens/"],
    ["audit", "/ui/audit/"],
  ];

  it("takes light or dark from the profile", async () => {
    const light = await open(ADMIN, device());
    await expect(light.page.locator("html").getAttribute("data-theme")).resolves.toBe("light");
    await expect(read(light.page, "getComputedStyle(document.body).backgroundColor")).resolves.toBe(
      "rgb(245, 247, 250)",
    );
    await screenshot(w, light.page, "device-light");
    await light.context.close();

    const dark = await open(DARK, device());
    await expect(dark.page.locator("html").getAttribute("data-theme")).resolves.toBe("dark");
    await expect(read(dark.page, "getComputedStyle(document.body).backgroundColor")).resolves.toBe("rgb(18, 22, 28)");
    await screenshot(w, dark.page, "device-dark");
    await dark.context.close();
  });

  for (const theme of ["light", "dark"] as const) {
    it(`has no serious accessibility issue on any page (${theme})`, async () => {
      const who = theme === "light" ? ADMIN : DARK;
      const found: Record<string, AxeIssue[]> = {};
      const { context, page } = await open(who, "/ui/");
      for (const [name, path] of pages()) {
        if (name === "audit" && who !== ADMIN) continue;
        await page.goto(`${w.app.url}${path}`);
        await page.locator("main h1").waitFor();
        if (name === "device") {
          // the bulk form too, with its controls offered for a ticked port
          await page.click("#bulk summary");
          await page.locator("table.ports input.pick").first().check();
          await page.locator('#bulk [data-action="vlan"]').waitFor();
        }
        const issues = await seriousIssues(page);
        if (issues.length) found[name] = issues;
      }
      await context.close();
      expect(found).toEqual({});
    }, 90000);
  }

  it("the accessibility check finds an issue planted in a page (it is not blind)", async () => {
    const { context, page } = await open(ADMIN, "/ui/");
    await read(
      page,
      `document.querySelector("main").append(Object.assign(document.createElement("input"), { type: "text" }))`,
    );
    const issues = await seriousIssues(page);
    expect(issues.map((i) => i.id)).toContain("label");
    await context.close();
  });

  it("fits a 390 px wide screen: no sideways scrolling, the ports as cards with their labels", async () => {
    const { context, page } = await open(ADMIN, "/ui/", 390);
    for (const [name, path] of pages()) {
      await page.goto(`${w.app.url}${path}`);
      await page.locator("main h1").waitFor();
      const [scroll, inner] = (await read(
        page,
        "[document.documentElement.scrollWidth, window.innerWidth]",
      )) as number[];
      expect({ name, fits: scroll <= inner }).toEqual({ name, fits: true });
      if (name === "device") {
        // the header row is out of sight (still read by screen readers) and every cell says what it is
        expect((await page.locator("table.ports thead").boundingBox())!.height).toBeLessThanOrEqual(1);
        const label = await portRow(page, w.lab.model.port(2).ifIndex)
          .locator('td[data-label="VLAN"]')
          .evaluate((td) => (globalThis as PageGlobals).getComputedStyle(td, "::before").content);
        expect(label).toBe('"VLAN"');
        await screenshot(w, page, "device-narrow");
      }
    }
    await context.close();
  }, 60000);

  it("is usable with the keyboard alone: skip link, then a port's toggle reached with Tab", async () => {
    const { context, page } = await open(HELPDESK, device());
    await page.keyboard.press("Tab");
    await expect(read(page, "document.activeElement?.textContent")).resolves.toBe("Skip to content");
    const port = w.lab.model.port(2);
    const target = `Disable ${port.name}`;
    let reached = false;
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = (await read(page, 'document.activeElement?.getAttribute("aria-label")')) === target;
    }
    expect(reached).toBe(true);
    page.once("dialog", (d) => void d.accept());
    await page.keyboard.press("Enter");
    await portRow(page, port.ifIndex).locator("td.result span.ok").waitFor();
    await page.locator("table.ports[aria-busy=false]").waitFor();
    expect(w.lab.model.adminUp(port.ifIndex)).toBe(false);
    await context.close();
  });
});
