/**
 * GETBULK requests that adapt to the agent. Agents differ in what they do with an answer
 * that does not fit: some answer tooBig, some (snmpsimd) send nothing, some cap every
 * answer at a number of values. The lab reproduces each (a response-size limit in
 * "tooBig" or "silent" mode, maxBulkValues) on a switch whose VLAN table carries two
 * 503-octet PortLists per row, and snmpsimd serves a recording of a large chassis that
 * the lab wrote. In every case the generic driver must learn the whole switch; a second
 * session must start at the size that worked; and a device that stops answering must
 * still be given up in about timeout x tries, as before adaptation.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startLabSwitch, type LabSwitch, type LabSwitchOptions } from "../../lab";
import type { VirtualSwitch } from "../../lab/model";
import { dot3StatsDuplexStatus, ifTable, ifXTable, system } from "../../mib/oids";
import { SnmpDriver } from "../../drivers/snmp/driver";
import { SnmpSession } from "../../drivers/snmp/session";
import { genericFamily } from "../../drivers/families/generic";
import { qbridge } from "../../mib/oids";

/** the columns of the interface table and the static VLAN table as the engine and the Q-BRIDGE part read them */
const ifTableColumns = [
  ifTable.ifDescr,
  ifTable.ifType,
  ifTable.ifMtu,
  ifTable.ifSpeed,
  ifTable.ifAdminStatus,
  ifTable.ifOperStatus,
];
const vlanStaticColumns = [
  qbridge.dot1qVlanStaticName,
  qbridge.dot1qVlanStaticRowStatus,
  qbridge.dot1qVlanStaticEgressPorts,
  qbridge.dot1qVlanStaticUntaggedPorts,
];
/** the VLAN tables and the interface tables, each walked in one GETBULK by the driver */
const vlanWalkColumns = [...vlanStaticColumns, qbridge.dot1qVlanStatus, qbridge.dot1qVlanFdbId];
const ifIndexWalkColumns = [...ifTableColumns, dot3StatsDuplexStatus];
class GenericSnmpDriver extends SnmpDriver {
  constructor(
    target: ConstructorParameters<typeof SnmpDriver>[1],
    options?: ConstructorParameters<typeof SnmpDriver>[2],
  ) {
    super(genericFamily, target, options);
  }
}
import {
  deviceSizeKey,
  readSizeKey,
  RequestSizeStore,
  requestSizes,
  resetRequestSizes,
} from "../../drivers/snmp/request-size";
import type { DeviceSnapshot } from "../../model/device";
import { DeviceUnreachable } from "../../model/failures";
import type { SnmpTarget } from "../../model/targets";
import { ErrorStatus, sessionTo, type ClientError } from "../support/snmp-client";
import { describeSnmpsimd, startSnmpsim } from "../support/snmpsim";
import { startUdpRelay } from "../support/udp-relay";
import { actualInterface, expectedInterface, expectedVlans, vlanView } from "../support/lab-expectations";

const TIMEOUT_MS = 250;

/** 96 ports in 4 slots of 24 (bridge ports 1001..4024: 503-octet PortLists) and 47 VLANs */
const chassis: LabSwitchOptions = {
  profile: "generic",
  ports: 96,
  portsPerSlot: 24,
  extraVlans: 40,
  poePorts: [1, 2, 3, 4],
  seed: 21,
};

function target(lab: LabSwitch, retries = 1): SnmpTarget {
  return { ...lab.snmpTarget(), timeout_ms: TIMEOUT_MS, retries };
}

/** the snapshot holds every VLAN and every interface exactly as the model has them */
function expectWholeSwitch(snap: DeviceSnapshot, model: VirtualSwitch): void {
  expect(snap.hostname).toBe(model.system.sysName);
  expect(vlanView(snap.vlans)).toEqual(expectedVlans(model));
  expect(snap.interfaces.map(actualInterface)).toEqual(
    model.interfaces.map((i) => expectedInterface(model, i, String(i.ifIndex))),
  );
}

async function learnTimed(driver: GenericSnmpDriver) {
  const started = Date.now();
  const snap = await driver.learn("basic");
  return { snap, ms: Date.now() - started };
}

