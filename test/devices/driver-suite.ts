/**
 * The behaviour every driver must show, run against any (driver factory, lab switch)
 * pair, in the spirit of NAPALM's shared driver tests: what a learn returns equals the
 * lab's model, every setter changes the model and is verified, VLAN changes keep the
 * Q-BRIDGE rules, and device faults come back as the contract's typed errors.
 *
 * Untagged VLAN changes run against two labs: one whose agent moves a port's access VLAN
 * by itself when the PVID or an untagged PortList is written ("auto"), and one where every
 * object changes only itself ("strict"), so only the strict one shows whether the driver
 * writes every object a consistent change needs. Multi-step changes are also made to fail
 * half-way, to see the driver undo what it did.
 *
 * Usage: runDriverSuite({ name, startLab, openDriver, interfaceId }) inside a test file.
 */
import type { LabSwitch, LabSwitchOptions, QBridgeMode } from "../../lab";
import { cloneConfig, type SwitchConfig } from "../../lab/config";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import { qbridge } from "../../mib/oids";
import { DeviceMismatch, DeviceRefused, DeviceUnreachable, NotSupported } from "../../model/failures";
import { type DeviceSnapshot, type InterfaceInfo, type VlanInfo } from "../../model/device";
import { type Driver } from "../../drivers/contract";

/**
 * The setters of one interface on a freshly opened driver, with the view it learned
 * (a setter gets the view its checks were made on).
 */
async function interfaceSetters(open: () => Promise<Driver>, id: string) {
  const d = await open();
  const view = await d.learnInterface(id);
  if (!view) throw new Error(`no interface ${id}`);
  return {
    setAdminState: (up: boolean) => d.setAdminState(view, up),
    setDescription: (text: string) => d.setDescription(view, text),
    setPoe: (on: boolean) => d.setPoe(view, on),
    setUntaggedVlan: (vlan: number) => d.setUntaggedVlan(view, vlan),
  };
}

export interface DriverSuiteSubject {
  /** shown in the describe() title */
  name: string;
  /**
   * starts a lab switch the suite talks to (the suite stops it); `overrides` are options
   * the suite needs on top of the subject's own (such as qbridge) and win over them
   */
  startLab(overrides?: LabSwitchOptions): Promise<LabSwitch>;
  /** opens the driver under test for that switch, as one API call would */
  openDriver(lab: LabSwitch): Promise<Driver>;
  /** the id the driver uses for an interface (ifIndex for SNMP, name for CLI drivers) */
  interfaceId(iface: LabInterface): string;
}

const mac = (b: Buffer) => [...b].map((x) => x.toString(16).padStart(2, "0")).join(":");

const detectNames: Record<number, string> = {
  1: "Disabled",
  2: "Searching",
  3: "Delivering",
  4: "Fault",
  5: "Test",
  6: "Unknown Fault",
};

/** The parts of an InterfaceInfo the model decides, as the model says they are. */
export function expectedInterface(model: VirtualSwitch, i: LabInterface, id: string) {
  const ethernet = i.ifType === 6;
  const pvid = i.bridgePort === null ? 0 : (model.pvid(i.bridgePort) ?? 0);
  const tagged =
    i.bridgePort === null
      ? []
      : [...model.running.vlans]
          .filter(([vid, v]) => vid !== pvid && v.egress.has(i.bridgePort!))
          .map(([vid]) => vid)
          .sort((a, b) => a - b);
  const poe = model.poeState(i.ifIndex);
  return {
    id,
    name: i.name,
    description: model.alias(i.ifIndex),
    kind: ethernet ? "ethernet" : i.ifType === 161 ? "lag" : "other",
    admin_up: model.adminUp(i.ifIndex),
    oper_up: model.operUp(i.ifIndex),
    speed: i.speedMbps,
    duplex: ethernet && model.operUp(i.ifIndex) ? (i.duplex === "half" ? "Half" : "Full") : "Unknown",
    untagged_vlan: pvid,
    tagged_vlans: tagged,
    routed: i.ipv4 !== null,
    poe: poe ? { admin_status: poe.enabled ? "Enabled" : "Disabled", detect_status: detectNames[poe.detection] } : null,
  };
}

