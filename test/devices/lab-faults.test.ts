/**
 * Fault injection on a lab switch, as drivers will meet it: an unreachable device, a
 * timeout in the middle of a walk, latency, refused sets (all, those touching some
 * objects, the n-th one), a set that reads back different, a reboot; and the counters
 * tests and the bench read.
 */
import { ifTable, ifXTable } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import {
  ErrorStatus,
  ObjectType,
  openSession,
  sessionTo,
  type ClientError,
  type ClientSession,
} from "../support/snmp-client";

async function rejection(p: Promise<unknown>): Promise<ClientError> {
  try {
    await p;
  } catch (e) {
    return e as ClientError;
  }
  throw new Error("expected the request to fail");
}

describe("lab faults", () => {
  let lab: LabSwitch;
  let ro: ClientSession;
  let rw: ClientSession;
  // a short wait only where the lab is told not to answer; the requests that are answered
  // keep the client's usual one (a busy CI machine once kept an answer past 300 ms)
  let silent: ClientSession;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 48, seed: 4 });
    ro = sessionTo(lab);
    rw = sessionTo(lab, { write: true });
    silent = sessionTo(lab, { timeoutMs: 300 });
  });
  afterEach(() => {
    lab.faults.reset();
    lab.counters.reset();
  });
  afterAll(async () => {
    ro.close();
    rw.close();
    silent.close();
    await lab.stop();
  });

  it("drop: the device is unreachable, requests are counted but not answered", async () => {
    lab.faults.drop = true;
    const err = await rejection(silent.get(["1.3.6.1.2.1.1.5.0"]));
    expect(err.name).toBe("RequestTimedOutError");
    expect(lab.counters.requests).toBe(1);
    expect(lab.counters.responses).toBe(0);
    lab.faults.drop = false;
    await expect(ro.get(["1.3.6.1.2.1.1.5.0"])).resolves.toHaveLength(1);
  });

  it("dropAfter(n): a walk times out in the middle after n answers", async () => {
    lab.faults.dropAfter(3);
    const err = await rejection(silent.walk(ifXTable.ifName, 5));
    expect(err.name).toBe("RequestTimedOutError");
    expect(lab.counters.responses).toBe(3);
    expect(lab.counters.values).toBe(15);
    expect(lab.counters.byType.getBulk).toBe(3);
  });

  it("latencyMs delays every answer", async () => {
    lab.faults.latencyMs = 120;
    const slow = openSession(lab.port, { timeoutMs: 2000 });
    try {
      const t0 = Date.now();
      await slow.get(["1.3.6.1.2.1.1.5.0"]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
    } finally {
      slow.close();
    }
  });

  it("latency from the start options, restored by reset()", async () => {
    const delayed = await startLabSwitch({ ports: 8, latencyMs: 80 });
    try {
      expect(delayed.faults.latencyMs).toBe(80);
      delayed.faults.latencyMs = 0;
      delayed.faults.reset();
      expect(delayed.faults.latencyMs).toBe(80);
    } finally {
      await delayed.stop();
    }
  });

  it("refuseSets answers every SET with the chosen error and applies nothing", async () => {
    const ifIndex = lab.model.port(1).ifIndex;
    const before = lab.model.alias(ifIndex);
    for (const [name, status] of [
      ["noAccess", ErrorStatus.NoAccess],
      ["genErr", ErrorStatus.GeneralError],
    ] as const) {
      lab.faults.refuseSets = name;
      const err = await rejection(
        rw.set([{ oid: `${ifXTable.ifAlias}.${ifIndex}`, type: ObjectType.OctetString, value: "refused" }]),
      );
      expect(err.status).toBe(status);
      expect(lab.model.alias(ifIndex)).toBe(before);
    }
    lab.faults.refuseSets = false;
    await rw.set([{ oid: `${ifXTable.ifAlias}.${ifIndex}`, type: ObjectType.OctetString, value: "accepted" }]);
    expect(lab.model.alias(ifIndex)).toBe("accepted");
  });

  const aliasOf = (n: number) => `${ifXTable.ifAlias}.${lab.model.port(n).ifIndex}`;
  const setAlias = (n: number, text: string) =>
    rw.set([{ oid: aliasOf(n), type: ObjectType.OctetString, value: text }]);

  it("refuseSetsMatching refuses only SETs under the prefix, at the first such varbind, applying nothing of them", async () => {
    const port1 = lab.model.port(1).ifIndex;
    const before = lab.model.alias(port1);
    lab.faults.refuseSetsMatching(aliasOf(2), "commitFailed");
    const err = await rejection(
      rw.set([
        { oid: aliasOf(1), type: ObjectType.OctetString, value: "first" },
        { oid: aliasOf(2), type: ObjectType.OctetString, value: "second" },
      ]),
    );
    expect(err.status).toBe(ErrorStatus.CommitFailed);
    expect(err.message).toContain(aliasOf(2)); // error-index 2
    expect(lab.model.alias(port1)).toBe(before);
    // other objects are written as usual
    await setAlias(1, "not refused");
    expect(lab.model.alias(port1)).toBe("not refused");
  });

  it("refuseSetsMatching compares whole sub-identifiers: ifAlias.100 does not cover ifAlias.1001", async () => {
    expect(lab.model.port(1).ifIndex).toBe(1001);
    lab.faults.refuseSetsMatching(`${ifXTable.ifAlias}.100`, "genErr");
    await setAlias(1, "covered? no");
    expect(lab.model.alias(1001)).toBe("covered? no");
  });

  it("refuseNthSet refuses the n-th SET from now; calls add up; reset() clears them", async () => {
    lab.faults.refuseNthSet(2, "inconsistentValue");
    lab.faults.refuseNthSet(3, "resourceUnavailable");
    await setAlias(3, "first");
    expect((await rejection(setAlias(3, "second"))).status).toBe(ErrorStatus.InconsistentValue);
    expect((await rejection(setAlias(3, "third"))).status).toBe(ErrorStatus.ResourceUnavailable);
    expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("first");
    await setAlias(3, "fourth");
    expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("fourth");

    lab.faults.refuseNthSet(1, "genErr");
    lab.faults.refuseSetsMatching(aliasOf(3), "genErr");
    lab.faults.reset();
    await setAlias(3, "after reset");
    expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("after reset");
  });

  it("refuseNthSet counts only SETs: reads in between do not move it", async () => {
    lab.faults.refuseNthSet(1, "genErr");
    await ro.get(["1.3.6.1.2.1.1.5.0"]);
    expect((await rejection(setAlias(4, "x"))).status).toBe(ErrorStatus.GeneralError);
  });

  it("refuses nonsense fault arguments", () => {
    expect(() => lab.faults.refuseNthSet(0, "genErr")).toThrow(RangeError);
    expect(() => lab.faults.refuseSetsMatching("1.3.x", "genErr")).toThrow();
    // "noError" is no refusal: the types refuse it, and so does the lab for a caller without them
    // @ts-expect-error -- the argument is wrong on purpose
    expect(() => lab.faults.refuseSetsMatching(aliasOf(1), "noError")).toThrow(RangeError);
  });

  it("lieOnSet: the SET answers noError but reads back the old value", async () => {
    const p = lab.model.ethernetPorts.find((i) => lab.model.adminUp(i.ifIndex))!;
    lab.faults.lieOnSet = true;
    await expect(
      rw.set([{ oid: `${ifTable.ifAdminStatus}.${p.ifIndex}`, type: ObjectType.Integer, value: 2 }]),
    ).resolves.toHaveLength(1);
    const [admin] = await ro.get([`${ifTable.ifAdminStatus}.${p.ifIndex}`]);
    expect(admin.value).toBe(1);
  });

  it("setAnswerDelayMs: a SET is applied at once and answered later; reads are not held", async () => {
    lab.faults.setAnswerDelayMs = 150;
    const slow = sessionTo(lab, { write: true, timeoutMs: 1000 });
    try {
      const t0 = Date.now();
      const set = slow.set([{ oid: aliasOf(3), type: ObjectType.OctetString, value: "slow change" }]);
      // while the SET's answer is held, the device already shows the change
      for (let i = 0; i < 100 && lab.counters.byType.set === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(lab.model.alias(lab.model.port(3).ifIndex)).toBe("slow change");
      const [alias] = await ro.get([aliasOf(3)]);
      expect(String(alias.value)).toBe("slow change");
      expect(Date.now() - t0).toBeLessThan(150);
      await set;
      expect(Date.now() - t0).toBeGreaterThanOrEqual(145);
    } finally {
      slow.close();
    }
  });

  it("restart: uptime starts again and the agent keeps answering", async () => {
    const [before] = await ro.get(["1.3.6.1.2.1.1.3.0"]);
    lab.faults.restart();
    const [after] = await ro.get(["1.3.6.1.2.1.1.3.0"]);
    expect(before.value as number).toBeGreaterThan(after.value as number);
    expect(after.value as number).toBeLessThan(500);
  });

  it("counts requests by type and the values answered", async () => {
    await ro.get(["1.3.6.1.2.1.1.5.0", "1.3.6.1.2.1.1.1.0"]);
    await ro.getNext(["1.3.6.1.2.1.1"]);
    await ro.getBulk(["1.3.6.1.2.1.2.2.1.2"], 0, 10);
    await rw.set([
      { oid: `${ifXTable.ifAlias}.${lab.model.port(2).ifIndex}`, type: ObjectType.OctetString, value: "n" },
    ]);
    expect(lab.counters).toMatchObject({
      requests: 4,
      responses: 4,
      values: 2 + 1 + 10 + 1,
      byType: { get: 1, getNext: 1, getBulk: 1, set: 1, other: 0 },
    });
  });
});

describe("SNMPv3 session across a restart", () => {
  it("the old session gets a notInTimeWindow report and re-synchronises in one extra round trip", async () => {
    const user = {
      username: "u",
      authProtocol: "SHA-256",
      authKey: "authkey-123",
      privProtocol: "AES",
      privKey: "privkey-123",
    } as const;
    const lab = await startLabSwitch({ v3: user });
    const s = openSession(lab.port, { v3: user });
    try {
      await s.get(["1.3.6.1.2.1.1.5.0"]);
      lab.faults.restart();
      lab.counters.reset();
      const [up] = await s.get(["1.3.6.1.2.1.1.3.0"]);
      expect(up.value as number).toBeLessThan(500);
      // the report, then the answer to the repeated request
      expect(lab.counters).toMatchObject({ requests: 2, responses: 2, byType: { get: 1 } });
    } finally {
      s.close();
      await lab.stop();
    }
  });
});
