/**
 * The Node.js version check that bin/switchdesk.js runs before loading anything: tested
 * versions pass silently, an older one is refused with one line that says what to do,
 * an untested newer one starts with a warning; the tested lines match package.json
 * "engines". A native module built for another Node.js (switched after npm ci) is one line
 * that says to rebuild it, and better-sqlite3 is loaded only where its connections are kept
 * from the garbage collector (db/connect.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describeStoreError } from "../../db/connect";

type Support = { refuse: boolean; message: string } | null;
// bin/ is plain JavaScript (it runs before anything is compiled) and has no declarations
// eslint-disable-next-line @typescript-eslint/no-require-imports -- bin/ is plain JavaScript without declarations
const { nodeSupport, TESTED } = require("../../bin/node-support.js") as {
  nodeSupport: (v: string) => Support;
  TESTED: [number, number][];
};

describe("Node.js version check at start", () => {
  it.each(["v20.19.0", "v20.20.2", "v22.0.0", "v22.23.3", "v24.0.0", "v24.21.0"])("%s is tested: no message", (v) => {
    expect(nodeSupport(v)).toBeNull();
  });

  it.each(["v18.20.4", "v19.9.0", "v20.18.1", "v16.0.0"])(
    "%s is refused with the versions to install and npm ci",
    (v) => {
      const s = nodeSupport(v)!;
      expect(s.refuse).toBe(true);
      expect(s.message).toBe(
        `switchdesk needs Node.js 20 (20.19 or later), 22 or 24 (24 LTS recommended); this is Node.js ${v.slice(1)}. ` +
          "Install a supported Node.js, then run `npm ci` again (the native modules are built for the Node.js that installs them).",
      );
    },
  );

  it.each(["v21.7.3", "v23.11.0", "v25.2.0", "v26.0.0"])("%s is untested: it starts with a warning", (v) => {
    const s = nodeSupport(v)!;
    expect(s.refuse).toBe(false);
    expect(s.message).toContain(`not on Node.js ${v.slice(1)}`);
  });

  it("bin/switchdesk.js says it before loading anything: one line on stderr, exit 1", () => {
    // the same binary made to report an old version, as an old Node.js would
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-oldnode-"));
    try {
      const preload = path.join(dir, "old.js");
      fs.writeFileSync(preload, 'Object.defineProperty(process, "version", { value: "v18.20.4" });\n');
      const r = spawnSync(
        process.execPath,
        ["--require", preload, path.join(__dirname, "../../bin/switchdesk.js"), "serve"],
        { encoding: "utf8", timeout: 20000 },
      );
      expect({ status: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        status: 1,
        stdout: "",
        stderr: nodeSupport("v18.20.4")!.message + "\n",
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the node running this test is a tested one", () => {
    expect(nodeSupport(process.version)).toBeNull();
  });

  it("package.json engines names exactly the tested lines", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(TESTED.map(([major, minor]) => `^${major}.${minor}.0`).join(" || "));
  });

  it("better-sqlite3 built for another Node.js is one line saying to rebuild it", () => {
    // the shape of Node's own error when the binary's NODE_MODULE_VERSION differs
    const e = Object.assign(
      new Error(
        "The module '/srv/switchdesk/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 137. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
      ),
      { code: "ERR_DLOPEN_FAILED" },
    );
    expect(describeStoreError(e, "sqlite:./data/switchdesk.db").message).toBe(
      `The SQLite module better-sqlite3 was built for another Node.js than this one (${process.version}): run \`npm rebuild better-sqlite3\` (or \`npm ci\`) with this Node.js`,
    );
  });

  it("better-sqlite3 is loaded only by db/connect.ts, which keeps every connection until exit", () => {
    // elsewhere a connection or statement could be left to the garbage collector: Node 24 aborts then
    const root = path.join(__dirname, "../..");
    const files: string[] = [];
    const walk = (dir: string, depth: number) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory() && depth < 8) walk(p, depth + 1);
        else if (e.name.endsWith(".ts")) files.push(path.relative(root, p));
      }
    };
    for (const dir of ["server", "handlers", "app", "domain", "model", "drivers", "db", "lab", "bench", "test"])
      walk(path.join(root, dir), 0);
    const loads = files.filter((f) =>
      /import\s+(?!type\b)[^;]*from\s+"better-sqlite3"|(require|import)\(\s*"better-sqlite3"\s*\)/.test(
        fs.readFileSync(path.join(root, f), "utf8"),
      ),
    );
    expect(loads).toEqual([path.join("db", "connect.ts")]);
  });
});
