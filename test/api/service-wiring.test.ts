/**
 * Two services in one process share nothing (app/startup.ts buildServices): each keeps
 * the per-device limits it was built with (DEVICE_CONCURRENCY, DEVICE_QUEUE_LIMIT), its
 * own write leases and its own name among the instances. Built one after the other and
 * used against the same lab switch, the first one's tight limits still refuse a second
 * call at a busy switch, while the second one's let its calls queue.
 */
import { startAppWithRoot, type AppWithRoot } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

describeDb("two services in one process", () => {
  let tight: AppWithRoot & { base: string };
  let roomy: AppWithRoot & { base: string };
  let lab: LabSwitch;

  async function withSwitch(started: AppWithRoot, name: string) {
    const gid = await addGroup(started.app, { name: `Wiring ${name}` });
    const sid = await addDevice(started.app, { name, lab, groups: [gid] });
    const base = `/api/switches/${gid}/${sid}`;
    // the first call probes and stores the driver choice
    expect((await started.app.request("GET", `${base}/`, { token: started.root })).status).toBe(200);
    return { ...started, base };
  }

  beforeAll(async () => {
    lab = await startLab({ profile: "generic", ports: 24, name: "lab-wiring-24", seed: 5 });
    // the tight one first: building the second one must leave its limits alone
    const first = await startAppWithRoot({ deviceConcurrency: 1, deviceQueueLimit: 0, deviceWriteWaitMs: 5_000 });
    const second = await startAppWithRoot({ deviceConcurrency: 3, deviceQueueLimit: 100, deviceWriteWaitMs: 20_000 });
    tight = await withSwitch(first, "wiring-tight");
    roomy = await withSwitch(second, "wiring-roomy");
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await tight?.app.close();
    await roomy?.app.close();
  });
  afterEach(() => lab.faults.reset());

  /** switchdesk_device_concurrency as a service's /metrics shows it */
  const concurrencyShown = async (s: AppWithRoot): Promise<number> => {
    const text = await (await fetch(`${s.app.url}/metrics`)).text();
    return Number(/^switchdesk_device_concurrency (\d+)$/m.exec(text)?.[1]);
  };

  it("each keeps the limits, write leases and instance name it was built with", async () => {
    const [a, b] = [tight.app.services, roomy.app.services];
    expect(a.gates.limits).toEqual({ concurrency: 1, queueLimit: 0 });
    expect(b.gates.limits).toEqual({ concurrency: 3, queueLimit: 100 });
    expect(a.gates).not.toBe(b.gates);
    expect([a.leases.settings.waitMs, b.leases.settings.waitMs]).toEqual([5_000, 20_000]);
    expect(a.leases.instance).not.toBe(b.leases.instance);
    expect([await concurrencyShown(tight), await concurrencyShown(roomy)]).toEqual([1, 3]);
  });

  it("the tight one refuses a second call at its busy switch; the roomy one queues its calls, up to 3 in flight", async () => {
    lab.faults.latencyMs = 100;
    lab.counters.reset();
    const first = tight.app.request("GET", `${tight.base}/`, { token: tight.root });
    // until the first call's request is at the switch (bounded)
    for (let i = 0; i < 500 && lab.counters.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const busy = await tight.app.request("GET", `${tight.base}/details/`, { token: tight.root });
    expect([busy.status, busy.body.code]).toEqual([503, "device_busy"]);
    expect((await first).status).toBe(200);
    expect(lab.counters.maxInFlight).toBe(1);

    lab.counters.reset();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        roomy.app.request("GET", `${roomy.base}/${i % 2 ? "details/" : ""}`, { token: roomy.root }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(lab.counters.maxInFlight).toBeGreaterThan(1);
    expect(lab.counters.maxInFlight).toBeLessThanOrEqual(3);
  });
});
