/**
 * CiscoIosCliDriver against the lab's SSH face (real ssh2 over TCP, the IOS command
 * line): what it learns equals the lab's model, every setter changes the model and is
 * read back, values that would break a command line never reach the device, and device
 * faults come back as the contract's typed errors.
 */
import { CiscoIosCliDriver } from "../../drivers/families/cisco-ios-cli/driver";
import { HostKeyChanged } from "../../drivers/ssh/host-key";
import { UnsafeValue } from "../../drivers/ssh/safe-values";
import type { SshTarget } from "../../model/targets";
import { DeviceMismatch, DeviceRefused, DeviceUnreachable, NotSupported } from "../../model/failures";
import { type InterfaceInfo } from "../../model/device";
import {
  iosInterfaceName,
  startLabSshFace,
  startLabSwitch,
  type LabSshFace,
  type LabSwitch,
  type LabSwitchOptions,
} from "../../lab";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import { actualClients, expectedClients, expectedInterface, expectedVlans } from "../support/lab-expectations";

import type { InterfaceView } from "../../model/device";
/** the interface view a setter takes, learned by the same kind of driver */
async function viewOf(
  d: { learnInterface(id: string): Promise<InterfaceView | null> },
  id: string,
): Promise<InterfaceView> {
  const view = await d.learnInterface(id);
  if (!view) throw new Error(`no interface ${id}`);
  return view;
}

/** the model's interface as the IOS driver must report it */
function expectedIos(model: VirtualSwitch, i: LabInterface) {
  const e = expectedInterface(model, i, iosInterfaceName(i));
  // IOS prints a speed only for a port with a link ("auto" otherwise)
  return { ...e, name: iosInterfaceName(i), speed: e.oper_up && i.portNumber !== null ? i.speedMbps : 0 };
}

function reported(i: InterfaceInfo) {
  return {
    id: i.id,
    name: i.name,
    description: i.description,
    kind: i.kind,
    admin_up: i.admin_up,
    oper_up: i.oper_up,
    speed: i.speed,
    duplex: i.duplex,
    untagged_vlan: i.untagged_vlan,
    tagged_vlans: i.tagged_vlans,
    routed: i.routed,
    poe: i.poe ? { admin_status: i.poe.admin_status, detect_status: i.poe.detect_status } : null,
  };
}

/** a lab switch with its SSH face, and drivers closed after each test */
function useLab(options: LabSwitchOptions) {
  const ctx = {} as { lab: LabSwitch; face: LabSshFace };
  const open: CiscoIosCliDriver[] = [];
  beforeAll(async () => {
    ctx.lab = await startLabSwitch(options);
    ctx.face = await startLabSshFace(ctx.lab);
  });
  afterEach(async () => {
    ctx.face.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await ctx.face?.stop();
    await ctx.lab?.stop();
  });
  return {
    get lab() {
      return ctx.lab;
    },
    get face() {
      return ctx.face;
    },
    get model() {
      return ctx.lab.model;
    },
    target(overrides: Partial<SshTarget> = {}): SshTarget {
      return { ...ctx.face.sshTarget(), command_timeout_ms: 1000, connect_timeout_ms: 1500, ...overrides };
    },
    driver(overrides: Partial<SshTarget> = {}, onHostKey?: (fp: string) => void): CiscoIosCliDriver {
      const d = new CiscoIosCliDriver(this.target(overrides), { name: options.name, onHostKey });
      open.push(d);
      return d;
    },
  };
}

