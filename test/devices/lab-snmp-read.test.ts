/**
 * Reading a lab switch over real SNMP: walks of each table give the model's values in
 * OID order, GetBulk answers exactly non-repeaters + repeaters x max-repetitions, the
 * exceptions (noSuchObject, noSuchInstance, endOfMibView) come where SNMPv2 puts them,
 * and big answers are cut at the message size. Checked with net-snmp's client and, when
 * installed, Debian's snmpbulkwalk / snmpbulkget.
 */
import { startLabSwitch, type LabSwitch, type VirtualSwitch } from "../../lab";
import { compareOids, parseOid } from "../../lab/snmp/oid";
import {
  hasTool,
  ObjectType,
  runTool,
  sessionTo,
  type ClientSession,
  type ClientVarBind,
} from "../support/snmp-client";

type Row = [oid: string, type: number, value: string | number];

/** client values in a comparable form: octets as hex, numbers and strings as they are */
function norm(vb: ClientVarBind): Row {
  const v = vb.value;
  return [vb.oid, vb.type, Buffer.isBuffer(v) ? v.toString("hex") : (v as string | number)];
}

const hex = (s: string | Buffer) => (Buffer.isBuffer(s) ? s : Buffer.from(s)).toString("hex");

function portList(ports: Iterable<number>, len: number): string {
  const b = Buffer.alloc(len);
  for (const p of ports) b[(p - 1) >> 3] |= 0x80 >> ((p - 1) % 8);
  return b.toString("hex");
}

/** BER size of a varbind list as it travelled (independent of the agent's encoder) */
function varbindListSize(vbs: ClientVarBind[]): number {
  const tlv = (content: number) => 1 + (content < 128 ? 1 : content < 256 ? 2 : 3) + content;
  const sub = (n: number) => (n < 2 ** 7 ? 1 : n < 2 ** 14 ? 2 : n < 2 ** 21 ? 3 : n < 2 ** 28 ? 4 : 5);
  const oidContent = (oid: string) => {
    const arcs = oid.split(".").map(Number);
    return 1 + arcs.slice(2).reduce((n, a) => n + sub(a), 0);
  };
  const intContent = (n: number) => (n < 0x80 ? 1 : n < 0x8000 ? 2 : n < 0x800000 ? 3 : n < 0x80000000 ? 4 : 5);
  let total = 0;
  for (const v of vbs) {
    const value = Buffer.isBuffer(v.value) ? v.value.length : typeof v.value === "number" ? intContent(v.value) : 0;
    total += tlv(tlv(oidContent(v.oid)) + tlv(value));
  }
  return total;
}

function sorted(rows: Row[]): Row[] {
  return rows.sort((a, b) => compareOids(parseOid(a[0]), parseOid(b[0])));
}

