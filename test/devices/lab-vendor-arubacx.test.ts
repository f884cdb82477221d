/**
 * The arubacx profile from the outside: what AOS-CX serves (PVIDs, the bridge map, the
 * MAC table, ARUBAWIRED-PORTVLAN, no Q-BRIDGE VLAN tables), the few SETs it takes (admin
 * state, PoE, the config copy) and the notWritable it answers for the rest; then the
 * arubacx driver on it (the view's VLAN-name note, stack PoE, not_supported, refusals, a busy save).
 */
import { arubaCxConfig, arubaCxPortVlan, ieee8021QBridge } from "../../mib/arubacx";
import { arubaCxVlans } from "../../drivers/families/arubacx/vlans";
import { ifTable, ifXTable, poe, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { ErrorStatus, ObjectType as T, sessionTo, type ClientSession } from "../support/snmp-client";
import { failure, pollUntil, vb, walkMap } from "./lab-vendor-helpers";
import type { Driver } from "../../drivers/contract";
import type { SnmpDriver } from "../../drivers/snmp/driver";
import { Tables } from "../../drivers/snmp/session";
import { arubacx, VLAN_NAMES_MISSING } from "../../drivers/families/arubacx";

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
    expect([names.get("3"), names.get("16777217"), names.get("268435456")].map(String)).toEqual([
      "1/1/3",
      "vlan1",
      "eth0",
    ]);
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
    [
      "arubaWiredPortVlanMemberVid",
      () => vb(`${arubaCxPortVlan.arubaWiredPortVlanMemberVid}.1`, T.OctetString, Buffer.alloc(512)),
    ],
    ["a Q-BRIDGE VLAN row", () => vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 4)],
  ])("refuses %s with notWritable and changes nothing", async (_name, make) => {
    const pvid = lab.model.pvid(1);
    const f = await failure(rw.set([make()]));
    expect(f.status).toBe(ErrorStatus.NotWritable);
    expect(lab.model.pvid(1)).toBe(pvid);
    expect(lab.model.alias(1)).not.toBe("desk");
  });

  const copyState = (row: number) =>
    ro.get([`${arubaCxConfig.arubaWiredConfigurationCopyState}.${row}`]).then((v) => v[0].value as number);
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
    expect(
      await pollUntil(
        () => copyState(3141592),
        (s) => s >= 3,
      ),
    ).toBe(3);
    expect(lab.model.isSaved()).toBe(true);
  });

  it("refuses a copy from a file to itself, and fails a second copy while one runs (busy)", async () => {
    expect((await failure(copy(7, 3, 3))).status).toBe(ErrorStatus.InconsistentValue);
    await copy(8, 3, 2);
    await copy(9, 3, 2);
    const [state, cause] = await ro.get([
      `${arubaCxConfig.arubaWiredConfigurationCopyState}.9`,
      `${arubaCxConfig.arubaWiredConfigurationCopyFailureCause}.9`,
    ]);
    expect([state.value, cause.value]).toEqual([4, 3]);
    // an active row cannot be changed
    expect(
      (await failure(rw.set([vb(`${arubaCxConfig.arubaWiredConfigurationCopyDestFileType}.8`, T.Integer, 4)]))).status,
    ).toBe(ErrorStatus.InconsistentValue);
  });
});

