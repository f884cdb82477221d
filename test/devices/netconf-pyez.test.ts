/**
 * Juniper's own client against the lab's NETCONF face: PyEZ (python3-junos-eznc, over
 * ncclient) opens the face, reads with Junos RPCs, commits one change through its Config
 * utility (lock, load set, commit check, commit, unlock), and sees the face's rpc-errors
 * as its own exceptions. The change must be on the lab model (and so on the SNMP face).
 * Under CI a missing PyEZ fails (.ci/run installs it); elsewhere the test is skipped with
 * the reason printed.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startLabNetconfFace, startLabSwitch, type LabNetconfFace, type LabSwitch } from "../../lab";

const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(__dirname, "../support/pyez-client.py");

/** why PyEZ cannot run here, or null (asked once, when the file loads) */
function pyezMissing(): string | null {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is missing`;
  try {
    execFileSync(PYTHON, ["-c", "import jnpr.junos, ncclient"], { timeout: 20_000, stdio: "ignore" });
    return null;
  } catch {
    return "PyEZ (python3-junos-eznc) or ncclient (python3-ncclient) is not installed";
  }
}

const missing = pyezMissing();
if (missing && process.env.CI) throw new Error(`netconf-pyez: ${missing}; .ci/run must install it`);
if (missing) console.warn(`netconf-pyez: skipped: ${missing}`);
const pyezTest = missing ? test.skip : test;

function runPyez(args: object): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) =>
    execFile(PYTHON, [SCRIPT, JSON.stringify(args)], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`PyEZ failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, unknown>);
    }),
  );
}

describe("PyEZ against the lab's NETCONF face", () => {
  let lab: LabSwitch;
  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "juniper", ports: 24, seed: 11 });
  }, 30_000);
  afterAll(() => lab?.stop());

  for (const base11 of [true, false]) {
    const framing = base11 ? "chunked" : "eom";
    // about 3 s each: Python, paramiko's key exchange and PyEZ's start-up, not the face
    pyezTest(
      `reads, one committed change and rpc-errors, ${framing} framing`,
      async () => {
        const face: LabNetconfFace = await startLabNetconfFace(lab, { base11 });
        try {
          const port = lab.model.port(base11 ? 4 : 5);
          const text = `set by PyEZ (${framing})`;
          const out = await runPyez({
            host: face.host,
            port: face.port,
            user: face.username,
            password: face.password,
            port_name: port.name,
            set: [
              `set interfaces ${port.name} description "${text}"`,
              `set vlans pyez-${framing} vlan-id 3${base11 ? 1 : 2}0`,
            ],
            bad: [`set interfaces ${port.name} frobnicate`],
          });
          expect(out).toMatchObject({
            hostname: lab.model.system.sysName,
            framing,
            commit_check: true,
            commit: true,
            bad_load: expect.stringMatching(/^ConfigLoadError: syntax error/),
            unknown_rpc: expect.stringMatching(/^RpcError: .*syntax error/),
          });
          expect(out.interfaces).toContain(port.name);
          expect(out.vlans).toContain("users");
          // the change is on the model every face serves
          expect(lab.model.alias(port.ifIndex)).toBe(text);
          expect(lab.model.vlan(base11 ? 310 : 320)?.name).toBe(`pyez-${framing}`);
          expect(face.configState()).toEqual({ locked: false, uncommitted: false, confirmPending: false });
        } finally {
          await face.stop();
        }
      },
      40_000,
    );
  }
});