for (const options of [
  {
    profile: "generic",
    ports: 24,
    poePorts: [1, 2, 3, 4, 5, 6, 7, 8],
    routedPorts: [20],
    seed: 7,
    name: "ios-generic-24",
  },
  { profile: "ciscosb", ports: 12, seed: 9, name: "ios-cbs-12" },
] as LabSwitchOptions[]) {
  describe(`reads of ${options.name} (${options.profile} profile)`, () => {
    const ctx = useLab(options);

    test("basic learn equals the lab model", async () => {
      const snap = await ctx.driver().learn("basic");
      const model = ctx.model;
      expect(snap.hostname).toBe(model.system.sysName);
      expect(snap.scope).toBe("basic");
      expect(snap.driver_info).toMatchObject({
        model: model.system.model,
        serial: model.system.serial,
        version: model.system.softwareVersion,
      });
      expect(snap.vlans.map(({ id, name, state }) => ({ id, name, state }))).toEqual(expectedVlans(model));
      expect(snap.interfaces.map(reported).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
        model.interfaces.map((i) => expectedIos(model, i)).sort((a, b) => a.id.localeCompare(b.id)),
      );
      expect(snap.interfaces.every((i) => i.macs.length === 0 && i.neighbors.length === 0)).toBe(true);
      expect(snap.poe).toMatchObject({
        enabled: true,
        max_power: model.poeMain!.maxPowerW,
        power_consumed: model.poeConsumedW(),
      });
    });

    test("details learn adds the MAC table with ARP addresses and the LLDP neighbours", async () => {
      const snap = await ctx.driver().learn("details");
      const model = ctx.model;
      for (const li of model.interfaces) {
        const got = snap.interfaces.find((x) => x.id === iosInterfaceName(li))!;
        expect({ id: got.id, ...actualClients(got) }).toEqual({ id: got.id, ...expectedClients(model, li) });
      }
      expect(model.lldp.length).toBeGreaterThan(0);
    });

    test("learnInterface gives the row a full learn gives, by long or short name; null for unknown names", async () => {
      const full = await ctx.driver().learn("basic");
      const model = ctx.model;
      const last = model.ethernetPorts[model.ethernetPorts.length - 1];
      for (const li of [model.port(1), model.port(2), last, model.interfaces.find((i) => i.ifType !== 6)!]) {
        const view = await ctx.driver().learnInterface(iosInterfaceName(li));
        expect(view!.interface).toEqual(full.interfaces.find((i) => i.id === iosInterfaceName(li)));
        expect(view!.vlans).toEqual(full.vlans);
      }
      expect((await ctx.driver().learnInterface("Gi1/0/2"))!.interface.id).toBe("GigabitEthernet1/0/2");
      for (const unknown of ["GigabitEthernet9/0/99", "999999", "no such port", "Gi1/0/1\nreload"]) {
        expect(await ctx.driver().learnInterface(unknown)).toBeNull();
      }
    });
  });
}

