/**
 * The trunk part of the conformance suite (Driver.setTags), run by a family's conformance
 * test beside runSubjects on the same subjects: on each lab subject whose driver claims
 * change_tags, a port is made a trunk, changed, allowed every VLAN and made an access
 * port again, through the driver as the service opens it, against the lab's SNMP or SSH
 * face; the lab's model must show each change (and stay consistent), the driver's own
 * read-back must agree, and a device that refuses or does not apply the change must give
 * DeviceRefused or DeviceMismatch with the port as it was. A driver without the
 * capability is an explicit skip, listed at the end like the suite's others.
 */
import type { LabSwitch } from "../../lab";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import type { Driver } from "../../drivers/contract";
import type { DriverEntry } from "../../drivers/entry";
import { FAMILIES } from "../../drivers/families";
import type { InterfaceView, TagChange } from "../../model/device";
import { DeviceMismatch, DeviceRefused } from "../../model/failures";
import type { LabFace, LabSubject, Subject } from "./conformance";
import { expectedInterface } from "./lab-expectations";

const skipped: string[] = [];

function entryOf(name: string): DriverEntry {
  const entry = FAMILIES.find((f) => f.name === name);
  if (!entry) throw new Error(`no registered driver '${name}'`);
  return entry;
}

/** the untagged and tagged VLANs the model gives a port */
function modelTags(model: VirtualSwitch, i: LabInterface) {
  const e = expectedInterface(model, i, "");
  return { untagged: e.untagged_vlan, tagged: e.tagged_vlans };
}

