/**
 * The service runs with the same Node.js options however it is started: `npm start`, the
 * container, the systemd unit and the benchmark's service processes all carry the list of
 * bin/service-node-options.js, and the Node.js running the tests accepts every option of it
 * (Node 20, 22 and 24 in CI).
 */
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { serviceNodeOptions } from "../../bench/instances";

const root = path.resolve(__dirname, "../..");
// eslint-disable-next-line @typescript-eslint/no-require-imports -- bin/ is plain JavaScript without declarations
const { SERVICE_NODE_OPTIONS } = require("../../bin/service-node-options.js") as { SERVICE_NODE_OPTIONS: string[] };
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

describe("the service's Node.js options", () => {
  it("are a list of options, with the young generation's size among them", () => {
    expect(SERVICE_NODE_OPTIONS.length).toBeGreaterThan(0);
    for (const o of SERVICE_NODE_OPTIONS) expect(o).toMatch(/^--[a-z-]+(=\S+)?$/);
    expect(SERVICE_NODE_OPTIONS).toContain("--max-semi-space-size=64");
  });

  it("are the options of npm start", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start;
    const serve = start
      .split("&&")
      .map((s) => s.trim())
      .find((s) => s.endsWith("bin/switchdesk.js serve"));
    expect(serve).toBe(["node", ...SERVICE_NODE_OPTIONS, "bin/switchdesk.js", "serve"].join(" "));
  });

  it("are the options of the container's command", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read("deploy/Dockerfile"));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1])).toEqual(["node", ...SERVICE_NODE_OPTIONS, "bin/switchdesk.js", "serve"]);
  });

  it("are the options of the systemd unit's ExecStart", () => {
    const exec = /^ExecStart=(.*)$/m.exec(read("deploy/switchdesk.service"));
    expect(exec?.[1]).toBe(
      ["/usr/bin/node", ...SERVICE_NODE_OPTIONS, "/opt/switchdesk/bin/switchdesk.js", "serve"].join(" "),
    );
  });

  it("are the options the benchmark starts its service processes with", () => {
    expect(serviceNodeOptions()).toEqual(SERVICE_NODE_OPTIONS);
  });

  it("are accepted by this Node.js", () => {
    const r = spawnSync(process.execPath, [...SERVICE_NODE_OPTIONS, "-e", "process.stdout.write('ok')"], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect({ status: r.status, out: r.stdout, err: r.stderr }).toEqual({ status: 0, out: "ok", err: "" });
  });
});