function figures(what: string, d: GenericSnmpDriver, ms: number): string {
  const c = d.counters;
  return `${what}: ${c.requests} requests, ${c.roundTrips} round trips, ${c.tooBig} tooBig, ${c.timeouts} unanswered, ${ms} ms`;
}

beforeEach(() => resetRequestSizes());

describe("the lab's response-size limit and GetBulk counts", () => {
  let lab: LabSwitch;
  beforeAll(async () => {
    lab = await startLabSwitch(chassis);
  });
  afterEach(() => {
    lab.faults.reset();
    lab.counters.reset();
  });
  afterAll(async () => {
    await lab?.stop();
  });

  test("an answer over the limit is tooBig with no varbinds, or nothing at all in silent mode; reset() lifts it", async () => {
    const s = sessionTo(lab, { timeoutMs: TIMEOUT_MS });
    try {
      lab.faults.maxResponseBytes = 1000;
      const tooBig = await s.getBulk([ifTable.ifDescr], 0, 100).catch((e: ClientError) => e);
      expect(tooBig).toMatchObject({ name: "RequestFailedError", status: ErrorStatus.TooBig });
      // a small answer still passes
      expect(await s.get([`${system.sysName}.0`])).toHaveLength(1);

      lab.faults.oversize = "silent";
      await expect(s.getBulk([ifTable.ifDescr], 0, 100)).rejects.toMatchObject({ name: "RequestTimedOutError" });
      expect(lab.counters.oversize).toBe(2);
      expect(lab.counters.responses).toBe(2);

      lab.faults.reset();
      expect(await s.getBulk([ifTable.ifDescr], 0, 100)).toHaveLength(100);
    } finally {
      s.close();
    }
  });

  test("the limit is a start option too, and must be a message size SNMP allows", async () => {
    const limited = await startLabSwitch({ ...chassis, maxResponseBytes: 2000, oversize: "silent" });
    try {
      expect([limited.faults.maxResponseBytes, limited.faults.oversize]).toEqual([2000, "silent"]);
      limited.faults.maxResponseBytes = null;
      limited.faults.reset();
      expect([limited.faults.maxResponseBytes, limited.faults.oversize]).toEqual([2000, "silent"]);
    } finally {
      await limited.stop();
    }
    await expect(startLabSwitch({ ports: 8, maxResponseBytes: 100 })).rejects.toThrow(RangeError);
  });

  test("GetBulk answers non-repeaters + repeaters x max-repetitions values, the cap counting all of them", async () => {
    const capped = await startLabSwitch({ ...chassis, maxBulkValues: 20 });
    const s = sessionTo(capped);
    const s2 = sessionTo(lab);
    try {
      const oids = [system.sysDescr, ifTable.ifDescr, ifXTable.ifName];
      expect(await s2.getBulk(oids, 1, 30)).toHaveLength(1 + 2 * 30);
      const got = await s.getBulk(oids, 1, 30);
      expect(got).toHaveLength(20);
      expect(got[0].oid).toBe(`${system.sysDescr}.0`);
      const first = capped.model.interfaces[0].ifIndex;
      expect(got.slice(1, 3).map((v) => v.oid)).toEqual([`${ifTable.ifDescr}.${first}`, `${ifXTable.ifName}.${first}`]);
    } finally {
      s.close();
      s2.close();
      await capped.stop();
    }
  });

  test("chassis numbering puts slot s port m on bridge port s*1000+m, and PortLists follow the highest", async () => {
    const m = lab.model;
    expect(m.port(1).bridgePort).toBe(1001);
    expect(m.port(25).bridgePort).toBe(2001);
    expect(m.port(96).bridgePort).toBe(4024);
    expect(m.portListLength).toBe(503);
    expect(m.vlanIds()).toHaveLength(47);
    expect(m.consistencyProblems()).toEqual([]);
  });
});

