// Jest globalSetup/globalTeardown of the browser project: one Chromium (Debian's, driven by
// playwright-core) for the whole run instead of one per suite. Its websocket address goes to
// the test workers in SWITCHDESK_TEST_BROWSER_WS; each suite connects to it and works in
// browser contexts of its own (test/browser/ui-support.ts openBrowser), so suites share no
// cookies or storage. Without the executable nothing is started and the suites say so.
const fs = require("node:fs");
const { chromium } = require("playwright-core");

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// no host name resolves but this machine's: a request that escaped a test's routes fails
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

async function setup() {
  if (!fs.existsSync(CHROMIUM)) return;
  const server = await chromium.launchServer({ executablePath: CHROMIUM, headless: true, args: ARGS });
  globalThis.__switchdeskBrowserServer = server;
  process.env.SWITCHDESK_TEST_BROWSER_WS = server.wsEndpoint();
}

async function teardown() {
  const server = globalThis.__switchdeskBrowserServer;
  delete process.env.SWITCHDESK_TEST_BROWSER_WS;
  if (server) await server.close();
}

module.exports = { setup, teardown, CHROMIUM, ARGS };
