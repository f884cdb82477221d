// Jest globalSetup of the projects whose suites start snmpsimd (devices, API, replay; the
// API and replay hooks call it too): the indexes of the shared recordings
// (../shared/fixtures/snmprec) built once for the run into one folder, which every
// snmpsimd of the run reads (test/support/snmpsim.ts, bench/snmpsimd.ts cacheDir). Each
// start used to index them all again in a folder of its own: about a second of CPU per
// start, before the agent answered. The workers find the folder in the environment they
// inherit; snmpsim-teardown.js removes it. Without snmpsimd or the recordings nothing is
// built and each start indexes what it serves, as before.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ENV = "SWITCHDESK_TEST_SNMPSIM_CACHE";

async function setup() {
  if (process.env[ENV]) return; // another project's hook of this run built it
  // TypeScript: Jest transforms what a global hook requires
  const { SNMPSIMD, buildSnmpsimIndexes } = require("../../bench/snmpsimd.ts");
  const { fixturesDir } = require("./fixtures.ts");
  const dir = path.join(fixturesDir, "snmprec");
  if (!fs.existsSync(SNMPSIMD) || !fs.existsSync(dir)) return;
  const files = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".snmprec"))
    .map((name) => path.join(dir, name));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-snmpsim-index-"));
  await buildSnmpsimIndexes(files, cache);
  process.env[ENV] = cache;
}

async function teardown() {
  const cache = process.env[ENV];
  if (!cache) return;
  delete process.env[ENV];
  fs.rmSync(cache, { recursive: true, force: true });
}

module.exports = setup;
module.exports.teardown = teardown;
