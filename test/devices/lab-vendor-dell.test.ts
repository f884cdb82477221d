/**
 * The dell (OS10) profile from the outside: bridge ports that are not ifIndexes, VLAN
 * names and current bitmaps without dot1qPvid, OS10's own LLDP port numbers, writes of
 * admin state and descriptions only, and no save object.
 */
import { ifXTable, lldp, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, members, vb, walkMap } from "./lab-vendor-helpers";

describe("dell profile (OS10)", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "dell", ports: 24, seed: 9 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is OS10; ethernet1/1/n is ifIndex 12 + n on bridge port n + 1", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.674.11000.5000.100.2.1.7");
    expect(String(descr.value)).toMatch(/^Dell EMC Networking OS10 Enterprise\./);
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("13"), names.get("10")].map(String)).toEqual(["ethernet1/1/1", "mgmt1/1/1"]);
    const map = await walkMap(ro, "1.3.6.1.2.1.17.1.4.1.2");
    expect(map.get("2")).toBe(13);
    expect(String(names.get(String(map.get("1"))))).toBe("port-channel1000");
  });

  it("serves VLAN names and current bitmaps but no dot1qPvid: the untagged VLAN is found in the bitmaps", async () => {
    expect((await ro.get([`${qbridge.dot1qPvid}.2`]))[0].type).toBe(T.NoSuchObject);
    const names = await walkMap(ro, qbridge.dot1qVlanStaticName);
    expect(String(names.get("1"))).toBe("vlan1");
    const untagged = await walkMap(ro, qbridge.dot1qVlanCurrentUntaggedPorts);
    const p = lab.model.port(5);
    const holding = [...untagged]
      .filter(([, list]) => members(list as Buffer).includes(p.bridgePort!))
      .map(([k]) => Number(k.split(".")[1]));
    expect(holding).toEqual([lab.model.pvid(p.bridgePort!)]);
  });

  it("numbers LLDP local ports its own way (512 + 4n) and names them in lldpLocPortId", async () => {
    const ids = await walkMap(ro, lldp.lldpLocPortId);
    expect(String(ids.get("532"))).toBe("ethernet1/1/5");
    const remote = await walkMap(ro, lldp.lldpRemSysName);
    for (const key of remote.keys()) expect(ids.has(key.split(".")[1])).toBe(true);
  });

  it("takes a description, which stays unsaved (OS10 has no save object here); VLAN tables are not writable", async () => {
    const ifIndex = lab.model.port(1).ifIndex;
    await rw.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "rack 4")]);
    expect(String((await ro.get([`${ifXTable.ifAlias}.${ifIndex}`]))[0].value)).toBe("rack 4");
    expect(lab.model.isSaved()).toBe(false);
    await rw.set([vb(`1.3.6.1.2.1.2.2.1.7.${ifIndex}`, T.Integer, 2)]);
    expect((await ro.get([`1.3.6.1.2.1.2.2.1.7.${ifIndex}`]))[0].value).toBe(2);
    expect((await failure(rw.set([vb(`${qbridge.dot1qVlanStaticName}.10`, T.OctetString, "x")]))).status).toBe(
      ErrorStatus.NotWritable,
    );
    expect((await failure(rw.set([vb("1.3.6.1.4.1.6027.3.5.1.1.1.1.15.1", T.Integer, 4)]))).status).toBe(
      ErrorStatus.NotWritable,
    );
  });
});