function trunkTests(subject: LabSubject): void {
  const entry = entryOf(subject.driver);
  const state: { lab?: LabSwitch; face?: LabFace } = {};
  const open: Driver[] = [];
  beforeAll(async () => {
    const { startLabSwitch } = await import("../../lab");
    state.lab = await startLabSwitch(subject.lab);
    state.face = await subject.face(state.lab);
  }, 20_000);
  afterEach(async () => {
    state.face?.faults.reset();
    state.lab?.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await state.face?.stop();
    await state.lab?.stop();
  });
  const model = () => state.lab!.model;
  const driver = (): Driver => {
    const d = entry.open(state.face!.connection, { name: state.lab!.options.name });
    open.push(d);
    return d;
  };
  const view = async (d: Driver, i: LabInterface): Promise<InterfaceView> => {
    const v = await d.learnInterface(subject.interfaceId(i));
    if (!v) throw new Error(`no interface ${subject.interfaceId(i)}`);
    return v;
  };
  /** setTags through a fresh driver on the view it learns, as one API call does */
  const setTags = async (i: LabInterface, change: TagChange) => {
    const d = driver();
    await d.setTags(await view(d, i), change);
  };
  /** an access port (no tagged VLANs) of the model; n-th of them */
  const accessPort = (n: number) => {
    const ports = model()
      .ethernetPorts.slice(0, -1)
      .filter((i) => modelTags(model(), i).tagged.length === 0);
    if (!ports[n]) throw new Error("the lab switch has too few access ports");
    return ports[n];
  };
  /** active VLANs other than `not`, ascending */
  const otherVlans = (...not: number[]) =>
    model()
      .activeVlanIds()
      .filter((v) => !not.includes(v));
  /** what the driver reads for the port: its untagged and tagged VLANs */
  const driverTags = async (i: LabInterface) => {
    const v = await view(driver(), i);
    return { untagged: v.interface.untagged_vlan, tagged: v.interface.tagged_vlans };
  };

  test("an access port becomes a trunk (native VLAN, tagged VLANs) and an access port again", async () => {
    const li = accessPort(0);
    const home = modelTags(model(), li).untagged;
    const tagged = otherVlans(home).slice(0, 2);
    expect(tagged.length).toBe(2);
    await setTags(li, { untagged: home, tagged, allowAll: false });
    expect(modelTags(model(), li)).toEqual({ untagged: home, tagged });
    expect(await driverTags(li)).toEqual({ untagged: home, tagged });
    expect(model().consistencyProblems()).toEqual([]);

    await setTags(li, { untagged: home, tagged: [], allowAll: false });
    expect(modelTags(model(), li)).toEqual({ untagged: home, tagged: [] });
    expect(await driverTags(li)).toEqual({ untagged: home, tagged: [] });
    expect(model().consistencyProblems()).toEqual([]);
  });

  test("a trunk gets another native VLAN and other tagged VLANs in one change; the old native VLAN goes", async () => {
    const li = accessPort(1);
    const home = modelTags(model(), li).untagged;
    const [a, b, c] = otherVlans(home);
    await setTags(li, { untagged: home, tagged: [a, b], allowAll: false });
    // the new native VLAN was tagged; the old one is not asked for any more
    await setTags(li, { untagged: a, tagged: [b, c].sort((x, y) => x - y), allowAll: false });
    const want = { untagged: a, tagged: [b, c].sort((x, y) => x - y) };
    expect(modelTags(model(), li)).toEqual(want);
    expect(await driverTags(li)).toEqual(want);
    expect(model().consistencyProblems()).toEqual([]);
    // an access port on another VLAN than the native one it was
    await setTags(li, { untagged: c, tagged: [], allowAll: false });
    expect(modelTags(model(), li)).toEqual({ untagged: c, tagged: [] });
  });

  // the SNMP families' views of one learn are held to their Q-BRIDGE tests (conformance.ts)
  if (entry.connector !== 0)
    test("the views of one learnInterfaces follow the writes (viewsFollowWrites): a port made a trunk moves its native VLAN through the same view, another port its VLAN", async () => {
      const [li, other] = [accessPort(2), accessPort(3)];
      const [home, otherHome] = [modelTags(model(), li).untagged, modelTags(model(), other).untagged];
      const [a, b] = otherVlans(home, otherHome);
      const d = driver();
      expect(d.viewsFollowWrites).toBe(true);
      const ids = [li, other].map((i) => subject.interfaceId(i));
      const views = await d.learnInterfaces(ids);
      const [v, w] = ids.map((id) => views.get(id)!);
      await d.setTags(v, { untagged: home, tagged: [a, b], allowAll: false });
      // a trunk's untagged VLAN is its native one: the view must know the port is a trunk now
      await d.setUntaggedVlan(v, a);
      expect(modelTags(model(), li).untagged).toBe(a);
      expect(modelTags(model(), li).tagged).toContain(b);
      await d.setUntaggedVlan(w, b);
      expect(modelTags(model(), other)).toEqual({ untagged: b, tagged: [] });
      // and back, through the same views
      await d.setTags(v, { untagged: home, tagged: [], allowAll: false });
      await d.setUntaggedVlan(w, otherHome);
      expect(modelTags(model(), li)).toEqual({ untagged: home, tagged: [] });
      expect(modelTags(model(), other)).toEqual({ untagged: otherHome, tagged: [] });
      expect(model().consistencyProblems()).toEqual([]);
    });

  test("allow all carries every VLAN the switch has, the native one untagged", async () => {
    const li = accessPort(2);
    const home = modelTags(model(), li).untagged;
    await setTags(li, { untagged: home, tagged: [], allowAll: true });
    const all = {
      untagged: home,
      tagged: model()
        .activeVlanIds()
        .filter((v) => v !== home),
    };
    expect(modelTags(model(), li)).toEqual(all);
    expect(await driverTags(li)).toEqual(all);
    await setTags(li, { untagged: home, tagged: [], allowAll: false });
    expect(modelTags(model(), li)).toEqual({ untagged: home, tagged: [] });
  });

  test("a VLAN the switch does not have is refused before anything is written", async () => {
    const li = accessPort(3);
    const before = modelTags(model(), li);
    const changes = state.lab!.model.changeCount;
    const missing = [3999, 4000].find((v) => !model().vlan(v))!;
    const d = driver();
    await expect(
      d.setTags(await view(d, li), { untagged: before.untagged, tagged: [missing], allowAll: false }),
    ).rejects.toMatchObject({
      code: "not_supported",
      message: expect.stringContaining(`no vlan ${missing}`),
    });
    expect(state.lab!.model.changeCount).toBe(changes);
    expect(modelTags(model(), li)).toEqual(before);
  });

  test("a refused trunk change gives DeviceRefused with the device's words, and the port is as it was", async () => {
    const li = accessPort(3);
    const before = modelTags(model(), li);
    const d = driver();
    const v = await view(d, li);
    state.face!.faults.refuseWrites();
    const failure = d.setTags(v, {
      untagged: before.untagged,
      tagged: otherVlans(before.untagged).slice(0, 1),
      allowAll: false,
    });
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(state.face!.refusalText);
    expect(modelTags(model(), li)).toEqual(before);
  });

  test("a trunk change the device answers but does not make gives DeviceMismatch, never success", async () => {
    const li = accessPort(4);
    const before = modelTags(model(), li);
    const d = driver();
    const v = await view(d, li);
    state.face!.faults.lieOnWrites();
    await expect(
      d.setTags(v, { untagged: before.untagged, tagged: otherVlans(before.untagged).slice(0, 1), allowAll: false }),
    ).rejects.toBeInstanceOf(DeviceMismatch);
    expect(modelTags(model(), li)).toEqual(before);
  });
}

/** The trunk tests on a family's lab subjects (recordings and real agents are read-only here). */
export function runTrunkSubjects(subjects: readonly Subject[]): void {
  afterAll(() => {
    if (skipped.length)
      console.log(
        `conformance (trunks): ${skipped.length} skipped for a missing capability:\n  ${skipped.join("\n  ")}`,
      );
  });
  for (const subject of subjects) {
    if (subject.kind !== "lab") continue;
    const entry = entryOf(subject.driver);
    const title = `conformance (trunks): ${subject.driver} on ${subject.label}`;
    if (entry.can.change_tags) describe(title, () => trunkTests(subject));
    else
      describe(title, () => {
        skipped.push(`${entry.name} (${subject.label}): trunk changes (the driver cannot: change_tags is false)`);
        test.skip("setTags makes trunks and access ports", () => undefined);
      });
  }
}
