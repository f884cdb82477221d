// Jest globalSetup of the API projects: the build in dist/ that the suites running the real
// command (`node bin/switchdesk.js serve`) start, made once before any suite runs and only
// when a source changed since the last build (scripts/build.js --if-changed). A failed
// build stops the run; the suites then treat a missing dist/ as a failure, never a skip.
const { spawnSync } = require("node:child_process");
const path = require("node:path");

module.exports = async function buildOnce() {
  const root = path.resolve(__dirname, "../..");
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "build.js"), "--if-changed"], {
    cwd: root,
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`the build (node scripts/build.js) failed with exit code ${r.status}`);
};
