/**
 * What the web UI's browser tests share: a test app with a lab switch (Cisco small
 * business profile: PoE on every port, a device that needs an explicit save), a superuser
 * and a helpdesk user limited to some VLANs, and Debian's chromium through playwright-core:
 * the browser of the suite's Jest worker (started by test/support/browser-server.js), each
 * suite connected to it on its own.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page, type Request } from "playwright-core";
import { startTestApp, type TestApp } from "../support/harness";
import { addDevice, addGroup, startLab, type GroupSpec } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { CSRF_COOKIE, SESSION_COOKIE } from "../../server/auth";

// The browser project's globalSetup starts a browser when the machine has one
// (test/support/browser-server.js says which) and lists it here. Without one a suite is
// reported as skipped, never as passed; in CI, which installs it, the suite runs and fails.
export const browserSuite = process.env.SWITCHDESK_TEST_BROWSER_WS || process.env.CI ? describe : describe.skip;

/**
 * A connection of this suite's own to its worker's browser (one per Jest worker, started
 * by test/support/browser-server.js); closing it leaves the browser to the worker's next suites.
 */
export async function openBrowser(): Promise<Browser> {
  const listed = process.env.SWITCHDESK_TEST_BROWSER_WS;
  if (!listed)
    throw new Error(
      "no browser for this run: the browser project's globalSetup starts Debian's chromium-headless-shell or chromium (jest --selectProjects browser)",
    );
  const endpoints = JSON.parse(listed) as string[];
  const worker = Number(process.env.JEST_WORKER_ID ?? "1");
  const browser = await chromium.connect(endpoints[(worker - 1) % endpoints.length]);
  const newContext = browser.newContext.bind(browser);
  // every context of the suite (browser.newPage makes one through this too) is watched
  browser.newContext = async (options) => watched(await newContext(options));
  return browser;
}

/** Playwright's own wait, below Jest's 30 s per test, so that a test that hangs names its step */
const STEP_TIMEOUT_MS = 20_000;
/** a request of a page still open after this long is written to the test's output */
const SLOW_REQUEST_MS = 5_000;

/**
 * A context whose steps fail after STEP_TIMEOUT_MS with Playwright's message (the locator
 * or navigation that waited), and whose slow and failed requests and uncaught page errors
 * are written to the test's output: when a page does not draw, the output says what it waited on.
 */
