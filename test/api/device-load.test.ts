/**
 * Many callers at one switch through the API: the per-device bound (no more requests in
 * flight at the device than DEVICE_CONCURRENCY, whichever calls sent them), reads waiting
 * for the device answered by one shared learn, waits that never turn into false device
 * errors, and the 503 device_busy with Retry-After when the device's queue is full.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { sharedLearnsOf } from "../../app/device-reads";

describeDb("many callers at one switch", () => {
  let app: TestApp;
  let root: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  let patientId: number;
  const base = () => `/api/switches/${gid}/${sid}`;
  const patient = () => `/api/switches/${gid}/${patientId}`;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({ deviceConcurrency: 4, deviceQueueLimit: 100 }));
    lab = await startLab({ profile: "generic", ports: 48, poePorts: "all", name: "lab-gen-48", seed: 3 });
    gid = await addGroup(app, { name: "Load" });
    sid = await addDevice(app, { name: "gen-48", lab, groups: [gid] });
    // the same switch with a timeout no busy test machine reaches: a request given up and
    // sent again would still be in flight at the switch, and the first test counts what
    // the switch has in flight
    patientId = await addDevice(app, { name: "gen-48-patient", lab, groups: [gid], timeoutMs: 5000 });
    // the first call probes and stores the driver choice; the tests measure later calls
    expect((await app.request("GET", `${base()}/`, { token: root })).status).toBe(200);
    expect((await app.request("GET", `${patient()}/`, { token: root })).status).toBe(200);
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });
  afterEach(() => {
    lab.faults.reset();
    app.services.gates.configure({ concurrency: 4, queueLimit: 100 });
  });

  it("200 concurrent basic reads: every one answered, few learns, never more than the bound in flight", async () => {
    lab.faults.latencyMs = 5;
    lab.counters.reset();
    const shared = sharedLearnsOf(app.services.devices);
    const before = { ...shared.counters };
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => app.request("GET", `${patient()}/`, { token: root })),
    );
    const statuses = answers.map((r) => r.status);
    const learns = shared.counters.learns - before.learns;
    console.log(
      `200 concurrent basic reads of a 48-port switch (5 ms latency): ${statuses.filter((s) => s !== 200).length} errors, ` +
        `${learns} learns, ${lab.counters.requests} SNMP requests, at most ${lab.counters.maxInFlight} in flight at the switch`,
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(lab.counters.maxInFlight).toBeLessThanOrEqual(4);
    // reads that waited together shared a learn: far fewer learns than reads
    expect(learns).toBeLessThan(100);
  });

  it("calls waiting for the device longer than the SNMP timeout still succeed (the wait is not the device's)", async () => {
    // one request at a time, 120 ms each: a learn takes 11 x 120 ms, far beyond the
    // profile's 500 ms timeout, and every other call waits behind it
    app.services.gates.configure({ concurrency: 1, queueLimit: 100 });
    lab.faults.latencyMs = 120;
    lab.counters.reset();
    const iface = lab.model.port(3).ifIndex;
    const answers = await Promise.all([
      app.request("GET", `${base()}/`, { token: root }),
      app.request("GET", `${base()}/details/`, { token: root }),
      app.request("POST", `${base()}/interface/${iface}/description/`, {
        token: root,
        json: { description: "waited its turn" },
      }),
    ]);
    expect(answers.map((r) => [r.status, r.body.code])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
    expect(lab.counters.maxInFlight).toBe(1);
    expect(lab.model.alias(iface)).toBe("waited its turn");
  });

  it("a full queue is 503 device_busy with Retry-After, before anything is sent; the call already admitted finishes", async () => {
    app.services.gates.configure({ concurrency: 1, queueLimit: 0 });
    // what one basic read sends, alone
    lab.counters.reset();
    expect((await app.request("GET", `${base()}/`, { token: root })).status).toBe(200);
    const learnRequests = lab.counters.requests;
    lab.faults.latencyMs = 200;
    lab.counters.reset();
    const first = app.request("GET", `${base()}/`, { token: root });
    // until the first call's request is at the switch (bounded)
    for (let i = 0; i < 500 && lab.counters.inFlight === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(lab.counters.inFlight).toBe(1);
    const busy = await app.request("GET", `${base()}/details/`, { token: root });
    expect(busy.status).toBe(503);
    expect(busy.body.code).toBe("device_busy");
    expect(busy.body.reason).toMatch(/^Device 'gen-48' is busy; try again in [1-9]\d* s$/);
    expect(busy.headers.get("retry-after")).toBe(/in (\d+) s$/.exec(busy.body.reason)![1]);
    const write = await app.request("POST", `${base()}/interface/${lab.model.port(4).ifIndex}/description/`, {
      token: root,
      json: { description: "not now" },
    });
    expect([write.status, write.body.code]).toEqual([503, "device_busy"]);
    expect((await first).status).toBe(200);
    // the refused calls sent nothing: only the admitted learn's requests reached the switch
    expect(lab.counters.requests).toBe(learnRequests);
    expect(lab.model.alias(lab.model.port(4).ifIndex)).not.toBe("not now");
  });
});
