/**
 * What is particular to SNMP, against the lab (the conformance suite covers what every
 * driver must do): driver choice by sysObjectID, request counts of the read plans,
 * Q-BRIDGE writes in one PDU, short GETBULK answers, and the wording of failures.
 */
import { startLabSwitch, type LabSwitch } from "../../lab";
import { openDriver } from "../../drivers/registry";
import { SnmpDriver } from "../../drivers/snmp/driver";
import { genericFamily } from "../../drivers/families/generic";
import { DeviceUnreachable } from "../../model/failures";
import { type SnmpTarget } from "../../model/targets";
import { expectedInterface } from "../support/lab-expectations";

/** short timeouts: the fault tests wait for them */
function target(lab: LabSwitch, version: "2c" | "3" = "2c"): SnmpTarget {
  return { ...lab.snmpTarget({ version, write: true }), timeout_ms: 300, retries: 1 };
}

/**
 * A patient target for the tests that count requests or that the lab answers: on a
 * loaded machine an answer can take longer than the fault tests' 300 ms, and a retry
 * would be counted as a request or a late answer taken for a fault.
 */
function counted(lab: LabSwitch): SnmpTarget {
  return { ...target(lab), timeout_ms: 10_000 };
}

describe("SNMP specifics against the lab", () => {
  let generic48: LabSwitch;
  let cbs: LabSwitch;

  beforeAll(async () => {
    generic48 = await startLabSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 3 });
    cbs = await startLabSwitch({ profile: "ciscosb", ports: 24, seed: 3 });
  });
  afterAll(async () => {
    await Promise.all([generic48?.stop(), cbs?.stop()]);
  });
  afterEach(() => {
    for (const lab of [generic48, cbs]) {
      lab.faults.reset();
      lab.counters.reset();
    }
  });

  test("auto picks the driver by enterprise with one GET, and keeps using its session", async () => {
    const d = await openDriver({ driver: "auto", connection: { connector: 0, snmp: counted(cbs) } }).then(
      (o) => o.driver,
    );
    try {
      expect(d.info.driver).toBe("ciscosb");
      expect(d.can.save_config).toBe(true);
      expect(cbs.counters.byType).toMatchObject({ get: 1, getBulk: 0, set: 0 });
    } finally {
      await d.close();
    }
    const g = await openDriver({ driver: "auto", connection: { connector: 0, snmp: counted(generic48) } }).then(
      (o) => o.driver,
    );
    try {
      expect(g.info.driver).toBe("generic");
      expect(g.can.save_config).toBe(false);
    } finally {
      await g.close();
    }
  });

  test("a 48-port basic learn walks the tables indexed alike together, four requests at a time", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      await d.learn("basic");
      // 8 requests: the system GET; ifTable with dot3StatsTable (by ifIndex) in one
      // GETBULK; ifXTable; the bridge port map with the PVIDs (by bridge port) in one; the
      // static and current VLAN tables in one; IP addresses; the PoE ports; the PoE
      // supplies. Each ends within its first answer on a 48-port switch; the gate lets 4
      // run at once, so 8 requests take 2 round trips.
      expect(d.counters.requests).toBe(8);
      expect(d.counters.roundTrips).toBe(2);
      expect(generic48.counters.requests).toBe(8);
    } finally {
      await d.close();
    }
  });

  test("a write's check reads only the interface's row and the tables its checks need", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const view = await d.learnInterface(String(generic48.model.port(5).ifIndex));
      expect(view?.interface.name).toBe(generic48.model.port(5).name);
      expect(view?.interface.untagged_vlan).toBe(generic48.model.pvid(generic48.model.port(5).bridgePort!));
      // the row GET; bridge ports with the PVIDs; VLAN static + current; IP addresses; PoE
      // ports: 5 requests, 4 at a time, and no second read of the PVID whatever the
      // interface's bridge port (on this profile bridge port != ifIndex)
      expect(d.counters.requests).toBe(5);
      expect(d.counters.roundTrips).toBe(2);
      expect(generic48.counters.byType).toMatchObject({ get: 1, getBulk: 4, set: 0 });
    } finally {
      await d.close();
    }
  });

  test("an untagged VLAN change is one SET PDU and one read-back", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const li = generic48.model.port(6);
      const from = generic48.model.pvid(li.bridgePort!)!;
      const to = generic48.model.activeVlanIds().find((v) => v !== from)!;
      generic48.counters.reset();
      await d.setUntaggedVlan((await d.learnInterface(String(li.ifIndex)))!, to);
      expect(generic48.counters.byType.set).toBe(1);
      expect(generic48.model.pvid(li.bridgePort!)).toBe(to);
      expect(generic48.model.consistencyProblems()).toEqual([]);
    } finally {
      await d.close();
    }
  });

  test("short GETBULK answers (an agent capping at 64 values) still give the whole table", async () => {
    const capped = await startLabSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 3, maxBulkValues: 64 });
    const d = new SnmpDriver(genericFamily, counted(capped));
    try {
      const snap = await d.learn("details");
      const model = capped.model;
      expect(snap.interfaces.map((i) => [i.id, i.name, i.untagged_vlan, i.tagged_vlans, i.macs.length])).toEqual(
        model.interfaces.map((li) => {
          const e = expectedInterface(model, li, String(li.ifIndex));
          const macs = model.fdb.filter((f) => li.bridgePort !== null && f.bridgePort === li.bridgePort).length;
          return [e.id, e.name, e.untagged_vlan, e.tagged_vlans, macs];
        }),
      );
      expect(snap.vlans.map((v) => v.id)).toEqual(model.vlanIds());
      // the cap really cut answers short: more than one request per table was needed
      expect(d.counters.requests).toBeGreaterThan(20);
    } finally {
      await d.close();
      await capped.stop();
    }
  });

  test("a timeout names the device, its address, what was being read and the tries", async () => {
    const d = new SnmpDriver(genericFamily, target(generic48), { name: "access-48" });
    try {
      generic48.faults.drop = true;
      await expect(d.learnVlans()).rejects.toThrow(
        new RegExp(
          `^No answer from access-48 \\(127\\.0\\.0\\.1:${generic48.port}\\) while reading dot1qVlan\\w+Table(, dot1qVlan\\w+Table)* \\(timeout after 2 tries\\)$`,
        ),
      );
    } finally {
      await d.close();
    }
  });

  test("an unreachable device fails the auto probe with DeviceUnreachable", async () => {
    generic48.faults.drop = true;
    const failure = openDriver({
      driver: "auto",
      connection: { connector: 0, snmp: target(generic48) },
      name: "access-48",
    }).then((o) => o.driver);
    await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
    await expect(failure).rejects.toThrow(/while reading sysObjectID\.0/);
  });

  test("a refused set names the object and the error-status", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const ifIndex = generic48.model.port(9).ifIndex;
      generic48.faults.refuseSets = "noAccess";
      await expect(d.setDescription((await d.learnInterface(String(ifIndex)))!, "x")).rejects.toThrow(
        `127.0.0.1:${generic48.port} refused setting ifAlias.${ifIndex}: noAccess`,
      );
    } finally {
      await d.close();
    }
  });

  test("a set that reads back different says what was written and what the device reports", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const ifIndex = generic48.model.port(10).ifIndex;
      const before = generic48.model.alias(ifIndex);
      generic48.faults.lieOnSet = true;
      await expect(d.setDescription((await d.learnInterface(String(ifIndex)))!, "new text")).rejects.toThrow(
        `ifAlias.${ifIndex}: wrote 'new text', device reports '${before}'`,
      );
    } finally {
      await d.close();
    }
  });

  test("a VLAN change refused for consistency is tried step by step, and the error says nothing changed", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const li = generic48.model.port(12);
      const before = generic48.model.pvid(li.bridgePort!)!;
      const to = generic48.model.activeVlanIds().find((v) => v !== before)!;
      generic48.faults.refuseSets = "inconsistentValue";
      generic48.counters.reset();
      await expect(d.setUntaggedVlan((await d.learnInterface(String(li.ifIndex)))!, to)).rejects.toThrow(
        /inconsistentValue.*trying step by step, adding port \d+ to vlan \d+ failed: .*inconsistentValue.*; nothing was changed$/,
      );
      // the combined PDU, then the first step
      expect(generic48.counters.byType.set).toBe(2);
      expect(generic48.model.pvid(li.bridgePort!)).toBe(before);
    } finally {
      await d.close();
    }
  });

  test("the device refusing a VLAN that does not exist leaves the port as it was", async () => {
    const d = new SnmpDriver(genericFamily, counted(generic48));
    try {
      const li = generic48.model.port(11);
      const before = generic48.model.pvid(li.bridgePort!);
      await expect(d.setUntaggedVlan((await d.learnInterface(String(li.ifIndex)))!, 3999)).rejects.toMatchObject({
        code: "device_refused",
      });
      expect(generic48.model.pvid(li.bridgePort!)).toBe(before);
      expect(generic48.model.consistencyProblems()).toEqual([]);
    } finally {
      await d.close();
    }
  });
});