describe("the generic driver adapts its GETBULK requests", () => {
  test("tooBig: it halves the rows, then splits the columns, and learns the whole switch", async () => {
    // one row of the VLAN table (name, two PortLists, row status) is about 1,100 bytes
    const lab = await startLabSwitch({ ...chassis, maxResponseBytes: 1000, oversize: "tooBig" });
    const d = new GenericSnmpDriver(target(lab));
    try {
      const { snap, ms } = await learnTimed(d);
      console.log(figures("lab, tooBig above 1000 bytes", d, ms));
      expectWholeSwitch(snap, lab.model);
      expect(d.counters.tooBig).toBeGreaterThan(0);
      expect(d.counters.tooBig).toBe(lab.counters.oversize);
      expect(d.counters.timeouts).toBe(0);
      // every smaller request after a tooBig was counted, as the agent counted them
      expect(d.counters.requests).toBe(lab.counters.requests);
      // what was remembered, per read as the driver sends it (the tables indexed alike
      // walked together): one row of the six VLAN columns (two of them PortLists of about
      // 500 bytes) did not fit, so the columns were split in halves, three at a time
      const memory = requestSizes.forDevice(deviceSizeKey(target(lab)));
      expect(memory.shapeOf(readSizeKey(vlanWalkColumns))).toEqual({ rows: 1, columns: 3 });
      expect(memory.shapeOf(readSizeKey(ifIndexWalkColumns))!.rows).toBeLessThan(64);
    } finally {
      await d.close();
      await lab.stop();
    }
  });

  test("silent: no answer to a large request while the smallest is answered means too big, not unreachable", async () => {
    // two rows of the VLAN table fit, four do not
    const lab = await startLabSwitch({ ...chassis, maxResponseBytes: 3000, oversize: "silent" });
    const first = new GenericSnmpDriver(target(lab));
    const second = new GenericSnmpDriver(target(lab));
    try {
      const cold = await learnTimed(first);
      console.log(figures("lab, silent above 3000 bytes, first session", first, cold.ms));
      expectWholeSwitch(cold.snap, lab.model);
      // each answer the lab withheld was one fast try; the smaller requests were answered
      expect(first.counters.timeouts).toBeGreaterThan(0);
      expect(first.counters.timeouts).toBe(lab.counters.oversize);
      // the unanswered tries and the small requests after them are requests too
      expect(first.counters.requests).toBe(lab.counters.requests);

      // a later session starts at the shapes that worked: no unanswered request, fewer requests
      lab.counters.reset();
      const warm = await learnTimed(second);
      console.log(figures("lab, silent above 3000 bytes, second session", second, warm.ms));
      expectWholeSwitch(warm.snap, lab.model);
      expect(second.counters.timeouts).toBe(0);
      expect(lab.counters.oversize).toBe(0);
      expect(second.counters.requests).toBeLessThan(first.counters.requests);
      expect(warm.ms).toBeLessThan(cold.ms);
    } finally {
      await first.close();
      await second.close();
      await lab.stop();
    }
  });

  test("the remembered size works for tooBig agents too: the second session gets no tooBig", async () => {
    const lab = await startLabSwitch({ ...chassis, maxResponseBytes: 2000, oversize: "tooBig" });
    const first = new GenericSnmpDriver(target(lab));
    const second = new GenericSnmpDriver(target(lab));
    try {
      const cold = await learnTimed(first);
      const { snap, ms } = await learnTimed(second);
      console.log(
        `${figures("lab, tooBig above 2000 bytes, first session", first, cold.ms)}; ${figures("second", second, ms)}`,
      );
      expectWholeSwitch(snap, lab.model);
      expect(first.counters.tooBig).toBeGreaterThan(0);
      expect(second.counters.tooBig).toBe(0);
      expect(second.counters.requests).toBeLessThan(first.counters.requests);
    } finally {
      await first.close();
      await second.close();
      await lab.stop();
    }
  });

  test("a read whose last request runs into a larger column fails once; later sessions ask at the end only for the rows left", async () => {
    // 220 VLANs; the FDB id and status columns are small, the column after the FDB ids
    // holds 503-octet PortLists: a request for more rows than are left reads into them
    const lab = await startLabSwitch({ ...chassis, extraVlans: 213, maxResponseBytes: 8000, oversize: "silent" });
    const columns = [qbridge.dot1qVlanFdbId, qbridge.dot1qVlanStatus];
    const read = async () => {
      const session = new SnmpSession(target(lab));
      try {
        const result = await session.readColumns(columns, { label: "dot1qVlanCurrentTable" });
        return { rows: result.get(qbridge.dot1qVlanStatus)!.size, counters: { ...session.counters } };
      } finally {
        session.close();
      }
    };
    try {
      const vlans = lab.model.vlanIds().length;
      expect(vlans).toBe(220);
      const cold = await read();
      const warm = await read();
      console.log(
        `current VLAN table, ${vlans} rows: first session ${cold.counters.requests} requests (${cold.counters.timeouts} unanswered), second ${warm.counters.requests} (${warm.counters.timeouts})`,
      );
      expect([cold.rows, warm.rows]).toEqual([vlans, vlans]);
      // 64 and 128 rows are answered; 250 would be 28 rows of the table and 222 PortLists
      expect(cold.counters.timeouts).toBeGreaterThanOrEqual(1);
      expect(warm.counters.timeouts).toBe(0);
      // the size that worked before the failure is kept: no more requests than the first session's
      expect(warm.counters.requests).toBeLessThan(cold.counters.requests);
      // a table that grew since is still read to its end
      lab.model.update((cfg) => {
        for (let v = 3000; v < 3010; v++)
          cfg.vlans.set(v, { name: `grown-${v}`, active: true, egress: new Set(), untagged: new Set() });
      });
      const grown = await read();
      expect(grown.rows).toBe(vlans + 10);
    } finally {
      await lab.stop();
    }
  });

  test("an agent capping answers at a number of values is followed to the end of every table", async () => {
    const lab = await startLabSwitch({ ...chassis, maxBulkValues: 10 });
    const d = new GenericSnmpDriver(target(lab));
    try {
      const { snap, ms } = await learnTimed(d);
      console.log(figures("lab capping at 10 values", d, ms));
      expectWholeSwitch(snap, lab.model);
      // the cap really cut the answers short: no answer had more than 10 values, and
      // the tables took many more requests than the 11 reads of the plan
      expect(lab.counters.values).toBeLessThanOrEqual(10 * lab.counters.responses);
      expect(d.counters.requests).toBeGreaterThan(50);
      expect([d.counters.tooBig, d.counters.timeouts]).toEqual([0, 0]);
    } finally {
      await d.close();
      await lab.stop();
    }
  });
});

