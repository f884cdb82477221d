/**
 * The Junos NETCONF driver against the lab's NETCONF face, beyond the conformance suite:
 * a change through NETCONF is seen over SNMP of the same switch and the reverse; a
 * confirmed commit whose driver lost the session is rolled back by the switch itself;
 * after a refused load or commit the candidate is unlocked and clean and the next change
 * goes through; the rpc-error's text reaches the error; another session's lock is a
 * refusal; a changed host key is HostKeyChanged; a refused login is DeviceUnreachable;
 * both framings; the older (non-ELS) EX statements and answers.
 */
import { FAMILIES } from "../../drivers/families";
import { JunosNetconfDriver } from "../../drivers/families/junos-netconf/driver";
import { NetconfSession, RpcRefused } from "../../drivers/netconf/session";
import { startLabNetconfFace, startLabSwitch, type LabNetconfFace, type LabSwitch } from "../../lab";
import type { InterfaceView } from "../../model/device";
import { DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable, HostKeyChanged } from "../../model/failures";
import type { SshTarget } from "../../model/targets";

const snmpJuniper = FAMILIES.find((f) => f.name === "juniper")!;

let lab: LabSwitch;
let face: LabNetconfFace;
const open: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  lab = await startLabSwitch({ profile: "juniper", ports: 24, poePorts: [1, 2, 3, 4], routedPorts: [2], seed: 5 });
  // a "minute" of a confirm-timeout lasts a second here: long enough for a driver's
  // read-back on a busy machine (at 150 ms the switch once rolled a change back before the
  // read-back came), short enough to watch the switch roll back by itself
  face = await startLabNetconfFace(lab, { confirmMinuteMs: 1000 });
}, 20_000);
afterEach(async () => {
  face.faults.reset();
  await Promise.all(open.splice(0).map((d) => d.close()));
});
afterAll(async () => {
  await face?.stop();
  await lab?.stop();
});

const target = (extra: Partial<SshTarget> = {}): SshTarget => ({
  ...face.sshTarget(),
  command_timeout_ms: 1500,
  ...extra,
});

function driver(options: ConstructorParameters<typeof JunosNetconfDriver>[1] = {}, t: SshTarget = target()) {
  const d = new JunosNetconfDriver(t, { name: "lab-ex", ...options });
  open.push(d);
  return d;
}

async function view(d: JunosNetconfDriver, name: string): Promise<InterfaceView> {
  const v = await d.learnInterface(name);
  if (!v) throw new Error(`no interface ${name}`);
  return v;
}

const snmpDriver = () => {
  const d = snmpJuniper.open({ connector: 0, snmp: lab.snmpTarget() }, { name: "lab-ex" });
  open.push(d);
  return d;
};

test("a change through NETCONF is read over SNMP, and one made on the model the SNMP face serves is read through NETCONF", async () => {
  const port = lab.model.port(6);
  const d = driver();
  await d.setDescription(await view(d, port.name), "changed over NETCONF");
  await d.setAdminState(await view(d, port.name), false);
  const overSnmp = (await snmpDriver().learnInterface(String(port.ifIndex)))!.interface;
  expect({ description: overSnmp.description, admin_up: overSnmp.admin_up }).toEqual({
    description: "changed over NETCONF",
    admin_up: false,
  });
  // and back (the juniper SNMP face takes no writes, as Junos): the running configuration changes, NETCONF reads it
  lab.model.update((cfg) => {
    cfg.ports.get(port.ifIndex)!.alias = "changed over SNMP";
    cfg.ports.get(port.ifIndex)!.adminUp = true;
  });
  const overNetconf = (await driver().learnInterface(port.name))!.interface;
  expect({ description: overNetconf.description, admin_up: overNetconf.admin_up }).toEqual({
    description: "changed over SNMP",
    admin_up: true,
  });
});

test("quotes, backslashes and XML characters reach the switch as they were; what no command may carry is refused before anything is sent", async () => {
  const port = lab.model.port(12);
  const d = driver();
  const text = `say "hi" \\ <b>&amp;</b> ]]>]]> done`;
  await d.setDescription(await view(d, port.name), text);
  expect(lab.model.alias(port.ifIndex)).toBe(text);
  expect((await view(d, port.name)).interface.description).toBe(text);
  const commits = face.counters.commits;
  await expect(d.setDescription(await view(d, port.name), "two\nlines")).rejects.toMatchObject({
    code: "not_supported",
  });
  await expect(d.createVlan(3333, "no spaces please")).rejects.toMatchObject({ code: "not_supported" });
  expect(face.counters.commits).toBe(commits);
  expect(lab.model.vlan(3333)).toBeUndefined();
});

