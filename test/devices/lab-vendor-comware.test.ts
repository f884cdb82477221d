/**
 * The comware profile from the outside: Q-BRIDGE to read (static table and PVIDs, no
 * current table), HH3C tables to change port VLANs - an access port moves by the target
 * VLAN's hh3cdot1qVlanPorts, a PVID write alone does not move it - and the save through
 * HH3C-CONFIG-MAN-MIB.
 */
import { hh3cConfig, hh3cIf, hh3cVlan } from "../../mib/comware";
import { ifXTable, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import type { Driver } from "../../drivers/contract";
import { comware } from "../../drivers/families/comware";
import { allowsVlan } from "../../drivers/families/comware/vlans";
import { DeviceMismatch, DeviceRefused } from "../../model/failures";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, members, pollUntil, portList, vb, walkMap } from "./lab-vendor-helpers";

describe("comware profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "comware", ports: 24, seed: 6 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  const accessOn = (vlan: number) =>
    lab.model.ethernetPorts.find(
      (i) => !lab.model.running.portModes.has(i.bridgePort!) && lab.model.pvid(i.bridgePort!) === vlan,
    )!;
  const vlanPorts = (id: number) => ro.get([`${hh3cVlan.hh3cdot1qVlanPorts}.${id}`]).then((v) => v[0].value as Buffer);

  it("says it is Comware and names ports GigabitEthernet1/0/n, then NULL0 and Vlan-interface1", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.25506.11.1.24");
    expect(String(descr.value)).toMatch(/^HP Comware Platform Software, Software Version 5\.20/);
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("5"), names.get("25"), names.get("29")].map(String)).toEqual([
      "GigabitEthernet1/0/5",
      "NULL0",
      "Vlan-interface1",
    ]);
  });

  it("serves the Q-BRIDGE static table and PVIDs but no current table; HH3C tables say the same", async () => {
    const names = await walkMap(ro, qbridge.dot1qVlanStaticName);
    expect(String(names.get("1"))).toBe("VLAN 0001");
    expect(
      (await ro.getNext([qbridge.dot1qVlanCurrentEgressPorts]))[0].oid.startsWith(
        `${qbridge.dot1qVlanCurrentEgressPorts}.`,
      ),
    ).toBe(false);
    const pvids = await walkMap(ro, qbridge.dot1qPvid);
    expect(pvids.size).toBe(24);
    const types = await walkMap(ro, hh3cIf.hh3cifVLANType);
    for (const i of lab.model.ethernetPorts)
      expect(types.get(String(i.ifIndex))).toBe(lab.model.running.portModes.has(i.bridgePort!) ? 1 : 2);
    expect(members(await vlanPorts(10))).toEqual([...lab.model.vlan(10)!.egress].sort((a, b) => a - b));
  });

  it("moves an access port by adding it to the target VLAN's hh3cdot1qVlanPorts; the PVID follows", async () => {
    const p = accessOn(10);
    const bp = p.bridgePort!;
    const list = portList([...members(await vlanPorts(30)), bp], lab.model.portListLength);
    await rw.set([vb(`${hh3cVlan.hh3cdot1qVlanPorts}.30`, T.OctetString, list)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(30);
    expect(members(await vlanPorts(10))).not.toContain(bp);
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  it("answers a PVID-only write on an access port without moving it: the read-back shows the old VLAN", async () => {
    const bp = accessOn(10).bridgePort!;
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(10);
    expect(members(await vlanPorts(30))).not.toContain(bp);
  });

  it("refuses taking an access port out of VLAN 1, and the Q-BRIDGE membership columns (notWritable)", async () => {
    const p = accessOn(1);
    const without = members(await vlanPorts(1)).filter((x) => x !== p.bridgePort);
    expect(
      (
        await failure(
          rw.set([vb(`${hh3cVlan.hh3cdot1qVlanPorts}.1`, T.OctetString, portList(without, lab.model.portListLength))]),
        )
      ).status,
    ).toBe(ErrorStatus.InconsistentValue);
    const f = await failure(
      rw.set([
        vb(
          `${qbridge.dot1qVlanStaticUntaggedPorts}.30`,
          T.OctetString,
          portList([p.bridgePort!], lab.model.portListLength),
        ),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.NotWritable);
  });

  it("makes an access port a trunk with hh3cifVLANType (PVID 1, VLAN 1 only, as Comware starts one) and sets what it carries by its allow list (lowest VLAN in the low bit)", async () => {
    const p = accessOn(10);
    const bp = p.bridgePort!;
    await rw.set([vb(`${hh3cIf.hh3cifVLANType}.${p.ifIndex}`, T.Integer, 1)]);
    expect((await ro.get([`${hh3cIf.hh3cifVLANType}.${p.ifIndex}`]))[0].value).toBe(1);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(1);
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(bp))).toEqual([1]);
    const allow = Buffer.alloc(256);
    for (const v of [1, 10, 99]) allow[(v - 1) >> 3] |= 1 << ((v - 1) & 7);
    await rw.set([vb(`${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`, T.OctetString, allow)]);
    expect(members(await vlanPorts(99))).toContain(bp);
    const [pass, allowed] = await ro.get([
      `${hh3cIf.hh3cifVLANTrunkPassListLow}.${p.ifIndex}`,
      `${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`,
    ]);
    expect([pass.value, allowed.value]).toEqual([allow, allow]);
    // a trunk's PVID does move with dot1qPvid
    await rw.set([vb(`${qbridge.dot1qPvid}.${p.bridgePort}`, T.Gauge, 99)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${p.bridgePort}`]))[0].value).toBe(99);
  });

  it("a trunk permitting all VLANs reads all ones, passes the VLANs there are, and carries a VLAN created later", async () => {
    const p = accessOn(10);
    const bp = p.bridgePort!;
    await rw.set([
      vb(`${hh3cIf.hh3cifVLANType}.${p.ifIndex}`, T.Integer, 1),
      vb(`${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`, T.OctetString, Buffer.alloc(256, 0xff)),
      vb(`${hh3cIf.hh3cifVLANTrunkAllowListHigh}.${p.ifIndex}`, T.OctetString, Buffer.alloc(256, 0xff)),
    ]);
    const [low, high, pass] = await ro.get([
      `${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`,
      `${hh3cIf.hh3cifVLANTrunkAllowListHigh}.${p.ifIndex}`,
      `${hh3cIf.hh3cifVLANTrunkPassListLow}.${p.ifIndex}`,
    ]);
    expect(low.value).toEqual(Buffer.alloc(256, 0xff));
    // VLANs 2049..4094: the last two bits (4095, 4096) stay clear
    expect((high.value as Buffer)[255]).toBe(0x3f);
    expect(lab.model.vlanIds().filter((id) => !allowsVlan(pass.value as Buffer, id))).toEqual([]);
    await rw.set([vb(`${hh3cVlan.hh3cdot1qVlanRowStatus}.333`, T.Integer, 4)]);
    expect(lab.model.vlan(333)!.egress.has(bp)).toBe(true);
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  it("refuses an allow list on an access port and the fabric link type, changing nothing", async () => {
    const p = accessOn(10);
    const allow = Buffer.alloc(256, 0xff);
    expect(
      (await failure(rw.set([vb(`${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`, T.OctetString, allow)]))).status,
    ).toBe(ErrorStatus.InconsistentValue);
    expect((await failure(rw.set([vb(`${hh3cIf.hh3cifVLANType}.${p.ifIndex}`, T.Integer, 4)]))).status).toBe(
      ErrorStatus.WrongValue,
    );
    expect((await ro.get([`${hh3cIf.hh3cifVLANType}.${p.ifIndex}`]))[0].value).toBe(2);
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(p.bridgePort!))).toEqual([10]);
  });

  it("creates and names a VLAN through hh3cdot1qVlanTable", async () => {
    await rw.set([
      vb(`${hh3cVlan.hh3cdot1qVlanRowStatus}.55`, T.Integer, 4),
      vb(`${hh3cVlan.hh3cdot1qVlanName}.55`, T.OctetString, "DEV"),
    ]);
    expect(String((await ro.get([`${qbridge.dot1qVlanStaticName}.55`]))[0].value)).toBe("DEV");
  });

  it("saves with one hh3cCfgOperate createAndGo PDU; the result row goes from in progress to success", async () => {
    await rw.set([vb(`${ifXTable.ifAlias}.${lab.model.port(2).ifIndex}`, T.OctetString, "saved by Comware")]);
    const rows = await walkMap(ro, hh3cConfig.hh3cCfgOperateRowStatus);
    const next = rows.size + 1;
    await rw.set([
      vb(`${hh3cConfig.hh3cCfgOperateType}.${next}`, T.Integer, 1),
      vb(`${hh3cConfig.hh3cCfgOperateRowStatus}.${next}`, T.Integer, 4),
    ]);
    const [opt, state] = await ro.get([
      `${hh3cConfig.hh3cCfgOperateResultOptIndex}.1`,
      `${hh3cConfig.hh3cCfgOperateState}.1`,
    ]);
    expect([opt.value, state.value]).toEqual([next, 1]);
    expect(lab.model.isSaved()).toBe(false);
    const done = await pollUntil(
      () => ro.get([`${hh3cConfig.hh3cCfgOperateState}.1`]).then((v) => v[0].value as number),
      (s) => s !== 1,
    );
    expect(done).toBe(2);
    expect(lab.model.isSaved()).toBe(true);
  });

  it("refuses an operate row without its type, and a second createAndGo on a used row", async () => {
    expect((await failure(rw.set([vb(`${hh3cConfig.hh3cCfgOperateRowStatus}.3`, T.Integer, 4)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    await rw.set([
      vb(`${hh3cConfig.hh3cCfgOperateType}.4`, T.Integer, 1),
      vb(`${hh3cConfig.hh3cCfgOperateRowStatus}.4`, T.Integer, 4),
    ]);
    const f = await failure(
      rw.set([
        vb(`${hh3cConfig.hh3cCfgOperateType}.4`, T.Integer, 1),
        vb(`${hh3cConfig.hh3cCfgOperateRowStatus}.4`, T.Integer, 4),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
  });
});

/**
 * The comware driver on this profile, for what the conformance suite does not reach: a
 * trunk port's PVID (with its allow list), a switch that takes an access move and reads
 * back the old VLAN, a refused save, and saves that each take a fresh operate row.
 */
describe("comware driver on the comware profile", () => {
  let lab: LabSwitch;
  const open: Driver[] = [];
  const driver = () => {
    const d = comware.open(
      { connector: 0, snmp: lab.snmpTarget({ version: "2c", write: true }) },
      { name: "lab-comware" },
    );
    open.push(d);
    return d;
  };
  const view = async (d: Driver, ifIndex: number) => (await d.learnInterface(String(ifIndex)))!;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "comware", ports: 12, seed: 6 });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    await lab.stop();
  });

  it("moves a trunk port's PVID with dot1qPvid, allowing the VLAN it did not carry; the old PVID stays tagged", async () => {
    const p = lab.model.ethernetPorts[2];
    const bp = p.bridgePort!;
    const home = lab.model.pvid(bp)!;
    lab.model.update((cfg) => cfg.portModes.set(bp, "trunk"));
    const target = lab.model.activeVlanIds().find((v) => v !== home && !lab.model.vlan(v)!.egress.has(bp))!;
    const d = driver();
    await d.setUntaggedVlan(await view(d, p.ifIndex), target);
    expect(lab.model.pvid(bp)).toBe(target);
    expect(lab.model.vlan(target)!.untagged.has(bp)).toBe(true);
    const after = await view(d, p.ifIndex);
    expect([after.interface.untagged_vlan, after.interface.tagged_vlans.includes(home)]).toEqual([target, true]);
    const s = sessionTo(lab);
    const [allow] = await s.get([`${hh3cIf.hh3cifVLANTrunkAllowListLow}.${p.ifIndex}`]).finally(() => s.close());
    expect(allowsVlan(allow.value as Buffer, target)).toBe(true);
  });

  it("an access move the switch answers but does not make is a DeviceMismatch, and the port stays in its VLAN", async () => {
    const p = lab.model.ethernetPorts.find((i) => lab.model.pvid(i.bridgePort!) !== 1)!;
    const home = lab.model.pvid(p.bridgePort!)!;
    const target = lab.model.activeVlanIds().find((v) => v !== home)!;
    const d = driver();
    const v = await view(d, p.ifIndex);
    lab.faults.lieOnSet = true;
    await expect(d.setUntaggedVlan(v, target)).rejects.toThrow(DeviceMismatch);
    lab.faults.reset();
    expect(lab.model.pvid(p.bridgePort!)).toBe(home);
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  it("a refused access move is a DeviceRefused with the device's words", async () => {
    const p = lab.model.ethernetPorts[1];
    const target = lab.model.activeVlanIds().find((v) => v !== lab.model.pvid(p.bridgePort!))!;
    const d = driver();
    const v = await view(d, p.ifIndex);
    lab.faults.refuseSetsMatching(hh3cVlan.hh3cdot1qVlanPorts, "inconsistentValue");
    const failed = d.setUntaggedVlan(v, target);
    await expect(failed).rejects.toThrow(DeviceRefused);
    await expect(failed).rejects.toThrow(/inconsistentValue/);
  });

  it("a refused save is a DeviceRefused; two saves take two operate rows and both finish", async () => {
    const d = driver();
    lab.faults.refuseSetsMatching(hh3cConfig.hh3cCfgOperateRowStatus, "resourceUnavailable");
    await expect(d.saveConfig()).rejects.toThrow(DeviceRefused);
    lab.faults.reset();
    await d.setDescription(await view(d, lab.model.port(3).ifIndex), "first");
    await d.saveConfig();
    expect(lab.model.startup.ports.get(lab.model.port(3).ifIndex)!.alias).toBe("first");
    await d.setDescription(await view(d, lab.model.port(3).ifIndex), "second");
    await d.saveConfig();
    expect(lab.model.isSaved()).toBe(true);
    expect([...(await walkMapOf(lab, hh3cConfig.hh3cCfgOperateRowStatus)).keys()]).toEqual(["1", "2"]);
  });
});

async function walkMapOf(lab: LabSwitch, column: string) {
  const s = sessionTo(lab);
  try {
    return await walkMap(s, column);
  } finally {
    s.close();
  }
}