describe("a device that stops answering is still given up in about timeout x tries", () => {
  let lab: LabSwitch;
  beforeAll(async () => {
    lab = await startLabSwitch(chassis);
  });
  afterEach(() => {
    lab.faults.reset();
    lab.counters.reset();
  });
  afterAll(async () => {
    await lab?.stop();
  });

  // Before adaptation the wait was timeout x tries. The adaptive engine shares the tries
  // between the large request and the smallest one; an engine that spent one more try
  // would take timeout x (tries + 1), which is the bound.
  const within = (tries: number) => TIMEOUT_MS * (tries + 1);

  test.each([1, 2, 3])("never answering, %i tries: unreachable after timeout x tries", async (tries) => {
    lab.faults.drop = true;
    for (const call of ["learn", "learnVlans"] as const) {
      const d = new GenericSnmpDriver(target(lab, tries - 1), { name: "dead-1" });
      const started = Date.now();
      try {
        const failure = call === "learn" ? d.learn("basic") : d.learnVlans();
        await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
        await expect(failure).rejects.toThrow(`(timeout after ${tries === 1 ? "1 try" : `${tries} tries`})`);
      } finally {
        await d.close();
      }
      const ms = Date.now() - started;
      console.log(`dead device, ${call}, ${tries} tries of ${TIMEOUT_MS} ms: unreachable after ${ms} ms`);
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS * tries - 20);
      expect(ms).toBeLessThan(within(tries));
    }
  });

  test.each([3, 8])(
    "stopping after %i answers in the middle of a learn: unreachable within timeout x tries of the loss",
    async (answers) => {
      lab.faults.dropAfter(answers);
      const d = new GenericSnmpDriver(target(lab, 1));
      const started = Date.now();
      try {
        await expect(d.learn("basic")).rejects.toBeInstanceOf(DeviceUnreachable);
      } finally {
        await d.close();
      }
      const ended = performance.timeOrigin + performance.now();
      const ms = Date.now() - started;
      // the loss: the lab's last answer (the journal holds the answered requests, on its
      // clock); the answered part before it takes what the machine gives it, and the bound
      // is on what follows (a request lost may have left before that answer: reads run
      // concurrently, so there is no lower bound here)
      expect(lab.counters.journal).toHaveLength(answers);
      const lost = lab.counters.journal[answers - 1].at!;
      const sinceLoss = Math.round(ended - lost);
      console.log(
        `device gone after ${answers} answers, 2 tries of ${TIMEOUT_MS} ms: unreachable ${sinceLoss} ms after the loss (${ms} ms in all)`,
      );
      expect(lab.counters.responses).toBe(answers);
      expect(sinceLoss).toBeLessThan(within(2));
    },
  );
});

