/**
 * The arista profile from the outside: EthernetN, Management1 and Port-Channel1 at
 * EOS's ifIndexes, VLAN names as recorded, PortLists without trailing zero octets, a
 * PVID write that moves a port, and the VLAN and save writes EOS refuses; then the arista
 * driver on it (configured VLAN names, a refused PVID, not_supported edits and save).
 */
import { aristaConfigCopy } from "../../mib/arista";
import { ifXTable, lldp, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, members, vb, walkMap } from "./lab-vendor-helpers";
import type { Driver } from "../../drivers/contract";
import { arista } from "../../drivers/families/arista";
import type { SnmpDriver } from "../../drivers/snmp/driver";

describe("arista profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "arista", ports: 24, seed: 10 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is EOS; EthernetN = ifIndex = bridge port, Management1 999001, Port-Channel1 1000001", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.30065.1.3011.7050.1958.128");
    expect(String(descr.value)).toMatch(/^Arista Networks EOS version/);
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("7"), names.get("999001"), names.get("1000001"), names.get("2000001")].map(String)).toEqual([
      "Ethernet7",
      "Management1",
      "Port-Channel1",
      "Vlan1",
    ]);
  });

  it("wraps user VLAN names in backslashes and cuts PortLists after their last member", async () => {
    const names = await walkMap(ro, qbridge.dot1qVlanStaticName);
    expect(String(names.get("1"))).toBe("default");
    expect(String(names.get("10"))).toBe(`\\${lab.model.vlan(10)!.name}\\`);
    const untagged = await walkMap(ro, qbridge.dot1qVlanCurrentUntaggedPorts);
    const egress = await walkMap(ro, qbridge.dot1qVlanCurrentEgressPorts);
    for (const id of lab.model.activeVlanIds()) {
      const list = untagged.get(`0.${id}`) as Buffer;
      const want = [...lab.model.vlan(id)!.untagged].sort((a, b) => a - b);
      expect(members(list)).toEqual(want);
      expect(list.length).toBe(want.length ? Math.ceil(want[want.length - 1] / 8) : 0);
      expect(members(egress.get(`0.${id}`) as Buffer)).toEqual([...lab.model.vlan(id)!.egress].sort((a, b) => a - b));
    }
  });

  it("numbers LLDP local ports by ifIndex", async () => {
    const ids = await walkMap(ro, lldp.lldpLocPortId);
    expect(String(ids.get("3"))).toBe("Ethernet3");
  });

  it("moves a port with dot1qPvid alone; its old VLAN lets it go", async () => {
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(30);
    expect(members((await ro.get([`${qbridge.dot1qVlanCurrentUntaggedPorts}.0.30`]))[0].value as Buffer)).toContain(bp);
    expect(lab.model.vlan(10)!.egress.has(bp)).toBe(false);
    expect((await failure(rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 77)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
  });

  it("refuses creating or renaming VLANs and saving over SNMP (notWritable)", async () => {
    const copyRow = "7.100.101.102.97.117.108.116.0"; // name "default", id 0
    for (const v of [
      vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 4),
      vb(`${qbridge.dot1qVlanStaticName}.10`, T.OctetString, "x"),
      vb(`${aristaConfigCopy.aristaConfigCopyRowStatus}.${copyRow}`, T.Integer, 4),
    ]) {
      expect((await failure(rw.set([v]))).status).toBe(ErrorStatus.NotWritable);
    }
    expect(lab.model.vlan(42)).toBeUndefined();
  });
});

describe("arista driver on the profile", () => {
  let lab: LabSwitch;
  const open: Driver[] = [];
  const driver = () => {
    const d = arista.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, { name: "eos" });
    open.push(d);
    return d;
  };

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "arista", ports: 24, seed: 10 });
  });
  afterEach(async () => {
    lab.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => lab.stop());

  it("shows VLAN names as configured, without the agent's backslashes", async () => {
    const vlans = await driver().learnVlans();
    expect(vlans.find((v) => v.id === 10)!.name).toBe(lab.model.vlan(10)!.name);
    expect(vlans.filter((v) => v.name.includes("\\"))).toEqual([]);
  });

  it("a PVID the agent refuses (a VLAN it does not have) is device_refused and the port stays", async () => {
    const d = driver();
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    const view = (await d.learnInterface(String(bp)))!;
    await expect(d.setUntaggedVlan(view, 77)).rejects.toMatchObject({
      code: "device_refused",
      message: expect.stringMatching(/inconsistentValue/),
    });
    expect(lab.model.pvid(bp)).toBe(10);
  });

  it("answers VLAN edits and a save with not_supported and the reason, sending nothing", async () => {
    const d = driver();
    await d.learnVlans();
    const sent = (d as SnmpDriver).counters.requests;
    const reasons = await Promise.all(
      [d.createVlan(42, "x"), d.renameVlan(10, "x"), d.deleteVlan(10), d.saveConfig()].map((p) =>
        p.then(
          () => null,
          (e: { code?: string; message: string }) => e.code,
        ),
      ),
    );
    expect(reasons).toEqual(["not_supported", "not_supported", "not_supported", "not_supported"]);
    await expect(d.createVlan(42, "x")).rejects.toThrow(
      /EOS does not take VLAN creation, renaming or deletion over SNMP/,
    );
    expect((d as SnmpDriver).counters.requests).toBe(sent);
    expect(lab.model.vlan(42)).toBeUndefined();
  });
});
