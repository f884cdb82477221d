/**
 * A bounce (or PoE power cycle) whose service stops between off and on (issue 20;
 * app/port-cycles.ts), on both databases: one service on the shared database starts a
 * bounce and loses its database while the port is down (as a stopped instance would: it
 * can no longer renew its write lease). It sends nothing more; the other service, the
 * next to take the device's write lease (for a write of its own, or by its sweep), brings
 * the port up and writes an audit row with the cut-off bounce's batch id.
 */
import { startTestApp, type ApiResponse, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { sweepLeftovers } from "../../app/port-cycles";

const LEASE_MS = 1000;

describeDb("a bounce cut off between down and up", () => {
  let survivor: TestApp;
  let lab: LabSwitch;
  let token = "";
  let group = 0;
  let device = 0;
  const ifIndex = (n: number) => lab.model.port(n).ifIndex;

  beforeAll(async () => {
    survivor = await startTestApp({ deviceLeaseMs: LEASE_MS });
    lab = await startLab({ ports: 8, seed: 9, name: "cut-lab", poePorts: "all" });
    lab.model.update((cfg) => {
      for (let n = 1; n <= 8; n++) cfg.ports.set(ifIndex(n), { adminUp: true, alias: "", poeEnabled: true });
    });
    const helper = await survivor.createUser("helper", "pw-helper-1");
    await survivor.createUser("root", "pw-root-1", { is_superuser: true });
    group = await addGroup(survivor, { name: "desks", allow_all_vlans: true, users: [helper] });
    device = await addDevice(survivor, { name: "cut-lab", lab, groups: [group] });
    token = await survivor.login("helper", "pw-helper-1");
  }, 60000);

  afterAll(async () => {
    await survivor?.close();
    await lab?.stop();
  });

  /** a second service on the survivor's database, which starts a cycle and dies during its wait */
  async function cutOff(port: number, what: "bounce" | "poe_cycle", isOff: () => boolean) {
    const lines: string[] = [];
    const doomed = await startTestApp(
      {
        deviceLeaseMs: LEASE_MS,
        databaseUrl: survivor.services.config.databaseUrl,
        secretKeyFile: survivor.services.config.secretKeyFile,
      },
      { logDestination: { write: (line) => void lines.push(line) } },
    );
    const answer: Promise<ApiResponse> = doomed.request(
      "POST",
      `/api/switches/${group}/${device}/interface/${ifIndex(port)}/${what}/`,
      { token, json: { wait: 2 } },
    );
    for (let i = 0; i < 150 && !isOff(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(isOff()).toBe(true);
    // the instance stops: its database is gone, its lease is not renewed
    await doomed.services.store.close();
    return {
      /** the doomed service's answer (after its wait), then the service closed */
      async end() {
        const r = await answer;
        await doomed.close().catch(() => undefined);
        // what it could not record is said in its log, not lost silently
        expect(lines.join("\n")).toContain("an audit row could not be written");
        return r;
      },
    };
  }

  test("the next write lease holder brings the port up, audited with the bounce's batch id", async () => {
    const run = await cutOff(3, "bounce", () => !lab.model.adminUp(ifIndex(3)));
    // the lease of the stopped instance expires; the survivor's next write to the device takes it
    await new Promise((r) => setTimeout(r, LEASE_MS + 200));
    expect(lab.model.adminUp(ifIndex(3))).toBe(false);
    const write = await survivor.request(
      "POST",
      `/api/switches/${group}/${device}/interface/${ifIndex(5)}/description/`,
      { token, json: { description: "desk 5" } },
    );
    expect(write.status).toBe(200);
    expect(lab.model.adminUp(ifIndex(3))).toBe(true);

    // the stopped instance sent nothing after its wait (the port stays up) and did not answer 200
    const late = await run.end();
    expect(late.status).not.toBe(200);
    expect(lab.model.adminUp(ifIndex(3))).toBe(true);

    const rootToken = await survivor.login("root", "pw-root-1");
    const rows = (
      await survivor.request("GET", `/api/admin/log/?action=port_bounce&switch=${device}`, { token: rootToken })
    ).body.results as Array<Record<string, unknown>>;
    const name = lab.model.port(3).name;
    const back = rows.find((r) => r.username === "");
    const bounce = rows.find((r) => r.username === "helper");
    expect(back).toMatchObject({ outcome: "success", interface: name, new_value: "Enabled" });
    expect(String(back!.message)).toContain(`Interface ${name} switched back on: the bounce by helper`);
    // the cut-off bounce's own row: not known (its lease ended while it was pending)
    expect(bounce).toMatchObject({ outcome: "unknown", code: "device_outcome_unknown" });
    expect(back!.batch_id).toBe(bounce!.batch_id);
    expect(back!.batch_id).toEqual(expect.any(String));
    expect(await survivor.services.repos.pendingUps.devices()).toEqual([]);
  });

  test("without another write, the sweep takes the lease and switches PoE back on", async () => {
    const poeOn = () => lab.model.poeState(ifIndex(4))!.enabled;
    const run = await cutOff(4, "poe_cycle", () => !poeOn());
    // while the stopped instance's lease has not expired, the sweep leaves the device alone
    expect(await sweepLeftovers(survivor.services, (id) => survivor.services.devices.byId(id))).toBe(0);
    expect(poeOn()).toBe(false);
    await new Promise((r) => setTimeout(r, LEASE_MS + 200));
    expect(await sweepLeftovers(survivor.services, (id) => survivor.services.devices.byId(id))).toBe(1);
    expect(poeOn()).toBe(true);
    await run.end();
    expect(poeOn()).toBe(true);
    expect(await survivor.services.repos.pendingUps.devices()).toEqual([]);
  });
});
