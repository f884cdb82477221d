/**
 * Trunk changes over the IOS command line (CiscoIosCliDriver.setTags) against the lab's
 * SSH face on the cisco profile (real ssh2 over TCP): the lines reach the device in the
 * order that never cuts the port off (a port's trunk settings before `switchport mode
 * trunk`, its access VLAN before `switchport mode access`, `add` before any line that
 * drops VLANs from a live trunk), long lists go out in pieces, and the face keeps and
 * shows what IOS keeps (`show interfaces <if> switchport`).
 */
import { CiscoIosCliDriver } from "../../drivers/families/cisco-ios-cli/driver";
import { IOS_VLAN_LIST_CHARS } from "../../drivers/families/cisco-ios-cli/commands";
import { iosInterfaceName, startLabSshFace, startLabSwitch, type LabSshFace, type LabSwitch } from "../../lab";
import type { LabInterface } from "../../lab/model";
import { switchportOf } from "../../lab/config";
import type { InterfaceView, TagChange } from "../../model/device";
import { DeviceMismatch } from "../../model/failures";
import { expectedInterface } from "../support/lab-expectations";

describe("trunk changes over the IOS command line (cisco profile)", () => {
  let lab: LabSwitch;
  let face: LabSshFace;
  const open: CiscoIosCliDriver[] = [];

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 5, name: "ios-trunks" });
    face = await startLabSshFace(lab);
  });
  afterEach(async () => {
    face.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await face?.stop();
    await lab?.stop();
  });

  const driver = () => {
    const d = new CiscoIosCliDriver(
      { ...face.sshTarget(), command_timeout_ms: 1000, connect_timeout_ms: 1500 },
      { name: "ios-trunks" },
    );
    open.push(d);
    return d;
  };
  const view = async (d: CiscoIosCliDriver, i: LabInterface): Promise<InterfaceView> =>
    (await d.learnInterface(iosInterfaceName(i)))!;
  const setTags = async (i: LabInterface, change: TagChange) => {
    const d = driver();
    await d.setTags(await view(d, i), change);
  };
  const tags = (i: LabInterface) => {
    const e = expectedInterface(lab.model, i, "");
    return { untagged: e.untagged_vlan, tagged: e.tagged_vlans };
  };
  const accessPorts = () =>
    lab.model.ethernetPorts.slice(0, -1).filter((i) => !lab.model.running.portModes.has(i.bridgePort!));
  /** the configuration lines of the last change (after "interface ...") */
  const sent = (from: number) =>
    face.counters.log.slice(from).filter((l) => /^(switchport|no switchport|interface )/.test(l));
  /** what `show interfaces <if> switchport` prints for the port */
  const show = async (i: LabInterface) =>
    (await driver().connect()).run(`show interfaces ${iosInterfaceName(i)} switchport`);

  test("an access port becomes a trunk: native VLAN and allowed list first, `switchport mode trunk` last", async () => {
    const li = accessPorts()[0];
    const home = tags(li).untagged;
    const [a, b] = lab.model.activeVlanIds().filter((v) => v !== home);
    const from = face.counters.log.length;
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    expect(sent(from)).toEqual([
      `interface ${iosInterfaceName(li)}`,
      `switchport trunk native vlan ${home}`,
      `switchport trunk allowed vlan ${[a, b, home].sort((x, y) => x - y).join(",")}`,
      "switchport mode trunk",
    ]);
    expect(tags(li)).toEqual({ untagged: home, tagged: [a, b] });
    const text = await show(li);
    expect(text).toContain("Administrative Mode: trunk");
    expect(text).toContain(`Trunking Native Mode VLAN: ${home} (`);
    // the access VLAN stays configured for when the port is an access port again
    expect(text).toContain(`Access Mode VLAN: ${home} (`);
  });

  test("a live trunk: new VLANs added first, then the native VLAN, then the list that drops the rest", async () => {
    const li = accessPorts()[1];
    const home = tags(li).untagged;
    const [a, b, c] = lab.model.activeVlanIds().filter((v) => v !== home);
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    const from = face.counters.log.length;
    await setTags(li, { untagged: a, tagged: [b, c].sort((x, y) => x - y), allowAll: false });
    expect(sent(from)).toEqual([
      `interface ${iosInterfaceName(li)}`,
      `switchport trunk allowed vlan add ${c}`,
      `switchport trunk native vlan ${a}`,
      `switchport trunk allowed vlan ${[a, b, c].sort((x, y) => x - y).join(",")}`,
    ]);
    expect(tags(li)).toEqual({ untagged: a, tagged: [b, c].sort((x, y) => x - y) });
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  test("a trunk made an access port: `switchport access vlan` before `switchport mode access`", async () => {
    const li = accessPorts()[2];
    const home = tags(li).untagged;
    const [a] = lab.model.activeVlanIds().filter((v) => v !== home);
    await setTags(li, { untagged: home, tagged: [a], allowAll: false });
    const from = face.counters.log.length;
    await setTags(li, { untagged: a, tagged: [], allowAll: false });
    expect(sent(from)).toEqual([
      `interface ${iosInterfaceName(li)}`,
      `switchport access vlan ${a}`,
      "switchport mode access",
    ]);
    expect(tags(li)).toEqual({ untagged: a, tagged: [] });
    // the trunk settings stay configured, as IOS keeps them
    expect(await show(li)).toMatch(/Administrative Mode: static access[\s\S]*Trunking Native Mode VLAN: \d+/);
  });

  test("allow all: `switchport trunk allowed vlan all`, shown as ALL, and a VLAN created later is carried", async () => {
    const li = accessPorts()[3];
    const home = tags(li).untagged;
    await setTags(li, { untagged: home, tagged: [], allowAll: true });
    expect(switchportOf(lab.model.running, li.bridgePort!).allowed).toBe("all");
    expect(await show(li)).toContain("Trunking VLANs Enabled: ALL");
    await driver().createVlan(3210, "later");
    expect(tags(li).tagged).toContain(3210);
    await driver().deleteVlan(3210);
  });

  test("a long allowed list goes out as a first line and `add` lines, each within the length limit, and reads back", async () => {
    const li = accessPorts()[4];
    const home = tags(li).untagged;
    // every other id: no ranges to shorten the list
    const many = Array.from({ length: 120 }, (_, k) => 2000 + 2 * k);
    lab.model.update((cfg) => {
      for (const id of many)
        cfg.vlans.set(id, { name: `v${id}`, active: true, egress: new Set(), untagged: new Set() });
    });
    const from = face.counters.log.length;
    await setTags(li, { untagged: home, tagged: many, allowAll: false });
    const lines = sent(from).filter((l) => l.startsWith("switchport trunk allowed vlan"));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(1).every((l) => l.startsWith("switchport trunk allowed vlan add "))).toBe(true);
    for (const l of lines)
      expect(l.replace(/^switchport trunk allowed vlan (add )?/, "").length).toBeLessThanOrEqual(IOS_VLAN_LIST_CHARS);
    expect(tags(li)).toEqual({ untagged: home, tagged: many });
  });

  test("a change the device answers but does not make is DeviceMismatch naming what it shows", async () => {
    const li = accessPorts()[5];
    const before = tags(li);
    const d = driver();
    const v = await view(d, li);
    face.faults.lieOnWrite = true;
    const [a] = lab.model.activeVlanIds().filter((x) => x !== before.untagged);
    const failure = d.setTags(v, { untagged: before.untagged, tagged: [a], allowAll: false });
    await expect(failure).rejects.toBeInstanceOf(DeviceMismatch);
    await expect(failure).rejects.toThrow(/device reports static access/);
    expect(tags(li)).toEqual(before);
  });
});