describe("writes over the IOS command line", () => {
  const ctx = useLab({
    profile: "generic",
    ports: 24,
    poePorts: [1, 2, 3, 4, 5, 6, 7, 8],
    seed: 7,
    name: "ios-writes",
  });
  const id = (n: number) => iosInterfaceName(ctx.model.port(n));
  /** command lines the face received since `from` */
  const sentSince = (from: number) => ctx.face.counters.log.slice(from);

  test("capabilities: everything, saving included; IOS's limits for descriptions and VLAN names", () => {
    expect(ctx.driver().can).toEqual({
      change_admin_status: true,
      change_vlan: true,
      change_poe: true,
      change_description: true,
      edit_vlans: true,
      change_vlan_name: true,
      save_config: true,
      change_tags: true,
      client_data: true,
      max_description_length: 240,
      max_description_bytes: 240,
      max_vlan_name_length: 32,
      max_vlan_name_bytes: 32,
    });
  });

  test("setAdminState shuts a port and brings it up again", async () => {
    const p = ctx.model.port(3);
    await ctx.driver().setAdminState(await viewOf(ctx.driver(), id(3)), false);
    expect(ctx.model.adminUp(p.ifIndex)).toBe(false);
    expect((await ctx.driver().learnInterface(id(3)))!.interface.admin_up).toBe(false);
    await ctx.driver().setAdminState(await viewOf(ctx.driver(), "Gi1/0/3"), true);
    expect(ctx.model.adminUp(p.ifIndex)).toBe(true);
  });

  test("setDescription writes the text exactly (shell syntax is plain text to IOS) and '' removes it", async () => {
    const p = ctx.model.port(4);
    for (const text of ["desk 4 (room 2.14)", "$(reboot) '; reboot; ' `x`", "two  blanks | inside", "d".repeat(240)]) {
      await ctx.driver().setDescription(await viewOf(ctx.driver(), id(4)), text);
      expect(ctx.model.alias(p.ifIndex)).toBe(text);
    }
    await ctx.driver().setDescription(await viewOf(ctx.driver(), id(4)), "");
    expect(ctx.model.alias(p.ifIndex)).toBe("");
  });

  test("a description or VLAN name that would break the line is refused before anything is sent", async () => {
    const d = ctx.driver();
    const view = await viewOf(d, id(5));
    const before = ctx.face.counters.commands;
    for (const text of ["x\nreload", "x\r\nwrite erase", "why?", "x\u202eevil", "d".repeat(241)]) {
      await expect(d.setDescription(view, text)).rejects.toBeInstanceOf(UnsafeValue);
    }
    await expect(d.createVlan(777, "x\nreload")).rejects.toBeInstanceOf(UnsafeValue);
    await expect(d.renameVlan(10, "two words")).rejects.toBeInstanceOf(UnsafeValue);
    await expect(d.setUntaggedVlan(view, 4095)).rejects.toBeInstanceOf(UnsafeValue);
    expect(ctx.face.counters.commands).toBe(before);
  });

  test("setPoe switches PoE of a PoE port; a port without PoE is NotSupported", async () => {
    const p = ctx.model.port(2);
    const before = ctx.model.poeState(p.ifIndex)!.enabled;
    await ctx.driver().setPoe(await viewOf(ctx.driver(), id(2)), !before);
    expect(ctx.model.poeState(p.ifIndex)!.enabled).toBe(!before);
    expect(sentSince(ctx.face.counters.log.length - 10)).toContain(before ? "power inline never" : "power inline auto");
    await ctx.driver().setPoe(await viewOf(ctx.driver(), id(2)), before);
    expect(ctx.model.poeState(p.ifIndex)!.enabled).toBe(before);
    await expect(ctx.driver().setPoe(await viewOf(ctx.driver(), id(12)), true)).rejects.toBeInstanceOf(NotSupported);
  });

  test("setUntaggedVlan on an access port moves its access VLAN", async () => {
    const model = ctx.model;
    const n =
      model.ethernetPorts.findIndex(
        (p) =>
          p.portNumber! > 8 && model.vlanIds().filter((v) => model.vlan(v)!.egress.has(p.bridgePort!)).length === 1,
      ) + 1;
    const bp = model.port(n).bridgePort!;
    const home = model.pvid(bp)!;
    const target = model.vlanIds().find((v) => v !== home && v !== 1)!;
    await ctx.driver().setUntaggedVlan(await viewOf(ctx.driver(), id(n)), target);
    expect(model.pvid(bp)).toBe(target);
    expect(model.vlan(target)!.untagged.has(bp)).toBe(true);
    expect(model.vlan(home)!.egress.has(bp)).toBe(false);
    expect(model.consistencyProblems()).toEqual([]);
    expect((await ctx.driver().learnInterface(id(n)))!.interface.untagged_vlan).toBe(target);
    await ctx.driver().setUntaggedVlan(await viewOf(ctx.driver(), id(n)), home);
    expect(model.pvid(bp)).toBe(home);
  });

  test("setUntaggedVlan on a trunk changes its native VLAN; the old one stays allowed, tagged", async () => {
    const model = ctx.model;
    const uplink = model.ethernetPorts[model.ethernetPorts.length - 1];
    const bp = uplink.bridgePort!;
    const before = (await ctx.driver().learnInterface(iosInterfaceName(uplink)))!.interface;
    expect(before.tagged_vlans.length).toBeGreaterThan(0);
    const target = before.tagged_vlans[0];
    await ctx.driver().setUntaggedVlan(await viewOf(ctx.driver(), iosInterfaceName(uplink)), target);
    expect(model.pvid(bp)).toBe(target);
    expect(ctx.face.counters.log).toContain(`switchport trunk native vlan ${target}`);
    const after = (await ctx.driver().learnInterface(iosInterfaceName(uplink)))!.interface;
    expect(after.untagged_vlan).toBe(target);
    expect(after.tagged_vlans).toContain(before.untagged_vlan);
    expect(model.consistencyProblems()).toEqual([]);
    await ctx.driver().setUntaggedVlan(await viewOf(ctx.driver(), iosInterfaceName(uplink)), before.untagged_vlan);
  });

  test("createVlan, renameVlan and deleteVlan change the VLAN table", async () => {
    await ctx.driver().createVlan(3001, "switchdesk-test");
    expect(ctx.model.vlan(3001)).toMatchObject({ name: "switchdesk-test", active: true });
    await ctx.driver().renameVlan(3001, "renamed");
    expect(ctx.model.vlan(3001)!.name).toBe("renamed");
    expect(await ctx.driver().learnVlans()).toContainEqual({
      id: 3001,
      name: "renamed",
      state: "Enabled",
      status: "Permanent",
    });
    await ctx.driver().deleteVlan(3001);
    expect(ctx.model.vlan(3001)).toBeUndefined();
    await ctx.driver().createVlan(3002, "");
    expect(ctx.model.vlan(3002)!.name).toBe("VLAN3002");
    await ctx.driver().deleteVlan(3002);
  });

  test("renaming a VLAN that is not there creates nothing; deleting VLAN 1 is refused by the device", async () => {
    await expect(ctx.driver().renameVlan(3999, "ghost")).rejects.toBeInstanceOf(DeviceRefused);
    expect(ctx.model.vlan(3999)).toBeUndefined();
    const e = ctx.driver().deleteVlan(1);
    await expect(e).rejects.toBeInstanceOf(DeviceRefused);
    await expect(e).rejects.toThrow(/Default VLAN 1 may not be deleted/);
  });

  test("saveConfig runs write memory: running is copied to startup", async () => {
    await ctx.driver().setDescription(await viewOf(ctx.driver(), id(6)), "saved by the driver");
    expect(ctx.model.isSaved()).toBe(false);
    await ctx.driver().saveConfig();
    expect(ctx.model.isSaved()).toBe(true);
    expect(ctx.model.startup.ports.get(ctx.model.port(6).ifIndex)!.alias).toBe("saved by the driver");
  });

  describe("device faults", () => {
    test("a refused configuration line is DeviceRefused with the device's words, and nothing changed", async () => {
      const p = ctx.model.port(7);
      const before = ctx.model.alias(p.ifIndex);
      ctx.face.faults.refuseCommands("description", "Command rejected: interface locked");
      const failure = ctx.driver().setDescription(await viewOf(ctx.driver(), id(7)), "refused");
      await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
      await expect(failure).rejects.toThrow(/interface locked/);
      expect(ctx.model.alias(p.ifIndex)).toBe(before);
    });

    test("a write that reads back different is DeviceMismatch saying what was written and what is there", async () => {
      const p = ctx.model.port(8);
      const before = ctx.model.adminUp(p.ifIndex);
      ctx.face.faults.lieOnWrite = true;
      const failure = ctx.driver().setAdminState(await viewOf(ctx.driver(), id(8)), !before);
      await expect(failure).rejects.toBeInstanceOf(DeviceMismatch);
      await expect(failure).rejects.toThrow(/wrote admin state of GigabitEthernet1\/0\/8 = .*device reports/);
      expect(ctx.model.adminUp(p.ifIndex)).toBe(before);
    });

    test("a device that stops answering is DeviceUnreachable, not a partial snapshot", async () => {
      ctx.face.faults.hang = true;
      await expect(ctx.driver().learn("basic")).rejects.toBeInstanceOf(DeviceUnreachable);
    });

    test("a session dropped in the middle of a learn is DeviceUnreachable", async () => {
      const d = ctx.driver();
      await d.connect();
      ctx.face.faults.dropAfter(3);
      await expect(d.learn("details")).rejects.toMatchObject({ code: "device_unreachable" });
    });

    test("a switch that is not there is DeviceUnreachable naming it", async () => {
      const gone = await startLabSshFace(ctx.model);
      const port = gone.port;
      await gone.stop();
      const failure = ctx.driver({ port }).learn("basic");
      await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
      await expect(failure).rejects.toThrow(`ios-writes (127.0.0.1:${port})`);
    });
  });

  describe("host key pinning", () => {
    test("the first login reports the key to pin; the pinned key is accepted afterwards", async () => {
      let seen = "";
      await ctx.driver({}, (fp) => (seen = fp)).learnVlans();
      expect(seen).toBe(ctx.face.hostKeyFingerprint);
      await expect(ctx.driver({ host_key_fingerprint: seen }).learnVlans()).resolves.toEqual(expect.any(Array));
    });

    test("a different key than the pinned one is HostKeyChanged carrying the new key, with no login", async () => {
      const other = await startLabSshFace(ctx.model);
      try {
        const logins = other.counters.logins;
        const failure = ctx
          .driver({ port: other.port, host_key_fingerprint: ctx.face.hostKeyFingerprint })
          .learn("basic");
        await expect(failure).rejects.toBeInstanceOf(HostKeyChanged);
        await expect(failure).rejects.toMatchObject({
          code: "device_hostkey_changed",
          presented: other.hostKeyFingerprint,
        });
        expect(other.counters.logins).toBe(logins);
      } finally {
        await other.stop();
      }
    });
  });
});
