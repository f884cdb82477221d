/**
 * The behaviour every driver must show, run against any (driver factory, lab switch)
 * pair, in the spirit of NAPALM's shared driver tests: what a learn returns equals the
 * lab's model, every setter changes the model and is verified, VLAN changes keep the
 * Q-BRIDGE rules, and device faults come back as the contract's typed errors.
 *
 * Usage: runDriverSuite({ name, startLab, openDriver, interfaceId }) inside a test file.
 */
import type { LabSwitch } from "../../lab";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import {
  DeviceMismatch,
  DeviceRefused,
  DeviceUnreachable,
  type DeviceSnapshot,
  type Driver,
  type InterfaceInfo,
  NotSupported,
  type VlanInfo,
} from "../../drivers/types";

export interface DriverSuiteSubject {
  /** shown in the describe() title */
  name: string;
  /** starts the lab switch the suite talks to (the suite stops it) */
  startLab(): Promise<LabSwitch>;
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

function actualInterface(iface: InterfaceInfo) {
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

const vlanView = (vlans: VlanInfo[]) => vlans.map(({ id, name, state }) => ({ id, name, state }));

export function runDriverSuite(subject: DriverSuiteSubject): void {
  describe(`driver suite: ${subject.name}`, () => {
    let lab: LabSwitch;
    let model: VirtualSwitch;
    const open: Driver[] = [];

    /** one driver per "API call", closed after each test */
    async function driver(): Promise<Driver> {
      const d = await subject.openDriver(lab);
      open.push(d);
      return d;
    }
    const idOf = (i: LabInterface) => subject.interfaceId(i);
    /** an Ethernet port the model gives a PoE port (or not), skipping the uplink */
    const ports = () => model.ethernetPorts.slice(0, -1);

    beforeAll(async () => {
      lab = await subject.startLab();
      model = lab.model;
    });
    afterEach(async () => {
      lab.faults.reset();
      await Promise.all(open.splice(0).map((d) => d.close()));
    });
    afterAll(async () => {
      await lab?.stop();
    });

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
      await (await driver()).setAdminState(id, false);
      expect(model.adminUp(li.ifIndex)).toBe(false);
      expect((await (await driver()).learnInterface(id))!.interface.admin_up).toBe(false);
      await (await driver()).setAdminState(id, true);
      expect(model.adminUp(li.ifIndex)).toBe(true);
    });

    test("setDescription changes the port's description", async () => {
      const li = ports()[3];
      await (await driver()).setDescription(idOf(li), "desk 4 (room 2.14)");
      expect(model.alias(li.ifIndex)).toBe("desk 4 (room 2.14)");
      await (await driver()).setDescription(idOf(li), "");
      expect(model.alias(li.ifIndex)).toBe("");
    });

    test("setPoe switches PoE of a PoE port; a port without PoE is refused as not supported", async () => {
      const poePort = ports().find((p) => p.poe);
      const plain = ports().find((p) => !p.poe);
      if (poePort) {
        const before = model.poeState(poePort.ifIndex)!.enabled;
        await (await driver()).setPoe(idOf(poePort), !before);
        expect(model.poeState(poePort.ifIndex)!.enabled).toBe(!before);
        await (await driver()).setPoe(idOf(poePort), before);
        expect(model.poeState(poePort.ifIndex)!.enabled).toBe(before);
      }
      if (plain) await expect((await driver()).setPoe(idOf(plain), true)).rejects.toBeInstanceOf(NotSupported);
      expect(poePort ?? plain).toBeDefined();
    });

    test("setUntaggedVlan moves a port and keeps Q-BRIDGE consistent and tagged VLANs intact", async () => {
      // a port with a tagged membership, if the generator made one; else any port
      const li = ports().find((p) => expectedInterface(model, p, "").tagged_vlans.length > 0) ?? ports()[4];
      const before = expectedInterface(model, li, idOf(li));
      const target = model.activeVlanIds().find((v) => v !== before.untagged_vlan && !before.tagged_vlans.includes(v))!;
      await (await driver()).setUntaggedVlan(idOf(li), target);
      const after = expectedInterface(model, li, idOf(li));
      expect(after.untagged_vlan).toBe(target);
      expect(after.tagged_vlans).toEqual(before.tagged_vlans);
      expect(model.vlan(before.untagged_vlan)!.egress.has(li.bridgePort!)).toBe(false);
      expect(model.consistencyProblems()).toEqual([]);
      const view = await (await driver()).learnInterface(idOf(li));
      expect(view!.interface.untagged_vlan).toBe(target);
      // and back
      await (await driver()).setUntaggedVlan(idOf(li), before.untagged_vlan);
      expect(expectedInterface(model, li, idOf(li))).toEqual(before);
      expect(model.consistencyProblems()).toEqual([]);
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
      await (await driver()).setDescription(idOf(li), "saved by the suite");
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
        const failure = d.setDescription(idOf(li), "refused");
        await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
        await expect(failure).rejects.toThrow(/notWritable/);
        expect(model.alias(li.ifIndex)).toBe(before);
      });

      test("a set that reads back different gives DeviceMismatch saying what was written and what is there", async () => {
        const li = ports()[7];
        const before = model.adminUp(li.ifIndex);
        const d = await driver();
        lab.faults.lieOnSet = true;
        const failure = d.setAdminState(idOf(li), !before);
        await expect(failure).rejects.toBeInstanceOf(DeviceMismatch);
        await expect(failure).rejects.toThrow(/wrote .*device reports/);
        expect(model.adminUp(li.ifIndex)).toBe(before);
      });

      test("an untagged VLAN change that reads back different is not reported as success", async () => {
        const li = ports()[8];
        const before = expectedInterface(model, li, idOf(li));
        const target = model.activeVlanIds().find((v) => v !== before.untagged_vlan)!;
        const d = await driver();
        lab.faults.lieOnSet = true;
        await expect(d.setUntaggedVlan(idOf(li), target)).rejects.toBeInstanceOf(DeviceMismatch);
        expect(expectedInterface(model, li, idOf(li))).toEqual(before);
        expect(model.consistencyProblems()).toEqual([]);
      });
    });
  });
}