export function actualInterface(iface: InterfaceInfo) {
  return {
    id: iface.id,
    name: iface.name,
    description: iface.description,
    kind: iface.kind,
    admin_up: iface.admin_up,
    oper_up: iface.oper_up,
    speed: iface.speed,
    duplex: iface.duplex,
    untagged_vlan: iface.untagged_vlan,
    tagged_vlans: iface.tagged_vlans,
    routed: iface.routed,
    poe: iface.poe ? { admin_status: iface.poe.admin_status, detect_status: iface.poe.detect_status } : null,
  };
}

export function expectedVlans(model: VirtualSwitch): Array<Pick<VlanInfo, "id" | "name" | "state">> {
  return model.vlanIds().map((id) => {
    const v = model.vlan(id)!;
    return { id, name: v.name, state: v.active ? "Enabled" : "Disabled" };
  });
}

export const vlanView = (vlans: VlanInfo[]) => vlans.map(({ id, name, state }) => ({ id, name, state }));

/**
 * What a consistent untagged-VLAN change of bridge port `bp` to `vlan` leaves, from the
 * configuration before: the PVID is `vlan`; the port is in its egress and untagged sets;
 * it left its old PVID VLAN's untagged set, and that VLAN's egress set too unless it only
 * carried that VLAN tagged (then it stays a tagged member); everything else as it was.
 */
export function expectedUntaggedMove(before: SwitchConfig, bp: number, vlan: number): SwitchConfig {
  const after = cloneConfig(before);
  const oldId = before.pvid.get(bp);
  const old = oldId === undefined || oldId === vlan ? undefined : after.vlans.get(oldId);
  if (old?.untagged.has(bp)) {
    old.untagged.delete(bp);
    old.egress.delete(bp);
  }
  const target = after.vlans.get(vlan)!;
  target.egress.add(bp);
  target.untagged.add(bp);
  after.pvid.set(bp, vlan);
  return after;
}

/** A configuration as plain sorted data, so a failed comparison shows which port or VLAN differs. */
export function configView(c: SwitchConfig) {
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    ports: [...c.ports].sort(([a], [b]) => a - b),
    pvid: [...c.pvid].sort(([a], [b]) => a - b),
    vlans: [...c.vlans]
      .sort(([a], [b]) => a - b)
      .map(([id, v]) => ({ id, name: v.name, active: v.active, egress: sorted(v.egress), untagged: sorted(v.untagged) })),
  };
}

/**
 * One lab switch for a describe block: started before its tests, faults reset and
 * drivers closed after each test, stopped at the end.
 */
function useLab(subject: DriverSuiteSubject, overrides?: LabSwitchOptions) {
  let lab: LabSwitch | undefined;
  const open: Driver[] = [];
  beforeAll(async () => {
    lab = await subject.startLab(overrides);
  });
  afterEach(async () => {
    lab?.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await lab?.stop();
  });
  const started = () => {
    if (!lab) throw new Error("the lab switch did not start");
    return lab;
  };
  return {
    get lab() {
      return started();
    },
    get model() {
      return started().model;
    },
    /** one driver per "API call", closed after the test */
    async driver(): Promise<Driver> {
      const d = await subject.openDriver(started());
      open.push(d);
      return d;
    },
    /** Ethernet ports, without the uplink (the last one, a member of every VLAN) */
    ports: () => started().model.ethernetPorts.slice(0, -1),
  };
}

