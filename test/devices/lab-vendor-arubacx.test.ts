/**
 * The arubacx profile from the outside: what AOS-CX serves (PVIDs, the bridge map, the
 * MAC table, ARUBAWIRED-PORTVLAN, no Q-BRIDGE VLAN tables), the few SETs it takes (admin
 * state, PoE, the config copy) and the notWritable it answers for the rest.
 */
import { arubaCxConfig, arubaCxPortVlan } from "../../mib/arubacx";
import { ifTable, ifXTable, poe, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, pollUntil, vb, walkMap } from "./lab-vendor-helpers";

describe("arubacx profile", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "arubacx", ports: 24, seed: 8, poePorts: [1, 2, 3, 4, 5, 6] });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  it("says it is an AOS-CX 6300 and names ports member/1/port, vlan1 at 16777217, eth0 without a bridge port", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.47196.4.1.1.1.100");
    expect(String(descr.value)).toMatch(/6300M .* Swch FL\.10\.16/);
    const names = await walkMap(ro, ifXTable.ifName);
    expect([names.get("3"), names.get("16777217"), names.get("268435456")].map(String)).toEqual(["1/1/3", "vlan1", "eth0"]);
    const map = await walkMap(ro, "1.3.6.1.2.1.17.1.4.1.2");
    expect([...map.values()]).not.toContain(268435456);
  });

  it("serves PVIDs and ARUBAWIRED-PORTVLAN but no Q-BRIDGE VLAN table (so no VLAN names)", async () => {
    for (const table of [qbridge.dot1qVlanStaticName, qbridge.dot1qVlanCurrentEgressPorts]) {
      expect((await ro.getNext([table]))[0].oid.startsWith(`${table}.`)).toBe(false);
    }
    const pvids = await walkMap(ro, qbridge.dot1qPvid);
    for (const p of lab.model.bridgePorts) expect(pvids.get(String(p))).toBe(lab.model.pvid(p));
    const modes = await walkMap(ro, arubaCxPortVlan.arubaWiredPortVlanMemberMode);
    const vids = await walkMap(ro, arubaCxPortVlan.arubaWiredPortVlanMemberVid);
    for (const i of lab.model.ethernetPorts) {
      expect(modes.get(String(i.ifIndex))).toBe(lab.model.running.portModes.has(i.bridgePort!) ? 1 : 2);
      const list = vids.get(String(i.ifIndex)) as Buffer;
      expect(list.length).toBe(512);
      const pvid = lab.model.pvid(i.bridgePort!)!;
      expect(list[(pvid - 1) >> 3] & (0x80 >> ((pvid - 1) & 7))).not.toBe(0);
    }
  });

  it("takes admin state and PoE writes", async () => {
    const ifIndex = lab.model.port(2).ifIndex;
    await rw.set([vb(`${ifTable.ifAdminStatus}.${ifIndex}`, T.Integer, 2)]);
    expect((await ro.get([`${ifTable.ifAdminStatus}.${ifIndex}`]))[0].value).toBe(2);
    await rw.set([vb(`${poe.pethPsePortAdminEnable}.1.2`, T.Integer, 2)]);
    expect((await ro.get([`${poe.pethPsePortAdminEnable}.1.2`]))[0].value).toBe(2);
  });

  it.each([
    ["dot1qPvid", () => vb(`${qbridge.dot1qPvid}.1`, T.Gauge, 30)],
    ["ifAlias", () => vb(`${ifXTable.ifAlias}.1`, T.OctetString, "desk")],
    ["arubaWiredPortVlanMemberVid", () => vb(`${arubaCxPortVlan.arubaWiredPortVlanMemberVid}.1`, T.OctetString, Buffer.alloc(512))],
    ["a Q-BRIDGE VLAN row", () => vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 4)],
  ])("refuses %s with notWritable and changes nothing", async (_name, make) => {
    const pvid = lab.model.pvid(1);
    const f = await failure(rw.set([make()]));
    expect(f.status).toBe(ErrorStatus.NotWritable);
    expect(lab.model.pvid(1)).toBe(pvid);
    expect(lab.model.alias(1)).not.toBe("desk");
  });

  const copyState = (row: number) => ro.get([`${arubaCxConfig.arubaWiredConfigurationCopyState}.${row}`]).then((v) => v[0].value as number);
  const copy = (row: number, source: number, dest: number) =>
    rw.set([
      vb(`${arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus}.${row}`, T.Integer, 4),
      vb(`${arubaCxConfig.arubaWiredConfigurationCopySourceFileType}.${row}`, T.Integer, source),
      vb(`${arubaCxConfig.arubaWiredConfigurationCopyDestFileType}.${row}`, T.Integer, dest),
    ]);

  it("saves through the config-copy table: running(3) to startup(2), waiting then successful", async () => {
    await rw.set([vb(`${ifTable.ifAdminStatus}.${lab.model.port(4).ifIndex}`, T.Integer, 2)]);
    expect(lab.model.isSaved()).toBe(false);
    await copy(3141592, 3, 2);
    expect(await copyState(3141592)).toBe(1);
    expect(await pollUntil(() => copyState(3141592), (s) => s >= 3)).toBe(3);
    expect(lab.model.isSaved()).toBe(true);
  });

  it("refuses a copy from a file to itself, and fails a second copy while one runs (busy)", async () => {
    expect((await failure(copy(7, 3, 3))).status).toBe(ErrorStatus.InconsistentValue);
    await copy(8, 3, 2);
    await copy(9, 3, 2);
    const [state, cause] = await ro.get([`${arubaCxConfig.arubaWiredConfigurationCopyState}.9`, `${arubaCxConfig.arubaWiredConfigurationCopyFailureCause}.9`]);
    expect([state.value, cause.value]).toEqual([4, 3]);
    // an active row cannot be changed
    expect((await failure(rw.set([vb(`${arubaCxConfig.arubaWiredConfigurationCopyDestFileType}.8`, T.Integer, 4)]))).status).toBe(ErrorStatus.InconsistentValue);
  });
});
