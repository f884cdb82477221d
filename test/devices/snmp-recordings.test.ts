/**
 * The generic SNMP driver against an agent no one here wrote: Debian's snmpsimd serving
 * recordings of real switches (fixtures beside the project, never copied into it). What
 * the snapshot must hold is read from the recording files in this test.
 */
import { SnmpDriver } from "../../drivers/snmp/driver";
import { genericFamily } from "../../drivers/families/generic";
import { DeviceUnreachable } from "../../model/failures";
import { type DeviceSnapshot } from "../../model/device";
import { type SnmpTarget } from "../../model/targets";
import {
  describeRecordings,
  factsOf,
  RECORDINGS,
  recordingFiles as files,
  startSnmpsim,
  V3,
  V3_AES192,
  type Facts,
  type Snmpsim,
} from "../support/snmpsim";

describeRecordings("generic SNMP driver against snmpsimd serving real recordings", () => {
  let sim: Snmpsim;
  let port = 0;
  const target = (community: string, extra: Partial<SnmpTarget> = {}): SnmpTarget => sim.target(community, extra);

  beforeAll(async () => {
    sim = await startSnmpsim();
    port = sim.port;
  }, 30000);

  afterAll(async () => {
    await sim?.stop();
  });

  function checkBasic(snap: DeviceSnapshot, facts: Facts) {
    expect(snap.hostname).toBe(facts.sysName);
    expect(snap.driver_info.sysObjectID).toBe(facts.sysObjectID);

    // every recorded interface, in natural order of ifIndex, with its recorded name
    const expectedIds = [...facts.interfaces.keys()].sort((a, b) => a - b).map(String);
    expect(snap.interfaces.map((i) => i.id)).toEqual(expectedIds);
    for (const iface of snap.interfaces) expect(iface.name).toBe(facts.interfaces.get(Number(iface.id)));

    expect(snap.vlans.map((v) => v.id)).toEqual([...facts.vlans.keys()].sort((a, b) => a - b));
    for (const vlan of snap.vlans) expect(vlan.name).toBe(facts.vlans.get(vlan.id));

    for (const [ifIndex, pvid] of facts.pvids) {
      const iface = snap.interfaces.find((i) => i.id === String(ifIndex))!;
      expect({ ifIndex, pvid: iface.untagged_vlan }).toEqual({ ifIndex, pvid });
      // every recorded PVID is a recorded VLAN, so no port may be flagged unusable
      expect(iface.disabled_reason).toBeUndefined();
    }
    for (const iface of snap.interfaces) {
      expect({ id: iface.id, routed: iface.routed }).toEqual({
        id: iface.id,
        routed: facts.routed.has(Number(iface.id)),
      });
      const poe = facts.poe.get(Number(iface.id));
      expect({ id: iface.id, poe: iface.poe?.admin_status ?? null }).toEqual({
        id: iface.id,
        poe: poe === undefined ? null : poe ? "Enabled" : "Disabled",
      });
    }
    expect(snap.poe === null).toBe(facts.poe.size === 0);
  }

  test.each(RECORDINGS)("basic view of %s lists its ports, VLANs and PoE", async (name) => {
    const facts = factsOf(files[RECORDINGS.indexOf(name)]!);
    const driver = new SnmpDriver(genericFamily, target(name));
    try {
      const snap = await driver.learn("basic");
      checkBasic(snap, facts);
      for (const iface of snap.interfaces) expect(iface.macs).toEqual([]);
    } finally {
      await driver.close();
    }
  });

  test.each(RECORDINGS)("details of %s attach the recorded MACs and LLDP neighbours to their ports", async (name) => {
    const facts = factsOf(files[RECORDINGS.indexOf(name)]!);
    const driver = new SnmpDriver(genericFamily, target(name));
    try {
      const snap = await driver.learn("details");
      checkBasic(snap, facts);
      for (const iface of snap.interfaces) {
        const ifIndex = Number(iface.id);
        expect({ id: iface.id, macs: iface.macs.map((m) => m.address).sort() }).toEqual({
          id: iface.id,
          macs: [...(facts.macs.get(ifIndex) ?? [])].sort(),
        });
        expect({ id: iface.id, chassis: iface.neighbors.map((n) => n.chassis_id).sort() }).toEqual({
          id: iface.id,
          chassis: [...(facts.neighbors.get(ifIndex) ?? [])].sort(),
        });
      }
      expect([...facts.neighbors.keys()].length).toBeGreaterThan(0);
    } finally {
      await driver.close();
    }
  });

  test.each(RECORDINGS)(
    "what a write checks on %s (one interface, the VLAN list) agrees with a full learn",
    async (name) => {
      const driver = new SnmpDriver(genericFamily, target(name));
      try {
        const full = await driver.learn("basic");
        expect(await driver.learnVlans()).toEqual(full.vlans);
        const ports = full.interfaces.filter((i) => i.kind === "ethernet");
        for (const iface of [ports[0], ports[ports.length - 1]]) {
          expect(await driver.learnInterface(iface.id)).toEqual({
            interface: iface,
            vlans: full.vlans,
            driverContext: expect.anything(),
          });
        }
      } finally {
        await driver.close();
      }
    },
  );

  test("a write to read-only recorded data is not reported as success", async () => {
    const driver = new SnmpDriver(genericFamily, target("linksys-ss_lgs318p"));
    try {
      // snmpsimd answers SETs on recorded data without applying them: the read-back must catch it
      await expect(
        driver.setDescription((await driver.learnInterface("49"))!, "switchdesk was here"),
      ).rejects.toMatchObject({
        code: expect.stringMatching(/^device_(refused|mismatch)$/),
      });
    } finally {
      await driver.close();
    }
  });

  test.each([
    ["AES-256 with SHA-256", V3],
    ["AES-192 with SHA-512", V3_AES192],
  ])("SNMPv3 authPriv %s works against a third-party agent", async (_label, user) => {
    const facts = factsOf(files[1]!);
    const driver = new SnmpDriver(
      genericFamily,
      target("", { version: "3", community: undefined, ...user, context: RECORDINGS[1] }),
    );
    try {
      checkBasic(await driver.learn("basic"), facts);
    } finally {
      await driver.close();
    }
  });

  test("SNMPv3 with a wrong privacy key is reported as unreachable, naming the device", async () => {
    const driver = new SnmpDriver(
      genericFamily,
      target("", { version: "3", ...V3, priv_key: "not-the-key", context: RECORDINGS[1], timeout_ms: 300, retries: 0 }),
    );
    try {
      const failure = driver.learn("basic");
      await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
      await expect(failure).rejects.toThrow(`127.0.0.1:${port}`);
    } finally {
      await driver.close();
    }
  });
});
