/**
 * The conformance suite every registered driver passes, in the spirit of NAPALM's shared
 * getter tests: the same tests against every driver, opened through the registry as the
 * service opens it, on one or more subjects:
 *
 *   lab        a lab switch (SNMP or SSH face): reads are compared with the lab's model,
 *              writes change the model and are verified, device faults are injected;
 *   recording  a recording of a real switch served by Debian's snmpsimd: the read part;
 *   real       a real agent (OpenSSH in a network namespace): reads and writes checked
 *              on the real system.
 *
 * A capability a driver lacks is an explicit skip, declared with test.skip and listed at
 * the end of the run (never an `if` inside a test).
 */
import type { LabSwitch, LabSwitchOptions, QBridgeMode } from "../../lab";
import { cloneConfig } from "../../lab/config";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import { qbridge } from "../../mib/oids";
import type { Driver } from "../../drivers/contract";
import type { DriverEntry } from "../../drivers/entry";
import { FAMILIES } from "../../drivers/families";
import type { CapabilityFlag } from "../../model/capabilities";
import type { DeviceSnapshot, InterfaceView } from "../../model/device";
import { DeviceMismatch, DeviceRefused, DeviceUnreachable } from "../../model/failures";
import {
  HTTPS_CONNECT_TIMEOUT_MS,
  HTTPS_REQUEST_TIMEOUT_MS,
  SSH_COMMAND_TIMEOUT_MS,
  SSH_CONNECT_TIMEOUT_MS,
  type Connection,
} from "../../model/targets";
import { snmprecPath } from "./fixtures";
import { checkFindRoles } from "./conformance-find";
import { Snmprec } from "./snmprec-facts";
import {
  actualClients,
  actualInterface,
  configView,
  expectedClients,
  expectedInterface,
  expectedTrunk,
  expectedUntaggedMove,
  expectedVlans,
  vlanView,
} from "./lab-expectations";

/** Faults of the face the subject's driver talks to, in the suite's words. */
export interface FaceFaults {
  /** the device answers nothing from now on */
  silent(): void;
  /** the device answers n more requests (or commands), then nothing */
  silentAfter(n: number): void;
  /** the device refuses every write with an error */
  refuseWrites(): void;
  /** the device accepts writes and applies nothing */
  lieOnWrites(): void;
  reset(): void;
}

export interface LabFace {
  connection: Connection;
  faults: FaceFaults;
  /** the refusal's words as the device says them (in the error message) */
  refusalText: RegExp;
  /** the requests (HTTP requests, RPCs, command lines) the device has received so far */
  requests?(): number;
  stop(): Promise<void>;
}

export interface LabSubject {
  kind: "lab";
  /** the registered driver's name */
  driver: string;
  label: string;
  lab: LabSwitchOptions;
  /** the face the driver talks to, started on the lab switch */
  face(lab: LabSwitch): Promise<LabFace>;
  interfaceId(iface: LabInterface): string;
  /** an id that names no interface of this driver */
  unknownId: string;
  /** the interface row this driver reports for a model interface, when it differs from the default */
  expectInterface?(model: VirtualSwitch, iface: LabInterface, id: string): ReturnType<typeof expectedInterface>;
  /** the VLANs this driver reports for the model, when the device shows less than the model holds (no names...) */
  expectVlans?(model: VirtualSwitch): ReturnType<typeof expectedVlans>;
  /** run the Q-BRIDGE untagged VLAN tests (agents in "auto" and "strict" mode) */
  qbridgeWrites?: boolean;
  /**
   * the most requests the face may receive for learnInterfaces() of every Ethernet port
   * (the face must count them: LabFace.requests); the suite holds the driver to it and to
   * fewer than learnInterface() per port
   */
  learnInterfacesRequests?: number;
}

export interface RecordingSubject {
  kind: "recording";
  driver: string;
  /** the recording's name (the community snmpsimd serves it under) */
  recording: string;
  /** the connection to snmpsimd serving it (the suite starts snmpsimd through `serve`) */
  serve(): Promise<{ connection: Connection; stop(): Promise<void> }>;
}

export interface RealSubject {
  kind: "real";
  driver: string;
  label: string;
  /** an id that names no port of the system */
  unknownId: string;
  /**
   * the most commands learnInterfaces() of every port may cost, counted by `commands` (the
   * driver's own count); the suite holds the driver to it and to fewer than learnInterface()
   * per port
   */
  learnInterfacesRequests?: { most: number; commands(driver: Driver): number };
  /** why it cannot run here (printed; its tests are skipped), or null */
  unavailable: string | null;
  start(): Promise<RealAgent>;
}

export interface RealAgent {
  connection: Connection;
  /** a port the writes may use, and how to read its state on the real system */
  port: string;
  adminUp(port: string): boolean;
  description(port: string): string;
  /** the names of the ports the system has */
  portNames(): string[];
  stop(): Promise<void>;
}

export type Subject = LabSubject | RecordingSubject | RealSubject;

const skipped: string[] = [];

function entryOf(name: string): DriverEntry {
  const entry = FAMILIES.find((f) => f.name === name);
  if (!entry) throw new Error(`no registered driver '${name}'`);
  return entry;
}

