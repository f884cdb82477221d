// Pure logic and device-side code once, the HTTP suite once per database dialect (SQLite
// embedded, MariaDB over mysql2), recordings of real switches replayed through the API
// once (on SQLite), and the browser test.
const base = {
  preset: "ts-jest",
  testEnvironment: "node",
  transform: { "^.+\\.ts$": ["ts-jest", {}] },
  moduleFileExtensions: ["ts", "js", "json"],
  setupFiles: ["<rootDir>/test/support/env-common.js"],
};
module.exports = {
  testTimeout: 30000,
  // most suites wait on sockets (labs, databases, browsers), not on the CPU: more workers than cores
  maxWorkers: 3,
  reporters: ["default", "<rootDir>/test/support/summary-reporter.js"],
  projects: [
    { ...base, displayName: "unit", testMatch: ["<rootDir>/test/unit/**/*.test.ts"] },
    { ...base, displayName: "devices", testMatch: ["<rootDir>/test/devices/**/*.test.ts"] },
    {
      ...base,
      displayName: "api-sqlite",
      testMatch: ["<rootDir>/test/api/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
    {
      ...base,
      displayName: "api-mariadb",
      testMatch: ["<rootDir>/test/api/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-mariadb.js"],
    },
    {
      // several service processes on one MariaDB database, and on a Galera cluster
      ...base,
      displayName: "cluster",
      testMatch: ["<rootDir>/test/cluster/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-mariadb.js"],
    },
    {
      ...base,
      displayName: "replay",
      testMatch: ["<rootDir>/test/replay/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
    {
      ...base,
      displayName: "browser",
      testMatch: ["<rootDir>/test/browser/**/*.test.ts"],
      setupFiles: ["<rootDir>/test/support/env-common.js", "<rootDir>/test/support/env-sqlite.js"],
    },
  ],
};
