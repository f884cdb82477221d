// npm run build: compiles the TypeScript sources into dist/ (tsc -p tsconfig.build.json)
// and leaves a stamp there. With --if-changed (npm start, npm run lab, npm run bench) it
// compiles only when something the build reads changed since the stamp: a source file or
// folder (an added, removed or renamed file changes its folder), the tsconfig files or
// package-lock.json. The stamp carries the time the last good build started, so an edit
// made during a build is compiled next time.
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const dist = path.join(root, "dist");
const stamp = path.join(dist, ".build-stamp");
const buildConfig = path.join(root, "tsconfig.build.json");

/** The newest modification time (ms) of what the build reads. */
function newestInput() {
  const include = JSON.parse(fs.readFileSync(buildConfig, "utf8")).include;
  let newest = 0;
  const see = (file) => {
    newest = Math.max(newest, fs.statSync(file).mtimeMs);
  };
  for (const f of ["tsconfig.json", "tsconfig.build.json", "package-lock.json"]) {
    if (fs.existsSync(path.join(root, f))) see(path.join(root, f));
  }
  // folders below the included ones; bounded by the tree itself (no links followed)
  const folders = include.map((d) => path.join(root, d)).filter((d) => fs.existsSync(d));
  while (folders.length > 0) {
    const dir = folders.pop();
    see(dir);
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) folders.push(p);
      else if (e.isFile() && /\.(ts|json)$/.test(e.name)) see(p);
    }
  }
  return newest;
}

function upToDate() {
  if (!fs.existsSync(stamp)) return false;
  return newestInput() < fs.statSync(stamp).mtimeMs;
}

function build() {
  const started = new Date();
  const tsc = require.resolve("typescript/bin/tsc", { paths: [root] });
  const r = spawnSync(process.execPath, [tsc, "-p", buildConfig], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    if (fs.existsSync(stamp)) fs.rmSync(stamp);
    process.exit(r.status ?? 1);
  }
  fs.mkdirSync(dist, { recursive: true });
  fs.writeFileSync(stamp, `built from sources as they were at ${started.toISOString()}\n`);
  fs.utimesSync(stamp, started, started);
}

if (process.argv.includes("--if-changed") && upToDate()) process.exit(0);
build();
