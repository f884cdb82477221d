/** The lab's switch model: seeded generation, profile numbering, running vs startup, VLAN rules. */
import { moveAccessVlan } from "../../lab/config";
import { VirtualSwitch } from "../../lab/model";
import { SwitchIndexCache } from "../../lab/snmp/switch-mib";

describe("VirtualSwitch generation", () => {
  it("builds the same switch from the same options and a different one from another seed", () => {
    const a = new VirtualSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 7 });
    const b = new VirtualSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 7 });
    const c = new VirtualSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 8 });
    const fingerprint = (s: VirtualSwitch) =>
      JSON.stringify({
        links: s.ethernetPorts.map((p) => p.link),
        aliases: s.ethernetPorts.map((p) => s.alias(p.ifIndex)),
        pvids: s.bridgePorts.map((p) => s.pvid(p)),
        fdb: s.fdb.map((e) => `${e.vlan}/${e.mac.toString("hex")}/${e.bridgePort}`),
        lldp: s.lldp.map((n) => n.sysName),
      });
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(a)).not.toBe(fingerprint(c));
  });

  it("numbers generic ports ifIndex 1000+n on bridge port n, so bridge port and ifIndex differ", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 8 });
    expect(s.port(1)).toMatchObject({ ifIndex: 1001, bridgePort: 1, name: "GigabitEthernet1/0/1", ifType: 6 });
    expect(s.port(8)).toMatchObject({ ifIndex: 1008, bridgePort: 8 });
    expect(s.interfaceOfBridgePort(3)!.ifIndex).toBe(1003);
    expect(s.system.sysObjectID).toBe("1.3.6.1.4.1.8072.3.2.10");
    expect(s.needsSave).toBe(false);
  });

  it("gives ciscosb CBS-like numbering, a LAG bridge port, and needs a save", () => {
    const s = new VirtualSwitch({ profile: "ciscosb", ports: 24 });
    expect(s.port(5)).toMatchObject({ ifIndex: 5, bridgePort: 5, name: "gi1/0/5", descr: "GigabitEthernet1/0/5" });
    expect(s.system.sysObjectID).toBe("1.3.6.1.4.1.9.6.1.95.24.1");
    expect(s.system.sysDescr).toMatch(/^CBS350-24P-4G/);
    expect(s.interface(1000)).toMatchObject({ ifType: 161, bridgePort: 1000 });
    expect(s.portListLength).toBe(125);
    expect(s.needsSave).toBe(true);
  });

  it("has non-Ethernet interfaces: a routed VLAN interface with an address and a loopback", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 8 });
    const svi = s.interfaces.find((i) => i.ifType === 136)!;
    expect(svi.ipv4?.address).toMatch(/^10\.\d+\.\d+\.1$/);
    expect(svi.bridgePort).toBeNull();
    expect(s.interfaces.some((i) => i.ifType === 24)).toBe(true);
    // ARP entries live on the routed interface
    expect(s.arp.length).toBeGreaterThan(0);
    for (const a of s.arp) expect(a.ifIndex).toBe(svi.ifIndex);
  });

  it("accepts 8 to 384 ports and refuses others", () => {
    expect(new VirtualSwitch({ ports: 384 }).ethernetPorts).toHaveLength(384);
    expect(() => new VirtualSwitch({ ports: 7 })).toThrow(RangeError);
    expect(() => new VirtualSwitch({ ports: 385 })).toThrow(RangeError);
    expect(() => new VirtualSwitch({ ports: 8, poePorts: [9] })).toThrow(RangeError);
  });

  it("starts consistent: every PVID is a VLAN that holds the port untagged", () => {
    for (const profile of ["generic", "ciscosb"] as const) {
      for (const ports of [8, 24, 48, 384]) {
        const s = new VirtualSwitch({ profile, ports, poePorts: "all", seed: ports });
        expect(s.consistencyProblems()).toEqual([]);
      }
    }
  });

  it("puts PoE only on the ports asked for and derives detection and consumption", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 24, poePorts: [1, 2, 3, 4], seed: 3 });
    expect(s.ethernetPorts.filter((p) => p.poe).map((p) => p.portNumber)).toEqual([1, 2, 3, 4]);
    expect(s.poeState(s.port(5).ifIndex)).toBeNull();
    const withDevice = new VirtualSwitch({ profile: "generic", ports: 48, poePorts: "all", seed: 2 });
    const powered = withDevice.ethernetPorts.find((p) => p.poe?.device && withDevice.poeState(p.ifIndex)!.enabled)!;
    const before = withDevice.poeConsumedW();
    expect(withDevice.poeState(powered.ifIndex)).toEqual({
      enabled: true,
      detection: 3,
      powerMw: powered.poe!.device!.powerMw,
    });
    withDevice.update((cfg) => {
      cfg.ports.get(powered.ifIndex)!.poeEnabled = false;
    });
    expect(withDevice.poeState(powered.ifIndex)).toEqual({ enabled: false, detection: 1, powerMw: 0 });
    expect(withDevice.poeConsumedW()).toBe(Math.round((before * 1000 - powered.poe!.device!.powerMw) / 1000));
  });
});

