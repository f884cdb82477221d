// npm run test:db-coverage: every API suite on MariaDB with coverage of db/, then, for each
// suite that runs on SQLite only (./api-databases.js), the statements and branches of db/
// it reached that no suite on both databases reached, by file and function. "none" for
// every suite means the list keeps its rule: nothing of the store is tried on one
// database only.
const { sqliteOnly } = require("./api-databases");

const suiteName = (file) => file.replace(/^.*\/test\/api\//, "").replace(/\.test\.ts$/, "");
const within = (loc, pos) =>
  (pos.line > loc.start.line || (pos.line === loc.start.line && pos.column >= loc.start.column)) &&
  (pos.line < loc.end.line || (pos.line === loc.end.line && pos.column <= loc.end.column));

/** "file:s3" and "file:b2.1" for what one suite's coverage reached in db/ */
function reached(coverage) {
  const out = new Map();
  for (const [file, entry] of Object.entries(coverage ?? {})) {
    const data = entry.data ?? entry;
    const rel = file.slice(file.lastIndexOf("/db/") + 1);
    if (!rel.startsWith("db/")) continue;
    for (const [id, n] of Object.entries(data.s))
      if (n > 0) out.set(`${rel}:s${id}`, [data, data.statementMap[id].start]);
    for (const [id, counts] of Object.entries(data.b))
      counts.forEach((n, i) => {
        if (n > 0) out.set(`${rel}:b${id}.${i}`, [data, data.branchMap[id].loc.start]);
      });
  }
  return out;
}

/** the innermost named function holding a position */
function functionAt(data, pos) {
  let best = null;
  for (const fn of Object.values(data.fnMap))
    if (within(fn.loc, pos) && (!best || within(best.loc, fn.loc.start))) best = fn;
  return best && !best.name.startsWith("(anonymous") ? best.name : "(top level)";
}

class DbCoverageReporter {
  onRunComplete(_contexts, results) {
    const both = new Set();
    const only = [];
    for (const r of results.testResults) {
      const name = suiteName(r.testFilePath);
      const items = reached(r.coverage);
      if (sqliteOnly.includes(name)) only.push([name, items]);
      else for (const key of items.keys()) both.add(key);
    }
    const lines = ["", "db/ reached on MariaDB only by a suite that runs on SQLite only:"];
    for (const [name, items] of only.sort((a, b) => a[0].localeCompare(b[0]))) {
      const missing = new Map();
      for (const [key, [data, pos]] of items) {
        if (both.has(key)) continue;
        const where = `${key.slice(0, key.indexOf(":"))} ${functionAt(data, pos)}`;
        missing.set(where, (missing.get(where) ?? 0) + 1);
      }
      const what = [...missing].map(([where, n]) => `${where} (${n})`).join(", ");
      lines.push(`  ${name}: ${what || "none"}`);
    }
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}

module.exports = DbCoverageReporter;