test("a routed port (its address on unit 0, as Junos has it) and the VLAN interface read as routed", async () => {
  const rows = (await driver().learn("basic")).interfaces;
  const routed = rows.filter((r) => r.routed && !r.name.includes(".")).map((r) => r.name);
  expect(routed).toEqual([lab.model.port(2).name]);
  expect(rows.find((r) => r.name === "irb.0")).toMatchObject({ routed: true, kind: "other" });
  expect(rows.find((r) => r.name === lab.model.port(3).name)).toMatchObject({ routed: false, kind: "ethernet" });
});

test("a confirmed commit never confirmed (the driver lost its session) is rolled back by the switch itself", async () => {
  const port = lab.model.port(7);
  const before = lab.model.alias(port.ifIndex);
  const rollbacks = face.counters.rollbacks;
  // what the switch had the moment the confirmed commit was answered
  let committed: { alias: string; confirmPending: boolean } | null = null;
  const d = driver({
    afterConfirmedCommit: (s) => {
      committed = { alias: lab.model.alias(port.ifIndex), confirmPending: face.configState().confirmPending };
      s.abandon();
    },
  });
  const failure = d.setDescription(await view(d, port.name), "never confirmed");
  await expect(failure).rejects.toBeInstanceOf(DeviceOutcomeUnknown);
  await expect(failure).rejects.toThrow(/rolls it back by itself within 1 minute/);
  expect(committed).toEqual({ alias: "never confirmed", confirmPending: true });
  // the lost session's lock goes with it; the switch goes back by itself
  await waitFor(() => !face.configState().locked && !face.configState().confirmPending, 3000);
  expect(face.counters.rollbacks).toBe(rollbacks + 1);
  expect(lab.model.alias(port.ifIndex)).toBe(before);
});

test("a confirmed commit that is confirmed stays after the timeout", async () => {
  const port = lab.model.port(8);
  const d = driver();
  await d.setDescription(await view(d, port.name), "confirmed");
  expect(face.configState()).toEqual({ locked: false, uncommitted: false, confirmPending: false });
  await new Promise((r) => setTimeout(r, 1200));
  expect(lab.model.alias(port.ifIndex)).toBe("confirmed");
});

test("a refused load or commit leaves the candidate unlocked and clean, with the switch's words in the error", async () => {
  const port = lab.model.port(9);
  const before = lab.model.alias(port.ifIndex);
  const d = driver();
  face.faults.refuseRpc("commit-configuration", "commit failed: the lab refuses this commit");
  const refused = d.setDescription(await view(d, port.name), "refused at commit");
  await expect(refused).rejects.toBeInstanceOf(DeviceRefused);
  await expect(refused).rejects.toThrow(/commit failed: the lab refuses this commit/);
  expect(face.configState()).toEqual({ locked: false, uncommitted: false, confirmPending: false });
  expect(lab.model.alias(port.ifIndex)).toBe(before);
  face.faults.reset();

  // the switch's own commit check: a second VLAN with an id in use
  const used = lab.model.activeVlanIds().find((v) => v !== 1)!;
  const duplicate = d.createVlan(used, "second-name");
  await expect(duplicate).rejects.toBeInstanceOf(DeviceRefused);
  await expect(duplicate).rejects.toThrow(new RegExp(`vlan-id ${used} is already used`));
  expect(face.configState()).toEqual({ locked: false, uncommitted: false, confirmPending: false });

  face.faults.refuseWrites = "load refused: the lab refuses this load";
  await expect(d.setAdminState(await view(d, port.name), false)).rejects.toThrow(/load refused: the lab refuses/);
  expect(face.configState()).toEqual({ locked: false, uncommitted: false, confirmPending: false });
  face.faults.reset();

  // the same driver, the same session: the next change goes through
  await d.setDescription(await view(d, port.name), "after the refusals");
  expect(lab.model.alias(port.ifIndex)).toBe("after the refusals");
});

test("another session's lock is a refusal naming it; nothing changes and the lock stays theirs", async () => {
  const other = await NetconfSession.open(target());
  open.push(other);
  await other.rpc("<lock-configuration/>");
  const port = lab.model.port(10);
  const before = lab.model.alias(port.ifIndex);
  const d = driver();
  await expect(d.setDescription(await view(d, port.name), "locked out")).rejects.toThrow(
    /refused lock-configuration: configuration database locked by: admin/,
  );
  expect(lab.model.alias(port.ifIndex)).toBe(before);
  expect(face.configState().locked).toBe(true);
  await other.rpc("<unlock-configuration/>");
  expect(face.configState().locked).toBe(false);
});

test("an unknown RPC is an rpc-error whose message reaches the error", async () => {
  const s = await NetconfSession.open(target());
  open.push(s);
  const failure = s.rpc("<get-no-such-information/>");
  await expect(failure).rejects.toBeInstanceOf(RpcRefused);
  await expect(failure).rejects.toThrow(/refused get-no-such-information: syntax error \(get-no-such-information\)/);
  // the session goes on
  expect((await s.rpc("<get-software-information/>")).children[0].name).toBe("software-information");
});

