/**
 * The cisco profile from the outside: an IOS Catalyst as a manager sees it over SNMP -
 * VTP VLANs and the edit buffer, vmVlan and trunk tables instead of Q-BRIDGE, the
 * per-VLAN BRIDGE-MIB behind community@vlan and context vlan-N, PoE reached through
 * entities, and saves through ccCopyTable and writeMem.
 */
import { configCopy, oldCiscoSys, poeExt, stack, vlanMembership, vtp } from "../../mib/cisco";
import { bridge, ifXTable, poe, system } from "../../mib/oids";
import { entityExtra } from "../../mib/standard-extra";
import { startLabSwitch, type LabSwitch } from "../../lab";
import type { Driver } from "../../drivers/contract";
import { cisco as ciscoEntry } from "../../drivers/families/cisco";
import { ErrorStatus, hasTool, ObjectType as T, runTool, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, pollUntil, vb, walkMap } from "./lab-vendor-helpers";

const v3 = {
  username: "ciscolab",
  authProtocol: "SHA-256",
  authKey: "cisco-auth-pass",
  privProtocol: "AES",
  privKey: "cisco-priv-pass",
} as const;

describe("cisco profile: reads", () => {
  let lab: LabSwitch;
  let ro: ClientSession;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 11, v3 });
    ro = sessionTo(lab);
  });
  afterAll(async () => {
    ro.close();
    await lab.stop();
  });

  const trunks = () => lab.model.ethernetPorts.filter((i) => lab.model.running.portModes.has(i.bridgePort!));
  const access = () => lab.model.ethernetPorts.filter((i) => !lab.model.running.portModes.has(i.bridgePort!));

  it("says it is a Catalyst running IOS", async () => {
    const [descr, oid] = await ro.get([`${system.sysDescr}.0`, `${system.sysObjectID}.0`]);
    expect(oid.value).toBe("1.3.6.1.4.1.9.1.1208");
    expect(String(descr.value)).toMatch(/^Cisco IOS Software, C2960X Software/);
  });

  it("numbers ports as a 2960-X stack: Gi1/0/n at ifIndex 10100 + n, long names in ifDescr", async () => {
    const names = await walkMap(ro, ifXTable.ifName);
    const descrs = await walkMap(ro, "1.3.6.1.2.1.2.2.1.2");
    expect(String(names.get("10101"))).toBe("Gi1/0/1");
    expect(String(descrs.get("10124"))).toBe("GigabitEthernet1/0/24");
    expect(String(names.get("1"))).toBe("Vl1");
    expect(String(descrs.get("14001"))).toBe("Null0");
  });

  it("puts a second stack member's ports at 10601.. as Gi2/0/n", async () => {
    const big = await startLabSwitch({ profile: "cisco", ports: 56, seed: 2 });
    const s = sessionTo(big);
    try {
      const [n53, n56] = await s.get([`${ifXTable.ifName}.10601`, `${ifXTable.ifName}.10604`]);
      expect([String(n53.value), String(n56.value)]).toEqual(["Gi2/0/1", "Gi2/0/4"]);
      expect(big.model.port(53).bridgePort).toBe(57); // 56 bridge ports a member, as recorded
    } finally {
      s.close();
      await big.stop();
    }
  });

  it("serves no Q-BRIDGE: VLANs are in vtpVlanTable, with the reserved 1002-1005", async () => {
    const next = await ro.getNext(["1.3.6.1.2.1.17.7"]);
    expect(next[0].oid.startsWith("1.3.6.1.2.1.17.7.")).toBe(false);
    const types = await walkMap(ro, vtp.vtpVlanType);
    const names = await walkMap(ro, vtp.vtpVlanName);
    const expected = [...lab.model.vlanIds(), 1002, 1003, 1004, 1005];
    expect([...types.keys()]).toEqual(expected.map((id) => `1.${id}`));
    expect(types.get("1.1003")).toBe(3);
    expect(String(names.get("1.1"))).toBe("default");
    expect(String(names.get("1.10"))).toBe(lab.model.vlan(10)!.name);
  });

  it("has vmVlan rows for access ports only; trunks are in vlanTrunkPortTable with their native VLAN", async () => {
    expect(trunks().length).toBeGreaterThanOrEqual(2);
    const vm = await walkMap(ro, vlanMembership.vmVlan);
    expect([...vm.keys()].map(Number)).toEqual(access().map((i) => i.ifIndex));
    for (const i of access()) expect(vm.get(String(i.ifIndex))).toBe(lab.model.pvid(i.bridgePort!));
    const state = await walkMap(ro, vtp.vlanTrunkPortDynamicState);
    const status = await walkMap(ro, vtp.vlanTrunkPortDynamicStatus);
    const native = await walkMap(ro, vtp.vlanTrunkPortNativeVlan);
    expect(state.size).toBe(lab.model.ethernetPorts.length);
    for (const i of trunks()) {
      expect(state.get(String(i.ifIndex))).toBe(1);
      expect(native.get(String(i.ifIndex))).toBe(lab.model.pvid(i.bridgePort!));
      // trunking needs the link up, as on IOS
      expect(status.get(String(i.ifIndex))).toBe(lab.model.operUp(i.ifIndex) ? 1 : 2);
    }
    for (const i of access()) expect([state.get(String(i.ifIndex)), native.get(String(i.ifIndex))]).toEqual([2, 1]);
  });

  it("lists a trunk's VLANs in vlanTrunkPortVlansEnabled (bit n = VLAN n)", async () => {
    const t = trunks()[0];
    const [got] = await ro.get([`${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`]);
    const bits = got.value as Buffer;
    const on = [];
    for (let v = 0; v < 1024; v++) if (bits[v >> 3] & (0x80 >> (v & 7))) on.push(v);
    expect(on).toEqual(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(t.bridgePort!)));
  });

  it("shows BRIDGE-MIB per VLAN: public@10 lists VLAN 10's ports and MACs, the default context VLAN 1's", async () => {
    const v10 = sessionTo(lab, { community: "public@10" });
    try {
      const ports = await walkMap(v10, bridge.dot1dBasePortIfIndex);
      const want = lab.model.bridgePorts.filter((p) => lab.model.vlan(10)!.egress.has(p));
      expect([...ports.keys()].map(Number)).toEqual(want);
      expect([...ports.values()]).toEqual(want.map((p) => lab.model.interfaceOfBridgePort(p)!.ifIndex));
      const macs = await walkMap(v10, bridge.dot1dTpFdbPort);
      const learned = lab.model.fdb.filter((e) => e.vlan === 10);
      expect(macs.size).toBe(learned.length);
      for (const e of learned) expect(macs.get([...e.mac].join("."))).toBe(e.bridgePort);
      // nothing but the system group and BRIDGE-MIB in a VLAN context
      expect((await v10.get([`${vtp.vtpVlanName}.1.1`]))[0].type).toBe(T.NoSuchObject);
    } finally {
      v10.close();
    }
    const defaults = await walkMap(ro, bridge.dot1dBasePortIfIndex);
    expect([...defaults.keys()].map(Number)).toEqual(
      lab.model.bridgePorts.filter((p) => lab.model.vlan(1)!.egress.has(p)),
    );
  });

  it("does not answer a community naming a VLAN that does not exist", async () => {
    const none = sessionTo(lab, { community: "public@999", timeoutMs: 300 });
    try {
      expect((await failure(none.get([`${system.sysName}.0`]))).name).toBe("RequestTimedOutError");
    } finally {
      none.close();
    }
  });

  it("serves the same per-VLAN instance to SNMPv3 as context vlan-10, and reports an unknown context", async () => {
    const ctx = sessionTo(lab, { v3, context: "vlan-10" });
    const bad = sessionTo(lab, { v3, context: "vlan-999" });
    try {
      const ports = await walkMap(ctx, bridge.dot1dBasePortIfIndex);
      expect([...ports.keys()].map(Number)).toEqual(
        lab.model.bridgePorts.filter((p) => lab.model.vlan(10)!.egress.has(p)),
      );
      expect((await failure(bad.get([`${system.sysName}.0`]))).message).toMatch(/Report/);
    } finally {
      ctx.close();
      bad.close();
    }
  });

  const tool = hasTool("snmpbulkwalk") ? it : it.skip;
  tool("gives Debian's snmpbulkwalk the per-VLAN MAC table with -c public@20", async () => {
    const r = await runTool("snmpbulkwalk", [
      "-v2c",
      "-c",
      "public@20",
      `127.0.0.1:${lab.port}`,
      bridge.dot1dTpFdbPort,
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n").filter(Boolean);
    expect(lines).toHaveLength(lab.model.fdb.filter((e) => e.vlan === 20).length);
  });

  it("ties each PoE port (member.port) to its interface through cpeExtPsePortEntPhyIndex and the entity alias", async () => {
    const powered = lab.model.ethernetPorts.filter((i) => i.poe);
    expect(powered.length).toBe(24);
    const admin = await walkMap(ro, poe.pethPsePortAdminEnable);
    const ent = await walkMap(ro, poeExt.cpeExtPsePortEntPhyIndex);
    const alias = await walkMap(ro, entityExtra.entAliasMappingIdentifier);
    const stackMap = await walkMap(ro, stack.portIfIndex);
    expect([...admin.keys()]).toEqual(powered.map((i) => `1.${i.portNumber}`));
    for (const i of powered) {
      const e = ent.get(`1.${i.portNumber}`);
      expect(alias.get(`${String(e)}.0`)).toBe(`1.3.6.1.2.1.2.2.1.1.${i.ifIndex}`);
      expect(stackMap.get(`1.${i.portNumber}`)).toBe(i.ifIndex);
    }
  });
});

