/**
 * One lab switch, two faces: what the IOS command line (SSH) changes, SNMP reads at
 * once, and what an SNMP SET changes, the command line shows at once, because both
 * faces serve the same VirtualSwitch. SNMP is spoken by net-snmp's client, the command
 * line by the project's IOS driver.
 */
import { CiscoIosCliDriver } from "../../drivers/families/cisco-ios-cli/driver";
import { iosInterfaceName, startLabSshFace, startLabSwitch, type LabSshFace, type LabSwitch } from "../../lab";
import { ObjectType, sessionTo, type ClientSession } from "../support/snmp-client";
import { ifTable, ifXTable, poe, qbridge } from "../../mib/oids";

import type { InterfaceView } from "../../model/device";
/** the interface view a setter takes, learned by the same kind of driver */
async function viewOf(
  d: { learnInterface(id: string): Promise<InterfaceView | null> },
  id: string,
): Promise<InterfaceView> {
  const view = await d.learnInterface(id);
  if (!view) throw new Error(`no interface ${id}`);
  return view;
}

describe("SSH and SNMP faces of one lab switch", () => {
  let lab: LabSwitch;
  let face: LabSshFace;
  let snmpRead: ClientSession;
  let snmpWrite: ClientSession;
  const drivers: CiscoIosCliDriver[] = [];
  const driver = () => {
    const d = new CiscoIosCliDriver(face.sshTarget(), { name: "two-faces" });
    drivers.push(d);
    return d;
  };

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 12, poePorts: [1, 2, 3, 4], seed: 12, name: "two-faces" });
    face = await startLabSshFace(lab);
    snmpRead = sessionTo(lab);
    snmpWrite = sessionTo(lab, { write: true });
  });
  afterEach(async () => {
    await Promise.all(drivers.splice(0).map((d) => d.close()));
  });
  afterAll(async () => {
    snmpRead?.close();
    snmpWrite?.close();
    await face?.stop();
    await lab?.stop();
  });

  const text = (v: unknown) => (Buffer.isBuffer(v) ? v.toString("utf8") : String(v));

  test("a description, admin state, PoE and access VLAN set over SSH read back over SNMP", async () => {
    const p = lab.model.port(2);
    const name = iosInterfaceName(p);
    const d = driver();
    await d.setDescription(await viewOf(d, name), "set over ssh");
    await d.setAdminState(await viewOf(d, name), false);
    await d.setPoe(await viewOf(d, name), false);
    const target = lab.model.vlanIds().find((v) => v !== lab.model.pvid(p.bridgePort!) && v !== 1)!;
    await d.setUntaggedVlan(await viewOf(d, name), target);

    const got = await snmpRead.get([
      `${ifXTable.ifAlias}.${p.ifIndex}`,
      `${ifTable.ifAdminStatus}.${p.ifIndex}`,
      `${poe.pethPsePortAdminEnable}.1.${p.poe!.index}`,
      `${qbridge.dot1qPvid}.${p.bridgePort}`,
    ]);
    expect(got.map((v) => v.value)).toEqual([Buffer.from("set over ssh"), 2, 2, target]);
  });

  test("a VLAN created over SSH is a row of the SNMP VLAN table", async () => {
    await driver().createVlan(2345, "from-ssh");
    const [name] = await snmpRead.get([`${qbridge.dot1qVlanStaticName}.2345`]);
    expect(text(name.value)).toBe("from-ssh");
  });

  test("a description and admin state set over SNMP show on the command line", async () => {
    const p = lab.model.port(5);
    await snmpWrite.set([
      { oid: `${ifXTable.ifAlias}.${p.ifIndex}`, type: ObjectType.OctetString, value: "set over snmp" },
      { oid: `${ifTable.ifAdminStatus}.${p.ifIndex}`, type: ObjectType.Integer, value: 2 },
    ]);
    const view = await driver().learnInterface(iosInterfaceName(p));
    expect(view!.interface).toMatchObject({ description: "set over snmp", admin_up: false });
  });

  test("a VLAN renamed over SNMP is renamed in show vlan brief", async () => {
    await snmpWrite.set([
      { oid: `${qbridge.dot1qVlanStaticName}.30`, type: ObjectType.OctetString, value: "renamed-by-snmp" },
    ]);
    expect(await driver().learnVlans()).toContainEqual(expect.objectContaining({ id: 30, name: "renamed-by-snmp" }));
  });
});