test("the host key: reported on first use, accepted when pinned, HostKeyChanged when another is pinned", async () => {
  const seen: string[] = [];
  await driver({ onHostKey: (k) => seen.push(k) }).learnVlans();
  expect(seen).toEqual([face.fingerprint]);
  await driver({}, face.sshTarget({ pin: true })).learnVlans();
  const other = await startLabNetconfFace(lab);
  try {
    const failure = driver({}, { ...target(), host_key_fingerprint: other.fingerprint }).learnVlans();
    await expect(failure).rejects.toBeInstanceOf(HostKeyChanged);
    await expect(failure).rejects.toMatchObject({ code: "device_hostkey_changed", presented: face.fingerprint });
  } finally {
    await other.stop();
  }
});

test("a refused login and a silent device are DeviceUnreachable", async () => {
  face.faults.refuseLogins = true;
  await expect(driver().learnVlans()).rejects.toThrow(/refused the SSH login of user 'admin'/);
  face.faults.reset();
  face.faults.silent = true;
  await expect(driver({}, target({ command_timeout_ms: 300 })).learnVlans()).rejects.toBeInstanceOf(DeviceUnreachable);
});

test("framing: chunks when both sides offer base:1.1, ]]>]]> when either does not", async () => {
  const both = await NetconfSession.open(target());
  open.push(both);
  expect(both.chunked).toBe(true);
  const driverOnly10 = await NetconfSession.open(target(), { offerBase11: false });
  open.push(driverOnly10);
  expect(driverOnly10.chunked).toBe(false);
  const face10 = await startLabNetconfFace(lab, { base11: false });
  try {
    const d = new JunosNetconfDriver({ ...face10.sshTarget(), command_timeout_ms: 1500 });
    open.push(d);
    const s = await d.connect();
    expect(s.chunked).toBe(false);
    expect(s.capabilities).not.toContain("urn:ietf:params:netconf:base:1.1");
    const port = lab.model.port(11);
    await d.setDescription(await view(d, port.name), "over base:1.0");
    expect(lab.model.alias(port.ifIndex)).toBe("over base:1.0");
  } finally {
    await face10.stop();
  }
});

describe("an older (non-ELS) EX switch", () => {
  let legacy: LabSwitch;
  let els: LabNetconfFace;
  let old: LabNetconfFace;
  beforeAll(async () => {
    legacy = await startLabSwitch({ profile: "juniper", ports: 24, poePorts: [1, 2], seed: 9 });
    els = await startLabNetconfFace(legacy);
    old = await startLabNetconfFace(legacy, { style: "legacy" });
  });
  afterAll(async () => {
    await els?.stop();
    await old?.stop();
    await legacy?.stop();
  });
  const on = (f: LabNetconfFace) => {
    const d = new JunosNetconfDriver({ ...f.sshTarget(), command_timeout_ms: 1500 });
    open.push(d);
    return d;
  };

  test("reads the same snapshot as an ELS switch of the same state", async () => {
    const a = await on(els).learn("details");
    const b = await on(old).learn("details");
    expect(b.driver_info.style).toBe("non-ELS");
    expect(a.driver_info.style).toBe("ELS");
    expect(b.vlans).toEqual(a.vlans);
    expect(b.interfaces).toEqual(a.interfaces);
  });

  test("changes VLANs with port-mode and the native VLAN under the unit", async () => {
    const port = legacy.model.port(3);
    const d = on(old);
    const home = (await view(d, port.name)).interface.untagged_vlan;
    const [a, b] = legacy.model.activeVlanIds().filter((v) => v !== home);
    await d.setTags(await view(d, port.name), {
      untagged: a,
      tagged: [b, home].sort((x, y) => x - y),
      allowAll: false,
    });
    expect((await view(d, port.name)).interface).toMatchObject({
      untagged_vlan: a,
      tagged_vlans: [b, home].sort((x, y) => x - y),
    });
    await d.setUntaggedVlan(await view(d, port.name), b);
    expect((await view(d, port.name)).interface.untagged_vlan).toBe(b);
    await d.setTags(await view(d, port.name), { untagged: home, tagged: [], allowAll: false });
    expect((await view(d, port.name)).interface).toMatchObject({ untagged_vlan: home, tagged_vlans: [] });
    expect(legacy.model.consistencyProblems()).toEqual([]);
  });

  test("an ELS statement is a syntax error there, with the switch's words", async () => {
    const s = await NetconfSession.open({ ...old.sshTarget(), command_timeout_ms: 1500 });
    open.push(s);
    await s.rpc("<lock-configuration/>");
    const port = legacy.model.port(4).name;
    await expect(
      s.rpc(
        `<load-configuration action="set" format="text"><configuration-set>set interfaces ${port} unit 0 family ethernet-switching interface-mode trunk</configuration-set></load-configuration>`,
      ),
    ).rejects.toThrow(/syntax error \(interface-mode\)/);
    await s.rpc("<unlock-configuration/>");
  });
});

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