describe("cisco profile: writes", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 11 });
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
  const trunk = () => lab.model.ethernetPorts.find((i) => lab.model.running.portModes.has(i.bridgePort!))!;

  it("moves an access port with vmVlan; the new VLAN reads back and the port left the old one", async () => {
    const p = accessOn(10);
    await rw.set([vb(`${vlanMembership.vmVlan}.${p.ifIndex}`, T.Integer, 30)]);
    expect((await ro.get([`${vlanMembership.vmVlan}.${p.ifIndex}`]))[0].value).toBe(30);
    expect(lab.model.vlan(10)!.egress.has(p.bridgePort!)).toBe(false);
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  it.each([
    ["a VLAN that does not exist: inconsistentValue", 77, ErrorStatus.InconsistentValue],
    ["a reserved VLAN: inconsistentValue", 1002, ErrorStatus.InconsistentValue],
    ["0 on a static port: wrongValue", 0, ErrorStatus.WrongValue],
    ["out of range: wrongValue", 5000, ErrorStatus.WrongValue],
  ])("refuses vmVlan = %s, changing nothing", async (_n, vlan, status) => {
    const p = accessOn(10);
    const f = await failure(rw.set([vb(`${vlanMembership.vmVlan}.${p.ifIndex}`, T.Integer, vlan)]));
    expect(f.status).toBe(status);
    expect((await ro.get([`${vlanMembership.vmVlan}.${p.ifIndex}`]))[0].value).toBe(10);
  });

  it("has no vmVlan for a trunk (noCreation); its untagged VLAN is the native VLAN", async () => {
    const t = trunk();
    expect((await failure(rw.set([vb(`${vlanMembership.vmVlan}.${t.ifIndex}`, T.Integer, 30)]))).status).toBe(
      ErrorStatus.NoCreation,
    );
    const old = lab.model.pvid(t.bridgePort!)!;
    const next = old === 30 ? 10 : 30;
    await rw.set([vb(`${vtp.vlanTrunkPortNativeVlan}.${t.ifIndex}`, T.Integer, next)]);
    expect((await ro.get([`${vtp.vlanTrunkPortNativeVlan}.${t.ifIndex}`]))[0].value).toBe(next);
    // the old native VLAN stays on the trunk, tagged
    expect(lab.model.vlan(old)!.egress.has(t.bridgePort!)).toBe(true);
    expect(lab.model.vlan(old)!.untagged.has(t.bridgePort!)).toBe(false);
  });

  it("keeps a native VLAN and allowed list written on an access port until the port trunks (IOS keeps them configured)", async () => {
    const p = accessOn(10);
    const bp = p.bridgePort!;
    const bits = Buffer.alloc(128);
    for (const v of [20, 30, 77]) bits[v >> 3] |= 0x80 >> (v & 7);
    await rw.set([
      vb(`${vtp.vlanTrunkPortNativeVlan}.${p.ifIndex}`, T.Integer, 30),
      vb(`${vtp.vlanTrunkPortVlansEnabled}.${p.ifIndex}`, T.OctetString, bits),
    ]);
    const [native, enabled, vm] = await ro.get([
      `${vtp.vlanTrunkPortNativeVlan}.${p.ifIndex}`,
      `${vtp.vlanTrunkPortVlansEnabled}.${p.ifIndex}`,
      `${vlanMembership.vmVlan}.${p.ifIndex}`,
    ]);
    expect([native.value, enabled.value, vm.value]).toEqual([30, bits, 10]);
    // still an access port on VLAN 10, carrying nothing else
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(bp))).toEqual([10]);
  });

  it("makes an access port a trunk with vlanTrunkPortDynamicState on(1) and back with off(2), in one PDU with its VLANs", async () => {
    const p = accessOn(10);
    const bp = p.bridgePort!;
    const bits = Buffer.alloc(128);
    for (const v of [20, 30, 77]) bits[v >> 3] |= 0x80 >> (v & 7);
    await rw.set([
      vb(`${vtp.vlanTrunkPortNativeVlan}.${p.ifIndex}`, T.Integer, 20),
      vb(`${vtp.vlanTrunkPortVlansEnabled}.${p.ifIndex}`, T.OctetString, bits),
      vb(`${vtp.vlanTrunkPortDynamicState}.${p.ifIndex}`, T.Integer, 1),
    ]);
    const oids = [vtp.vlanTrunkPortDynamicState, vtp.vlanTrunkPortNativeVlan, vlanMembership.vmVlan];
    expect((await ro.get(oids.map((o) => `${o}.${p.ifIndex}`))).map((v) => v.value)).toEqual([1, 20, null]);
    // the allowed list's existing VLANs are carried (77 is kept configured; it does not exist)
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(bp))).toEqual([20, 30]);
    expect(lab.model.pvid(bp)).toBe(20);
    // back to an access port: the access VLAN it kept, with vmVlan in the same PDU
    await rw.set([
      vb(`${vtp.vlanTrunkPortDynamicState}.${p.ifIndex}`, T.Integer, 2),
      vb(`${vlanMembership.vmVlan}.${p.ifIndex}`, T.Integer, 30),
    ]);
    expect((await ro.get(oids.map((o) => `${o}.${p.ifIndex}`))).map((v) => v.value)).toEqual([2, 20, 30]);
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(bp))).toEqual([30]);
    expect(lab.model.consistencyProblems()).toEqual([]);
  });

  it("refuses the DTP modes (desirable, auto, onNoNegotiate: no DTP in the lab) and a trunk whose native VLAN is gone", async () => {
    const p = accessOn(10);
    for (const mode of [3, 4, 5])
      expect(
        (await failure(rw.set([vb(`${vtp.vlanTrunkPortDynamicState}.${p.ifIndex}`, T.Integer, mode)]))).status,
      ).toBe(ErrorStatus.InconsistentValue);
    expect((await failure(rw.set([vb(`${vtp.vlanTrunkPortDynamicState}.${p.ifIndex}`, T.Integer, 7)]))).status).toBe(
      ErrorStatus.WrongValue,
    );
    expect((await ro.get([`${vtp.vlanTrunkPortDynamicState}.${p.ifIndex}`]))[0].value).toBe(2);
  });

  it("a trunk allowing all VLANs reads all ones and carries a VLAN created later", async () => {
    const t = trunk();
    const all = Buffer.alloc(128, 0xff);
    const high = Buffer.alloc(128, 0xff);
    await rw.set([
      vb(`${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`, T.OctetString, all),
      ...[vtp.vlanTrunkPortVlansEnabled2k, vtp.vlanTrunkPortVlansEnabled3k, vtp.vlanTrunkPortVlansEnabled4k].map((o) =>
        vb(`${o}.${t.ifIndex}`, T.OctetString, high),
      ),
    ]);
    expect(lab.model.vlanIds().every((id) => lab.model.vlan(id)!.egress.has(t.bridgePort!))).toBe(true);
    const [low, top] = await ro.get([
      `${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`,
      `${vtp.vlanTrunkPortVlansEnabled4k}.${t.ifIndex}`,
    ]);
    // VLANs 1..4094: not VLAN 0 (the first bit) nor 4095 (the last)
    expect((low.value as Buffer)[0]).toBe(0x7f);
    expect((top.value as Buffer)[127]).toBe(0xfe);
    await rw.set([op(2), vb(`${vtp.vtpVlanEditBufferOwner}.1`, T.OctetString, "switchdesk")]);
    await rw.set([
      vb(`${vtp.vtpVlanEditRowStatus}.1.444`, T.Integer, 4),
      vb(`${vtp.vtpVlanEditType}.1.444`, T.Integer, 1),
      vb(`${vtp.vtpVlanEditName}.1.444`, T.OctetString, "later"),
      vb(`${vtp.vtpVlanEditDot10Said}.1.444`, T.OctetString, said(444)),
    ]);
    await rw.set([op(3)]);
    await rw.set([op(4)]);
    expect(lab.model.vlan(444)!.egress.has(t.bridgePort!)).toBe(true);
  });

  it("changes what a trunk carries with vlanTrunkPortVlansEnabled, checked by vlanTrunkPortSetSerialNo", async () => {
    const t = trunk();
    const bp = t.bridgePort!;
    const native = lab.model.pvid(bp)!;
    const want = [native, 99];
    const bits = Buffer.alloc(128);
    for (const v of want) bits[v >> 3] |= 0x80 >> (v & 7);
    const [serial] = await ro.get([`${vtp.vlanTrunkPortSetSerialNo}.0`]);
    await rw.set([
      vb(`${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`, T.OctetString, bits),
      vb(`${vtp.vlanTrunkPortSetSerialNo}.0`, T.Integer, serial.value),
    ]);
    expect(lab.model.vlanIds().filter((id) => lab.model.vlan(id)!.egress.has(bp))).toEqual(
      [...new Set(want)].sort((a, b) => a - b),
    );
    // the same serial number again is stale
    const f = await failure(
      rw.set([
        vb(`${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`, T.OctetString, bits),
        vb(`${vtp.vlanTrunkPortSetSerialNo}.0`, T.Integer, serial.value),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(
      (await failure(rw.set([vb(`${vtp.vlanTrunkPortVlansEnabled}.${t.ifIndex}`, T.OctetString, Buffer.alloc(12))])))
        .status,
    ).toBe(ErrorStatus.WrongLength);
  });

  const said = (id: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(100000 + id);
    return b;
  };
  const op = (n: number) => vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, n);

  it("creates, renames and deletes a VLAN through the VTP edit buffer", async () => {
    await rw.set([op(2), vb(`${vtp.vtpVlanEditBufferOwner}.1`, T.OctetString, "switchdesk")]);
    expect(String((await ro.get([`${vtp.vtpVlanEditBufferOwner}.1`]))[0].value)).toBe("switchdesk");
    expect((await walkMap(ro, vtp.vtpVlanEditRowStatus)).size).toBe(lab.model.vlanIds().length + 4);
    await rw.set([
      vb(`${vtp.vtpVlanEditRowStatus}.1.42`, T.Integer, 4),
      vb(`${vtp.vtpVlanEditType}.1.42`, T.Integer, 1),
      vb(`${vtp.vtpVlanEditName}.1.42`, T.OctetString, "guests"),
      vb(`${vtp.vtpVlanEditDot10Said}.1.42`, T.OctetString, said(42)),
    ]);
    // nothing changes before the apply
    expect(lab.model.vlan(42)).toBeUndefined();
    await rw.set([op(3)]);
    expect((await ro.get([`${vtp.vtpVlanApplyStatus}.1`]))[0].value).toBe(2);
    await rw.set([op(4)]);
    expect(String((await ro.get([`${vtp.vtpVlanName}.1.42`]))[0].value)).toBe("guests");
    expect(lab.model.isSaved()).toBe(false);

    await rw.set([op(2)]);
    await rw.set([vb(`${vtp.vtpVlanEditName}.1.42`, T.OctetString, "visitors")]);
    await rw.set([op(3)]);
    await rw.set([op(4)]);
    expect(String((await ro.get([`${vtp.vtpVlanName}.1.42`]))[0].value)).toBe("visitors");

    await rw.set([op(2)]);
    await rw.set([vb(`${vtp.vtpVlanEditRowStatus}.1.42`, T.Integer, 6)]);
    await rw.set([op(3)]);
    await rw.set([op(4)]);
    expect((await ro.get([`${vtp.vtpVlanName}.1.42`]))[0].type).toBe(T.NoSuchInstance);
    expect(lab.model.vlan(42)).toBeUndefined();
  });

  it("refuses a new row without name and SAID, a second copy, and edits without a copy", async () => {
    expect((await failure(rw.set([vb(`${vtp.vtpVlanEditRowStatus}.1.43`, T.Integer, 4)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    await rw.set([op(2)]);
    const f = await failure(
      rw.set([
        vb(`${vtp.vtpVlanEditRowStatus}.1.43`, T.Integer, 4),
        vb(`${vtp.vtpVlanEditName}.1.43`, T.OctetString, "no-said"),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(f.message).toContain(`${vtp.vtpVlanEditRowStatus}.1.43`);
    expect((await failure(rw.set([op(2)]))).status).toBe(ErrorStatus.InconsistentValue);
    await rw.set([op(4)]);
  });

  it("fails an apply that deletes a VLAN ports still use (inconsistentEdit) and keeps the VLAN", async () => {
    await rw.set([op(2)]);
    await rw.set([vb(`${vtp.vtpVlanEditRowStatus}.1.10`, T.Integer, 6)]);
    await rw.set([op(3)]);
    expect((await ro.get([`${vtp.vtpVlanApplyStatus}.1`]))[0].value).toBe(4);
    await rw.set([op(4)]);
    expect(lab.model.vlan(10)).toBeDefined();
  });

  it("refuses every edit once the switch is a VTP client (set over SNMP)", async () => {
    await rw.set([vb(`${vtp.managementDomainLocalMode}.1`, T.Integer, 1)]);
    expect((await ro.get([`${vtp.managementDomainLocalMode}.1`]))[0].value).toBe(1);
    expect((await failure(rw.set([op(2)]))).status).toBe(ErrorStatus.InconsistentValue);
    expect((await ro.get([`${vtp.vtpVlanEditBufferOwner}.1`]))[0].value).toEqual(Buffer.alloc(0));
    expect((await walkMap(ro, vtp.vtpVlanEditRowStatus)).size).toBe(0);
  });

  it("switches PoE off with cpeExtPsePortEnable disable(4); static(2) is refused", async () => {
    const p = lab.model.ethernetPorts.find((i) => i.poe && lab.model.poeState(i.ifIndex)!.enabled)!;
    const idx = `${p.poe!.group}.${p.poe!.index}`;
    await rw.set([vb(`${poeExt.cpeExtPsePortEnable}.${idx}`, T.Integer, 4)]);
    expect((await ro.get([`${poe.pethPsePortAdminEnable}.${idx}`]))[0].value).toBe(2);
    expect((await failure(rw.set([vb(`${poeExt.cpeExtPsePortEnable}.${idx}`, T.Integer, 2)]))).status).toBe(
      ErrorStatus.WrongValue,
    );
    await rw.set([vb(`${poe.pethPsePortAdminEnable}.${idx}`, T.Integer, 1)]);
    expect((await ro.get([`${poeExt.cpeExtPsePortEnable}.${idx}`]))[0].value).toBe(1);
  });
});

describe("cisco profile: saving", () => {
  let lab: LabSwitch;
  let rw: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 12 });
    rw = sessionTo(lab, { write: true });
  });
  afterEach(async () => {
    rw.close();
    await lab.stop();
  });

  const change = (text: string) =>
    rw.set([vb(`${ifXTable.ifAlias}.${lab.model.port(2).ifIndex}`, T.OctetString, text)]);
  const copyState = (row: number) => rw.get([`${configCopy.ccCopyState}.${row}`]).then((v) => v[0].value as number);

  it("copies running to startup with one createAndGo PDU: waiting, then successful, and only then saved", async () => {
    await change("saved by ccCopy");
    await rw.set([
      vb(`${configCopy.ccCopyEntryRowStatus}.17`, T.Integer, 4),
      vb(`${configCopy.ccCopySourceFileType}.17`, T.Integer, 4),
      vb(`${configCopy.ccCopyDestFileType}.17`, T.Integer, 3),
    ]);
    expect(await copyState(17)).toBe(1);
    expect(lab.model.isSaved()).toBe(false);
    expect(
      await pollUntil(
        () => copyState(17),
        (s) => s >= 3,
      ),
    ).toBe(3);
    expect(lab.model.isSaved()).toBe(true);
    expect(lab.model.startup.ports.get(lab.model.port(2).ifIndex)!.alias).toBe("saved by ccCopy");
  });

  it("takes the reference tool's three SETs (source, destination, active)", async () => {
    await change("three sets");
    await rw.set([vb(`${configCopy.ccCopySourceFileType}.201`, T.Integer, 4)]);
    await rw.set([vb(`${configCopy.ccCopyDestFileType}.201`, T.Integer, 3)]);
    expect((await rw.get([`${configCopy.ccCopyEntryRowStatus}.201`]))[0].value).toBe(2);
    await rw.set([vb(`${configCopy.ccCopyEntryRowStatus}.201`, T.Integer, 1)]);
    expect(
      await pollUntil(
        () => copyState(201),
        (s) => s >= 3,
      ),
    ).toBe(3);
    expect(lab.model.isSaved()).toBe(true);
  });

  it("refuses a copy without destination, or with the same source and destination", async () => {
    await change("not saved");
    const f = await failure(
      rw.set([
        vb(`${configCopy.ccCopyEntryRowStatus}.5`, T.Integer, 4),
        vb(`${configCopy.ccCopySourceFileType}.5`, T.Integer, 4),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    const g = await failure(
      rw.set([
        vb(`${configCopy.ccCopyEntryRowStatus}.6`, T.Integer, 4),
        vb(`${configCopy.ccCopySourceFileType}.6`, T.Integer, 4),
        vb(`${configCopy.ccCopyDestFileType}.6`, T.Integer, 4),
      ]),
    );
    expect(g.status).toBe(ErrorStatus.InconsistentValue);
    expect((await rw.get([`${configCopy.ccCopyState}.5`]))[0].type).toBe(T.NoSuchInstance);
    expect(lab.model.isSaved()).toBe(false);
  });

  it("saves at once with writeMem.0 = 1, refuses 0 (which would erase)", async () => {
    await change("write mem");
    expect((await failure(rw.set([vb(`${oldCiscoSys.writeMem}.0`, T.Integer, 0)]))).status).toBe(
      ErrorStatus.WrongValue,
    );
    expect(lab.model.isSaved()).toBe(false);
    await rw.set([vb(`${oldCiscoSys.writeMem}.0`, T.Integer, 1)]);
    expect(lab.model.isSaved()).toBe(true);
  });

  it("loses unsaved changes on a reboot", async () => {
    await change("gone after reload");
    lab.faults.restart();
    expect(lab.model.alias(lab.model.port(2).ifIndex)).not.toBe("gone after reload");
  });

  it("has no writeMem when the profile option turns it off (notWritable), and still saves by ccCopy", async () => {
    const xe = await startLabSwitch({ profile: "cisco", ports: 8, seed: 1, vendor: { cisco: { writeMem: false } } });
    const s = sessionTo(xe, { write: true });
    try {
      await s.set([vb(`${ifXTable.ifAlias}.${xe.model.port(1).ifIndex}`, T.OctetString, "on IOS-XE")]);
      expect((await failure(s.set([vb(`${oldCiscoSys.writeMem}.0`, T.Integer, 1)]))).status).toBe(
        ErrorStatus.NotWritable,
      );
      expect(xe.model.isSaved()).toBe(false);
      await s.set([
        vb(`${configCopy.ccCopyEntryRowStatus}.1`, T.Integer, 4),
        vb(`${configCopy.ccCopySourceFileType}.1`, T.Integer, 4),
        vb(`${configCopy.ccCopyDestFileType}.1`, T.Integer, 3),
      ]);
      const done = await pollUntil(
        () => s.get([`${configCopy.ccCopyState}.1`]).then((v) => v[0].value as number),
        (st) => st >= 3,
      );
      expect([done, xe.model.isSaved()]).toEqual([3, true]);
    } finally {
      s.close();
      await xe.stop();
    }
  });
});

describe("cisco profile as a VTP server", () => {
  it("applies normal-range VLANs, bumps the revision, and fails an extended-range one (inconsistentEdit)", async () => {
    const lab = await startLabSwitch({ profile: "cisco", ports: 8, seed: 3, vendor: { cisco: { vtpMode: "server" } } });
    const rw = sessionTo(lab, { write: true });
    const row = (id: number) => {
      const said = Buffer.alloc(4);
      said.writeUInt32BE(100000 + id);
      return [
        vb(`${vtp.vtpVlanEditRowStatus}.1.${id}`, T.Integer, 4),
        vb(`${vtp.vtpVlanEditName}.1.${id}`, T.OctetString, `v${id}`),
        vb(`${vtp.vtpVlanEditDot10Said}.1.${id}`, T.OctetString, said),
      ];
    };
    const edit = async (id: number) => {
      await rw.set([vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, 2)]);
      await rw.set(row(id));
      await rw.set([vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, 3)]);
      const [status] = await rw.get([`${vtp.vtpVlanApplyStatus}.1`]);
      await rw.set([vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, 4)]);
      return status.value;
    };
    try {
      const [rev] = await rw.get([`${vtp.managementDomainConfigRevNumber}.1`]);
      expect(await edit(500)).toBe(2);
      expect((await rw.get([`${vtp.managementDomainConfigRevNumber}.1`]))[0].value).toBe((rev.value as number) + 1);
      expect(await edit(2000)).toBe(4);
      expect(lab.model.vlan(2000)).toBeUndefined();
      expect(lab.model.vlan(500)?.name).toBe("v500");
    } finally {
      rw.close();
      await lab.stop();
    }
  });
});

describe("cisco profile started as a VTP client", () => {
  it("reads mode client and refuses the edit buffer copy", async () => {
    const lab = await startLabSwitch({ profile: "cisco", ports: 8, seed: 3, vendor: { cisco: { vtpMode: "client" } } });
    const rw = sessionTo(lab, { write: true });
    try {
      expect((await rw.get([`${vtp.managementDomainLocalMode}.1`]))[0].value).toBe(1);
      const f = await failure(
        rw.set([
          vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, 2),
          vb(`${vtp.vtpVlanEditBufferOwner}.1`, T.OctetString, "me"),
        ]),
      );
      expect(f.status).toBe(ErrorStatus.InconsistentValue);
      expect(f.message).toContain(`${vtp.vtpVlanEditOperation}.1`);
    } finally {
      rw.close();
      await lab.stop();
    }
  });
});

/**
 * The cisco driver (drivers/families/cisco/) on the lab, where the conformance suite does
 * not look: VTP modes and a held or failing edit buffer, trunks, the per-VLAN MAC tables,
 * and the save's fallback to writeMem.
 */
describe("cisco driver on the cisco profile", () => {
  const open = (lab: LabSwitch) =>
    ciscoEntry.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, { name: lab.options.name });
  const withLab = async (
    options: Partial<Parameters<typeof startLabSwitch>[0]>,
    fn: (lab: LabSwitch, d: Driver) => Promise<void>,
  ) => {
    const lab = await startLabSwitch({ profile: "cisco", ports: 12, seed: 5, ...options });
    const d = open(lab);
    try {
      await fn(lab, d);
    } finally {
      await d.close();
      await lab.stop();
    }
  };
  const owner = async (lab: LabSwitch) => {
    const s = sessionTo(lab);
    try {
      return String((await s.get([`${vtp.vtpVlanEditBufferOwner}.1`]))[0].value);
    } finally {
      s.close();
    }
  };

  it("answers not_supported for VLAN edits on a VTP client, naming the mode and domain, and changes nothing", async () => {
    await withLab({ vendor: { cisco: { vtpMode: "client" } } }, async (lab, d) => {
      const before = lab.model.vlanIds();
      const renamed = lab.model.vlanIds().find((v) => v !== 1)!;
      for (const attempt of [d.createVlan(600, "x"), d.renameVlan(renamed, "y"), d.deleteVlan(renamed)]) {
        await expect(attempt).rejects.toMatchObject({
          code: "not_supported",
          message: expect.stringMatching(/VTP client \(domain 'lab'\)/),
        });
      }
      expect(lab.model.vlanIds()).toEqual(before);
    });
  });

  it("creates on a VTP server (revision bumped) and reports an extended-range VLAN the server refuses, releasing the buffer", async () => {
    await withLab({ vendor: { cisco: { vtpMode: "server" } } }, async (lab, d) => {
      const s = sessionTo(lab);
      const revision = async () => (await s.get([`${vtp.managementDomainConfigRevNumber}.1`]))[0].value as number;
      const before = await revision();
      await d.createVlan(700, "server-made");
      expect(lab.model.vlan(700)).toMatchObject({ name: "server-made", active: true });
      expect(await revision()).toBe(before + 1);
      s.close();
      const failure = d.createVlan(2000, "extended");
      await expect(failure).rejects.toMatchObject({
        code: "device_refused",
        message: expect.stringMatching(/vtpVlanApplyStatus inconsistentEdit.*creating VLAN 2000 was not done/),
      });
      expect(lab.model.vlan(2000)).toBeUndefined();
      expect(await owner(lab)).toBe("");
    });
  });

  it("reports a delete the apply refuses (VLAN still in use) and leaves the buffer released for the next edit", async () => {
    await withLab({}, async (lab, d) => {
      const used = lab.model.pvid(lab.model.ethernetPorts[0].bridgePort!)!;
      await expect(d.deleteVlan(used)).rejects.toMatchObject({
        code: "device_refused",
        message: expect.stringMatching(/inconsistentEdit/),
      });
      expect(lab.model.vlan(used)).toBeDefined();
      expect(await owner(lab)).toBe("");
      await d.createVlan(701, "after");
      expect(lab.model.vlan(701)?.name).toBe("after");
    });
  });

  it("names the manager holding the edit buffer when it cannot take it", async () => {
    await withLab({}, async (lab, d) => {
      const other = sessionTo(lab, { write: true });
      try {
        await other.set([
          vb(`${vtp.vtpVlanEditOperation}.1`, T.Integer, 2),
          vb(`${vtp.vtpVlanEditBufferOwner}.1`, T.OctetString, "other-nms"),
        ]);
        await expect(d.createVlan(702, "blocked")).rejects.toMatchObject({
          code: "device_refused",
          message: expect.stringMatching(
            /vtpVlanEditOperation\.1.*inconsistentValue.*held by 'other-nms'.*creating VLAN 702 was not done/,
          ),
        });
        expect(lab.model.vlan(702)).toBeUndefined();
        // the other manager's buffer is not released behind its back
        expect(await owner(lab)).toBe("other-nms");
      } finally {
        other.close();
      }
    });
  });

  it("moves a trunk's untagged VLAN through vlanTrunkPortNativeVlan and lists its tagged VLANs from the allowed bitmaps", async () => {
    await withLab({}, async (lab, d) => {
      const t = lab.model.ethernetPorts.find((i) => lab.model.running.portModes.has(i.bridgePort!))!;
      const id = String(t.ifIndex);
      const carried = lab.model.vlanIds().filter((v) => lab.model.vlan(v)!.egress.has(t.bridgePort!));
      const native = lab.model.pvid(t.bridgePort!)!;
      const basic = (await d.learn("basic")).interfaces.find((i) => i.id === id)!;
      expect([basic.untagged_vlan, basic.tagged_vlans]).toEqual([native, carried.filter((v) => v !== native)]);
      const target = carried.find((v) => v !== native) ?? lab.model.activeVlanIds().find((v) => v !== native)!;
      const view = (await d.learnInterface(id))!;
      await d.setUntaggedVlan(view, target);
      expect(lab.model.pvid(t.bridgePort!)).toBe(target);
      expect((await d.learnInterface(id))!.interface.untagged_vlan).toBe(target);
    });
  });

  it("reads each operational VLAN's MAC table in its own context (community@vlan)", async () => {
    await withLab({}, async (lab, d) => {
      const snap = await d.learn("details");
      const byVlan = new Map<number, number>();
      for (const i of snap.interfaces) for (const m of i.macs) byVlan.set(m.vlan, (byVlan.get(m.vlan) ?? 0) + 1);
      const want = new Map<number, number>();
      for (const e of lab.model.fdb) want.set(e.vlan, (want.get(e.vlan) ?? 0) + 1);
      expect(new Map([...byVlan].sort(([a], [b]) => a - b))).toEqual(new Map([...want].sort(([a], [b]) => a - b)));
      expect(byVlan.size).toBeGreaterThan(1);
    });
  });

  it("saves with writeMem when the device has no config copy table, and says so when it has neither", async () => {
    await withLab({}, async (lab, d) => {
      lab.faults.refuseSetsMatching("1.3.6.1.4.1.9.9.96", "notWritable");
      await d.setDescription(
        (await d.learnInterface(String(lab.model.ethernetPorts[1].ifIndex)))!,
        "saved by writeMem",
      );
      expect(lab.model.isSaved()).toBe(false);
      await d.saveConfig();
      expect(lab.model.isSaved()).toBe(true);
    });
    await withLab({ vendor: { cisco: { writeMem: false } } }, async (lab, d) => {
      lab.faults.refuseSetsMatching("1.3.6.1.4.1.9.9.96", "notWritable");
      await d.setDescription((await d.learnInterface(String(lab.model.ethernetPorts[1].ifIndex)))!, "not saved");
      await expect(d.saveConfig()).rejects.toMatchObject({
        code: "device_refused",
        message: expect.stringMatching(/ccCopy.*notWritable.*writeMem too.*notWritable/),
      });
      expect(lab.model.isSaved()).toBe(false);
    });
  });

  it("removes its config copy row after a save", async () => {
    await withLab({}, async (lab, d) => {
      await d.setDescription((await d.learnInterface(String(lab.model.ethernetPorts[2].ifIndex)))!, "saved by copy");
      await d.saveConfig();
      expect(lab.model.isSaved()).toBe(true);
      const s = sessionTo(lab);
      try {
        expect((await walkMap(s, configCopy.ccCopyEntryRowStatus)).size).toBe(0);
      } finally {
        s.close();
      }
    });
  });
});