describe("running and startup configuration", () => {
  it("changes touch running only until save copies running to startup", () => {
    const s = new VirtualSwitch({ profile: "ciscosb", ports: 8 });
    const ifIndex = s.port(2).ifIndex;
    expect(s.isSaved()).toBe(true);
    s.update((cfg) => {
      cfg.ports.get(ifIndex)!.alias = "changed";
    });
    expect(s.alias(ifIndex)).toBe("changed");
    expect(s.startup.ports.get(ifIndex)!.alias).not.toBe("changed");
    expect(s.isSaved()).toBe(false);
    s.save();
    expect(s.isSaved()).toBe(true);
    expect(s.startup.ports.get(ifIndex)!.alias).toBe("changed");
    // a save is a copy: later changes do not leak into startup
    s.update((cfg) => {
      cfg.ports.get(ifIndex)!.alias = "again";
    });
    expect(s.startup.ports.get(ifIndex)!.alias).toBe("changed");
  });

  it("reboot reloads running from startup and restarts the uptime", () => {
    const s = new VirtualSwitch({ profile: "ciscosb", ports: 8 });
    const ifIndex = s.port(1).ifIndex;
    expect(s.uptimeTicks()).toBeGreaterThan(3600 * 100 - 1);
    s.update((cfg) => {
      cfg.ports.get(ifIndex)!.adminUp = false;
    });
    s.reboot();
    expect(s.adminUp(ifIndex)).toBe(true);
    expect(s.uptimeTicks()).toBeLessThan(500);
  });

  it("oper status follows admin status on ports with a link only", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 24, seed: 5 });
    const linked = s.ethernetPorts.find((p) => p.link && s.adminUp(p.ifIndex))!;
    const unplugged = s.ethernetPorts.find((p) => !p.link)!;
    expect(s.operUp(linked.ifIndex)).toBe(true);
    expect(s.operUp(unplugged.ifIndex)).toBe(false);
    s.update((cfg) => {
      cfg.ports.get(linked.ifIndex)!.adminUp = false;
    });
    expect(s.operUp(linked.ifIndex)).toBe(false);
  });

  it("bumps the structure version only when VLAN rows appear or go", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 8 });
    const v0 = s.structureVersion;
    s.update((cfg) => {
      cfg.vlans.get(10)!.name = "renamed";
    });
    expect(s.structureVersion).toBe(v0);
    s.update((cfg) => {
      cfg.vlans.set(55, { name: "x", active: true, egress: new Set(), untagged: new Set() });
    });
    expect(s.structureVersion).toBe(v0 + 1);
  });
});

describe("consistency check", () => {
  it("names each broken VLAN rule", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 8 });
    const p = s.bridgePorts.find((bp) => s.pvid(bp) !== 30 && bp !== 2)!;
    s.update((cfg) => {
      cfg.pvid.set(2, 4000); // a VLAN that does not exist
      cfg.vlans.get(30)!.untagged.add(p); // untagged but not in egress, and now untagged in two VLANs
    });
    expect(s.consistencyProblems()).toEqual(
      expect.arrayContaining([
        "port 2: PVID 4000 is not an active VLAN",
        `VLAN 30: port ${p} untagged but not in egress`,
        expect.stringMatching(new RegExp(`^port ${p}: untagged in 2 VLANs`)),
      ]),
    );
  });

  it("moving a port's access VLAN keeps the rules and its tagged memberships", () => {
    const s = new VirtualSwitch({ profile: "generic", ports: 24, seed: 4 });
    const uplink = s.port(24).bridgePort!;
    s.update((cfg) => moveAccessVlan(cfg, uplink, 30));
    expect(s.pvid(uplink)).toBe(30);
    expect(s.vlan(30)!.untagged.has(uplink)).toBe(true);
    expect(s.vlan(1)!.egress.has(uplink)).toBe(false);
    expect(s.vlan(10)!.egress.has(uplink)).toBe(true); // still tagged there
    expect(s.consistencyProblems()).toEqual([]);
  });
});

describe("generated tables", () => {
  it("never repeat an index (MAC table, ARP, LLDP) whatever the seed and size", () => {
    // a duplicate OID would make the agent's index refuse to build
    for (let seed = 1; seed <= 12; seed++) {
      for (const [profile, ports] of [
        ["generic", 384],
        ["ciscosb", 8 + seed * 20],
      ] as const) {
        const s = new VirtualSwitch({ profile, ports, poePorts: "all", seed });
        expect(() => new SwitchIndexCache(s).current()).not.toThrow();
        expect(new Set(s.arp.map((a) => a.ip)).size).toBe(s.arp.length);
      }
    }
  });
});