function watched(context: BrowserContext): BrowserContext {
  context.setDefaultTimeout(STEP_TIMEOUT_MS);
  const slow = new Map<Request, NodeJS.Timeout>();
  const done = (request: Request) => {
    clearTimeout(slow.get(request));
    slow.delete(request);
  };
  context.on("request", (request) => {
    const started = Date.now();
    const timer = setTimeout(() => {
      console.warn(`browser request still open after ${Date.now() - started} ms: ${request.method()} ${request.url()}`);
    }, SLOW_REQUEST_MS);
    timer.unref();
    slow.set(request, timer);
  });
  context.on("requestfinished", done);
  context.on("requestfailed", (request) => {
    done(request);
    console.warn(`browser request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  context.on("close", () => {
    for (const timer of slow.values()) clearTimeout(timer);
    slow.clear();
  });
  context.on("weberror", (e) => console.warn(`browser page error: ${e.error().message}`));
  return context;
}

export const SCREENSHOTS = path.join(__dirname, "..", "..", "docs", "screenshots");

export interface UiWorld {
  app: TestApp;
  lab: LabSwitch;
  browser: Browser;
  gid: number;
  sid: number;
  /** the VLANs the helpdesk group may use */
  helpdeskVlans: number[];
  close(): Promise<void>;
}

export const ADMIN = { username: "uiadmin", password: "pw-ui-admin-1" };
export const HELPDESK = { username: "helpdesk", password: "pw-helpdesk-1" };

export interface UiUser {
  username: string;
  password: string;
  profile?: Record<string, unknown>;
}

export interface UiWorldOptions {
  helpdeskProfile?: Record<string, unknown>;
  adminProfile?: Record<string, unknown>;
  moreUsers?: UiUser[];
  /** the rights of the "Helpdesk floor" group (edit_if_descr on unless said otherwise) */
  group?: Pick<GroupSpec, "allow_poe_toggle" | "edit_if_descr">;
}

export async function startUiWorld(opts: UiWorldOptions = {}): Promise<UiWorld> {
  const app = await startTestApp();
  const adminId = await app.createUser(ADMIN.username, ADMIN.password, {
    is_superuser: true,
    profile: { are_you_sure: false, ...opts.adminProfile },
  });
  const helpId = await app.createUser(HELPDESK.username, HELPDESK.password, {
    profile: { are_you_sure: true, bulk_edit: true, allow_poe_toggle: true, ...opts.helpdeskProfile },
  });
  const more: number[] = [];
  for (const u of opts.moreUsers ?? []) more.push(await app.createUser(u.username, u.password, { profile: u.profile }));
  const lab = await startLab({ profile: "ciscosb", ports: 8, name: "ui-lab" });
  const vlans = lab.model.vlanIds();
  // the helpdesk may use every VLAN of the lab but the last one
  const helpdeskVlans = vlans.slice(0, Math.max(2, vlans.length - 1));
  const gid = await addGroup(app, {
    name: "Helpdesk floor",
    vlans: helpdeskVlans,
    users: [adminId, helpId, ...more],
    edit_if_descr: true,
    ...opts.group,
  });
  const sid = await addDevice(app, { name: "floor-2-access", lab, groups: [gid] });
  const browser = await openBrowser();
  return {
    app,
    lab,
    browser,
    gid,
    sid,
    helpdeskVlans,
    async close() {
      await browser.close();
      await lab.stop();
      await app.close();
    },
  };
}

/**
 * A new browser context with a web session of `who`, on `next`. The session comes from a
 * real login (the login form posted over HTTP, app.webLogin) and is handed to the browser
 * as the cookies the service set: the login page itself is tested where it is the subject
 * (ui-pages, web-ui, login-redirect); typing the password into it for every test cost
 * about a second of browser time each.
 */
export async function loggedIn(
  w: UiWorld,
  who: UiUser,
  next: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const session = await w.app.webLogin(who.username, who.password);
  const context = await w.browser.newContext({ viewport });
  await context.addCookies([
    {
      name: SESSION_COOKIE,
      value: encodeURIComponent(session.cookie),
      url: w.app.url,
      httpOnly: true,
      sameSite: "Lax",
    },
    { name: CSRF_COOKIE, value: encodeURIComponent(session.csrf), url: w.app.url, sameSite: "Lax" },
  ]);
  const page = await context.newPage();
  await page.goto(`${w.app.url}${next}`);
  if (page.url() !== `${w.app.url}${next}`) throw new Error(`${who.username} is not on ${next} but on ${page.url()}`);
  return { context, page };
}

/**
 * A picture for docs/screenshots/ that changes only when the UI does. The lab switch
 * listens on a port picked at random each run, and a device's errors name it, so the
 * picture shows SNMP's own port 161 in its place: the text is changed in the page just
 * before the picture is taken, after the test has read what the page really said.
 */
/**
 * The page's globals as far as the tests' page functions use them (those run in the
 * browser; the test code has no DOM types): `(globalThis as PageGlobals).document`.
 */
export type PageGlobals = typeof globalThis & {
  document: {
    body: unknown;
    createTreeWalker(root: unknown, whatToShow: number): { nextNode(): { nodeValue: string } | null };
  };
  getComputedStyle(element: unknown, pseudo?: string): { content: string };
};

export async function screenshot(w: UiWorld, page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(
    ({ from, to }) => {
      const doc = (globalThis as PageGlobals).document;
      const texts = doc.createTreeWalker(doc.body, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        if (node.nodeValue.includes(from)) node.nodeValue = node.nodeValue.split(from).join(to);
      }
    },
    { from: `127.0.0.1:${w.lab.port}`, to: "127.0.0.1:161" },
  );
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: false,
    animations: "disabled",
    caret: "hide",
  });
}

/** the ports table's row of a lab port */
export function portRow(page: Page, ifIndex: number) {
  return page.locator(`tr[data-interface="${ifIndex}"]`);
}
