// Pure logic and device-side code once, the HTTP suite once per database dialect (SQLite
// embedded, MariaDB over mysql2), recordings of real switches replayed through the API
// once (on SQLite), and the browser test.
const os = require("node:os");

// API suites on SQLite only, and the rule that keeps the others on both databases
// (test/support/api-databases.js)
const { sqliteOnly, allOnMariadb } = require("./test/support/api-databases");

// Two workers per core (what the machine reports as usable), at most eight. A suite spends
// much of its time waiting: on devices and their timeouts, service processes, MariaDB and
// Galera starts, Chromium; a whole run on two workers per core keeps the cores busy where
// one more worker than the cores left a sixth of them idle. On an idle two-core machine,
// one run each, back to back: 3 workers 216 s (78 s of the cores' time idle), 4 workers 188 s
// (27 s idle), 5 workers 200 s (11 s idle, and 40 s more CPU: a fifth Chromium, more
// contention). A lab agent answers from its worker's own process, so on a busy machine its
// answer can come late: tests whose requests the lab answers wait a second with a retry
// (the lab's driver targets) or 5 s (the test SNMP client), and only the tests of a silent
// device keep short waits. SWITCHDESK_TEST_WORKERS sets another number.
const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
const workers = Number(process.env.SWITCHDESK_TEST_WORKERS) || Math.min(2 * cores, 8);

const base = {
  // One id for every project: Jest keeps its transform cache per project id, so with the
  // default ids (one per project) a run on a new clone, as in CI, compiled each TypeScript
  // file once per project that loads it (up to seven times). With one id each file is
  // compiled once; the cache key still holds the file's path and content. (Four projects
  // over one set of suites, empty cache: 65 s of CPU against 88 s.) The haste map, also
  // named by the id, is the same for every project here (same root and extensions).
  id: "switchdesk",
  preset: "ts-jest",
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
  moduleFileExtensions: ["ts", "js", "json"],
  setupFiles: ["<rootDir>/test/support/env-common.js"],
};
module.exports = {
  testTimeout: 30000,
  maxWorkers: Math.max(1, workers),
  // A worker that ends a suite above this is replaced by a fresh one. Without it the two
  // workers grew to about 1 GB each over a run, and every process a test starts (ip, ssh,
  // snmpsimd, the service, Chromium) forks from that, besides the longer collections: on
  // one two-core machine a whole run used 686 s of CPU with it and 737 s without (547 s
  // and 579 s of wall time).
  workerIdleMemoryLimit: "700MB",
  // the long suites first, also on a fresh clone (test/support/suite-durations.json)
  testSequencer: "<rootDir>/test/support/sequencer.js",
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
  projects: [
    { ...base, displayName: "unit", testMatch: ["<rootDir>/test/unit/**/*.test.ts"] },
    {
      ...base,
      displayName: "devices",
      testMatch: ["<rootDir>/test/devices/**/*.test.ts"],
      // the recordings' indexes built once for the run's snmpsimd starts
      globalSetup: "<rootDir>/test/support/snmpsim-setup.js",
      globalTeardown: "<rootDir>/test/support/snmpsim-teardown.js",
    },
    {
      ...base,
      displayName: "api-sqlite",
      testMatch: ["<rootDir>/test/api/**/*.test.ts"],
      // dist/ for the suites that run `node bin/switchdesk.js serve`, built once (when stale),
      // and the run's migrated template databases that each test app's database copies
      globalSetup: "<rootDir>/test/support/global-setup.js",
      globalTeardown: "<rootDir>/test/support/global-teardown.js",
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
    {
      ...base,
      displayName: "api-mariadb",
      testMatch: ["<rootDir>/test/api/**/*.test.ts"],
      testPathIgnorePatterns: allOnMariadb ? [] : sqliteOnly.map((name) => `/test/api/${name}\\.test\\.ts$`),
      globalSetup: "<rootDir>/test/support/global-setup.js",
      globalTeardown: "<rootDir>/test/support/global-teardown.js",
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-mariadb.js"],
    },
    {
      // several service processes on one MariaDB database, and on a Galera cluster
      ...base,
      displayName: "cluster",
      testMatch: ["<rootDir>/test/cluster/**/*.test.ts"],
      // the suites start the built service
      globalSetup: "<rootDir>/test/support/global-setup.js",
      globalTeardown: "<rootDir>/test/support/global-teardown.js",
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-mariadb.js"],
    },
    {
      ...base,
      displayName: "replay",
      testMatch: ["<rootDir>/test/replay/**/*.test.ts"],
      globalSetup: "<rootDir>/test/support/global-setup-sqlite.js",
      globalTeardown: "<rootDir>/test/support/global-teardown.js",
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
    {
      ...base,
      displayName: "browser",
      testMatch: ["<rootDir>/test/browser/**/*.test.ts"],
      // one Chromium per worker for the run; each suite connects with contexts of its own
      globalSetup: "<rootDir>/test/support/browser-setup.js",
      globalTeardown: "<rootDir>/test/support/browser-teardown.js",
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
  ],
};
