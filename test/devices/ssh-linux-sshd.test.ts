/**
 * LinuxHostDriver against a real OpenSSH server in a network namespace of the test's
 * own (test/support/netns-sshd.ts): it reads the namespace's veth "ports", takes one
 * down and up and sets and removes its alias, and the namespace's own `ip -j link`
 * (run directly, not over SSH) shows the real link changed. The host key is the one
 * ssh-keygen reports for sshd's key file. Needs root and working `ip netns`; elsewhere
 * the tests are skipped with the reason printed, never counted as passed.
 */
import { HostKeyChanged } from "../../drivers/ssh/host-key";
import { LinuxHostDriver } from "../../drivers/families/linux/driver";
import type { SshTarget } from "../../model/targets";
import { NotSupported } from "../../model/failures";
import { netnsSshdUnavailable, settled, startNetnsSshd, type NetnsSshd } from "../support/netns-sshd";

import type { InterfaceView } from "../../model/device";

// every SSH session opens a new connection into a network namespace; beside other such
// suites on a loaded 2-core machine a session took up to 15 s to start (alone: under 1 s)
jest.setTimeout(60_000);
/** the interface view a setter takes, learned by the same kind of driver */
async function viewOf(
  d: { learnInterface(id: string): Promise<InterfaceView | null> },
  id: string,
): Promise<InterfaceView> {
  const view = await d.learnInterface(id);
  if (!view) throw new Error(`no interface ${id}`);
  return view;
}

const unavailable = netnsSshdUnavailable();
if (unavailable) console.warn(`ssh-linux-sshd: skipped: ${unavailable}`);
const describeWithSshd = unavailable ? describe.skip : describe;

describeWithSshd("LinuxHostDriver against OpenSSH in a network namespace", () => {
  let sshd: NetnsSshd;
  const drivers: LinuxHostDriver[] = [];

  beforeAll(async () => {
    sshd = await startNetnsSshd(2);
  }, 20000);
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    await sshd?.stop();
  });

  function target(overrides: Partial<SshTarget> = {}): SshTarget {
    return {
      host: sshd.host,
      port: sshd.port,
      username: "root",
      private_key: sshd.privateKey,
      host_key_fingerprint: sshd.hostKeyFingerprint,
      connect_timeout_ms: 5000,
      command_timeout_ms: 20000,
      ...overrides,
    };
  }
  const driver = (overrides: Partial<SshTarget> = {}) => {
    const d = new LinuxHostDriver(target(overrides), { name: "netns-host" });
    drivers.push(d);
    return d;
  };
  const link = (name: string) => sshd.links().find((l) => l.ifname === name)!;

  test("the host key presented is the one ssh-keygen reports for sshd's key; another pin is refused", async () => {
    let seen = "";
    const first = new LinuxHostDriver(target({ host_key_fingerprint: undefined }), { onHostKey: (fp) => (seen = fp) });
    drivers.push(first);
    await first.learnVlans();
    await first.learn("basic");
    expect(seen).toBe(sshd.hostKeyFingerprint);
    await expect(driver({ host_key_fingerprint: "SHA256:" + "B".repeat(43) }).learn("basic")).rejects.toBeInstanceOf(
      HostKeyChanged,
    );
  });

  test("learn lists the namespace's links: the veth ports as Ethernet, up, with no VLANs", async () => {
    const snap = await driver().learn("basic");
    const names = snap.interfaces.map((i) => i.name).sort();
    expect(names).toEqual(["lo", ...sshd.ports.flatMap((p) => [p, `${p}-peer`]), sshd.accessLink].sort());
    const port1 = snap.interfaces.find((i) => i.id === "port1")!;
    expect(port1).toMatchObject({
      name: "port1",
      kind: "ethernet",
      if_type: 6,
      admin_up: true,
      oper_up: true,
      untagged_vlan: 0,
      tagged_vlans: [],
    });
    expect(snap.interfaces.find((i) => i.id === "lo")).toMatchObject({ kind: "other", if_type: 24, oper_up: true });
    // the access link carries the /30 sshd listens on
    expect(snap.interfaces.find((i) => i.id === sshd.accessLink)!.routed).toBe(true);
    expect(snap.vlans).toEqual([]);
    expect(snap.hostname).not.toBe("");
  });

  test("setAdminState takes a real link down and up again", async () => {
    await driver().setAdminState(await viewOf(driver(), "port1"), false);
    expect(link("port1").flags).not.toContain("UP");
    // its peer loses the carrier: the change is real, not just a flag in some table
    await settled(() => link("port1-peer").operstate !== "UP", 3000, "port1-peer loses its carrier");
    expect((await driver().learnInterface("port1"))!.interface).toMatchObject({ admin_up: false, oper_up: false });

    await driver().setAdminState(await viewOf(driver(), "port1"), true);
    expect(link("port1").flags).toContain("UP");
    await settled(() => link("port1-peer").operstate === "UP", 3000, "port1-peer gets its carrier back");
    expect((await driver().learnInterface("port1"))!.interface.admin_up).toBe(true);
  });

  test("setDescription sets the kernel's alias exactly, shell syntax included, and '' removes it", async () => {
    const text = `desk 4 $(reboot) '; reboot; ' "x" é`;
    await driver().setDescription(await viewOf(driver(), "port2"), text);
    expect(link("port2").ifalias).toBe(text);
    expect((await driver().learnInterface("port2"))!.interface.description).toBe(text);
    await driver().setDescription(await viewOf(driver(), "port2"), "");
    expect(link("port2").ifalias).toBeUndefined();
  });

  test("unknown links and names that are no link name are null to learnInterface (a write needs a view)", async () => {
    expect(await driver().learnInterface("nosuch0")).toBeNull();
    expect(await driver().learnInterface("port1; reboot")).toBeNull();
    expect(driver().parseInterfaceId("port1; reboot")).toBeNull();
    expect(driver().parseInterfaceId("port1")).toBe("port1");
  });

  test("VLANs, PoE and saving are NotSupported, with the reason", async () => {
    const d = driver();
    await expect(d.setUntaggedVlan(await viewOf(d, "port1"), 10)).rejects.toThrow(NotSupported);
    await expect(d.setPoe(await viewOf(d, "port1"), true)).rejects.toThrow(/no PoE/);
    await expect(d.createVlan(10, "x")).rejects.toThrow(NotSupported);
    await expect(d.saveConfig()).rejects.toThrow(/not saved/);
    expect(d.can).toMatchObject({
      change_admin_status: true,
      change_description: true,
      change_vlan: false,
      change_poe: false,
      edit_vlans: false,
      save_config: false,
    });
  });
});