/** test() when the driver can, test.skip() (and listed) when it cannot */
function capable(entry: DriverEntry, flag: CapabilityFlag | "client_data", where: string): jest.It {
  if (entry.can[flag]) return test;
  return ((name: string, fn?: jest.ProvidesCallback, timeout?: number) => {
    skipped.push(`${entry.name} (${where}): "${name}" (the driver cannot: ${flag} is false)`);
    return test.skip(name, fn, timeout);
  }) as jest.It;
}

/** the skips of this run, printed at its end (the list is part of the output) */
export function listSkips(): void {
  afterAll(() => {
    if (skipped.length)
      console.log(`conformance: ${skipped.length} skipped for a missing capability:\n  ${skipped.join("\n  ")}`);
  });
}

/**
 * Every registered driver has a subject; a driver without one fails this test. What a
 * driver's registry entry says it was proven against (the README's table) is exactly its
 * subjects here: lab profiles, recordings (when this run can serve them), real agents.
 */
export function everyDriverHasASubject(subjects: Subject[], opts: { recordingsServed: boolean }): void {
  test("every registered driver has at least one subject in the conformance suite", () => {
    const covered = new Set(subjects.map((s) => s.driver));
    expect(FAMILIES.map((f) => f.name).filter((n) => !covered.has(n))).toEqual([]);
  });
  test("each driver's registry entry names exactly its subjects as what it was proven against", () => {
    const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
    for (const f of FAMILIES) {
      const mine = subjects.filter((s) => s.driver === f.name);
      const declared = {
        driver: f.name,
        lab: sorted(f.provenAgainst.lab ?? []),
        recordings: opts.recordingsServed ? sorted(f.provenAgainst.recordings ?? []) : [],
        real: sorted(f.provenAgainst.real ?? []),
      };
      const actual = {
        driver: f.name,
        lab: sorted(mine.flatMap((s) => (s.kind === "lab" ? [s.lab.profile ?? "generic"] : []))),
        recordings: sorted(mine.flatMap((s) => (s.kind === "recording" ? [s.recording] : []))),
        real: sorted(mine.flatMap((s) => (s.kind === "real" ? [s.label] : []))),
      };
      expect(actual).toEqual(declared);
    }
  });
}

async function viewOf(d: Driver, id: string): Promise<InterfaceView> {
  const view = await d.learnInterface(id);
  if (!view) throw new Error(`no interface ${id}`);
  return view;
}

/**
 * A face's connection with the timeouts the service gives a device (app/devices.ts: an
 * SNMP profile's default 2 s; SSH 10 s to connect, 20 s a command; HTTPS 10 s to connect,
 * 30 s a request). A face sets short ones so that the tests of a silent device end soon;
 * the other tests are not about time, and on a busy machine a short timeout turned a slow
 * answer into a retry or a failure.
 */
function withServiceTimeouts(c: Connection): Connection {
  if ("snmp" in c) return { ...c, snmp: { ...c.snmp, timeout_ms: Math.max(c.snmp.timeout_ms, 2000) } };
  if ("ssh" in c)
    return {
      ...c,
      ssh: { ...c.ssh, connect_timeout_ms: SSH_CONNECT_TIMEOUT_MS, command_timeout_ms: SSH_COMMAND_TIMEOUT_MS },
    };
  return {
    ...c,
    https: { ...c.https, connect_timeout_ms: HTTPS_CONNECT_TIMEOUT_MS, request_timeout_ms: HTTPS_REQUEST_TIMEOUT_MS },
  };
}

