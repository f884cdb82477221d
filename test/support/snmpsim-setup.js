// Jest globalSetup of the projects whose suites start snmpsimd (devices, API, replay; the
// API and replay hooks call it too), once per run:
// - the indexes of the shared recordings (../shared/fixtures/snmprec) built into one
//   folder, which every snmpsimd of the run reads (test/support/snmpsim.ts, bench/snmpsimd.ts
//   cacheDir). Each start used to index them all again in a folder of its own: about a
//   second of CPU per start, before the agent answered.
// - one snmpsimd serving all of them under their file names, which the suites' agents of
//   those recordings with the default options are (startSnmpsim in snmpsim.ts). Each start
//   of snmpsimd cost about half a second of CPU and as long before the agent answered,
//   and the suites started it 34 times a run.
// The workers find the folder and the shared agent in the environment they inherit;
// snmpsim-teardown.js stops the agent and removes the folder. Without snmpsimd or the
// recordings nothing is built or started, and each start indexes what it serves, as before.
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

// the shared agent of this run (this process started it)
let shared = null;

async function setup() {
  // TypeScript: Jest transforms what a global hook requires
  const { SNMPSIM_CACHE_VARIABLE: ENV, SHARED_SNMPSIM_VARIABLE, startSharedSnmpsim } = require("./snmpsim.ts");
  if (process.env[ENV]) return; // another project's hook of this run built it
  const { SNMPSIMD } = require("../../bench/snmpsimd.ts");
  const { fixturesDir } = require("./fixtures.ts");
  const dir = path.join(fixturesDir, "snmprec");
  if (!fs.existsSync(SNMPSIMD) || !fs.existsSync(dir)) return;
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-snmpsim-index-"));
  // snmpsimd drops to an unprivileged user when started as root, and writes the indexes there
  fs.chmodSync(cache, 0o777);
  // the shared agent indexes every recording into the folder as it starts
  const started = await startSharedSnmpsim(dir, cache);
  shared = started.agent;
  process.env[ENV] = cache;
  process.env[SHARED_SNMPSIM_VARIABLE] = started.variable;
}

async function teardown() {
  const { SNMPSIM_CACHE_VARIABLE: ENV, SHARED_SNMPSIM_VARIABLE } = require("./snmpsim.ts");
  if (process.env[SHARED_SNMPSIM_VARIABLE]) {
    const { pid } = JSON.parse(process.env[SHARED_SNMPSIM_VARIABLE]);
    delete process.env[SHARED_SNMPSIM_VARIABLE];
    if (shared) await shared.stop();
    else if (pid) {
      // started by another copy of this module; it may have ended already
      try {
        process.kill(pid, "SIGTERM");
      } catch (e) {
        if (e.code !== "ESRCH") throw e;
      }
    }
    shared = null;
  }
  const cache = process.env[ENV];
  if (!cache) return;
  delete process.env[ENV];
  fs.rmSync(cache, { recursive: true, force: true });
}

module.exports = setup;
module.exports.teardown = teardown;