/** What each table should hold, computed from the model (not from the agent's index). */
function expectedTables(sw: VirtualSwitch): Record<string, { base: string; rows: Row[] }> {
  const T = ObjectType;
  const ifs = [...sw.interfaces];
  const eth = ifs.filter((i) => i.ifType === 6);
  const oper = (ifIndex: number) => sw.interface(ifIndex)!.link && sw.running.ports.get(ifIndex)!.adminUp;
  const vlans = [...sw.running.vlans.keys()];
  const len = sw.portListLength;
  const poePorts = ifs.filter((i) => i.poe);
  const col = <T>(
    base: string,
    items: T[],
    index: (x: T) => string,
    type: number,
    value: (x: T) => string | number,
  ) => ({
    base,
    rows: sorted(items.map((x) => [`${base}.${index(x)}`, type, value(x)] as Row)),
  });
  return {
    ifDescr: col(
      "1.3.6.1.2.1.2.2.1.2",
      ifs,
      (i) => `${i.ifIndex}`,
      T.OctetString,
      (i) => hex(i.descr),
    ),
    ifType: col(
      "1.3.6.1.2.1.2.2.1.3",
      ifs,
      (i) => `${i.ifIndex}`,
      T.Integer,
      (i) => i.ifType,
    ),
    ifAdminStatus: col(
      "1.3.6.1.2.1.2.2.1.7",
      ifs,
      (i) => `${i.ifIndex}`,
      T.Integer,
      (i) => (sw.running.ports.get(i.ifIndex)!.adminUp ? 1 : 2),
    ),
    ifOperStatus: col(
      "1.3.6.1.2.1.2.2.1.8",
      ifs,
      (i) => `${i.ifIndex}`,
      T.Integer,
      (i) => (oper(i.ifIndex) ? 1 : 2),
    ),
    ifName: col(
      "1.3.6.1.2.1.31.1.1.1.1",
      ifs,
      (i) => `${i.ifIndex}`,
      T.OctetString,
      (i) => hex(i.name),
    ),
    ifHighSpeed: col(
      "1.3.6.1.2.1.31.1.1.1.15",
      ifs,
      (i) => `${i.ifIndex}`,
      T.Gauge,
      (i) => i.speedMbps,
    ),
    ifAlias: col(
      "1.3.6.1.2.1.31.1.1.1.18",
      ifs,
      (i) => `${i.ifIndex}`,
      T.OctetString,
      (i) => hex(sw.running.ports.get(i.ifIndex)!.alias),
    ),
    duplex: col(
      "1.3.6.1.2.1.10.7.2.1.19",
      eth,
      (i) => `${i.ifIndex}`,
      T.Integer,
      (i) => (!oper(i.ifIndex) ? 1 : i.duplex === "half" ? 2 : 3),
    ),
    basePortIfIndex: col(
      "1.3.6.1.2.1.17.1.4.1.2",
      [...sw.bridgePorts],
      (p) => `${p}`,
      T.Integer,
      (p) => sw.interfaceOfBridgePort(p)!.ifIndex,
    ),
    pvid: col(
      "1.3.6.1.2.1.17.7.1.4.5.1.1",
      [...sw.bridgePorts],
      (p) => `${p}`,
      T.Gauge,
      (p) => sw.running.pvid.get(p)!,
    ),
    staticName: col(
      "1.3.6.1.2.1.17.7.1.4.3.1.1",
      vlans,
      (v) => `${v}`,
      T.OctetString,
      (v) => hex(sw.running.vlans.get(v)!.name),
    ),
    staticEgress: col(
      "1.3.6.1.2.1.17.7.1.4.3.1.2",
      vlans,
      (v) => `${v}`,
      T.OctetString,
      (v) => portList(sw.running.vlans.get(v)!.egress, len),
    ),
    staticUntagged: col(
      "1.3.6.1.2.1.17.7.1.4.3.1.4",
      vlans,
      (v) => `${v}`,
      T.OctetString,
      (v) => portList(sw.running.vlans.get(v)!.untagged, len),
    ),
    rowStatus: col(
      "1.3.6.1.2.1.17.7.1.4.3.1.5",
      vlans,
      (v) => `${v}`,
      T.Integer,
      () => 1,
    ),
    currentEgress: col(
      "1.3.6.1.2.1.17.7.1.4.2.1.4",
      vlans,
      (v) => `0.${v}`,
      T.OctetString,
      (v) => portList(sw.running.vlans.get(v)!.egress, len),
    ),
    poeAdmin: col(
      "1.3.6.1.2.1.105.1.1.1.3",
      poePorts,
      (i) => `${i.poe!.group}.${i.poe!.index}`,
      T.Integer,
      (i) => (sw.running.ports.get(i.ifIndex)!.poeEnabled ? 1 : 2),
    ),
    poeDetection: col(
      "1.3.6.1.2.1.105.1.1.1.6",
      poePorts,
      (i) => `${i.poe!.group}.${i.poe!.index}`,
      T.Integer,
      (i) => (!sw.running.ports.get(i.ifIndex)!.poeEnabled ? 1 : i.poe!.device ? 3 : 2),
    ),
    lldpRemSysName: col(
      "1.0.8802.1.1.2.1.4.1.1.9",
      [...sw.lldp],
      (n) => `0.${n.localPort}.${n.remIndex}`,
      T.OctetString,
      (n) => hex(n.sysName),
    ),
    qFdbPort: col(
      "1.3.6.1.2.1.17.7.1.2.2.1.2",
      [...sw.fdb],
      (e) => `${e.vlan}.${[...e.mac].join(".")}`,
      T.Integer,
      (e) => e.bridgePort,
    ),
    arp: col(
      "1.3.6.1.2.1.4.22.1.2",
      [...sw.arp],
      (a) => `${a.ifIndex}.${a.ip}`,
      T.OctetString,
      (a) => a.mac.toString("hex"),
    ),
  };
}

