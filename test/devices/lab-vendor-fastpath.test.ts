/**
 * The edgeswitch and fs profiles from the outside: FASTPATH-style port names, a bare
 * enterprise sysObjectID on EdgeSwitch, plain Q-BRIDGE read and write, the
 * agentSaveConfig save on EdgeSwitch and no save object on FS.
 */
import { edgeSwitch } from "../../mib/fastpath";
import { ifXTable, ip, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, members, pollUntil, vb, walkMap } from "./lab-vendor-helpers";

describe("edgeswitch profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "edgeswitch", ports: 8, seed: 13 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("has the bare enterprise OID as sysObjectID; the model is in sysDescr", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.4413");
    expect(String(descr.value)).toBe("US-8, 5.76.7.13442, Linux 3.6.5");
  });

  it("names ports 0/n, keeps the management address on the CPU interface (65) and a LAG 3/1 as a bridge port", async () => {
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("1"), names.get("65"), names.get("66")].map(String)).toEqual([
      "0/1",
      "CPU Interface:  5/1",
      "3/1",
    ]);
    const addrs = await walkMap(ro, ip.ipAdEntIfIndex);
    expect([...addrs.values()]).toEqual([65]);
    expect((await walkMap(ro, "1.3.6.1.2.1.17.1.4.1.2")).get("66")).toBe(66);
  });

  it("creates a VLAN and moves a port by Q-BRIDGE, all in running until saved", async () => {
    await rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.12`, T.Integer, 4)]);
    expect(String((await ro.get([`${qbridge.dot1qVlanStaticName}.12`]))[0].value)).toBe("VLAN0012");
    await rw.set([vb(`${qbridge.dot1qPvid}.3`, T.Gauge, 12)]);
    expect(members((await ro.get([`${qbridge.dot1qVlanCurrentUntaggedPorts}.0.12`]))[0].value as Buffer)).toEqual([3]);
    expect(lab.model.isSaved()).toBe(false);
    expect((await failure(rw.set([vb(`${qbridge.dot1qPvid}.4`, T.Gauge, 77)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    expect((await ro.get([`${qbridge.dot1qPvid}.4`]))[0].value).toBe(lab.model.pvid(4));
  });

  it("saves with agentSaveConfig = enable: the status goes savingInProcess, then savingComplete", async () => {
    await rw.set([vb(`${ifXTable.ifAlias}.2`, T.OctetString, "cam")]);
    expect((await ro.get([`${edgeSwitch.agentSaveConfigStatus}.0`]))[0].value).toBe(1);
    await rw.set([vb(`${edgeSwitch.agentSaveConfig}.0`, T.Integer, 1)]);
    expect((await ro.get([`${edgeSwitch.agentSaveConfigStatus}.0`]))[0].value).toBe(2);
    expect(lab.model.isSaved()).toBe(false);
    const done = await pollUntil(
      () => ro.get([`${edgeSwitch.agentSaveConfigStatus}.0`]).then((v) => v[0].value as number),
      (s) => s === 3,
    );
    expect(done).toBe(3);
    expect(lab.model.isSaved()).toBe(true);
    expect((await failure(rw.set([vb(`${edgeSwitch.agentSaveConfig}.0`, T.Integer, 3)]))).status).toBe(
      ErrorStatus.WrongValue,
    );
  });
});

describe("fs profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "fs", ports: 28, seed: 14 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is an S3900 and names ports Portn, VLAN interfaces at 1000 + VLAN", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect([oid.value, String(descr.value)]).toEqual(["1.3.6.1.4.1.52642.2.1.45.101", "S3900-24T4S"]);
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("28"), names.get("1001")].map(String)).toEqual(["Port28", "VLAN1"]);
    expect(String((await ro.get([`${qbridge.dot1qVlanStaticName}.1`]))[0].value)).toBe("DefaultVlan");
  });

  it("moves a port by its PVID; has no save object (the change stays unsaved)", async () => {
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 99)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(99);
    expect((await failure(rw.set([vb(`${edgeSwitch.agentSaveConfig}.0`, T.Integer, 1)]))).status).toBe(
      ErrorStatus.NotWritable,
    );
    expect(lab.model.isSaved()).toBe(false);
  });
});
