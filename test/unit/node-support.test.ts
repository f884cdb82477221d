/**
 * The Node.js version check that bin/switchdesk.js runs before loading anything: tested
 * versions pass silently, an older one is refused with one line that says what to do,
 * an untested newer one starts with a warning; the tested lines match package.json
 * "engines".
 */
import fs from "node:fs";
import path from "node:path";

type Support = { refuse: boolean; message: string } | null;
const { nodeSupport, TESTED } = require("../../bin/node-support.js") as { nodeSupport: (v: string) => Support; TESTED: [number, number][] };

describe("Node.js version check at start", () => {
  it.each(["v20.19.0", "v20.20.2", "v22.0.0", "v22.23.3", "v24.0.0", "v24.21.0"])("%s is tested: no message", (v) => {
    expect(nodeSupport(v)).toBeNull();
  });

  it.each(["v18.20.4", "v19.9.0", "v20.18.1", "v16.0.0"])("%s is refused with the versions to install and npm ci", (v) => {
    const s = nodeSupport(v)!;
    expect(s.refuse).toBe(true);
    expect(s.message).toBe(
      `switchdesk needs Node.js 20 (20.19 or later), 22 or 24 (24 LTS recommended); this is Node.js ${v.slice(1)}. ` +
        "Install a supported Node.js, then run `npm ci` again (the native modules are built for the Node.js that installs them).",
    );
  });

  it.each(["v21.7.3", "v23.11.0", "v25.2.0", "v26.0.0"])("%s is untested: it starts with a warning", (v) => {
    const s = nodeSupport(v)!;
    expect(s.refuse).toBe(false);
    expect(s.message).toContain(`not on Node.js ${v.slice(1)}`);
  });

  it("the node running this test is a tested one", () => {
    expect(nodeSupport(process.version)).toBeNull();
  });

  it("package.json engines names exactly the tested lines", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(TESTED.map(([major, minor]) => `^${major}.${minor}.0`).join(" || "));
  });
});