export function runDriverSuite(subject: DriverSuiteSubject): void {
  describe(`driver suite: ${subject.name}`, () => {
    const ctx = useLab(subject);
    // the lab started in beforeAll; these read it when a test runs
    let lab: LabSwitch;
    let model: VirtualSwitch;
    beforeAll(() => {
      lab = ctx.lab;
      model = ctx.model;
    });
    const driver = () => ctx.driver();
    const at = (id: string) => interfaceSetters(driver, id);
    const idOf = (i: LabInterface) => subject.interfaceId(i);
    const ports = () => ctx.ports();

    function checkSnapshot(snap: DeviceSnapshot) {
      expect(snap.hostname).toBe(model.system.sysName);
      expect(vlanView(snap.vlans)).toEqual(expectedVlans(model));
      const expected = model.interfaces.map((i) => expectedInterface(model, i, idOf(i)));
      const byId = new Map(snap.interfaces.map((i) => [i.id, i]));
      expect(snap.interfaces.length).toBe(model.interfaces.length);
      for (const e of expected) {
        const got = byId.get(e.id);
        expect(got && actualInterface(got)).toEqual(e);
        expect(got!.disabled_reason).toBeUndefined();
      }
      if (model.poeMain) {
        expect(snap.poe).toMatchObject({ enabled: true, max_power: model.poeMain.maxPowerW });
        expect(snap.poe!.supplies).toHaveLength(1);
      } else {
        expect(snap.poe).toBeNull();
      }
    }

    test("basic learn equals the lab model", async () => {
      const snap = await (await driver()).learn("basic");
      expect(snap.scope).toBe("basic");
      checkSnapshot(snap);
      for (const i of snap.interfaces) expect([i.macs, i.neighbors]).toEqual([[], []]);
    });

    test("details learn adds the model's MAC table (with ARP addresses) and LLDP neighbours", async () => {
      const snap = await (await driver()).learn("details");
      checkSnapshot(snap);
      const ipOf = new Map<string, string[]>();
      for (const a of model.arp) ipOf.set(mac(a.mac), [...(ipOf.get(mac(a.mac)) ?? []), a.ip]);
      for (const li of model.interfaces) {
        const got = snap.interfaces.find((x) => x.id === idOf(li))!;
        const macs = model.fdb
          .filter((e) => li.bridgePort !== null && e.bridgePort === li.bridgePort)
          .map((e) => ({ address: mac(e.mac), vlan: e.vlan, ipv4: ipOf.get(mac(e.mac)) ?? [] }));
        const sortKey = (m: { address: string; vlan: number }) => `${m.vlan}/${m.address}`;
        expect(got.macs.map(({ address, vlan, ipv4 }) => ({ address, vlan, ipv4 })).sort((a, b) => sortKey(a).localeCompare(sortKey(b)))).toEqual(
          macs.sort((a, b) => sortKey(a).localeCompare(sortKey(b))),
        );
        const neighbours = model.lldp
          .filter((n) => n.localPort === li.bridgePort)
          .map((n) => ({
            system_name: n.sysName,
            chassis_id: n.chassisIdSubtype === 4 ? mac(n.chassisId) : n.chassisId.toString(),
            port_name: n.portIdSubtype === 3 ? mac(n.portId) : n.portId.toString(),
            management_address_v4: n.mgmtIpv4 ?? "",
          }));
        expect(
          got.neighbors.map(({ system_name, chassis_id, port_name, management_address_v4 }) => ({
            system_name,
            chassis_id,
            port_name,
            management_address_v4,
          })),
        ).toEqual(neighbours);
      }
      expect(model.lldp.length).toBeGreaterThan(0);
    });

    test("learnInterface gives the row a full learn gives, and null for an unknown interface", async () => {
      const full = await (await driver()).learn("basic");
      for (const li of [ports()[0], ports()[1], model.ethernetPorts[model.ethernetPorts.length - 1]]) {
        const view = await (await driver()).learnInterface(idOf(li));
        expect(view).not.toBeNull();
        expect(view!.interface).toEqual(full.interfaces.find((i) => i.id === idOf(li)));
        expect(view!.vlans).toEqual(full.vlans);
      }
      expect(await (await driver()).learnInterface("999999")).toBeNull();
    });

    test("learnVlans lists the model's VLANs", async () => {
      expect(vlanView(await (await driver()).learnVlans())).toEqual(expectedVlans(model));
    });

    test("setAdminState takes a port down and up again", async () => {
      const li = ports()[2];
      const id = idOf(li);
      await (await at(id)).setAdminState(false);
      expect(model.adminUp(li.ifIndex)).toBe(false);
      expect((await (await driver()).learnInterface(id))!.interface.admin_up).toBe(false);
      await (await at(id)).setAdminState(true);
      expect(model.adminUp(li.ifIndex)).toBe(true);
    });

    test("setDescription changes the port's description", async () => {
      const li = ports()[3];
      await (await at(idOf(li))).setDescription("desk 4 (room 2.14)");
      expect(model.alias(li.ifIndex)).toBe("desk 4 (room 2.14)");
      await (await at(idOf(li))).setDescription("");
      expect(model.alias(li.ifIndex)).toBe("");
    });

    test("setPoe switches PoE of a PoE port off and on again", async () => {
      const poePort = ports().find((p) => p.poe);
      if (!poePort) throw new Error("the suite's lab switch must have PoE ports");
      const before = model.poeState(poePort.ifIndex)!.enabled;
      await (await at(idOf(poePort))).setPoe(!before);
      expect(model.poeState(poePort.ifIndex)!.enabled).toBe(!before);
      await (await at(idOf(poePort))).setPoe(before);
      expect(model.poeState(poePort.ifIndex)!.enabled).toBe(before);
    });

    test("setPoe on a port without PoE is refused as not supported", async () => {
      const plain = ports().find((p) => !p.poe);
      if (!plain) throw new Error("the suite's lab switch must have ports without PoE");
      await expect((await at(idOf(plain))).setPoe(true)).rejects.toBeInstanceOf(NotSupported);
    });

    test("createVlan, renameVlan and deleteVlan change the model's VLAN table", async () => {
      const id = 3001;
      await (await driver()).createVlan(id, "switchdesk-test");
      expect(model.vlan(id)).toMatchObject({ name: "switchdesk-test", active: true });
      await (await driver()).renameVlan(id, "renamed");
      expect(model.vlan(id)!.name).toBe("renamed");
      expect(vlanView(await (await driver()).learnVlans())).toContainEqual({ id, name: "renamed", state: "Enabled" });
      await (await driver()).deleteVlan(id);
      expect(model.vlan(id)).toBeUndefined();
    });

    test("saveConfig copies running to startup when the driver can save, else says it cannot", async () => {
      const d = await driver();
      if (!d.can.save_config) {
        await expect(d.saveConfig()).rejects.toBeInstanceOf(NotSupported);
        return;
      }
      const li = ports()[5];
      await (await at(idOf(li))).setDescription("saved by the suite");
      expect(model.isSaved()).toBe(false);
      await d.saveConfig();
      expect(model.isSaved()).toBe(true);
      expect(model.startup.ports.get(li.ifIndex)!.alias).toBe("saved by the suite");
    });

    describe("device faults", () => {
      test("an unreachable device gives DeviceUnreachable naming the device", async () => {
        const d = await driver();
        lab.faults.drop = true;
        const failure = d.learn("basic");
        await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
        await expect(failure).rejects.toThrow(String(lab.port));
      });

      test("a timeout in the middle of a walk gives DeviceUnreachable, not a partial snapshot", async () => {
        const d = await driver();
        lab.faults.dropAfter(3);
        await expect(d.learn("details")).rejects.toMatchObject({ code: "device_unreachable" });
      });

      test("a refused set gives DeviceRefused with the device's reason and changes nothing", async () => {
        const li = ports()[6];
        const before = model.alias(li.ifIndex);
        const d = await driver();
        lab.faults.refuseSets = "notWritable";
        const failure = d.setDescription((await d.learnInterface(idOf(li)))!, "refused");
        await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
        await expect(failure).rejects.toThrow(/notWritable/);
        expect(model.alias(li.ifIndex)).toBe(before);
      });

      test("a set that reads back different gives DeviceMismatch saying what was written and what is there", async () => {
        const li = ports()[7];
        const before = model.adminUp(li.ifIndex);
        const d = await driver();
        lab.faults.lieOnSet = true;
        const failure = d.setAdminState((await d.learnInterface(idOf(li)))!, !before);
        await expect(failure).rejects.toBeInstanceOf(DeviceMismatch);
        await expect(failure).rejects.toThrow(/wrote .*device reports/);
        expect(model.adminUp(li.ifIndex)).toBe(before);
      });
    });

    for (const mode of ["auto", "strict"] as const) {
      describe(`untagged VLAN changes, Q-BRIDGE agent in ${mode} mode`, () => {
        untaggedVlanTests(subject, mode);
      });
    }
  });
}

