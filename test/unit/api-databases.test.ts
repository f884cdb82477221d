/**
 * The list of API suites that run on SQLite only (test/support/api-databases.js, read by
 * jest.config.js) names suites that exist: a misspelt name would quietly put its suite
 * back on both databases, and a removed suite would leave a stale reason behind.
 */
import fs from "node:fs";
import path from "node:path";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the list is plain JavaScript, read by jest.config.js
const { sqliteOnly } = require("../support/api-databases") as { sqliteOnly: string[] };

test("every suite named as SQLite only is a suite of test/api/, named once", () => {
  const suites = fs
    .readdirSync(path.join(__dirname, "..", "api"))
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => f.slice(0, -".test.ts".length));
  expect(sqliteOnly.filter((name) => !suites.includes(name))).toEqual([]);
  expect(new Set(sqliteOnly).size).toBe(sqliteOnly.length);
});