describe.each([
  { profile: "generic" as const, ports: 24, poePorts: "all" as const },
  { profile: "ciscosb" as const, ports: 48, poePorts: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] },
])("walking a $profile switch with $ports ports", (opts) => {
  let lab: LabSwitch;
  let session: ClientSession;

  beforeAll(async () => {
    lab = await startLabSwitch({ ...opts, seed: 11 });
    session = sessionTo(lab);
  });
  afterAll(async () => {
    session.close();
    await lab.stop();
  });

  it("answers each table with the model's values, in OID order", async () => {
    const tables = expectedTables(lab.model);
    for (const [name, { base, rows }] of Object.entries(tables)) {
      const got = (await session.walk(base)).map(norm);
      expect({ name, rows: got }).toEqual({ name, rows });
    }
  });

  it("serves the system group and the PoE main PSE", async () => {
    const sw = lab.model;
    const got = await session.get(["1.3.6.1.2.1.1.1.0", "1.3.6.1.2.1.1.2.0", "1.3.6.1.2.1.1.3.0", "1.3.6.1.2.1.1.5.0"]);
    expect(got[0].value).toEqual(Buffer.from(sw.system.sysDescr));
    expect(got[1].value).toBe(sw.system.sysObjectID);
    expect(got[2].type).toBe(ObjectType.TimeTicks);
    expect(got[3].value).toEqual(Buffer.from(sw.system.sysName));
    const pse = await session.walk("1.3.6.1.2.1.105.1.3.1.1");
    expect(pse.map(norm)).toEqual([
      ["1.3.6.1.2.1.105.1.3.1.1.2.1", ObjectType.Gauge, sw.poeMain!.maxPowerW],
      ["1.3.6.1.2.1.105.1.3.1.1.3.1", ObjectType.Integer, 1],
      ["1.3.6.1.2.1.105.1.3.1.1.4.1", ObjectType.Gauge, sw.poeConsumedW()],
      ["1.3.6.1.2.1.105.1.3.1.1.5.1", ObjectType.Integer, sw.poeMain!.thresholdPct],
    ]);
  });

  it("walks everything in strictly increasing order, ending with endOfMibView", async () => {
    const all = await session.walk("1", 50);
    for (let i = 1; i < all.length; i++) {
      expect(compareOids(parseOid(all[i - 1].oid), parseOid(all[i].oid))).toBeLessThan(0);
    }
    const index = lab.agent.provider.index();
    expect(all.length).toBe(index.size);
    const last = await session.getNext([all[all.length - 1].oid]);
    expect(last[0].type).toBe(ObjectType.EndOfMibView);
  });

  const bulkwalk = hasTool("snmpbulkwalk") ? it : it.skip;
  bulkwalk("gives Debian's snmpbulkwalk the same OIDs as net-snmp's walk", async () => {
    const mine = (await session.walk("1", 50)).map((v) => `.${v.oid}`);
    const res = await runTool("snmpbulkwalk", [
      "-v2c",
      "-c",
      lab.options.community,
      "-Cr50",
      `127.0.0.1:${lab.port}`,
      ".1",
    ]);
    expect(res.code).toBe(0);
    const theirs = res.stdout
      .split("\n")
      .filter((l) => l.startsWith(".") && !l.includes("No more variables"))
      .map((l) => l.split(" = ")[0]);
    expect(theirs).toEqual(mine);
  });
});

