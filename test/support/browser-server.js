// Jest globalSetup/globalTeardown of the browser project: one Chromium (Debian's, driven by
// playwright-core) per Jest worker for the whole run, instead of one per suite. Their
// websocket addresses go to the test workers in SWITCHDESK_TEST_BROWSER_WS (a JSON list);
// a suite connects to the one of its worker (JEST_WORKER_ID) and works in browser contexts
// of its own (test/browser/ui-support.ts openBrowser), so suites share no cookies or
// storage. Two workers driving one browser waited on each other in its main process: the
// browser suites alone kept less than one core of two busy. Without the executable nothing
// is started and the suites say so.
const fs = require("node:fs");
const { chromium } = require("playwright-core");

// Debian's chromium-headless-shell when installed (what .ci/run installs), else its full
// chromium. The shell is Chromium's own headless build: the same Blink and V8, without
// the desktop browser's profile and UI machinery. Measured here with playwright-core, a
// new context and page took about 0.2 s of CPU in it against 0.6 s in the full browser,
// and a page open in the full browser kept about a quarter of a core busy while it sat
// idle (Playwright's focus emulation; none in the shell): the browser suites' Chromium
// used 245 s of CPU in a run of the browser project. CHROMIUM_PATH picks another.
const CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"];
const CHROMIUM = process.env.CHROMIUM_PATH ?? CANDIDATES.find((file) => fs.existsSync(file)) ?? CANDIDATES[0];
// no host name resolves but this machine's: a request that escaped a test's routes fails
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

async function setup(globalConfig) {
  if (!fs.existsSync(CHROMIUM)) return;
  const count = Math.max(1, Math.min(globalConfig?.maxWorkers ?? 1, 8));
  const servers = await Promise.all(
    Array.from({ length: count }, () =>
      chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: ARGS }),
    ),
  );
  globalThis.__switchdeskBrowserServers = servers;
  process.env.SWITCHDESK_TEST_BROWSER_WS = JSON.stringify(servers.map((s) => s.wsEndpoint()));
}

async function teardown() {
  const servers = globalThis.__switchdeskBrowserServers ?? [];
  delete globalThis.__switchdeskBrowserServers;
  delete process.env.SWITCHDESK_TEST_BROWSER_WS;
  await Promise.all(servers.map((s) => s.close()));
}

module.exports = { setup, teardown, CHROMIUM, ARGS };