describe("arubacx driver on the profile (a two-member VSF stack)", () => {
  let lab: LabSwitch;
  const open: Driver[] = [];
  const driver = () => {
    const d = arubacx.open({ connector: 0, snmp: lab.snmpTarget({ write: true }) }, { name: "cx" });
    open.push(d);
    return d;
  };
  const view = async (d: Driver, ifIndex: number) => (await d.learnInterface(String(ifIndex)))!;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "arubacx", ports: 60, seed: 8, poePorts: [1, 53, 54] });
  });
  afterEach(async () => {
    lab.faults.reset();
    await Promise.all(open.splice(0).map((d) => d.close()));
  });
  afterAll(async () => lab.stop());

  it("lists the VLANs its ports carry, unnamed, and says in driver_info why there are no names", async () => {
    const snap = await driver().learn("basic");
    expect(snap.vlans.length).toBeGreaterThan(1);
    expect(snap.vlans.filter((v) => v.name !== "")).toEqual([]);
    expect(snap.driver_info.vlan_names).toBe(VLAN_NAMES_MISSING);
    const second = snap.interfaces.find((i) => i.name === "2/1/1")!;
    expect(second.id).toBe("65");
    expect(second.untagged_vlan).toBe(lab.model.pvid(65));
  });

  it("switches PoE of the second member's port 2/1/1 (pethPsePort row 2.1)", async () => {
    const d = driver();
    const before = lab.model.poeState(65)!.enabled;
    await d.setPoe(await view(d, 65), !before);
    expect(lab.model.poeState(65)!.enabled).toBe(!before);
    expect(lab.model.poeState(1)!.enabled).toBe(true);
    await d.setPoe(await view(d, 65), before);
    expect(lab.model.poeState(65)!.enabled).toBe(before);
  });

  it("answers VLAN and description changes with not_supported and the reason, sending nothing", async () => {
    const d = driver();
    const v = await view(d, 2);
    const target = lab.model.activeVlanIds().find((id) => id !== v.interface.untagged_vlan)!;
    const sent = (d as SnmpDriver).counters.requests;
    const reasons = await Promise.all(
      [
        d.setUntaggedVlan(v, target),
        d.createVlan(3001, "x"),
        d.renameVlan(target, "x"),
        d.deleteVlan(target),
        d.setDescription(v, "desk"),
      ].map((p) =>
        p.then(
          () => null,
          (e: { code?: string; message: string }) => [e.code, e.message],
        ),
      ),
    );
    for (const r of reasons) expect(r).toEqual(["not_supported", expect.stringMatching(/^AOS-CX takes no SNMP write/)]);
    expect((d as SnmpDriver).counters.requests).toBe(sent);
    expect(lab.model.alias(2)).not.toBe("desk");
    expect(lab.model.pvid(2)).toBe(v.interface.untagged_vlan);
  });

  it("a refused admin-state write is device_refused with the device's words, and nothing changes", async () => {
    const d = driver();
    const v = await view(d, 3);
    lab.faults.refuseSets = "noAccess";
    await expect(d.setAdminState(v, !v.interface.admin_up)).rejects.toMatchObject({
      code: "device_refused",
      message: expect.stringMatching(/noAccess/),
    });
    expect(lab.model.adminUp(3)).toBe(v.interface.admin_up);
  });

  it("a save while another manager's copy runs fails as refused, naming busy", async () => {
    const rw = sessionTo(lab, { write: true });
    try {
      await rw.set([
        vb(`${arubaCxConfig.arubaWiredConfigurationCopyEntryRowStatus}.77`, T.Integer, 4),
        vb(`${arubaCxConfig.arubaWiredConfigurationCopySourceFileType}.77`, T.Integer, 3),
        vb(`${arubaCxConfig.arubaWiredConfigurationCopyDestFileType}.77`, T.Integer, 2),
      ]);
    } finally {
      rw.close();
    }
    await expect(driver().saveConfig()).rejects.toMatchObject({
      code: "device_refused",
      message: expect.stringMatching(/busy/),
    });
  });
});

describe("arubacx VLAN part on a firmware that serves IEEE8021-Q-BRIDGE names (no recording or lab has one)", () => {
  const part = arubaCxVlans();
  const keys = Object.keys(part.reads("learn"));
  const octets = (value: Buffer | string) => ({
    oid: "",
    type: 4,
    value: Buffer.isBuffer(value) ? value : Buffer.from(value),
  });
  const vids = (...ids: number[]) => {
    const b = Buffer.alloc(512);
    for (const v of ids) b[(v - 1) >> 3] |= 0x80 >> ((v - 1) & 7);
    return b;
  };
  // answers by the part's own plan keys: PVIDs, member VID lists, IEEE names (component 1)
  const [pvidKey, vidKey, nameKey] = keys;
  const tables = Tables.of({
    columns: {
      [pvidKey]: new Map([
        [
          qbridge.dot1qPvid,
          new Map([
            ["1", { oid: "", type: 66, value: 10 }],
            ["2", { oid: "", type: 66, value: 20 }],
          ]),
        ],
      ]),
      [vidKey]: new Map([[arubaCxPortVlan.arubaWiredPortVlanMemberVid, new Map([["2", octets(vids(20, 30, 4094))]])]]),
      [nameKey]: new Map([
        [
          ieee8021QBridge.ieee8021QBridgeVlanStaticName,
          new Map([
            ["1.10", octets("users")],
            ["1.20", octets("voice")],
            ["1.40", octets("unused")],
          ]),
        ],
      ]),
    },
  });

  it("names the VLANs it serves names for and lists the carried ones too", () => {
    expect(keys).toHaveLength(3);
    expect(part.vlans(tables).map((v) => [v.id, v.name])).toEqual([
      [10, "users"],
      [20, "voice"],
      [30, ""],
      [40, "unused"],
      [4094, ""],
    ]);
  });

  it("takes a port's tagged VLANs from its VID list, less its PVID", () => {
    const ports = {
      bridge: { assumed: true, portToIf: new Map(), ifToPort: new Map() },
      ifIndexes: new Set([1, 2]),
      names: new Map(),
    };
    const byIf = part.ports(tables, ports);
    expect([byIf.get(1)!.untagged, byIf.get(1)!.tagged]).toEqual([10, []]);
    expect([byIf.get(2)!.untagged, byIf.get(2)!.tagged]).toEqual([20, [30, 4094]]);
  });
});