describe("GET, GETNEXT and GETBULK semantics", () => {
  let lab: LabSwitch;
  let session: ClientSession;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 384, poePorts: "all", seed: 2 });
    session = sessionTo(lab);
  });
  afterAll(async () => {
    session.close();
    await lab.stop();
  });

  it("answers noSuchObject for an unknown object and noSuchInstance for a missing row", async () => {
    const got = await session.get(["1.3.6.1.2.1.1.9.0", "1.3.6.1.2.1.2.2.1.2.99999", "1.3.6.1.2.1.1.5.0"]);
    expect(got.map((v) => v.type)).toEqual([
      ObjectType.NoSuchObject,
      ObjectType.NoSuchInstance,
      ObjectType.OctetString,
    ]);
  });

  it("GetBulk returns exactly non-repeaters + repeaters x max-repetitions values, interleaved", async () => {
    const sw = lab.model;
    const got = await session.getBulk(
      [
        "1.3.6.1.2.1.1.1",
        "1.3.6.1.2.1.1.5",
        "1.3.6.1.2.1.2.2.1.2",
        "1.3.6.1.2.1.31.1.1.1.1",
        "1.3.6.1.2.1.31.1.1.1.18",
      ],
      2,
      7,
    );
    expect(got).toHaveLength(2 + 3 * 7);
    expect(got[0].oid).toBe("1.3.6.1.2.1.1.1.0");
    expect(got[1].oid).toBe("1.3.6.1.2.1.1.5.0");
    const ifIndexes = sw.interfaces.map((i) => i.ifIndex).slice(0, 7);
    for (let rep = 0; rep < 7; rep++) {
      const [descr, name, alias] = got.slice(2 + rep * 3, 5 + rep * 3);
      expect(descr.oid).toBe(`1.3.6.1.2.1.2.2.1.2.${ifIndexes[rep]}`);
      expect(name.oid).toBe(`1.3.6.1.2.1.31.1.1.1.1.${ifIndexes[rep]}`);
      expect(alias.oid).toBe(`1.3.6.1.2.1.31.1.1.1.18.${ifIndexes[rep]}`);
      expect(name.value).toEqual(Buffer.from(sw.interface(ifIndexes[rep])!.name));
    }
  });

  const bulkget = hasTool("snmpbulkget") ? it : it.skip;
  bulkget("GetBulk counts hold for Debian's snmpbulkget too", async () => {
    const res = await runTool("snmpbulkget", [
      "-v2c",
      "-c",
      "public",
      "-Cn1",
      "-Cr9",
      `127.0.0.1:${lab.port}`,
      ".1.3.6.1.2.1.1.3",
      ".1.3.6.1.2.1.2.2.1.7",
      ".1.3.6.1.2.1.17.7.1.4.5.1.1",
    ]);
    const lines = res.stdout.split("\n").filter((l) => l.startsWith("."));
    expect(lines).toHaveLength(1 + 2 * 9);
    expect(lines[0]).toMatch(/^\.1\.3\.6\.1\.2\.1\.1\.3\.0 = Timeticks/);
    expect(lines[2]).toMatch(/^\.1\.3\.6\.1\.2\.1\.17\.7\.1\.4\.5\.1\.1\.1 = Gauge32: \d+/);
  });

  it("keeps answering endOfMibView for a column past the end and stops when all are", async () => {
    const all = await session.walk("1", 200);
    const lastOid = all[all.length - 1].oid;
    const secondLast = all[all.length - 2].oid;
    const got = await session.getBulk([secondLast, lastOid], 0, 5);
    // repetition 1: the last value, then endOfMibView; repetition 2: both ended -> stop
    expect(got.map((v) => v.type)).toEqual([
      all[all.length - 1].type,
      ObjectType.EndOfMibView,
      ObjectType.EndOfMibView,
      ObjectType.EndOfMibView,
    ]);
  });

  it("cuts a GetBulk answer at the message size (about 64 KiB)", async () => {
    const got = await session.getBulk(
      ["1.3.6.1.2.1.2.2.1.2", "1.3.6.1.2.1.31.1.1.1.1", "1.3.6.1.2.1.31.1.1.1.18", "1.3.6.1.2.1.2.2.1.6"],
      0,
      10000,
    );
    expect(got.length).toBeGreaterThan(500);
    expect(got.length).toBeLessThan(40000);
    // still whole repetitions of consecutive rows up to the cut
    for (let i = 4; i < got.length; i++) {
      expect(compareOids(parseOid(got[i - 4].oid), parseOid(got[i].oid))).toBeLessThan(0);
    }
    expect(varbindListSize(got)).toBeLessThan(65507);
    expect(varbindListSize(got)).toBeGreaterThan(60000);
  });
});

describe("GetBulk value cap", () => {
  it("answers at most maxBulkValues values, like agents that cap their answers", async () => {
    const lab = await startLabSwitch({ ports: 48, maxBulkValues: 64 });
    const session = sessionTo(lab);
    try {
      const got = await session.getBulk(["1.3.6.1.2.1.2.2.1.2", "1.3.6.1.2.1.2.2.1.3"], 0, 100);
      expect(got).toHaveLength(64);
      // a walk still completes through short answers
      const walked = await session.walk("1.3.6.1.2.1.2.2.1.2", 100);
      expect(walked).toHaveLength(lab.model.interfaces.length);
    } finally {
      session.close();
      await lab.stop();
    }
  });
});

describe("routed Ethernet ports", () => {
  it("give the ports asked for an IPv4 address that ipAdEntIfIndex points at; the others stay switched", async () => {
    const lab = await startLabSwitch({ profile: "ciscosb", ports: 12, routedPorts: [3, 12] });
    const session = sessionTo(lab);
    try {
      expect(lab.options.routedPorts).toEqual([3, 12]);
      const addressed = (await session.walk("1.3.6.1.2.1.4.20.1.2")).map((v) => v.value);
      const routed = [lab.model.port(3), lab.model.port(12)];
      for (const p of routed) expect(addressed).toContain(p.ifIndex);
      // the VLAN 1 interface keeps its address; no other Ethernet port has one
      const ethernetAddressed = lab.model.ethernetPorts.filter((p) => addressed.includes(p.ifIndex));
      expect(ethernetAddressed).toEqual(routed);
      expect(addressed).toHaveLength(3);
      // each routed port's address is its own, and answers with its mask
      const [ip3, ip12] = routed.map((p) => p.ipv4!.address);
      expect(ip3).not.toBe(ip12);
      const [mask] = await session.get([`1.3.6.1.2.1.4.20.1.3.${ip3}`]);
      expect(mask.value).toBe("255.255.255.0");
    } finally {
      session.close();
      await lab.stop();
    }
  });

  it("refuses a routed port the switch does not have", async () => {
    await expect(startLabSwitch({ ports: 8, routedPorts: [9] })).rejects.toThrow(RangeError);
  });
});
