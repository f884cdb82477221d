/**
 * Trunk changes of the comware SNMP driver against the comware lab profile over real
 * UDP: an access port made a trunk in one SET (link type, PVID, allow lists; a Comware
 * trunk starts on PVID 1 with VLAN 1 only, so nothing may come between), the steps where
 * the agent refuses that PDU, everything put back when a step fails, a trunk made an
 * access port with the access VLAN's port list, and hybrid ports left alone.
 */
import { hh3cIf } from "../../mib/comware";
import { qbridge } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import type { LabInterface } from "../../lab/model";
import type { Driver } from "../../drivers/contract";
import { comware } from "../../drivers/families/comware";
import { allowList } from "../../drivers/families/comware/trunk";
import type { TagChange } from "../../model/device";
import { DeviceRefused, NotSupported } from "../../model/failures";
import { expectedInterface } from "../support/lab-expectations";
import { ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { vb } from "./lab-vendor-helpers";

describe("comware SNMP driver: trunk changes", () => {
  let lab: LabSwitch;
  let ro: ClientSession;
  const open: Driver[] = [];

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "comware", ports: 24, seed: 8 });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    ro.close();
    await lab.stop();
  });

  const driver = () => {
    const d = comware.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, {});
    open.push(d);
    return d;
  };
  const setTags = async (i: LabInterface, change: TagChange) => {
    const d = driver();
    await d.setTags((await d.learnInterface(String(i.ifIndex)))!, change);
  };
  const tags = (i: LabInterface) => {
    const e = expectedInterface(lab.model, i, "");
    return { untagged: e.untagged_vlan, tagged: e.tagged_vlans };
  };
  const accessPorts = () => lab.model.ethernetPorts.filter((i) => !lab.model.running.portModes.has(i.bridgePort!));
  const sets = () => lab.counters.byType.set;

  test("an access port becomes a trunk in one SET, keeping its VLAN as native; the allow list reads what was asked", async () => {
    const li = accessPorts()[0];
    const home = tags(li).untagged;
    const [a, b] = lab.model.activeVlanIds().filter((v) => v !== home && v !== 1);
    const before = sets();
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    expect(sets() - before).toBe(1);
    expect(tags(li)).toEqual({ untagged: home, tagged: [a, b] });
    const [type, pvid, low] = await ro.get([
      `${hh3cIf.hh3cifVLANType}.${li.ifIndex}`,
      `${qbridge.dot1qPvid}.${li.bridgePort}`,
      `${hh3cIf.hh3cifVLANTrunkAllowListLow}.${li.ifIndex}`,
    ]);
    expect([type.value, pvid.value, low.value]).toEqual([1, home, allowList(new Set([home, a, b]), 1)]);
  });

  test("an agent refusing the one PDU gets the steps (link type, PVID, allow lists), with the same result", async () => {
    const li = accessPorts()[1];
    const home = tags(li).untagged;
    const [a] = lab.model.activeVlanIds().filter((v) => v !== home);
    const before = sets();
    lab.faults.refuseNthSet(1, "inconsistentValue");
    await setTags(li, { untagged: home, tagged: [a], allowAll: false });
    expect(sets() - before).toBe(4);
    expect(tags(li)).toEqual({ untagged: home, tagged: [a] });
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  test("the allow list step refused: the port is an access port on its VLAN again, and the error says so", async () => {
    const li = accessPorts()[2];
    const before = tags(li);
    const [a] = lab.model.activeVlanIds().filter((v) => v !== before.untagged);
    lab.faults.refuseSetsMatching(hh3cIf.hh3cifVLANTrunkAllowListLow, "commitFailed");
    const failure = setTags(li, { untagged: before.untagged, tagged: [a], allowAll: false });
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(
      /setting the permitted VLANs failed.*commitFailed.*the earlier values were restored/,
    );
    expect(tags(li)).toEqual(before);
    expect(lab.model.running.portModes.has(li.bridgePort!)).toBe(false);
  });

  test("a trunk made an access port: link type and the access VLAN's port list in one SET", async () => {
    const li = accessPorts()[3];
    const home = tags(li).untagged;
    const [a, b] = lab.model.activeVlanIds().filter((v) => v !== home);
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    const before = sets();
    await setTags(li, { untagged: b, tagged: [], allowAll: false });
    expect(sets() - before).toBe(1);
    expect(tags(li)).toEqual({ untagged: b, tagged: [] });
    expect((await ro.get([`${hh3cIf.hh3cifVLANType}.${li.ifIndex}`]))[0].value).toBe(2);
  });

  test("a hybrid port is not changed (not_supported), and nothing is written", async () => {
    const li = accessPorts()[4];
    const rw = sessionTo(lab, { write: true });
    try {
      await rw.set([vb(`${hh3cIf.hh3cifVLANType}.${li.ifIndex}`, T.Integer, 3)]);
    } finally {
      rw.close();
    }
    const before = sets();
    const home = tags(li).untagged;
    const [a] = lab.model.activeVlanIds().filter((v) => v !== home);
    await expect(setTags(li, { untagged: home, tagged: [a], allowAll: false })).rejects.toBeInstanceOf(NotSupported);
    expect(sets()).toBe(before);
  });
});
