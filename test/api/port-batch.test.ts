/**
 * Port batches, bounces and PoE power cycles (issue 20; docs/api-decisions.md,
 * "Helpdesk writes") through real HTTP against a lab switch over real SNMP, on both
 * databases: a batch applies its items in order under one write lease with a result per
 * item and one batch id on every audit row; each kind of refusal in a batch is exactly
 * the single call's answer (status, code, reason) and changes nothing; a dry run sends
 * nothing; a device failure stops the rest or not, as asked; a bounce takes the port down
 * and up again, a power cycle PoE off and on, both refused where the contract says.
 */
import { startTestApp, type ApiResponse, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { cloneConfig, configsEqual, moveAccessVlan, type SwitchConfig } from "../../lab/config";

/** the lab: 12 ports; 1..8 with PoE; 11 and 12 in a link aggregation; 10 on VLAN 30 (not the helper's) */
const LAG = [11, 12];
const OTHER_VLAN_PORT = 10;
const NO_POE = 9;

describeDb("port batches, bounces and PoE power cycles", () => {
  let app: TestApp;
  let lab: LabSwitch;
  let baseline: SwitchConfig;
  const tokens: Record<string, string> = {};
  let group = 0;
  let device = 0;

  const ifIndex = (n: number) => lab.model.port(n).ifIndex;
  const id = (n: number) => String(ifIndex(n));
  const unchanged = () => configsEqual(lab.model.running, baseline);
  const pvid = (n: number) => lab.model.pvid(lab.model.port(n).bridgePort!);
  const batch = (who: string, body: Record<string, unknown>) =>
    app.request("POST", `/api/switches/${group}/${device}/batch/`, { token: tokens[who], json: body });
  const single = (who: string, n: number | string, what: string, body: Record<string, unknown>) =>
    app.request("POST", `/api/switches/${group}/${device}/interface/${typeof n === "number" ? id(n) : n}/${what}/`, {
      token: tokens[who],
      json: body,
    });
  const log = async (query: string) =>
    (await app.request("GET", `/api/admin/log/?${query}`, { token: tokens.root })).body.results as Array<
      Record<string, unknown>
    >;

  beforeAll(async () => {
    app = await startTestApp();
    lab = await startLab({ ports: 12, seed: 5, name: "batch-lab", poePorts: [1, 2, 3, 4, 5, 6, 7, 8], lagPorts: LAG });
    lab.model.update((cfg) => {
      for (let n = 1; n <= 12; n++) {
        moveAccessVlan(cfg, lab.model.port(n).bridgePort!, n === OTHER_VLAN_PORT ? 30 : 10);
        cfg.ports.set(ifIndex(n), { adminUp: true, alias: "", poeEnabled: n <= 8 });
      }
    });
    baseline = cloneConfig(lab.model.running);
    await app.createUser("root", "pw-root-1", { is_superuser: true });
    const helper = await app.createUser("helper", "pw-helper-1");
    const reader = await app.createUser("reader", "pw-reader-1", { profile: { edit_if_descr: false } });
    group = await addGroup(app, { name: "desks", vlans: [10, 20], users: [helper, reader] });
    device = await addDevice(app, { name: "batch-lab", lab, groups: [group] });
    for (const [name, pw] of [
      ["root", "pw-root-1"],
      ["helper", "pw-helper-1"],
      ["reader", "pw-reader-1"],
    ])
      tokens[name] = await app.login(name, pw);
  }, 60000);

  afterAll(async () => {
    await app?.close();
    await lab?.stop();
  });

  beforeEach(() => {
    lab.model.commit(cloneConfig(baseline));
    lab.faults.reset();
  });

  test("applies the items in order, one result each, every audit row under one batch id", async () => {
    const r = await batch("helper", {
      items: [
        { interface: id(1), vlan: 20 },
        { interface: id(2), state: "off" },
        { interface: id(3), description: "desk 4.12" },
        { interface: id(4), poe_state: "off" },
        { interface: id(1), vlan: 20 },
        { interface: id(2), state: "on" },
      ],
    });
    expect(r.status).toBe(200);
    const name = (n: number) => lab.model.port(n).name;
    expect(r.body.items.map((i: Record<string, unknown>) => [i.result, i.message ?? i.reason])).toEqual([
      ["done", `Interface ${name(1)} changed to vlan 20`],
      ["done", `Interface ${name(2)} is now Disabled`],
      ["done", `Interface ${name(3)} description was changed!`],
      ["done", `Interface ${name(4)} PoE is now Disabled`],
      // checked on the port as the first item leaves it: the single call's same-value answer
      ["same_value", "New vlan 20 is the same, please change the vlan first!"],
      ["done", `Interface ${name(2)} is now Enabled`],
    ]);
    expect(r.body.summary).toEqual({ done: 5, same_value: 1, refused: 0, failed: 0, skipped: 0 });
    expect(pvid(1)).toBe(20);
    expect(lab.model.adminUp(ifIndex(2))).toBe(true);
    expect(lab.model.alias(ifIndex(3))).toBe("desk 4.12");
    expect(lab.model.poeState(ifIndex(4))?.enabled).toBe(false);
    // read back once after: the touched interfaces as they are now
    expect(r.body.interfaces.find((i: Record<string, unknown>) => i.id === id(1))).toMatchObject({ vlan: 20 });
    expect(r.body.interfaces.find((i: Record<string, unknown>) => i.id === id(2))).toMatchObject({ state: "Enabled" });
    const rows = await log(`batch=${r.body.batch_id}`);
    expect(rows.map((x) => [x.action, x.outcome]).reverse()).toEqual([
      // the refusal is written first (before anything is sent), then the changes in order
      ["untagged_vlan", "refused"],
      ["untagged_vlan", "success"],
      ["admin_state", "success"],
      ["description", "success"],
      ["poe_state", "success"],
      ["admin_state", "success"],
    ]);
    expect(new Set(rows.map((x) => x.batch_id))).toEqual(new Set([r.body.batch_id]));
  });

  test("each kind of refusal is the single call's status, code and reason, and changes nothing", async () => {
    const cases: Array<[string, number | string, string, Record<string, unknown>]> = [
      ["helper", 1, "state", { state: "" }],
      ["helper", 1, "vlan", { vlan: "ten" }],
      ["helper", 1, "vlan", { vlan: 30 }],
      ["helper", 1, "vlan", { vlan: 4000 }],
      ["helper", 1, "vlan", { vlan: 10 }],
      ["helper", LAG[0], "vlan", { vlan: 20 }],
      ["helper", OTHER_VLAN_PORT, "state", { state: "off" }],
      ["helper", "99999", "state", { state: "off" }],
      ["helper", NO_POE, "poe_state", { poe_state: "off" }],
      ["helper", 1, "poe_state", { poe_state: "on" }],
      ["helper", 1, "description", { description: "x".repeat(65) }],
      ["helper", 1, "description", { description: "bad\nline" }],
      ["reader", 1, "description", { description: "desk" }],
      ["helper", 1, "tags", { untagged_vlan: 10, tagged_vlans: [20], allow_all: false }],
      ["root", 1, "description", { description: "" }],
    ];
    const singles: Array<{ status: number; code: string; reason: string }> = [];
    for (const [who, port, what, body] of cases) {
      const s = await single(who, port, what, body);
      expect(s.status).toBeGreaterThanOrEqual(400);
      singles.push({ status: s.status, code: s.body.code, reason: s.body.reason });
    }
    // every kind of refusal is there (a case that passed would prove nothing)
    expect(singles.map((x) => `${x.status} ${x.code}`)).toEqual([
      "400 missing_parameter",
      "400 invalid_parameter",
      "400 invalid_parameter",
      "400 invalid_parameter",
      "404 same_value",
      "403 access_denied",
      "403 access_denied",
      "404 interface_not_found",
      "400 not_supported",
      "404 same_value",
      "400 invalid_parameter",
      "400 invalid_parameter",
      "403 access_denied",
      "403 access_denied",
      "404 same_value",
    ]);
    expect(unchanged()).toBe(true);
    // the same requests as one batch per caller: item for item the same answer
    for (const who of ["helper", "reader", "root"]) {
      const mine = cases.map((c, i) => ({ c, i })).filter(({ c }) => c[0] === who);
      const r = await batch(who, {
        items: mine.map(({ c: [, port, , body] }) => ({
          interface: typeof port === "number" ? id(port) : port,
          ...body,
        })),
      });
      expect(r.status).toBe(200);
      const got = r.body.items.map((i: Record<string, unknown>) => ({
        status: i.status,
        code: i.code,
        reason: i.reason,
      }));
      expect(got).toEqual(mine.map(({ i }) => singles[i]));
      for (const item of r.body.items) expect(["refused", "same_value"]).toContain(item.result);
    }
    expect(unchanged()).toBe(true);
  });

  test("a dry run answers what would happen and sends nothing, audits nothing", async () => {
    const before = lab.counters.byType.set;
    const r = await batch("helper", {
      dry_run: true,
      items: [
        { interface: id(1), vlan: 20 },
        { interface: id(OTHER_VLAN_PORT), state: "off" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.dry_run).toBe(true);
    expect(r.body.items.map((i: Record<string, unknown>) => i.result)).toEqual(["done", "refused"]);
    expect(lab.counters.byType.set).toBe(before);
    expect(unchanged()).toBe(true);
    expect(await log(`batch=${r.body.batch_id}`)).toEqual([]);
  });

  test("after a device failure the rest are skipped, or go on when the caller says continue", async () => {
    const items = [
      { interface: id(1), state: "off" },
      { interface: id(2), state: "off" },
      { interface: id(3), state: "off" },
    ];
    lab.faults.refuseNthSet(2, "genErr");
    const stop = await batch("helper", { items });
    expect(stop.body.items.map((i: Record<string, unknown>) => [i.result, i.code])).toEqual([
      ["done", undefined],
      ["failed", "device_refused"],
      ["skipped", "batch_stopped"],
    ]);
    expect(stop.body.stopped).toBe(true);
    expect(lab.model.adminUp(ifIndex(3))).toBe(true);

    lab.model.commit(cloneConfig(baseline));
    lab.faults.reset();
    lab.faults.refuseNthSet(2, "genErr");
    const go = await batch("helper", { items, on_failure: "continue" });
    expect(go.body.items.map((i: Record<string, unknown>) => i.result)).toEqual(["done", "failed", "done"]);
    expect(lab.model.adminUp(ifIndex(3))).toBe(false);
  });

  test("the body's shape and limits are the spec's (400 for the whole call)", async () => {
    const tooMany = Array.from({ length: 101 }, () => ({ interface: id(1), state: "on" }));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "Missing or invalid required parameter: 'items' (a list of changes, each with 'interface')"],
      [{ items: tooMany }, "Too many items in one batch: 101 (at most 100)"],
      [{ items: [{ interface: id(1), state: "on", vlan: 20 }] }, "Batch item 1: give exactly one change"],
      [{ items: [{ interface: id(1), bounce: true, wait: 61 }] }, "Batch item 1: Invalid parameter 'wait'"],
      [
        { items: [1, 2, 3].map((n) => ({ interface: id(n), bounce: true, wait: 50 })) },
        "The waits of one batch add up to 150 s (at most 120 s)",
      ],
      [{ items: [{ interface: id(1), state: "on" }], on_failure: "maybe" }, "Invalid parameter 'on_failure'"],
    ];
    for (const [body, reason] of cases) {
      const r = await batch("helper", body);
      expect(r.status).toBe(400);
      expect(r.body.reason).toContain(reason);
    }
    expect(unchanged()).toBe(true);
  });

  test("a form body carries the items as JSON text", async () => {
    const r = await app.request("POST", `/api/switches/${group}/${device}/batch/`, {
      token: tokens.helper,
      form: { items: JSON.stringify([{ interface: id(5), vlan: "20" }]) },
    });
    expect(r.status).toBe(200);
    expect(r.body.items[0].result).toBe("done");
    expect(pvid(5)).toBe(20);
  });

  test("a bounce takes the port down and up again; a PoE power cycle PoE off and on", async () => {
    const seen: boolean[] = [];
    const poll = setInterval(() => seen.push(lab.model.adminUp(ifIndex(6))), 10);
    const r = await single("helper", 6, "bounce", { wait: 0.3 });
    clearInterval(poll);
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(`Interface ${lab.model.port(6).name} was bounced (down 0.3 s, now Enabled)`);
    expect(seen).toContain(false);
    expect(lab.model.adminUp(ifIndex(6))).toBe(true);

    const poe: boolean[] = [];
    const poePoll = setInterval(() => poe.push(lab.model.poeState(ifIndex(7))!.enabled), 10);
    const c = await single("helper", 7, "poe_cycle", { wait: 0.3 });
    clearInterval(poePoll);
    expect(c.status).toBe(200);
    expect(poe).toContain(false);
    expect(lab.model.poeState(ifIndex(7))!.enabled).toBe(true);
    expect(unchanged()).toBe(true);

    const rows = await log("action=port_bounce");
    expect(rows[0]).toMatchObject({ outcome: "success", interface: lab.model.port(6).name });
    expect(await app.services.repos.pendingUps.devices()).toEqual([]);
  });

  test("a VLAN change with a bounce after it, in a batch item and in the bounce call", async () => {
    const r = await batch("helper", { items: [{ interface: id(1), vlan: 20, bounce: true, wait: 0 }] });
    expect(r.body.items[0]).toMatchObject({ result: "done", bounce: true, change: "vlan" });
    expect(pvid(1)).toBe(20);
    expect(lab.model.adminUp(ifIndex(1))).toBe(true);
    const s = await single("helper", 2, "bounce", { wait: 0, vlan: 20 });
    const name = lab.model.port(2).name;
    expect(s.body).toEqual({
      result: `Interface ${name} changed to vlan 20; Interface ${name} was bounced (down 0 s, now Enabled)`,
    });
    expect(pvid(2)).toBe(20);
  });

  test("bounce and power cycle are refused where the contract says", async () => {
    const cases: Array<[string, number, string, Record<string, unknown>, number, string]> = [
      ["helper", LAG[0], "bounce", {}, 403, "You can not manage this interface!"],
      ["root", LAG[0], "bounce", {}, 403, "You can not manage this interface!"],
      ["helper", OTHER_VLAN_PORT, "bounce", {}, 403, "You can not manage this interface!"],
      ["helper", NO_POE, "poe_cycle", {}, 400, `Interface ${"@"} does not support PoE`],
      ["helper", 1, "bounce", { wait: 61 }, 400, "Invalid parameter 'wait': '61' (seconds, 0 to 60)"],
    ];
    for (const [who, port, what, body, status, reason] of cases) {
      const r = await single(who, port, what, body);
      expect({ status: r.status, reason: r.body.reason }).toEqual({
        status,
        reason: reason.replace("@", lab.model.port(port).name),
      });
    }
    lab.model.update((cfg) => (cfg.ports.get(ifIndex(3))!.adminUp = false));
    const down = await single("helper", 3, "bounce", { wait: 0 });
    expect(down.body).toEqual({
      code: "invalid_parameter",
      reason: `Interface ${lab.model.port(3).name} is Disabled: only an enabled interface can be bounced`,
    });
    lab.model.update((cfg) => (cfg.ports.get(ifIndex(3))!.adminUp = true));
    expect(unchanged()).toBe(true);
  });

  test("the whole call is refused as a single write would be: a device outside the caller's groups", async () => {
    const r = await app.request("POST", `/api/switches/${group}/${device + 1000}/batch/`, {
      token: tokens.helper,
      json: { items: [{ interface: id(1), state: "off" }] },
    });
    const s = await app.request("POST", `/api/switches/${group}/${device + 1000}/interface/${id(1)}/state/`, {
      token: tokens.helper,
      json: { state: "off" },
    });
    expect({ status: r.status, body: r.body }).toEqual({ status: s.status, body: s.body });
    expect(r.status).toBe(403);
    expect(unchanged()).toBe(true);
  });

  test("a save at the end, on a device that needs one, after the changes", async () => {
    const saving = await startLab({ profile: "ciscosb", ports: 8, seed: 5, name: "batch-save-lab" });
    try {
      const sid = await addDevice(app, { name: "batch-save-lab", lab: saving, groups: [group] });
      const port = saving.model.ethernetPorts[2];
      const r = await app.request("POST", `/api/switches/${group}/${sid}/batch/`, {
        token: tokens.root,
        json: { items: [{ interface: String(port.ifIndex), description: "saved desk" }], save: "yes" },
      });
      expect(r.body.items[0].result).toBe("done");
      expect(r.body.save).toEqual({ result: "done", message: "Configuration saved!" });
      // the startup configuration has the change: it was saved after it
      expect(saving.model.startup.ports.get(port.ifIndex)?.alias).toBe("saved desk");
      expect(saving.model.isSaved()).toBe(true);
      expect(saving.model.alias(port.ifIndex)).toBe("saved desk");
      const rows = await log(`batch=${r.body.batch_id}`);
      expect(rows.map((x) => x.action).sort()).toEqual(["description", "save_config"]);
    } finally {
      await saving.stop();
    }
  });

  /** the requests of one call by phase: reads before the first SET, between SETs, after the last SET */
  const phases = () => {
    const kinds = lab.counters.journal.map((e) => e.type);
    const first = kinds.indexOf("set");
    const last = kinds.lastIndexOf("set");
    return {
      before: first < 0 ? kinds.length : first,
      between: first < 0 ? 0 : kinds.slice(first, last + 1).filter((k) => k !== "set").length,
      sets: kinds.filter((k) => k === "set").length,
      after: first < 0 ? 0 : kinds.length - last - 1,
      total: kinds.length,
    };
  };

  test("the device is read once before the writes and once after, at a cost that does not grow with the items", async () => {
    // each port: its state and its description; the ports > 8 of them: the interface tables are walked
    const itemsOf = (ports: number[]) =>
      ports.flatMap((n) => [
        { interface: id(n), state: "off" },
        { interface: id(n), description: `desk ${n}` },
      ]);
    const run = async (ports: number[]) => {
      lab.model.commit(cloneConfig(baseline));
      lab.counters.reset();
      const r = await batch("root", { items: itemsOf(ports) });
      expect(r.status).toBe(200);
      expect(r.body.summary.done).toBe(ports.length * 2);
      return phases();
    };
    await run([1, 2, 3, 4, 5, 6, 7, 8, 9]); // the driver's request sizes are known from here on
    const nine = await run([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const all = await run([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // one SET per item, no read between them: one learn before, one read after
    expect(nine).toMatchObject({ sets: 18, between: 0 });
    expect(all).toMatchObject({ sets: 24, between: 0 });
    expect(all.before).toBe(nine.before);
    expect(all.after).toBe(nine.after);
    expect(all.before).toBeLessThanOrEqual(12);
    for (let n = 1; n <= 12; n++) expect(lab.model.adminUp(ifIndex(n))).toBe(false);
    // the same 24 changes as single calls cost far more
    lab.model.commit(cloneConfig(baseline));
    lab.counters.reset();
    for (const item of itemsOf([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])) {
      const { interface: port, ...body } = item;
      await single("root", port, "state" in body ? "state" : "description", body);
    }
    const singles = phases();
    expect(singles.sets).toBe(all.sets);
    expect(all.total * 2).toBeLessThan(singles.total);
  });

  test("an item the device does not keep fails as a single write's mismatch; the others are done", async () => {
    // ifAlias of port 3: the device answers noError and keeps nothing
    lab.faults.lieOnSetsMatching(`1.3.6.1.2.1.31.1.1.1.18.${ifIndex(3)}`);
    const single3 = await single("helper", 3, "description", { description: "desk 3" });
    expect(single3.status).toBe(424);
    expect(single3.body.code).toBe("device_mismatch");
    lab.counters.reset();
    const r = await batch("helper", {
      items: [
        { interface: id(1), state: "off" },
        { interface: id(3), description: "desk 3" },
        { interface: id(2), vlan: 20 },
        { interface: id(4), description: "desk 4" },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: Record<string, unknown>) => [i.result, i.status, i.code])).toEqual([
      ["done", undefined, undefined],
      ["failed", 424, "device_mismatch"],
      ["done", undefined, undefined],
      ["done", undefined, undefined],
    ]);
    const failed = r.body.items[1];
    const prefix = "Device 'batch-lab' did not keep the change: ";
    expect(single3.body.reason.startsWith(prefix)).toBe(true);
    expect(failed.reason).toBe(
      `${prefix}batch-lab accepted the change but reads back otherwise: ` +
        `${lab.model.port(3).name} description: wrote 'desk 3', device reports ''`,
    );
    expect(r.body.summary).toEqual({ done: 3, same_value: 0, refused: 0, failed: 1, skipped: 0 });
    expect(phases().between).toBe(0);
    expect(lab.model.adminUp(ifIndex(1))).toBe(false);
    expect(pvid(2)).toBe(20);
    expect(lab.model.alias(ifIndex(4))).toBe("desk 4");
    const rows = await log(`batch=${r.body.batch_id}`);
    expect(rows.map((x) => [x.action, x.outcome, x.code ?? null]).reverse()).toEqual([
      ["admin_state", "success", null],
      ["description", "failure", "device_mismatch"],
      ["untagged_vlan", "success", null],
      ["description", "success", null],
    ]);
  });

  test("Q-BRIDGE VLAN moves of several ports in one batch all land, each port's twice over", async () => {
    lab.counters.reset();
    const r = await batch("helper", {
      items: [
        { interface: id(1), vlan: 20 },
        { interface: id(2), vlan: 20 },
        { interface: id(3), vlan: 20 },
        { interface: id(1), description: "moved" },
        { interface: id(4), vlan: 20 },
        { interface: id(2), vlan: 10 },
        { interface: id(5), vlan: 20 },
        { interface: id(1), vlan: 10 },
        { interface: id(6), vlan: 20 },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.summary.done).toBe(9);
    // no read between the writes: each builds on the VLAN bitmaps the one before left
    expect(phases()).toMatchObject({ sets: 9, between: 0 });
    // the whole configuration is what the moves make of the baseline: no other port's membership lost
    const expected = cloneConfig(baseline);
    for (const n of [3, 4, 5, 6]) moveAccessVlan(expected, lab.model.port(n).bridgePort!, 20);
    expected.ports.get(ifIndex(1))!.alias = "moved";
    expect(configsEqual(lab.model.running, expected)).toBe(true);
    expect(lab.model.consistencyProblems()).toEqual([]);
    // and over SNMP: a new read of the switch
    const view = await app.request("GET", `/api/switches/${group}/${device}/`, { token: tokens.root });
    const vlanOf = (n: number) =>
      (view.body.interfaces as Array<{ id: string; vlan: number }>).find((i) => i.id === id(n))!.vlan;
    expect([1, 2, 3, 4, 5, 6, 7].map(vlanOf)).toEqual([10, 10, 20, 20, 20, 20, 10]);
    expect(r.body.interfaces.map((i: Record<string, unknown>) => [i.id, i.vlan])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => [id(n), n <= 2 ? 10 : 20]),
    );
  });

  test("trunk changes and VLAN moves of several ports in one batch, each compared with the read at the end", async () => {
    const r = await batch("root", {
      items: [
        { interface: id(7), untagged_vlan: 20, tagged_vlans: [], allow_all: false },
        { interface: id(8), vlan: 20 },
        { interface: id(9), untagged_vlan: 20, tagged_vlans: [10, 30], allow_all: false },
        { interface: id(7), untagged_vlan: 20, tagged_vlans: [10], allow_all: false },
      ],
    });
    expect(r.body.items.map((i: Record<string, unknown>) => i.result)).toEqual(["done", "done", "done", "done"]);
    expect(lab.model.consistencyProblems()).toEqual([]);
    const view = await app.request("GET", `/api/switches/${group}/${device}/`, { token: tokens.root });
    const vlanOf = (n: number) =>
      (view.body.interfaces as Array<{ id: string; vlan: number }>).find((i) => i.id === id(n))!.vlan;
    expect([7, 8, 9].map(vlanOf)).toEqual([20, 20, 20]);
    expect(r.body.interfaces.map((i: Record<string, unknown>) => [i.id, i.vlan, i.tagged_vlans])).toEqual([
      [id(7), 20, [10]],
      [id(8), 20, []],
      [id(9), 20, [10, 30]],
    ]);
  });

  test("after a failed VLAN write, the VLAN changes still to come are read again and land", async () => {
    // noAccess: not one an ordered retry could cure
    lab.faults.refuseNthSet(2, "noAccess");
    const r = await batch("helper", {
      on_failure: "continue",
      items: [1, 2, 3, 4].map((n) => ({ interface: id(n), vlan: 20 })),
    });
    expect(r.body.items.map((i: Record<string, unknown>) => [i.result, i.code])).toEqual([
      ["done", undefined],
      ["failed", "device_refused"],
      ["done", undefined],
      ["done", undefined],
    ]);
    const expected = cloneConfig(baseline);
    for (const n of [1, 3, 4]) moveAccessVlan(expected, lab.model.port(n).bridgePort!, 20);
    expect(configsEqual(lab.model.running, expected)).toBe(true);
  });

  test("a save at the end is skipped on a device that needs none", async () => {
    const r: ApiResponse = await batch("helper", { items: [{ interface: id(1), state: "off" }], save: "yes" });
    expect(r.body.save).toEqual({
      result: "skipped",
      reason: "This switch model cannot save or does not need to save the config",
    });
  });
});
