/**
 * The juniper profile from the outside: ge-m/0/p in the 500s with their logical units,
 * bridge ports from 4097, VLANs in jnxL2aldVlanTable under internal ids, PVIDs by
 * bridge port, Q-BRIDGE lists as comma-separated text, and every SET refused.
 */
import { juniper } from "../../drivers/families/juniper";
import { jnxL2aldVlan } from "../../mib/juniper";
import { bridge, ifTable, ifXTable, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, hasTool, ObjectType as T, runTool, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, vb, walkMap } from "./lab-vendor-helpers";

describe("juniper profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "juniper", ports: 24, seed: 12 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterAll(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is Junos; ge-0/0/0 is ifIndex 513 with its unit ge-0/0/0.0 at 514", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.2636.1.1.1.4.63.9");
    expect(String(descr.value)).toMatch(/^Juniper Networks, Inc\. ex4600/);
    const names = await walkMap(ro, ifXTable.ifName);
    const types = await walkMap(ro, ifTable.ifType);
    expect([names.get("513"), names.get("514"), names.get("559")].map(String)).toEqual([
      "ge-0/0/0",
      "ge-0/0/0.0",
      "ge-0/0/23",
    ]);
    expect([types.get("513"), types.get("514")]).toEqual([6, 53]);
  });

  it("maps bridge ports 4096 + n to the physical ifIndex", async () => {
    const map = await walkMap(ro, bridge.dot1dBasePortIfIndex);
    expect(map.get("4097")).toBe(513);
    expect(map.get("4120")).toBe(559);
    expect(map.size).toBe(24);
  });

  it("lists VLANs in jnxL2aldVlanTable by internal id (not the tag), default last", async () => {
    const tags = await walkMap(ro, jnxL2aldVlan.jnxL2aldVlanTag);
    const names = await walkMap(ro, jnxL2aldVlan.jnxL2aldVlanName);
    const ids = lab.model.vlanIds();
    expect([...tags.values()]).toEqual([...ids.filter((t) => t !== 1), 1]);
    expect([...tags.keys()].map(Number)).toEqual(ids.map((_, k) => k + 2));
    for (const [id, tag] of tags) expect(String(names.get(id))).toBe(lab.model.vlan(tag as number)!.name);
  });

  it("serves PVIDs by bridge port and Q-BRIDGE memberships as comma lists of bridge ports, no names", async () => {
    const pvids = await walkMap(ro, qbridge.dot1qPvid);
    for (const p of lab.model.bridgePorts) expect(pvids.get(String(p))).toBe(lab.model.pvid(p));
    const untagged = await walkMap(ro, qbridge.dot1qVlanStaticUntaggedPorts);
    const want = [...lab.model.vlan(10)!.untagged].sort((a, b) => a - b).join(",");
    expect(String(untagged.get("10"))).toBe(want);
    expect(want).toMatch(/^4\d{3}(,4\d{3})*$/);
    expect((await ro.getNext([qbridge.dot1qVlanStaticName]))[0].oid.startsWith(`${qbridge.dot1qVlanStaticName}.`)).toBe(
      false,
    );
  });

  it("the juniper driver reads it and refuses every setter with Junos' reason, sending no SET", async () => {
    const d = juniper.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, {});
    try {
      const view = await d.learnInterface("513");
      expect(view!.interface.name).toBe("ge-0/0/0");
      const setsBefore = lab.counters.byType.set;
      const writes: [string, () => Promise<void>][] = [
        ["state", () => d.setAdminState(view!, false)],
        ["description", () => d.setDescription(view!, "x")],
        ["PoE", () => d.setPoe(view!, false)],
        ["VLAN", () => d.setUntaggedVlan(view!, 10)],
        ["VLAN create", () => d.createVlan(3000, "x")],
        ["VLAN rename", () => d.renameVlan(10, "x")],
        ["VLAN delete", () => d.deleteVlan(10)],
        ["save", () => d.saveConfig()],
      ];
      for (const [what, write] of writes) {
        await expect(write()).rejects.toMatchObject({
          code: "not_supported",
          message: expect.stringContaining("Junos is read-only over SNMP"),
        });
        expect({ what, sets: lab.counters.byType.set }).toEqual({ what, sets: setsBefore });
      }
      const flags = [
        "change_admin_status",
        "change_vlan",
        "change_poe",
        "change_description",
        "edit_vlans",
        "change_vlan_name",
        "save_config",
        "change_tags",
      ] as const;
      expect(flags.filter((f) => d.can[f])).toEqual([]);
    } finally {
      await d.close();
    }
  });

  it.each([
    ["ifAlias", () => vb(`${ifXTable.ifAlias}.513`, T.OctetString, "uplink")],
    ["ifAdminStatus", () => vb(`${ifTable.ifAdminStatus}.513`, T.Integer, 2)],
    ["dot1qPvid", () => vb(`${qbridge.dot1qPvid}.4097`, T.Gauge, 30)],
    ["a VLAN row", () => vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 4)],
    ["an object it does not have", () => vb("1.3.6.1.4.1.99999.1.0", T.Integer, 1)],
  ])("refuses a SET of %s with notWritable and changes nothing", async (_n, make) => {
    const before = JSON.stringify([...lab.model.running.ports, ...lab.model.running.pvid]);
    const f = await failure(rw.set([make()]));
    expect(f.status).toBe(ErrorStatus.NotWritable);
    expect(JSON.stringify([...lab.model.running.ports, ...lab.model.running.pvid])).toBe(before);
  });

  const tool = hasTool("snmpset") ? it : it.skip;
  tool("refuses Debian's snmpset too", async () => {
    const r = await runTool("snmpset", [
      "-v2c",
      "-c",
      "private",
      `127.0.0.1:${lab.port}`,
      `${ifXTable.ifAlias}.515`,
      "s",
      "x",
    ]);
    expect(r.stderr).toContain("notWritable");
  });
});
