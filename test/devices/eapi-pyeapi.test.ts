/**
 * The lab's eAPI face driven by a client no one here wrote: Arista's pyeapi (Debian's
 * python3-pyeapi, installed by .ci/run), through test/support/pyeapi-client.py. It reads
 * show version, show vlan and show interfaces status, makes one committed change through
 * its resource modules (a VLAN created and named, an interface description) and reads it
 * back through them (they parse `show running-config all` text); the lab model must
 * show the change. Under CI a missing pyeapi is a failure; elsewhere the test is
 * skipped with the reason printed.
 */
import { execFile, spawnSync } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { startLabEapiFace, startLabSwitch, type LabEapiFace, type LabSwitch } from "../../lab";

const PYTHON = "/usr/bin/python3";
const SCRIPT = path.join(__dirname, "../support/pyeapi-client.py");

function pyeapiMissing(): string | null {
  const probe = spawnSync(PYTHON, ["-c", "import pyeapi"], { encoding: "utf8" });
  if (probe.error) return `${PYTHON} cannot run (${probe.error.message})`;
  return probe.status === 0 ? null : "the Python module pyeapi is not installed (Debian: python3-pyeapi)";
}

const missing = pyeapiMissing();
if (missing && process.env.CI) throw new Error(`eapi-pyeapi: ${missing}; .ci/run must install python3-pyeapi`);
if (missing) console.warn(`eapi-pyeapi: skipped: ${missing}`);
const describeWithPyeapi = missing ? describe.skip : describe;

interface PyeapiReport {
  version: { modelName: string; version: string };
  node_model: string;
  vlan_ids: number[];
  status_ports: number;
  created: boolean;
  named: boolean;
  described: boolean;
  vlan_after: { vlan_id: number; name: string; state: string };
  description_after: string;
  invalid: { code: number; message: string } | null;
  bad_login: string | null;
}

describeWithPyeapi("pyeapi against the lab's eAPI face", () => {
  let lab: LabSwitch;
  let face: LabEapiFace;
  let report: PyeapiReport;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "arista", ports: 12, seed: 9, name: "pyeapi-lab" });
    face = await startLabEapiFace(lab);
    // asynchronously: the face answers from this process's event loop
    const { stdout } = await promisify(execFile)(PYTHON, [SCRIPT], {
      encoding: "utf8",
      timeout: 20_000,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        EAPI_HOST: "127.0.0.1",
        EAPI_PORT: String(face.port),
        EAPI_USERNAME: face.username,
        EAPI_PASSWORD: face.password,
        EAPI_VLAN: "3210",
        EAPI_INTERFACE: lab.model.port(3).name,
      },
    });
    report = JSON.parse(stdout) as PyeapiReport;
  }, 30_000);
  afterAll(async () => {
    await face?.stop();
    await lab?.stop();
  });

  test("reads: show version, show vlan and show interfaces status as the model has them", () => {
    expect(report.version).toEqual({ modelName: lab.model.system.model, version: lab.model.system.softwareVersion });
    expect(report.node_model).toBe("7050");
    expect(report.vlan_ids).toEqual(lab.model.vlanIds().filter((v) => v !== 3210));
    expect(report.status_ports).toBe(lab.model.interfaces.filter((i) => i.ifType === 6 || i.ifType === 161).length);
  });

  test("one committed change through pyeapi's resource modules is in the lab model, and pyeapi reads it back", () => {
    expect([report.created, report.named, report.described]).toEqual([true, true, true]);
    expect(lab.model.vlan(3210)).toMatchObject({ name: "from-pyeapi", active: true });
    expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("set by pyeapi");
    expect(report.vlan_after).toMatchObject({ vlan_id: 3210, name: "from-pyeapi", state: "active" });
    expect(report.description_after).toBe("set by pyeapi");
    // configured, not saved
    expect(lab.model.startup.vlans.has(3210)).toBe(false);
  });

  test("pyeapi sees EOS's errors: CommandError 1002 for an invalid command, ConnectionError for a refused login", () => {
    expect(report.invalid).toMatchObject({
      code: 1002,
      message: expect.stringContaining("'show no-such-thing' failed: invalid command [Invalid input"),
    });
    expect(report.bad_login).toMatch(/Unauthorized/);
  });

  test("every request pyeapi sent was a runCmds the face logged, starting with enable", () => {
    expect(face.counters.log.length).toBeGreaterThanOrEqual(8);
    for (const cmds of face.counters.log) expect(cmds[0]).toBe("enable");
    expect(face.counters.log).toContainEqual(["enable", "configure terminal", "vlan 3210", "name from-pyeapi"]);
    expect(face.counters.log).toContainEqual(["enable", "show running-config all"]);
  });
});
