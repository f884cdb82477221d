/**
 * The procurve profile from the outside: plain port numbers, Q-BRIDGE read and write,
 * PoE indexed by ifIndex with HP's power table, and the implicit save after every SET
 * (hpSwitchImplicitConfigSave), which a manager may turn off and replace by
 * hpSwitchSaveConfig.
 */
import { hpBasicConfig, hpPoe } from "../../mib/hp";
import { ifXTable, poe, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import type { Driver } from "../../drivers/contract";
import { procurve } from "../../drivers/families/procurve";
import { chooseFamily } from "../../drivers/registry";
import { NotSupported } from "../../model/failures";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, members, portList, vb, walkMap } from "./lab-vendor-helpers";

describe("procurve profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "procurve", ports: 24, seed: 4 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is an HP switch and numbers ports plainly (ifIndex = bridge port = name)", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.11.2.3.7.8.5.2");
    expect(String(descr.value)).toMatch(/^HP 2520-24-PoE Switch, revision J\./);
    const names = await walkMap(ro, ifXTable.ifName);
    expect(String(names.get("7"))).toBe("7");
    expect(String(names.get("58"))).toBe("DEFAULT_VLAN");
    const map = await walkMap(ro, "1.3.6.1.2.1.17.1.4.1.2");
    for (const [bp, ifIndex] of map) expect(Number(bp)).toBe(ifIndex);
  });

  it("serves Q-BRIDGE names, current memberships and PVIDs; the PVID VLAN is in a port's egress but untagged", async () => {
    const names = await walkMap(ro, qbridge.dot1qVlanStaticName);
    expect(String(names.get("1"))).toBe("DEFAULT_VLAN");
    const pvids = await walkMap(ro, qbridge.dot1qPvid);
    const egress = await walkMap(ro, qbridge.dot1qVlanCurrentEgressPorts);
    const untagged = await walkMap(ro, qbridge.dot1qVlanCurrentUntaggedPorts);
    for (const [bp, pvid] of pvids) {
      expect(members(egress.get(`0.${String(pvid)}`) as Buffer)).toContain(Number(bp));
      expect(members(untagged.get(`0.${String(pvid)}`) as Buffer)).toContain(Number(bp));
    }
  });

  it("indexes PoE ports 1.<ifIndex> and reports the power HP's table has beside them", async () => {
    const p = lab.model.ethernetPorts.find((i) => i.poe?.device && lab.model.poeState(i.ifIndex)!.enabled)!;
    const [admin, mw, oper] = await ro.get([
      `${poe.pethPsePortAdminEnable}.1.${p.ifIndex}`,
      `${hpPoe.hpicfPoePethPsePortActualPower}.1.${p.ifIndex}`,
      `${hpPoe.hpicfPoePethPsePortOperStatus}.1.${p.ifIndex}`,
    ]);
    expect([admin.value, mw.value, oper.value]).toEqual([1, p.poe!.device!.powerMw, 3]);
  });

  it("writes memory after every SET: a PVID change is in startup at once", async () => {
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30)]);
    expect((await ro.get([`${qbridge.dot1qPvid}.${bp}`]))[0].value).toBe(30);
    expect(lab.model.isSaved()).toBe(true);
    expect(lab.model.startup.pvid.get(bp)).toBe(30);
  });

  it("refuses a PVID that is no VLAN, and taking a port's PVID VLAN out of its egress list", async () => {
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    expect((await failure(rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 77)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    const without = [...lab.model.vlan(10)!.egress].filter((p) => p !== bp);
    const f = await failure(
      rw.set([
        vb(`${qbridge.dot1qVlanStaticEgressPorts}.10`, T.OctetString, portList(without, lab.model.portListLength)),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(lab.model.pvid(bp)).toBe(10);
  });

  it("keeps changes in running while the implicit save is off, until hpSwitchSaveConfig = saveConfig; a reboot turns it on again", async () => {
    await rw.set([vb(`${hpBasicConfig.hpSwitchImplicitConfigSave}.0`, T.Integer, 2)]);
    const ifIndex = lab.model.port(3).ifIndex;
    await rw.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "batch change")]);
    expect(lab.model.isSaved()).toBe(false);
    expect((await ro.get([`${hpBasicConfig.hpSwitchSaveConfig}.0`]))[0].value).toBe(1);
    await rw.set([vb(`${hpBasicConfig.hpSwitchSaveConfig}.0`, T.Integer, 2)]);
    expect(lab.model.isSaved()).toBe(true);
    lab.faults.restart();
    expect((await ro.get([`${hpBasicConfig.hpSwitchImplicitConfigSave}.0`]))[0].value).toBe(1);
  });
});

describe("procurve driver on the procurve profile", () => {
  let lab: LabSwitch;
  const open: Driver[] = [];
  const driver = () => {
    const d = procurve.open(
      { connector: 0, snmp: lab.snmpTarget({ version: "2c", write: true }) },
      { name: "lab-procurve" },
    );
    open.push(d);
    return d;
  };

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "procurve", ports: 12, seed: 4 });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((d) => d.close()));
    await lab.stop();
  });

  it("needs no save: a change made through the driver is in startup at once, and saveConfig is not supported", async () => {
    const d = driver();
    expect(d.can.save_config).toBe(false);
    const ifIndex = lab.model.port(5).ifIndex;
    await d.setDescription((await d.learnInterface(String(ifIndex)))!, "written to flash by the switch");
    expect(lab.model.isSaved()).toBe(true);
    expect(lab.model.startup.ports.get(ifIndex)!.alias).toBe("written to flash by the switch");
    await expect(d.saveConfig()).rejects.toThrow(NotSupported);
  });

  it("maps PoE port 1.<ifIndex> to that interface", async () => {
    const snap = await driver().learn("basic");
    const withPoe = snap.interfaces.filter((i) => i.poe).map((i) => Number(i.id));
    const expected = lab.model.ethernetPorts.filter((i) => lab.model.poeState(i.ifIndex)).map((i) => i.ifIndex);
    expect(withPoe).toEqual(expected);
    expect(withPoe.length).toBeGreaterThan(0);
  });
});

describe("which family 'auto' picks on HP and H3C sysObjectIDs", () => {
  it.each([
    ["1.3.6.1.4.1.11.2.3.7.11.144", "procurve"], // a 2530 (hpEtherSwitch)
    ["1.3.6.1.4.1.11.2.3.7.11.50", "procurve"], // a 5406zl
    ["1.3.6.1.4.1.11.2.3.7.8.5.2", "procurve"], // a stack (the recording)
    ["1.3.6.1.4.1.11.2.3.9.1", "generic"], // a LaserJet: enterprise 11 is more than switches
    ["1.3.6.1.4.1.25506.11.1.24", "comware"], // the HP A5500 (HP-branded Comware reports H3C's tree)
    ["1.3.6.1.4.1.25506.11.1.172", "comware"], // an HP FlexFabric 5700
  ])("%s -> %s", (oid, family) => {
    expect(chooseFamily(oid).name).toBe(family);
  });
});