describe("the size memory", () => {
  test("holds a bounded number of devices, least recently used out first, and forgets after its lifetime", () => {
    let now = 0;
    const store = new RequestSizeStore({ maxDevices: 2, maxReadsPerDevice: 2, ttlMs: 1000, now: () => now });
    const shape = { rows: 4, columns: 2 };
    store.forDevice("a").remember("t1", shape);
    store.forDevice("b").remember("t1", shape);
    expect(store.forDevice("a").shapeOf("t1")).toEqual(shape); // a is now the most recent
    store.forDevice("c").remember("t1", shape);
    expect(store.size).toBe(2);
    expect(store.forDevice("b").shapeOf("t1")).toBeUndefined();
    expect(store.forDevice("a").shapeOf("t1")).toEqual(shape);

    const a = store.forDevice("a");
    a.remember("t2", shape);
    a.remember("t3", shape);
    expect([a.shapeOf("t1"), a.shapeOf("t2"), a.shapeOf("t3")]).toEqual([undefined, shape, shape]);

    now = 1001;
    expect(a.shapeOf("t3")).toBeUndefined();
  });

  test("keys a device by address and SNMP identity, without the community in plain text", () => {
    const base: SnmpTarget = {
      host: "127.0.0.1",
      port: 161,
      version: "2c",
      community: "s3cret-community",
      timeout_ms: 1,
      retries: 0,
    };
    const key = deviceSizeKey(base);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toContain("s3cret");
    expect(deviceSizeKey({ ...base, timeout_ms: 5 })).toBe(key);
    expect(deviceSizeKey({ ...base, community: "other" })).not.toBe(key);
    expect(deviceSizeKey({ ...base, port: 1161 })).not.toBe(key);
    const v3: SnmpTarget = { ...base, version: "3", community: undefined, username: "u", context: "vlan-10" };
    expect(deviceSizeKey(v3)).not.toBe(deviceSizeKey({ ...v3, context: "vlan-20" }));
  });
});

describeSnmpsimd("snmpsimd serving a recording of a large chassis the lab wrote", () => {
  test("with its default cap of 64 values the answers stay within a datagram, and the whole switch is learned", async () => {
    // 384 ports in 4 slots of 96 (512-octet PortLists) and 253 VLANs
    const lab = await startLabSwitch({ profile: "generic", ports: 384, portsPerSlot: 96, extraVlans: 240, seed: 11 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-chassis-"));
    // snmpsimd drops to an unprivileged user when started as root: it must read the file
    fs.chmodSync(dir, 0o755);
    const file = path.join(dir, "chassis.snmprec");
    const written = lab.writeRecording(file);
    fs.chmodSync(file, 0o644);
    await lab.stop();
    const sim = await startSnmpsim({ recordings: { chassis: file } });
    const relay = await startUdpRelay(sim.port);
    const d = new GenericSnmpDriver(sim.target("chassis", { port: relay.port, timeout_ms: 1500, retries: 1 }));
    try {
      const { snap, ms } = await learnTimed(d);
      console.log(
        `${figures(`snmpsimd (default --max-varbinds 64), ${written} recorded values`, d, ms)}; largest answer ${relay.traffic.largestAnswer} bytes`,
      );
      expectWholeSwitch(snap, lab.model);
      expect(relay.traffic.answers).toBe(relay.traffic.requests);
      expect(relay.traffic.largestAnswer).toBeLessThan(65507);
      expect([d.counters.tooBig, d.counters.timeouts]).toEqual([0, 0]);
    } finally {
      await d.close();
      await relay.stop();
      await sim.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