/** setUntaggedVlan against a lab of its own whose agent treats Q-BRIDGE writes the `mode` way. */
function untaggedVlanTests(subject: DriverSuiteSubject, mode: QBridgeMode): void {
  const ctx = useLab(subject, { qbridge: mode });
  const idOf = (i: LabInterface) => subject.interfaceId(i);
  const at = (id: string) => interfaceSetters(() => ctx.driver(), id);
  /** an active VLAN that is none of `not` and that bridge port bp does not carry at all */
  const freshVlan = (bp: number, ...not: number[]) => {
    const id = ctx.model.activeVlanIds().find((v) => !not.includes(v) && !ctx.model.vlan(v)!.egress.has(bp));
    if (id === undefined) throw new Error(`the lab has no VLAN that bridge port ${bp} could move to`);
    return id;
  };

  test("setUntaggedVlan sets the PVID and the egress and untagged sets of the old and new VLAN, nothing else", async () => {
    const model = ctx.model;
    const li = ctx.ports()[0];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    // a tagged membership the change must leave alone
    if (expectedInterface(model, li, "").tagged_vlans.length === 0) {
      const extra = freshVlan(bp, home);
      model.update((cfg) => cfg.vlans.get(extra)!.egress.add(bp));
    }
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, home);

    const tagged = expectedInterface(model, li, "").tagged_vlans;
    await (await at(idOf(li))).setUntaggedVlan(target);
    const member = (vlan: number) => ({ egress: model.vlan(vlan)!.egress.has(bp), untagged: model.vlan(vlan)!.untagged.has(bp) });
    expect(model.pvid(bp)).toBe(target);
    expect(member(target)).toEqual({ egress: true, untagged: true });
    expect(member(home)).toEqual({ egress: false, untagged: false });
    expect(expectedInterface(model, li, "").tagged_vlans).toEqual(tagged);
    // other ports, other VLANs, names and port settings: all as before
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
    expect(model.consistencyProblems()).toEqual([]);
    const view = await (await ctx.driver()).learnInterface(idOf(li));
    expect(view!.interface).toMatchObject({ untagged_vlan: target, tagged_vlans: expectedInterface(model, li, "").tagged_vlans });

    // and back: the switch is as it was
    await (await at(idOf(li))).setUntaggedVlan(home);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("a port that carries its PVID VLAN tagged only (a tagged native VLAN) stays a tagged member of it", async () => {
    const model = ctx.model;
    const li = ctx.ports()[1];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    model.update((cfg) => cfg.vlans.get(home)!.untagged.delete(bp));
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, home);

    await (await at(idOf(li))).setUntaggedVlan(target);
    expect(model.pvid(bp)).toBe(target);
    expect(model.vlan(home)!.egress.has(bp)).toBe(true);
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
    expect(model.consistencyProblems()).toEqual([]);
  });

  test("a change whose first SET is refused as inconsistent is made in steps, with the same result", async () => {
    const model = ctx.model;
    const li = ctx.ports()[2];
    const bp = li.bridgePort!;
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, model.pvid(bp)!);
    const d = await ctx.driver();
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");

    await d.setUntaggedVlan((await d.learnInterface(idOf(li)))!, target);
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
    expect(model.consistencyProblems()).toEqual([]);
  });

  test("a step refused after an accepted one: the accepted step is undone and the error says so", async () => {
    const model = ctx.model;
    const li = ctx.ports()[3];
    const bp = li.bridgePort!;
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, model.pvid(bp)!);
    const d = await ctx.driver();
    // the whole change in one PDU is refused as inconsistent, the first step is taken,
    // the second one fails
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");
    ctx.lab.faults.refuseNthSet(3, "commitFailed");

    const failure = d.setUntaggedVlan((await d.learnInterface(idOf(li)))!, target);
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/commitFailed.*the earlier values were restored/);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("the last step refused: every earlier step is undone and the error says so", async () => {
    const model = ctx.model;
    const li = ctx.ports()[4];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, home);
    const d = await ctx.driver();
    // every SET that takes the port out of its old VLAN's untagged set: the one-PDU
    // change and the step that comes last
    ctx.lab.faults.refuseSetsMatching(`${qbridge.dot1qVlanStaticUntaggedPorts}.${home}`, "inconsistentValue");

    const failure = d.setUntaggedVlan((await d.learnInterface(idOf(li)))!, target);
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/inconsistentValue.*the earlier values were restored/);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("an untagged VLAN change that reads back different is not reported as success", async () => {
    const model = ctx.model;
    const li = ctx.ports()[5];
    const original = cloneConfig(model.running);
    const target = freshVlan(li.bridgePort!, model.pvid(li.bridgePort!)!);
    const d = await ctx.driver();
    ctx.lab.faults.lieOnSet = true;

    await expect(d.setUntaggedVlan((await d.learnInterface(idOf(li)))!, target)).rejects.toBeInstanceOf(DeviceMismatch);
    expect(configView(model.running)).toEqual(configView(original));
  });
}
