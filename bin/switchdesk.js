#!/usr/bin/env node
// The command line entry (npx switchdesk ...). Runs the build in dist/ (npm run build).
// First of all: a Node.js it is not made for gets one line, not a native module's crash.
const support = require("./node-support").nodeSupport(process.version);
if (support) {
  console.error(support.message);
  if (support.refuse) process.exit(1);
}
const path = require("node:path");
const fs = require("node:fs");
const entry = path.join(__dirname, "..", "dist", "server", "cli.js");
if (!fs.existsSync(entry)) {
  console.error("switchdesk is not built yet: run `npm run build` (npm ci does it for you).");
  process.exit(1);
}
require(entry)
  .main(process.argv.slice(2))
  .then((code) => {
    if (code >= 0) process.exit(code);
  })
  .catch((err) => {
    console.error(`switchdesk: ${err && err.message ? err.message : err}`);
    process.exit(1);
  });