/** One lab switch and its face for a describe block; drivers closed after each test. */
function useLab(subject: LabSubject, overrides: LabSwitchOptions = {}) {
  const entry = entryOf(subject.driver);
  const state: { lab?: LabSwitch; face?: LabFace } = {};
  const open: Driver[] = [];
  beforeAll(async () => {
    const { startLabSwitch } = await import("../../lab");
    state.lab = await startLabSwitch({ ...subject.lab, ...overrides });
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
  return {
    get lab() {
      return state.lab!;
    },
    get model() {
      return state.lab!.model;
    },
    get faults() {
      return state.face!.faults;
    },
    get refusalText() {
      return state.face!.refusalText;
    },
    /** the face's request count so far */
    requests(): number {
      const face = state.face!;
      if (!face.requests) throw new Error(`the face of ${subject.label} does not count its requests`);
      return face.requests();
    },
    /**
     * the driver as the service opens it, for one "API call", with the service's own
     * timeouts: the face's short ones are for the tests that wait for them (faultDriver)
     */
    driver(): Driver {
      const d = entry.open(withServiceTimeouts(state.face!.connection), { name: state.lab!.options.name });
      open.push(d);
      return d;
    },
    /** the driver with the face's short timeouts, for the tests of a device that goes silent */
    faultDriver(): Driver {
      const d = entry.open(state.face!.connection, { name: state.lab!.options.name });
      open.push(d);
      return d;
    },
    /** Ethernet ports, without the last one (the uplink, a member of every VLAN) */
    ports: () => state.lab!.model.ethernetPorts.slice(0, -1),
  };
}

export function runLabSubject(subject: LabSubject): void {
  const entry = entryOf(subject.driver);
  const where = subject.label;
  describe(`conformance: ${subject.driver} on ${where}`, () => {
    const ctx = useLab(subject);
    const idOf = (i: LabInterface) => subject.interfaceId(i);
    const expectRow = (model: VirtualSwitch, i: LabInterface) =>
      (subject.expectInterface ?? expectedInterface)(model, i, idOf(i));
    const expectVlans = (model: VirtualSwitch) => (subject.expectVlans ?? expectedVlans)(model);

    function checkSnapshot(snap: DeviceSnapshot) {
      const model = ctx.model;
      expect(snap.hostname).toBe(model.system.sysName);
      expect(vlanView(snap.vlans)).toEqual(expectVlans(model));
      const byId = new Map(snap.interfaces.map((i) => [i.id, i]));
      expect(snap.interfaces.length).toBe(model.interfaces.length);
      for (const li of model.interfaces) {
        const got = byId.get(idOf(li));
        expect(got && actualInterface(got)).toEqual(expectRow(model, li));
        expect(got!.disabled_reason).toBeUndefined();
      }
    }

    test("learn('basic') equals the lab's model, with empty MAC and neighbour lists", async () => {
      const snap = await ctx.driver().learn("basic");
      expect(snap.scope).toBe("basic");
      checkSnapshot(snap);
      for (const i of snap.interfaces) expect([i.macs, i.neighbors]).toEqual([[], []]);
    });

    capable(
      entry,
      "client_data",
      where,
    )("learn('details') adds the model's MAC table (with ARP addresses) and LLDP neighbours", async () => {
      const model = ctx.model;
      const snap = await ctx.driver().learn("details");
      checkSnapshot(snap);
      for (const li of model.interfaces) {
        const got = snap.interfaces.find((x) => x.id === idOf(li))!;
        expect({ id: got.id, ...actualClients(got) }).toEqual({ id: got.id, ...expectedClients(model, li) });
      }
      expect(model.lldp.length).toBeGreaterThan(0);
    });

    capable(
      entry,
      "client_data",
      where,
    )("where is it plugged in: the details tell uplinks from edge ports, and ARP maps an IP to its MAC", async () => {
      const model = ctx.model;
      checkFindRoles(model, await ctx.driver().learn("details"), (ifIndex) => idOf(model.interface(ifIndex)!));
    });

    test("learnInterface gives the row and VLANs a full learn gives; null for an unknown id", async () => {
      const full = await ctx.driver().learn("basic");
      const model = ctx.model;
      for (const li of [ctx.ports()[0], ctx.ports()[1], model.ethernetPorts[model.ethernetPorts.length - 1]]) {
        const view = await ctx.driver().learnInterface(idOf(li));
        expect(view!.interface).toEqual(full.interfaces.find((i) => i.id === idOf(li)));
        expect(view!.vlans).toEqual(full.vlans);
      }
      expect(await ctx.driver().learnInterface(subject.unknownId)).toBeNull();
    });

    test("learnInterfaces gives, in one call, what learnInterface gives for each id (a few, and every port)", async () => {
      const model = ctx.model;
      const few = [ctx.ports()[0], ctx.ports()[1], model.ethernetPorts[model.ethernetPorts.length - 1]].map(idOf);
      for (const ids of [few, model.ethernetPorts.map(idOf)]) {
        const d = ctx.driver();
        const views = await d.learnInterfaces([...ids, subject.unknownId]);
        expect(views.get(subject.unknownId)).toBeNull();
        const each = ctx.driver();
        for (const id of ids) {
          const one = await each.learnInterface(id);
          expect(views.get(id)!.interface).toEqual(one!.interface);
          expect(views.get(id)!.vlans).toEqual(one!.vlans);
        }
      }
    });

    const bound = subject.learnInterfacesRequests;
    if (bound !== undefined)
      test(`learnInterfaces of every port is one read: at most ${bound === 1 ? "one request" : `${bound} requests`}, fewer than learnInterface per port`, async () => {
        const all = ctx.model.ethernetPorts.map(idOf);
        const cost = async (read: (d: Driver) => Promise<unknown>) => {
          const d = ctx.driver();
          await d.learnVlans(); // the login (and a session's set-up) are not the read's
          const before = ctx.requests();
          await read(d);
          return ctx.requests() - before;
        };
        const once = await cost((d) => d.learnInterfaces(all));
        const each = await cost(async (d) => {
          for (const id of all) await d.learnInterface(id);
        });
        expect(once).toBeLessThanOrEqual(bound);
        expect(once).toBeLessThan(each);
      });

    capable(
      entry,
      "change_admin_status",
      where,
    )("the views of one learnInterfaces take writes, several ports in turn", async () => {
      const [a, b] = [ctx.ports()[2], ctx.ports()[3]];
      const d = ctx.driver();
      const views = await d.learnInterfaces([idOf(a), idOf(b)]);
      await d.setAdminState(views.get(idOf(a))!, false);
      await d.setAdminState(views.get(idOf(b))!, false);
      expect([ctx.model.adminUp(a.ifIndex), ctx.model.adminUp(b.ifIndex)]).toEqual([false, false]);
      await d.setAdminState(views.get(idOf(a))!, true);
      await d.setAdminState(views.get(idOf(b))!, true);
      expect([ctx.model.adminUp(a.ifIndex), ctx.model.adminUp(b.ifIndex)]).toEqual([true, true]);
    });

    test("parseInterfaceId takes every id the driver reports, and refuses what names no interface", async () => {
      const d = ctx.driver();
      for (const i of (await d.learn("basic")).interfaces) expect(d.parseInterfaceId(i.id)).toBe(i.id);
      for (const bad of ["", "x\ny", "../1"]) expect(d.parseInterfaceId(bad)).toBeNull();
    });

    test("learnVlans lists the model's VLANs", async () => {
      expect(vlanView(await ctx.driver().learnVlans())).toEqual(expectVlans(ctx.model));
    });

    capable(
      entry,
      "change_admin_status",
      where,
    )("setAdminState takes a port down and up again", async () => {
      const li = ctx.ports()[2];
      const d = ctx.driver();
      await d.setAdminState(await viewOf(d, idOf(li)), false);
      expect(ctx.model.adminUp(li.ifIndex)).toBe(false);
      expect((await viewOf(d, idOf(li))).interface.admin_up).toBe(false);
      await d.setAdminState(await viewOf(d, idOf(li)), true);
      expect(ctx.model.adminUp(li.ifIndex)).toBe(true);
    });

    capable(
      entry,
      "change_description",
      where,
    )("setDescription sets and clears a port's description", async () => {
      const li = ctx.ports()[3];
      const d = ctx.driver();
      await d.setDescription(await viewOf(d, idOf(li)), "desk 4 (room 2.14)");
      expect(ctx.model.alias(li.ifIndex)).toBe("desk 4 (room 2.14)");
      await d.setDescription(await viewOf(d, idOf(li)), "");
      expect(ctx.model.alias(li.ifIndex)).toBe("");
    });

    capable(
      entry,
      "change_poe",
      where,
    )("setPoe switches a PoE port off and on; a port without PoE is refused", async () => {
      const model = ctx.model;
      const poePort = ctx.ports().find((p) => p.poe);
      const plain = ctx.ports().find((p) => !p.poe);
      if (!poePort || !plain) throw new Error("a conformance lab switch must have ports with and without PoE");
      const d = ctx.driver();
      const before = model.poeState(poePort.ifIndex)!.enabled;
      await d.setPoe(await viewOf(d, idOf(poePort)), !before);
      expect(model.poeState(poePort.ifIndex)!.enabled).toBe(!before);
      await d.setPoe(await viewOf(d, idOf(poePort)), before);
      expect(model.poeState(poePort.ifIndex)!.enabled).toBe(before);
      await expect(d.setPoe(await viewOf(d, idOf(plain)), true)).rejects.toMatchObject({ code: "not_supported" });
    });

    // a bounce and a PoE power cycle (app/port-cycles.ts) switch off and on again through the
    // one view their checks were made on: the second setter must not need a fresh learn
    capable(
      entry,
      "change_admin_status",
      where,
    )("a bounce: setAdminState down and up again through the same view, each read back", async () => {
      const li = ctx.ports()[5];
      const d = ctx.driver();
      const view = await viewOf(d, idOf(li));
      expect(view.interface.admin_up).toBe(true);
      await d.setAdminState(view, false);
      expect(ctx.model.adminUp(li.ifIndex)).toBe(false);
      await d.setAdminState(view, true);
      expect(ctx.model.adminUp(li.ifIndex)).toBe(true);
      expect((await viewOf(d, idOf(li))).interface.admin_up).toBe(true);
    });

    capable(
      entry,
      "change_poe",
      where,
    )("a PoE power cycle: setPoe off and on again through the same view, each read back", async () => {
      const poePort = ctx.ports().find((p) => p.poe && ctx.model.poeState(p.ifIndex)?.enabled);
      if (!poePort) throw new Error("a conformance lab switch must have a port with PoE on");
      const d = ctx.driver();
      const view = await viewOf(d, idOf(poePort));
      await d.setPoe(view, false);
      expect(ctx.model.poeState(poePort.ifIndex)!.enabled).toBe(false);
      await d.setPoe(view, true);
      expect(ctx.model.poeState(poePort.ifIndex)!.enabled).toBe(true);
    });

    capable(
      entry,
      "change_vlan",
      where,
    )("setUntaggedVlan moves an access port to another VLAN and back, keeping the switch consistent", async () => {
      const model = ctx.model;
      const li = ctx.ports()[4];
      const home = expectRow(model, li).untagged_vlan;
      const target = model.activeVlanIds().find((v) => v !== home && !expectRow(model, li).tagged_vlans.includes(v))!;
      const d = ctx.driver();
      await d.setUntaggedVlan(await viewOf(d, idOf(li)), target);
      expect(expectRow(model, li).untagged_vlan).toBe(target);
      expect((await viewOf(d, idOf(li))).interface.untagged_vlan).toBe(target);
      expect(model.consistencyProblems()).toEqual([]);
      await d.setUntaggedVlan(await viewOf(d, idOf(li)), home);
      expect(expectRow(model, li).untagged_vlan).toBe(home);
    });

    capable(
      entry,
      "change_tags",
      where,
    )("setTags makes an access port a trunk, moves its native VLAN, and makes it an access port again", async () => {
      const model = ctx.model;
      const li = ctx.ports()[8];
      const d = ctx.driver();
      const home = expectRow(model, li).untagged_vlan;
      const before = expectRow(model, li).tagged_vlans;
      const [a, b] = model.activeVlanIds().filter((v) => v !== home && !before.includes(v));
      const trunk = async (untagged: number, tagged: number[], allowAll = false) => {
        await d.setTags(await viewOf(d, idOf(li)), { untagged, tagged, allowAll });
        const row = expectRow(model, li);
        expect({ untagged: row.untagged_vlan, tagged: row.tagged_vlans }).toEqual({ untagged, tagged });
        const seen = (await viewOf(d, idOf(li))).interface;
        expect({ untagged: seen.untagged_vlan, tagged: seen.tagged_vlans }).toEqual({ untagged, tagged });
        expect(model.consistencyProblems()).toEqual([]);
      };
      const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);
      await trunk(home, sorted([a, b]));
      await trunk(a, sorted([home, b]));
      await trunk(home, []);
      // allow_all: the application lists every VLAN of the device
      const all = (await d.learnVlans()).map((v) => v.id).filter((v) => v !== home);
      await trunk(home, all, true);
      await trunk(home, before);
    });

    capable(
      entry,
      "change_tags",
      where,
    )("setTags to a VLAN the device does not have is refused and changes nothing", async () => {
      const model = ctx.model;
      const li = ctx.ports()[0];
      const d = ctx.driver();
      const original = cloneConfig(model.running);
      const home = expectRow(model, li).untagged_vlan;
      await expect(
        d.setTags(await viewOf(d, idOf(li)), { untagged: home, tagged: [3999], allowAll: false }),
      ).rejects.toMatchObject({ code: expect.stringMatching(/^(not_supported|device_refused)$/) });
      expect(configView(model.running)).toEqual(configView(original));
    });

    capable(
      entry,
      "edit_vlans",
      where,
    )("createVlan and deleteVlan change the model's VLAN table", async () => {
      const id = 3001;
      const d = ctx.driver();
      await d.createVlan(id, "conformance");
      expect(ctx.model.vlan(id)).toMatchObject({ active: true });
      expect((await d.learnVlans()).map((v) => v.id)).toContain(id);
      await d.deleteVlan(id);
      expect(ctx.model.vlan(id)).toBeUndefined();
    });

    capable(
      entry,
      "change_vlan_name",
      where,
    )("renameVlan renames a VLAN", async () => {
      const d = ctx.driver();
      const id = ctx.model.activeVlanIds().find((v) => v !== 1)!;
      const before = ctx.model.vlan(id)!.name;
      await d.renameVlan(id, "renamed");
      expect(ctx.model.vlan(id)!.name).toBe("renamed");
      expect(vlanView(await d.learnVlans())).toContainEqual({ id, name: "renamed", state: "Enabled" });
      await d.renameVlan(id, before);
    });

    capable(
      entry,
      "save_config",
      where,
    )("saveConfig copies the running configuration to the startup configuration", async () => {
      const li = ctx.ports()[5];
      const d = ctx.driver();
      // the change to save: a description, or where the driver cannot write one (AOS-CX) the admin state
      if (entry.can.change_description) await d.setDescription(await viewOf(d, idOf(li)), "saved by the suite");
      else await d.setAdminState(await viewOf(d, idOf(li)), !ctx.model.adminUp(li.ifIndex));
      expect(ctx.model.isSaved()).toBe(false);
      await d.saveConfig();
      expect(ctx.model.isSaved()).toBe(true);
      const saved = ctx.model.startup.ports.get(li.ifIndex)!;
      if (entry.can.change_description) expect(saved.alias).toBe("saved by the suite");
      else expect(saved.adminUp).toBe(ctx.model.adminUp(li.ifIndex));
    });

    describe("device faults", () => {
      test("a device that answers nothing gives DeviceUnreachable", async () => {
        const d = ctx.faultDriver();
        ctx.faults.silent();
        await expect(d.learn("basic")).rejects.toBeInstanceOf(DeviceUnreachable);
      });

      test("a device that stops answering in the middle of a learn gives DeviceUnreachable, not a partial snapshot", async () => {
        const d = ctx.faultDriver();
        ctx.faults.silentAfter(3);
        await expect(d.learn("basic")).rejects.toMatchObject({ code: "device_unreachable" });
      });

      capable(
        entry,
        "change_description",
        where,
      )("a refused write gives DeviceRefused with the device's words and changes nothing", async () => {
        const li = ctx.ports()[6];
        const before = ctx.model.alias(li.ifIndex);
        const d = ctx.driver();
        const view = await viewOf(d, idOf(li));
        ctx.faults.refuseWrites();
        const failure = d.setDescription(view, "refused");
        await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
        await expect(failure).rejects.toThrow(ctx.refusalText);
        expect(ctx.model.alias(li.ifIndex)).toBe(before);
      });

      capable(
        entry,
        "change_admin_status",
        where,
      )("a write that reads back different gives DeviceMismatch, never success", async () => {
        const li = ctx.ports()[7];
        const before = ctx.model.adminUp(li.ifIndex);
        const d = ctx.driver();
        const view = await viewOf(d, idOf(li));
        ctx.faults.lieOnWrites();
        await expect(d.setAdminState(view, !before)).rejects.toBeInstanceOf(DeviceMismatch);
        expect(ctx.model.adminUp(li.ifIndex)).toBe(before);
      });
    });

    if (subject.qbridgeWrites) {
      for (const mode of ["auto", "strict"] as const) {
        describe(`untagged VLAN changes, Q-BRIDGE agent in ${mode} mode`, () => qbridgeUntaggedTests(subject, mode));
        if (entry.can.change_tags)
          describe(`trunk changes, Q-BRIDGE agent in ${mode} mode`, () => qbridgeTrunkTests(subject, mode));
      }
    }
  });
}

/**
 * setUntaggedVlan against a lab whose agent treats Q-BRIDGE writes the `mode` way: only
 * "strict" (every object changes only itself) shows whether the driver writes everything
 * a consistent change needs; multi-step changes are also made to fail half-way.
 */
function qbridgeUntaggedTests(subject: LabSubject, mode: QBridgeMode): void {
  const ctx = useLab(subject, { qbridge: mode });
  const idOf = (i: LabInterface) => subject.interfaceId(i);
  const set = async (li: LabInterface, vlan: number) => {
    const d = ctx.driver();
    await d.setUntaggedVlan(await viewOf(d, idOf(li)), vlan);
  };
  /** an active VLAN that is none of `not` and that bridge port bp does not carry at all */
  const freshVlan = (bp: number, ...not: number[]) => {
    const id = ctx.model.activeVlanIds().find((v) => !not.includes(v) && !ctx.model.vlan(v)!.egress.has(bp));
    if (id === undefined) throw new Error(`the lab has no VLAN that bridge port ${bp} could move to`);
    return id;
  };

  test("sets the PVID and the egress and untagged sets of the old and new VLAN, nothing else", async () => {
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
    await set(li, target);
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
    expect(model.consistencyProblems()).toEqual([]);
    await set(li, home);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("several ports moved through the views of one learnInterfaces, without read-backs: each builds on the last", async () => {
    const model = ctx.model;
    const ports = ctx.ports().slice(0, 4);
    const original = cloneConfig(model.running);
    const target = freshVlan(ports[0].bridgePort!, ...ports.map((p) => model.pvid(p.bridgePort!)!));
    const d = ctx.driver();
    const views = await d.learnInterfaces(ports.map(idOf));
    d.verifyWrites?.("deferred");
    let expected = original;
    for (const p of ports) {
      await d.setUntaggedVlan(views.get(idOf(p))!, target);
      expected = expectedUntaggedMove(expected, p.bridgePort!, target);
    }
    // the first port again, back home, through the same view
    const home = original.pvid.get(ports[0].bridgePort!)!;
    await d.setUntaggedVlan(views.get(idOf(ports[0]))!, home);
    expected = expectedUntaggedMove(expected, ports[0].bridgePort!, home);
    d.verifyWrites?.("each");
    expect(configView(model.running)).toEqual(configView(expected));
    expect(model.consistencyProblems()).toEqual([]);
    model.commit(original);
  });

  test("a port that carries its PVID VLAN tagged only stays a tagged member of it", async () => {
    const model = ctx.model;
    const li = ctx.ports()[1];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    model.update((cfg) => cfg.vlans.get(home)!.untagged.delete(bp));
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, home);
    await set(li, target);
    expect(model.vlan(home)!.egress.has(bp)).toBe(true);
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
  });

  test("a change whose one-PDU SET is refused as inconsistent is made in steps, with the same result", async () => {
    const model = ctx.model;
    const li = ctx.ports()[2];
    const bp = li.bridgePort!;
    const original = cloneConfig(model.running);
    const target = freshVlan(bp, model.pvid(bp)!);
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");
    await d.setUntaggedVlan(view, target);
    expect(configView(model.running)).toEqual(configView(expectedUntaggedMove(original, bp, target)));
    expect(model.consistencyProblems()).toEqual([]);
  });

  test("a step refused after an accepted one: the accepted step is undone and the error says so", async () => {
    const model = ctx.model;
    const li = ctx.ports()[3];
    const original = cloneConfig(model.running);
    const target = freshVlan(li.bridgePort!, model.pvid(li.bridgePort!)!);
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");
    ctx.lab.faults.refuseNthSet(3, "commitFailed");
    const failure = d.setUntaggedVlan(view, target);
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/commitFailed.*the earlier values were restored/);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("the last step refused: every earlier step is undone and the error says so", async () => {
    const model = ctx.model;
    const li = ctx.ports()[4];
    const home = model.pvid(li.bridgePort!)!;
    const original = cloneConfig(model.running);
    const target = freshVlan(li.bridgePort!, home);
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.lab.faults.refuseSetsMatching(`${qbridge.dot1qVlanStaticUntaggedPorts}.${home}`, "inconsistentValue");
    const failure = d.setUntaggedVlan(view, target);
    await expect(failure).rejects.toThrow(/inconsistentValue.*the earlier values were restored/);
    expect(configView(model.running)).toEqual(configView(original));
  });
}

/**
 * setTags against a lab whose agent treats Q-BRIDGE writes the `mode` way: "strict" shows
 * whether the driver writes every object a consistent trunk needs (PVID, egress and
 * untagged lists) and nothing else; failures half-way must leave the port as it was.
 */
function qbridgeTrunkTests(subject: LabSubject, mode: QBridgeMode): void {
  // more VLANs than one SET PDU of the driver carries, for allow_all
  const ctx = useLab(subject, { qbridge: mode, extraVlans: 40 });
  const idOf = (i: LabInterface) => subject.interfaceId(i);
  const setTags = async (li: LabInterface, untagged: number, tagged: number[]) => {
    const d = ctx.driver();
    await d.setTags(await viewOf(d, idOf(li)), { untagged, tagged, allowAll: false });
  };
  /** active VLANs other than the port's PVID that the port does not carry */
  const freeVlans = (bp: number) =>
    ctx.model.activeVlanIds().filter((v) => v !== ctx.model.pvid(bp) && !ctx.model.vlan(v)!.egress.has(bp));

  test("access to trunk, native moved, tagged changed, back to access: exactly the port's memberships change", async () => {
    const model = ctx.model;
    const li = ctx.ports()[5];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const [a, b, c] = freeVlans(bp);
    const original = cloneConfig(model.running);
    const tagged = expectedInterface(model, li, "").tagged_vlans;
    const steps: Array<[number, number[]]> = [
      [home, [a, b]],
      [a, [home, b]],
      [a, [c]],
      [home, []],
      [home, tagged],
    ];
    let before = cloneConfig(model.running);
    for (const [native, tagged] of steps) {
      await setTags(li, native, tagged);
      expect(configView(model.running)).toEqual(configView(expectedTrunk(before, bp, native, tagged)));
      expect(model.consistencyProblems()).toEqual([]);
      before = cloneConfig(model.running);
    }
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("a trunk change whose one-PDU SET is refused as inconsistent is made in steps, with the same result", async () => {
    const model = ctx.model;
    const li = ctx.ports()[6];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const [a, b] = freeVlans(bp);
    const original = cloneConfig(model.running);
    const tagged = expectedInterface(model, li, "").tagged_vlans;
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");
    await d.setTags(view, { untagged: a, tagged: [home, b].sort((x, y) => x - y), allowAll: false });
    expect(configView(model.running)).toEqual(configView(expectedTrunk(original, bp, a, [home, b])));
    expect(model.consistencyProblems()).toEqual([]);
    await setTags(li, home, tagged);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("a step refused after an accepted one: the port is put back as it was and the error says so", async () => {
    const model = ctx.model;
    const li = ctx.ports()[7];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const [a, b] = freeVlans(bp);
    const original = cloneConfig(model.running);
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.lab.faults.refuseNthSet(1, "inconsistentValue");
    ctx.lab.faults.refuseNthSet(3, "commitFailed");
    const failure = d.setTags(view, { untagged: a, tagged: [home, b].sort((x, y) => x - y), allowAll: false });
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/commitFailed.*the earlier values were restored/);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("allow_all on a switch with more VLANs than one SET carries: made in parts, then an access port again", async () => {
    const model = ctx.model;
    const li = ctx.ports()[4];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const original = cloneConfig(model.running);
    const tagged = expectedInterface(model, li, "").tagged_vlans;
    const all = model.vlanIds().filter((v) => v !== home);
    expect(all.length).toBeGreaterThan(40);
    const d = ctx.driver();
    await d.setTags(await viewOf(d, idOf(li)), { untagged: home, tagged: all, allowAll: true });
    expect(configView(model.running)).toEqual(configView(expectedTrunk(original, bp, home, all)));
    expect(model.consistencyProblems()).toEqual([]);
    await setTags(li, home, tagged);
    expect(configView(model.running)).toEqual(configView(original));
  });

  test("a trunk change the device takes but does not keep is put back and reported, never a success", async () => {
    const model = ctx.model;
    const li = ctx.ports()[8];
    const bp = li.bridgePort!;
    const home = model.pvid(bp)!;
    const [a] = freeVlans(bp);
    const original = cloneConfig(model.running);
    const d = ctx.driver();
    const view = await viewOf(d, idOf(li));
    ctx.faults.lieOnWrites();
    await expect(d.setTags(view, { untagged: home, tagged: [a], allowAll: false })).rejects.toBeInstanceOf(
      DeviceMismatch,
    );
    expect(configView(model.running)).toEqual(configView(original));
  });
}

function recordedSysName(recording: string): string {
  const file = snmprecPath(recording);
  return (file && new Snmprec(file).get("1.3.6.1.2.1.1.5.0")?.text) || "";
}

export function runRecordingSubject(subject: RecordingSubject): void {
  const entry = entryOf(subject.driver);
  describe(`conformance: ${subject.driver} on the recording ${subject.recording} (snmpsimd, reads)`, () => {
    let served: Awaited<ReturnType<RecordingSubject["serve"]>>;
    let full: DeviceSnapshot;
    const open: Driver[] = [];
    const driver = () => {
      const d = entry.open(served.connection, { name: subject.recording });
      open.push(d);
      return d;
    };
    beforeAll(async () => {
      served = await subject.serve();
      full = await driver().learn("basic");
    }, 60_000);
    afterEach(async () => void (await Promise.all(open.splice(0).map((d) => d.close()))));
    afterAll(async () => served?.stop());

    test("learn('basic') lists the recording's interfaces and VLANs", () => {
      expect(full.interfaces.length).toBeGreaterThan(0);
      // the recorded sysName; a recording without one gives none (a driver invents no name)
      expect(full.hostname).toBe(recordedSysName(subject.recording));
      for (const i of full.interfaces) expect(i.name).not.toBe("");
    });

    test("learnInterface agrees with the full learn; learnVlans with its VLANs", async () => {
      const ports = full.interfaces.filter((i) => i.kind === "ethernet");
      for (const iface of [ports[0], ports[ports.length - 1]]) {
        expect((await driver().learnInterface(iface.id))!.interface).toEqual(iface);
      }
      expect(await driver().learnVlans()).toEqual(full.vlans);
    });

    capable(
      entry,
      "client_data",
      subject.recording,
    )("learn('details') completes and keeps the basic facts", async () => {
      const details = await driver().learn("details");
      expect(details.interfaces.map((i) => i.id)).toEqual(full.interfaces.map((i) => i.id));
    });
  });
}

export function runRealSubject(subject: RealSubject): void {
  const entry = entryOf(subject.driver);
  if (subject.unavailable) console.warn(`conformance: ${subject.label}: skipped: ${subject.unavailable}`);
  const describeReal = subject.unavailable ? describe.skip : describe;
  describeReal(`conformance: ${subject.driver} on ${subject.label}`, () => {
    let agent: RealAgent;
    const open: Driver[] = [];
    const driver = () => {
      const d = entry.open(agent.connection, { name: subject.label });
      open.push(d);
      return d;
    };
    beforeAll(async () => {
      agent = await subject.start();
    }, 30_000);
    afterEach(async () => void (await Promise.all(open.splice(0).map((d) => d.close()))));
    afterAll(async () => agent?.stop());

    test("learn('basic') lists the system's ports, and learnInterface agrees", async () => {
      const snap = await driver().learn("basic");
      expect(snap.interfaces.map((i) => i.id).sort()).toEqual(agent.portNames().sort());
      expect((await driver().learnInterface(agent.port))!.interface).toEqual(
        snap.interfaces.find((i) => i.id === agent.port),
      );
    });

    test("learnInterfaces gives, in one call, what learnInterface gives for every port; null for an unknown id", async () => {
      const ports = agent.portNames();
      const views = await driver().learnInterfaces([...ports, subject.unknownId]);
      expect(views.get(subject.unknownId)).toBeNull();
      const each = driver();
      for (const port of ports) expect(views.get(port)).toEqual(await each.learnInterface(port));
    });

    const bound = subject.learnInterfacesRequests;
    if (bound)
      test(`learnInterfaces of every port is one read: at most ${bound.most === 1 ? "one command" : `${bound.most} commands`}, fewer than learnInterface per port`, async () => {
        const ports = agent.portNames();
        const cost = async (read: (d: Driver) => Promise<unknown>) => {
          const d = driver();
          const before = bound.commands(d);
          await read(d);
          return bound.commands(d) - before;
        };
        const once = await cost((d) => d.learnInterfaces(ports));
        const each = await cost(async (d) => {
          for (const port of ports) await d.learnInterface(port);
        });
        expect(once).toBeLessThanOrEqual(bound.most);
        expect(once).toBeLessThan(each);
      });

    capable(
      entry,
      "change_admin_status",
      subject.label,
    )("setAdminState changes the real port", async () => {
      const d = driver();
      await d.setAdminState(await viewOf(d, agent.port), false);
      expect(agent.adminUp(agent.port)).toBe(false);
      await d.setAdminState(await viewOf(d, agent.port), true);
      expect(agent.adminUp(agent.port)).toBe(true);
    });

    capable(
      entry,
      "change_description",
      subject.label,
    )("setDescription changes the real port's description", async () => {
      const d = driver();
      await d.setDescription(await viewOf(d, agent.port), "set by the conformance suite");
      expect(agent.description(agent.port)).toBe("set by the conformance suite");
      await d.setDescription(await viewOf(d, agent.port), "");
      expect(agent.description(agent.port)).toBe("");
    });

    for (const flag of [
      "change_vlan",
      "change_poe",
      "edit_vlans",
      "change_vlan_name",
      "save_config",
      "change_tags",
    ] as const) {
      capable(
        entry,
        flag,
        subject.label,
      )(`${flag} works on the real system`, () => {
        throw new Error(`no real-system check written for ${flag} yet`);
      });
    }
  });
}

/** The whole suite on a family's subjects, with the capability skips listed at the end. */
export function runSubjects(subjects: readonly Subject[]): void {
  listSkips();
  for (const subject of subjects) {
    if (subject.kind === "lab") runLabSubject(subject);
    else if (subject.kind === "recording") runRecordingSubject(subject);
    else runRealSubject(subject);
  }
}
