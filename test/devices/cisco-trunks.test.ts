/**
 * Trunk changes of the cisco SNMP driver against the cisco lab profile over real UDP:
 * one SET PDU where the agent takes it (native VLAN and allowed bitmaps with the serial
 * number, mode on last; mode off with vmVlan), the same change in steps where the agent
 * refuses the PDU, everything put back when a step fails, the 2k..4k bitmaps for VLANs
 * from 1024 up, and a stale vlanTrunkPortSetSerialNo refusing the change.
 */
import { vlanMembership, vtp } from "../../mib/cisco";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { switchportOf } from "../../lab/config";
import type { LabInterface } from "../../lab/model";
import type { Driver } from "../../drivers/contract";
import { cisco } from "../../drivers/families/cisco";
import type { TagChange } from "../../model/device";
import { DeviceRefused } from "../../model/failures";
import { expectedInterface } from "../support/lab-expectations";
import { ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { vb } from "./lab-vendor-helpers";

describe("cisco SNMP driver: trunk changes", () => {
  let lab: LabSwitch;
  let ro: ClientSession;
  const open: Driver[] = [];

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 13 });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    ro.close();
    await lab.stop();
  });

  const driver = () => {
    const d = cisco.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, {});
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
  const access = () => lab.model.ethernetPorts.find((i) => !lab.model.running.portModes.has(i.bridgePort!))!;
  const trunk = () => lab.model.ethernetPorts.find((i) => lab.model.running.portModes.has(i.bridgePort!))!;
  const serial = async () => (await ro.get([`${vtp.vlanTrunkPortSetSerialNo}.0`]))[0].value as number;
  const sets = () => lab.counters.byType.set;

  test("an access port becomes a trunk in one SET; the serial number moves on by one", async () => {
    const li = access();
    const home = tags(li).untagged;
    const [a, b] = lab.model.activeVlanIds().filter((v) => v !== home);
    const [setsBefore, serialBefore] = [sets(), await serial()];
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    expect(sets() - setsBefore).toBe(1);
    expect(await serial()).toBe(serialBefore + 1);
    expect(tags(li)).toEqual({ untagged: home, tagged: [a, b] });
    const [mode, vm] = await ro.get([
      `${vtp.vlanTrunkPortDynamicState}.${li.ifIndex}`,
      `${vlanMembership.vmVlan}.${li.ifIndex}`,
    ]);
    expect([mode.value, vm.type]).toEqual([1, T.NoSuchInstance]);
  });

  test("an agent refusing the one PDU gets the steps (native, allowed, mode), with the same result", async () => {
    const li = access();
    const home = tags(li).untagged;
    const [a] = lab.model.activeVlanIds().filter((v) => v !== home);
    const before = sets();
    lab.faults.refuseNthSet(1, "inconsistentValue");
    // native changes too: three steps
    await setTags(li, { untagged: a, tagged: [home], allowAll: false });
    expect(sets() - before).toBe(4);
    expect(tags(li)).toEqual({ untagged: a, tagged: [home] });
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  test("a live trunk whose one PDU is refused: the old native VLAN stays allowed until the new one is native (three steps)", async () => {
    const li = access();
    const home = tags(li).untagged;
    const [a, b, c] = lab.model.activeVlanIds().filter((v) => v !== home);
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    lab.faults.refuseNthSet(1, "inconsistentValue");
    // the last step (dropping the old native VLAN) refused too: what the steps did is put back
    lab.faults.refuseNthSet(4, "commitFailed");
    const failure = setTags(li, { untagged: a, tagged: [b, c], allowAll: false });
    await expect(failure).rejects.toThrow(
      /setting the allowed VLANs failed.*commitFailed.*the earlier values were restored/,
    );
    expect(tags(li)).toEqual({ untagged: home, tagged: [a, b] });
    // without the refusals of the steps: the same change goes through
    lab.faults.reset();
    lab.faults.refuseNthSet(1, "inconsistentValue");
    const start = sets();
    await setTags(li, { untagged: a, tagged: [b, c], allowAll: false });
    expect(sets() - start).toBe(4);
    expect(tags(li)).toEqual({ untagged: a, tagged: [b, c] });
  });

  test("the mode step refused: the native VLAN and allowed list go back, the port stays an access port", async () => {
    const li = access();
    const bp = li.bridgePort!;
    const before = tags(li);
    const settings = { ...switchportOf(lab.model.running, bp) };
    const [a] = lab.model.activeVlanIds().filter((v) => v !== before.untagged);
    lab.faults.refuseSetsMatching(vtp.vlanTrunkPortDynamicState, "commitFailed");
    const failure = setTags(li, { untagged: a, tagged: [before.untagged], allowAll: false });
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/making it a trunk failed.*commitFailed.*the earlier values were restored/);
    expect(tags(li)).toEqual(before);
    expect(switchportOf(lab.model.running, bp)).toEqual(settings);
    expect(lab.model.running.portModes.has(bp)).toBe(false);
  });

  test("VLANs from 1024 up are allowed through the 2k and 4k bitmaps", async () => {
    lab.model.update((cfg) => {
      for (const id of [1500, 3500])
        cfg.vlans.set(id, { name: `v${id}`, active: true, egress: new Set(), untagged: new Set() });
    });
    const li = access();
    const home = tags(li).untagged;
    await setTags(li, { untagged: home, tagged: [1500, 3500], allowAll: false });
    expect(tags(li)).toEqual({ untagged: home, tagged: [1500, 3500] });
    const [k2, k4] = await ro.get([
      `${vtp.vlanTrunkPortVlansEnabled2k}.${li.ifIndex}`,
      `${vtp.vlanTrunkPortVlansEnabled4k}.${li.ifIndex}`,
    ]);
    const bit = (b: Buffer, i: number) => (b[i >> 3] & (0x80 >> (i & 7))) !== 0;
    expect(bit(k2.value as Buffer, 1500 - 1024)).toBe(true);
    expect(bit(k4.value as Buffer, 3500 - 3072)).toBe(true);
  });

  test("a trunk made an access port again: mode off and vmVlan in one SET", async () => {
    const li = trunk();
    const [target] = lab.model.activeVlanIds().filter((v) => v !== tags(li).untagged);
    const before = sets();
    await setTags(li, { untagged: target, tagged: [], allowAll: false });
    expect(sets() - before).toBe(1);
    expect(tags(li)).toEqual({ untagged: target, tagged: [] });
    expect((await ro.get([`${vlanMembership.vmVlan}.${li.ifIndex}`]))[0].value).toBe(target);
  });

  test("another manager's trunk write since the read (vlanTrunkPortSetSerialNo moved on) refuses the change; nothing stays changed", async () => {
    const li = access();
    const before = tags(li);
    const d = driver();
    const view = (await d.learnInterface(String(li.ifIndex)))!;
    const rw = sessionTo(lab, { write: true });
    try {
      await rw.set([vb(`${vtp.vlanTrunkPortSetSerialNo}.0`, T.Integer, await serial())]);
    } finally {
      rw.close();
    }
    const [a] = lab.model.activeVlanIds().filter((v) => v !== before.untagged);
    const failure = d.setTags(view, { untagged: before.untagged, tagged: [a], allowAll: false });
    await expect(failure).rejects.toThrow(/inconsistentValue/);
    await expect(failure).rejects.toThrow(/restored|nothing was changed/);
    expect(tags(li)).toEqual(before);
  });
});
