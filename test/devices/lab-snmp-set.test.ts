/**
 * Writing to a lab switch over real SNMP: sets change the running configuration and not
 * the startup one until a save, VLAN rows are created and destroyed, a PDU is applied
 * whole or not at all, and refusals carry the SNMPv2 error-status and error-index. Q-BRIDGE
 * writes in both modes: "auto" moves a port's access VLAN, "strict" changes each object only.
 */
import { ciscoSbCopy, ifTable, ifXTable, poe, qbridge } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import {
  ErrorStatus,
  hasTool,
  ObjectType,
  runTool,
  sessionTo,
  type ClientError,
  type ClientSession,
  type ClientVarBind,
} from "../support/snmp-client";

const T = ObjectType;

async function failure(p: Promise<unknown>): Promise<{ status?: number; message: string; name: string }> {
  try {
    await p;
  } catch (e) {
    const err = e as ClientError;
    return { status: err.status, message: err.message, name: err.name };
  }
  throw new Error("expected the request to fail");
}

const vb = (oid: string, type: number, value: unknown): ClientVarBind => ({ oid, type, value });

describe("SETs on a generic switch", () => {
  let lab: LabSwitch;
  let rw: ClientSession;
  let ro: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 24, poePorts: "all", seed: 21 });
    rw = sessionTo(lab, { write: true });
    ro = sessionTo(lab);
  });
  afterEach(async () => {
    rw.close();
    ro.close();
    await lab.stop();
  });

  const port = (n: number) => lab.model.port(n);

  it("changes the running state, not the startup state", async () => {
    const ifIndex = port(3).ifIndex;
    const before = lab.model.startup.ports.get(ifIndex)!.alias;
    await rw.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "printer room")]);
    expect(lab.model.alias(ifIndex)).toBe("printer room");
    expect(lab.model.startup.ports.get(ifIndex)!.alias).toBe(before);
    expect(lab.model.isSaved()).toBe(false);
    const [got] = await ro.get([`${ifXTable.ifAlias}.${ifIndex}`]);
    expect(got.value).toEqual(Buffer.from("printer room"));
  });

  it("takes a port down: admin and oper status both read down", async () => {
    const p = lab.model.ethernetPorts.find((i) => lab.model.operUp(i.ifIndex))!;
    await rw.set([vb(`${ifTable.ifAdminStatus}.${p.ifIndex}`, T.Integer, 2)]);
    const got = await ro.get([`${ifTable.ifAdminStatus}.${p.ifIndex}`, `${ifTable.ifOperStatus}.${p.ifIndex}`]);
    expect(got.map((v) => v.value)).toEqual([2, 2]);
    await rw.set([vb(`${ifTable.ifAdminStatus}.${p.ifIndex}`, T.Integer, 1)]);
    expect((await ro.get([`${ifTable.ifOperStatus}.${p.ifIndex}`]))[0].value).toBe(1);
  });

  it("answers a SET with the read community with noAccess and changes nothing", async () => {
    const ifIndex = port(1).ifIndex;
    const f = await failure(ro.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "nope")]));
    expect(f.status).toBe(ErrorStatus.NoAccess);
    expect(lab.model.alias(ifIndex)).not.toBe("nope");
  });

  it("does not answer an unknown community at all", async () => {
    const stranger = sessionTo(lab, { community: "guess", timeoutMs: 300 });
    try {
      const f = await failure(stranger.get(["1.3.6.1.2.1.1.5.0"]));
      expect(f.name).toBe("RequestTimedOutError");
    } finally {
      stranger.close();
    }
  });

  it("applies a PDU whole or not at all, naming the failing varbind", async () => {
    const a = port(1).ifIndex;
    const b = port(2).ifIndex;
    const aliasBefore = lab.model.alias(a);
    const f = await failure(
      rw.set([
        vb(`${ifXTable.ifAlias}.${a}`, T.OctetString, "first"),
        vb(`${ifTable.ifAdminStatus}.${b}`, T.Integer, 7),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.WrongValue);
    expect(f.message).toContain(`${ifTable.ifAdminStatus}.${b}`); // error-index 2
    expect(lab.model.alias(a)).toBe(aliasBefore);
    expect(lab.model.adminUp(b)).toBe(true);
  });

  it.each([
    [
      "wrongType: text where an integer belongs",
      () => vb(`${ifTable.ifAdminStatus}.1001`, T.OctetString, "up"),
      ErrorStatus.WrongType,
    ],
    [
      "wrongType: Integer for an Unsigned32 PVID",
      () => vb(`${qbridge.dot1qPvid}.1`, T.Integer, 10),
      ErrorStatus.WrongType,
    ],
    [
      "wrongLength: a description over 64 characters",
      () => vb(`${ifXTable.ifAlias}.1001`, T.OctetString, "x".repeat(65)),
      ErrorStatus.WrongLength,
    ],
    [
      "wrongValue: a control character in a description",
      () => vb(`${ifXTable.ifAlias}.1001`, T.OctetString, "a\nb"),
      ErrorStatus.WrongValue,
    ],
    ["notWritable: a read-only object", () => vb("1.3.6.1.2.1.1.1.0", T.OctetString, "x"), ErrorStatus.NotWritable],
    [
      "notWritable: an object the agent does not have",
      () => vb("1.3.6.1.4.1.99999.1.0", T.Integer, 1),
      ErrorStatus.NotWritable,
    ],
    [
      "noCreation: an interface that does not exist",
      () => vb(`${ifXTable.ifAlias}.77`, T.OctetString, "x"),
      ErrorStatus.NoCreation,
    ],
    [
      "noCreation: a VLAN id out of range",
      () => vb(`${qbridge.dot1qVlanStaticName}.4095`, T.OctetString, "x"),
      ErrorStatus.NoCreation,
    ],
    [
      "inconsistentName: naming a VLAN that was not created",
      () => vb(`${qbridge.dot1qVlanStaticName}.77`, T.OctetString, "x"),
      ErrorStatus.InconsistentName,
    ],
    [
      "inconsistentValue: a PVID that is no VLAN",
      () => vb(`${qbridge.dot1qPvid}.1`, T.Gauge, 77),
      ErrorStatus.InconsistentValue,
    ],
    [
      "wrongValue: a PortList naming ports the switch lacks",
      () => vb(`${qbridge.dot1qVlanStaticEgressPorts}.10`, T.OctetString, Buffer.from([0, 0, 0, 0x80])),
      ErrorStatus.WrongValue,
    ],
  ])("refuses %s", async (_name, make, status) => {
    const before = JSON.stringify([...lab.model.running.ports]);
    const f = await failure(rw.set([make()]));
    expect(f.status).toBe(status);
    expect(JSON.stringify([...lab.model.running.ports])).toBe(before);
  });

  it("creates a VLAN with its name in one PDU (any varbind order), renames and destroys it", async () => {
    await rw.set([
      vb(`${qbridge.dot1qVlanStaticName}.42`, T.OctetString, "guests"),
      vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 4),
    ]);
    expect(lab.model.vlan(42)).toMatchObject({ name: "guests", active: true });
    const names = await ro.walk(qbridge.dot1qVlanStaticName);
    expect(names.map((v) => v.oid)).toContain(`${qbridge.dot1qVlanStaticName}.42`);
    const current = await ro.walk(qbridge.dot1qVlanStatus);
    expect(current.map((v) => v.oid)).toContain(`${qbridge.dot1qVlanStatus}.0.42`);
    expect((await ro.get(["1.3.6.1.2.1.17.7.1.1.4.0"]))[0].value).toBe(lab.model.activeVlanIds().length);

    await rw.set([vb(`${qbridge.dot1qVlanStaticName}.42`, T.OctetString, "visitors")]);
    expect((await ro.get([`${qbridge.dot1qVlanStaticName}.42`]))[0].value).toEqual(Buffer.from("visitors"));

    await rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.42`, T.Integer, 6)]);
    expect(lab.model.vlan(42)).toBeUndefined();
    expect((await ro.get([`${qbridge.dot1qVlanStaticName}.42`]))[0].type).toBe(T.NoSuchInstance);
    const f = await failure(rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.10`, T.Integer, 4)]));
    expect(f.status).toBe(ErrorStatus.InconsistentValue); // 10 exists already
  });

  it("creates a VLAN with createAndWait and activates it later; only active VLANs are current", async () => {
    await rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.43`, T.Integer, 5)]);
    expect((await ro.get([`${qbridge.dot1qVlanStaticRowStatus}.43`]))[0].value).toBe(2);
    expect((await ro.get([`${qbridge.dot1qVlanStatus}.0.43`]))[0].type).toBe(T.NoSuchInstance);
    await rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.43`, T.Integer, 1)]);
    expect((await ro.get([`${qbridge.dot1qVlanStatus}.0.43`]))[0].value).toBe(2);
  });

  it("refuses to destroy a VLAN that is some port's PVID, and the default VLAN", async () => {
    const inUse = lab.model.pvid(1)!;
    for (const id of [inUse, 1]) {
      const f = await failure(rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.${id}`, T.Integer, 6)]));
      expect(f.status).toBe(ErrorStatus.InconsistentValue);
      expect(lab.model.vlan(id)).toBeDefined();
    }
  });

  it("moves a port to another access VLAN by its PVID and keeps the VLAN rules", async () => {
    const bp = lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10)!;
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30)]);
    expect(lab.model.pvid(bp)).toBe(30);
    expect(lab.model.consistencyProblems()).toEqual([]);
    const [untagged30, egress10] = await ro.get([
      `${qbridge.dot1qVlanCurrentUntaggedPorts}.0.30`,
      `${qbridge.dot1qVlanStaticEgressPorts}.10`,
    ]);
    const bit = (buf: Buffer, p: number) => (buf[(p - 1) >> 3] & (0x80 >> ((p - 1) % 8))) !== 0;
    expect(bit(untagged30.value as Buffer, bp)).toBe(true);
    expect(bit(egress10.value as Buffer, bp)).toBe(false);
  });

  it("adds and removes a tagged VLAN through the egress PortList", async () => {
    const sw = lab.model;
    const bp = sw.bridgePorts.find((p) => sw.pvid(p) === 10 && !sw.vlan(30)!.egress.has(p))!;
    const withPort = Buffer.alloc(sw.portListLength);
    for (const p of [...sw.vlan(30)!.egress, bp]) withPort[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
    await rw.set([vb(`${qbridge.dot1qVlanStaticEgressPorts}.30`, T.OctetString, withPort)]);
    expect(sw.vlan(30)!.egress.has(bp)).toBe(true);
    expect(sw.vlan(30)!.untagged.has(bp)).toBe(false);
    expect(sw.pvid(bp)).toBe(10);
    // taking a port out of its own untagged VLAN's egress would leave it without one
    const own = Buffer.alloc(sw.portListLength);
    for (const p of sw.vlan(10)!.egress) if (p !== bp) own[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
    const f = await failure(rw.set([vb(`${qbridge.dot1qVlanStaticEgressPorts}.10`, T.OctetString, own)]));
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(sw.vlan(10)!.egress.has(bp)).toBe(true);
  });

  it("makes a VLAN a port's access VLAN through the untagged PortList", async () => {
    const sw = lab.model;
    const bp = sw.bridgePorts.find((p) => sw.pvid(p) === 10)!;
    const list = Buffer.alloc(sw.portListLength);
    for (const p of [...sw.vlan(30)!.untagged, bp]) list[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
    await rw.set([vb(`${qbridge.dot1qVlanStaticUntaggedPorts}.30`, T.OctetString, list)]);
    expect(sw.pvid(bp)).toBe(30);
    expect(sw.vlan(10)!.egress.has(bp)).toBe(false);
    expect(sw.consistencyProblems()).toEqual([]);
  });

  it("switches PoE off and on: detection status and consumption follow", async () => {
    const sw = lab.model;
    const p = sw.ethernetPorts.find((i) => i.poe?.device && sw.poeState(i.ifIndex)!.enabled)!;
    const idx = `${p.poe!.group}.${p.poe!.index}`;
    const before = sw.poeConsumedW();
    await rw.set([vb(`${poe.pethPsePortAdminEnable}.${idx}`, T.Integer, 2)]);
    const got = await ro.get([
      `${poe.pethPsePortAdminEnable}.${idx}`,
      `${poe.pethPsePortDetectionStatus}.${idx}`,
      `${poe.pethMainPseConsumptionPower}.1`,
    ]);
    expect(got.map((v) => v.value)).toEqual([2, 1, Math.round((before * 1000 - p.poe!.device!.powerMw) / 1000)]);
    await rw.set([vb(`${poe.pethPsePortAdminEnable}.${idx}`, T.Integer, 1)]);
    expect((await ro.get([`${poe.pethPsePortDetectionStatus}.${idx}`]))[0].value).toBe(3);
  });

  const snmpset = hasTool("snmpset") ? it : it.skip;
  snmpset("takes SETs from Debian's snmpset, with the same refusals", async () => {
    const target = `127.0.0.1:${lab.port}`;
    const ifIndex = port(5).ifIndex;
    const ok = await runTool("snmpset", [
      "-v2c",
      "-c",
      "private",
      target,
      `${ifXTable.ifAlias}.${ifIndex}`,
      "s",
      "from snmpset",
    ]);
    expect(ok.code).toBe(0);
    expect(lab.model.alias(ifIndex)).toBe("from snmpset");
    const ro = await runTool("snmpset", ["-v2c", "-c", "public", target, `${ifXTable.ifAlias}.${ifIndex}`, "s", "x"]);
    expect(ro.stderr).toContain("noAccess");
    const create = await runTool("snmpset", [
      "-v2c",
      "-c",
      "private",
      target,
      `${qbridge.dot1qVlanStaticRowStatus}.300`,
      "i",
      "4",
      `${qbridge.dot1qVlanStaticName}.300`,
      "s",
      "cli",
    ]);
    expect(create.code).toBe(0);
    expect(lab.model.vlan(300)?.name).toBe("cli");
  });
});

describe("Q-BRIDGE writes on a switch in strict mode (each object changes only itself)", () => {
  let lab: LabSwitch;
  let rw: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 24, seed: 21, qbridge: "strict" });
    rw = sessionTo(lab, { write: true });
  });
  afterEach(async () => {
    rw.close();
    await lab.stop();
  });

  const bitmap = (ports: Iterable<number>) => {
    const list = Buffer.alloc(lab.model.portListLength);
    for (const p of ports) list[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
    return list;
  };
  /** a bridge port on VLAN 10 that does not carry VLAN 30 */
  const portOn10 = () =>
    lab.model.bridgePorts.find((p) => lab.model.pvid(p) === 10 && !lab.model.vlan(30)!.egress.has(p))!;
  const vlanSets = () =>
    JSON.stringify([...lab.model.running.vlans].map(([id, v]) => [id, [...v.egress].sort(), [...v.untagged].sort()]));

  it("a PVID write changes the PVID only, and the model names the rules the manager broke", async () => {
    const bp = portOn10();
    const sets = vlanSets();
    await rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30)]);
    expect(lab.model.pvid(bp)).toBe(30);
    expect(vlanSets()).toBe(sets);
    expect(lab.model.consistencyProblems()).toEqual([`port ${bp}: not untagged in its PVID 30`]);
  });

  it("an untagged PortList write changes that bitmap only: PVID and the old VLAN stay", async () => {
    const bp = portOn10();
    const sw = lab.model;
    await rw.set([
      vb(`${qbridge.dot1qVlanStaticUntaggedPorts}.30`, T.OctetString, bitmap([...sw.vlan(30)!.untagged, bp])),
      vb(`${qbridge.dot1qVlanStaticEgressPorts}.30`, T.OctetString, bitmap([...sw.vlan(30)!.egress, bp])),
    ]);
    expect(sw.vlan(30)!.untagged.has(bp)).toBe(true);
    expect(sw.pvid(bp)).toBe(10);
    expect(sw.vlan(10)!.untagged.has(bp)).toBe(true);
    expect(sw.consistencyProblems()).toEqual([`port ${bp}: untagged in 2 VLANs (10, 30)`]);
  });

  it("still refuses an untagged port outside the egress set, naming the PortList", async () => {
    const bp = portOn10();
    const sets = vlanSets();
    const f = await failure(
      rw.set([
        vb(`${ifXTable.ifAlias}.${lab.model.port(1).ifIndex}`, T.OctetString, "not applied"),
        vb(`${qbridge.dot1qVlanStaticUntaggedPorts}.30`, T.OctetString, bitmap([...lab.model.vlan(30)!.untagged, bp])),
      ]),
    );
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(f.message).toContain(`${qbridge.dot1qVlanStaticUntaggedPorts}.30`);
    expect(vlanSets()).toBe(sets);
    expect(lab.model.alias(lab.model.port(1).ifIndex)).not.toBe("not applied");
  });

  it("takes a whole consistent move in one PDU, whatever the varbind order", async () => {
    const bp = portOn10();
    const sw = lab.model;
    const without = (s: Set<number>) => [...s].filter((p) => p !== bp);
    await rw.set([
      vb(`${qbridge.dot1qVlanStaticEgressPorts}.10`, T.OctetString, bitmap(without(sw.vlan(10)!.egress))),
      vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 30),
      vb(`${qbridge.dot1qVlanStaticUntaggedPorts}.30`, T.OctetString, bitmap([...sw.vlan(30)!.untagged, bp])),
      vb(`${qbridge.dot1qVlanStaticUntaggedPorts}.10`, T.OctetString, bitmap(without(sw.vlan(10)!.untagged))),
      vb(`${qbridge.dot1qVlanStaticEgressPorts}.30`, T.OctetString, bitmap([...sw.vlan(30)!.egress, bp])),
    ]);
    expect(sw.pvid(bp)).toBe(30);
    expect(sw.vlan(10)!.egress.has(bp)).toBe(false);
    expect(sw.consistencyProblems()).toEqual([]);
  });

  it("keeps the checks of single objects: a PVID must be an active VLAN, a PVID's VLAN cannot go", async () => {
    const bp = portOn10();
    expect((await failure(rw.set([vb(`${qbridge.dot1qPvid}.${bp}`, T.Gauge, 77)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    expect((await failure(rw.set([vb(`${qbridge.dot1qVlanStaticRowStatus}.10`, T.Integer, 6)]))).status).toBe(
      ErrorStatus.InconsistentValue,
    );
    expect(lab.model.pvid(bp)).toBe(10);
    expect(lab.model.vlan(10)).toBeDefined();
  });
});

describe("saving a ciscosb switch through CISCOSB-COPY-MIB", () => {
  let lab: LabSwitch;
  let rw: ClientSession;

  beforeEach(async () => {
    lab = await startLabSwitch({ profile: "ciscosb", ports: 24, seed: 5 });
    rw = sessionTo(lab, { write: true });
  });
  afterEach(async () => {
    rw.close();
    await lab.stop();
  });

  const saveVarbinds = (row: number) => [
    vb(`${ciscoSbCopy.rlCopyRowStatus}.${row}`, T.Integer, 4),
    vb(`${ciscoSbCopy.rlCopySourceLocation}.${row}`, T.Integer, 1),
    vb(`${ciscoSbCopy.rlCopySourceFileType}.${row}`, T.Integer, 2),
    vb(`${ciscoSbCopy.rlCopyDestinationLocation}.${row}`, T.Integer, 1),
    vb(`${ciscoSbCopy.rlCopyDestinationFileType}.${row}`, T.Integer, 3),
  ];

  it("keeps a change in running until the one-PDU copy running -> startup", async () => {
    const ifIndex = lab.model.port(4).ifIndex;
    await rw.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "saved later")]);
    expect(lab.model.isSaved()).toBe(false);
    await rw.set(saveVarbinds(1));
    expect(lab.model.isSaved()).toBe(true);
    expect(lab.model.startup.ports.get(ifIndex)!.alias).toBe("saved later");
    const [state] = await rw.get([`${ciscoSbCopy.rlCopyOperationState}.1`]);
    expect(state.value).toBe(5);
    // the same row serves the next save
    await rw.set([vb(`${ifXTable.ifAlias}.${ifIndex}`, T.OctetString, "and again")]);
    await rw.set(saveVarbinds(1));
    expect(lab.model.startup.ports.get(ifIndex)!.alias).toBe("and again");
  });

  it("refuses a copy row without its file columns and saves nothing", async () => {
    await rw.set([vb(`${ifXTable.ifAlias}.${lab.model.port(1).ifIndex}`, T.OctetString, "unsaved")]);
    const f = await failure(rw.set([vb(`${ciscoSbCopy.rlCopyRowStatus}.2`, T.Integer, 4)]));
    expect(f.status).toBe(ErrorStatus.InconsistentValue);
    expect(lab.model.isSaved()).toBe(false);
    expect((await rw.get([`${ciscoSbCopy.rlCopyOperationState}.2`]))[0].type).toBe(T.NoSuchInstance);
  });

  it("loses unsaved changes on a restart, keeps saved ones", async () => {
    const a = lab.model.port(1).ifIndex;
    const b = lab.model.port(2).ifIndex;
    await rw.set([vb(`${ifXTable.ifAlias}.${a}`, T.OctetString, "saved")]);
    await rw.set(saveVarbinds(1));
    await rw.set([vb(`${ifXTable.ifAlias}.${b}`, T.OctetString, "not saved")]);
    lab.faults.restart();
    expect(lab.model.alias(a)).toBe("saved");
    expect(lab.model.alias(b)).not.toBe("not saved");
  });
});
