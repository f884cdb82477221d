/**
 * Pure joins of the generic SNMP driver that the lab does not reach: the PoE port rule's
 * third branch, PortList edge cases, membership corner cases and LLDP address decoding.
 */
import { lldp, qbridge } from "../../mib/oids";
import { bridgePortsFrom } from "../../drivers/snmp/parts/bridge-ports";
import { neighborsByInterface } from "../../drivers/snmp/parts/client-data";
import { interfaceInfo, type IfRow } from "../../drivers/snmp/parts/interfaces";
import type { Varbind } from "../../drivers/snmp/net-snmp-api";
import { poeByInterface, poeRows } from "../../drivers/snmp/parts/poe-tables";
import { hasPort, portsOf, sameMembers, withPort } from "../../mib/portlist";
import type { Columns } from "../../drivers/snmp/session";
import { qBridgeVlans } from "../../drivers/snmp/parts/qbridge";
import { Tables } from "../../drivers/snmp/parts/part";

const int = (value: number): Varbind => ({ oid: "", type: 2, value });
const octets = (value: Buffer | string): Varbind => ({ oid: "", type: 4, value: Buffer.from(value) });
const column = (cells: Record<string, Varbind>) => new Map(Object.entries(cells));
const table = (columns: Record<string, Record<string, Varbind>>): Columns =>
  new Map(Object.entries(columns).map(([oid, cells]) => [oid, column(cells)]));

describe("PoE port -> interface rule", () => {
  const psePorts = (indexes: string[]) =>
    table({ "1.3.6.1.2.1.105.1.1.1.3": Object.fromEntries(indexes.map((i) => [i, int(1)])) });

  test("port equal to a bridge port's ifIndex wins, then group 1 bridge port numbers, then ifName suffix", () => {
    // bridge ports 1..3 are ifIndex 101..103; ifIndex 3 is not a bridge port
    const ports = bridgePortsFrom(column({ 1: int(101), 2: int(102), 3: int(103) }));
    const names = new Map([
      [101, "Gi1/0/1"],
      [102, "Gi1/0/2"],
      [103, "Gi1/0/3"],
      [3, "Vlan3"],
      [200, "ge-2/7"],
    ]);
    const rows = poeRows(psePorts(["1.102", "1.1", "2.7"]));
    const mapped = poeByInterface(rows, { ifIndexes: new Set(names.keys()), bridge: ports, names });
    expect(mapped.get(102)?.index).toBe("1.102"); // rule 1: ifIndex
    expect(mapped.get(101)?.index).toBe("1.1"); // rule 2: bridge port 1
    expect(mapped.get(200)?.index).toBe("2.7"); // rule 3: name ends in "2/7"
    expect(mapped.size).toBe(3);
  });

  test("a name suffix must not match inside a longer number", () => {
    const names = new Map([[5, "Gi1/17"]]);
    const rows = poeRows(psePorts(["1.7"]));
    const mapped = poeByInterface(rows, {
      ifIndexes: new Set([5]),
      bridge: bridgePortsFrom(column({ 9: int(5) })),
      names,
    });
    expect(mapped.size).toBe(0);
  });
});

describe("PortList bitmaps", () => {
  test("the most significant bit of the first octet is bridge port 1", () => {
    expect(portsOf(Buffer.from([0x80, 0x01]))).toEqual([1, 16]);
    expect(hasPort(Buffer.from([0x40]), 2)).toBe(true);
    expect(hasPort(Buffer.from([0x40]), 9)).toBe(false);
  });

  test("adding a port beyond the list grows it; removing leaves the rest", () => {
    const grown = withPort(Buffer.from([0x80]), 20, true);
    expect(portsOf(grown)).toEqual([1, 20]);
    expect(portsOf(withPort(grown, 1, false))).toEqual([20]);
  });

  test("trailing zero octets do not change membership", () => {
    expect(sameMembers(Buffer.from([0x80]), Buffer.from([0x80, 0, 0]))).toBe(true);
    expect(sameMembers(Buffer.from([0x80]), Buffer.from([0x80, 1]))).toBe(false);
  });
});

describe("VLAN memberships", () => {
  const row = (ifIndex: number): IfRow => ({
    ifIndex,
    descr: `port ${ifIndex}`,
    type: 6,
    speed: 0,
    mtu: 1500,
    admin: 1,
    oper: 1,
    name: `p${ifIndex}`,
    highSpeed: 1000,
    alias: "",
    duplex: 3,
  });

  test("an untagged member of another VLAN than its PVID is not listed as tagged there", () => {
    const statics = table({
      [qbridge.dot1qVlanStaticName]: { 10: octets("a"), 20: octets("b"), 30: octets("c") },
      [qbridge.dot1qVlanStaticEgressPorts]: {
        10: octets(Buffer.from([0x80])),
        20: octets(Buffer.from([0x80])),
        30: octets(Buffer.from([0x80])),
      },
      [qbridge.dot1qVlanStaticUntaggedPorts]: {
        10: octets(Buffer.from([0x80])),
        20: octets(Buffer.from([0x80])),
        30: octets(Buffer.from([0])),
      },
    });
    const part = qBridgeVlans();
    const tables = qbridgeTables(part, {
      dot1qVlanStaticTable: statics,
      dot1qPortVlanTable: table({ [qbridge.dot1qPvid]: { 1: int(10) } }),
    });
    const vlans = part.vlans(tables);
    const ports = part.ports(tables, { bridge: bridgePortsFrom(undefined), ifIndexes: new Set([1]), names: new Map() });
    const info = interfaceInfo(row(1), {
      vlans: ports.get(1),
      routed: false,
      vlanIds: new Set(vlans.map((v) => v.id)),
    });
    expect(info.untagged_vlan).toBe(10);
    expect(info.tagged_vlans).toEqual([30]);
  });

  test("a PVID that is no VLAN of the device marks the port unusable", () => {
    const info = interfaceInfo(row(4), { vlans: { untagged: 77, tagged: [] }, routed: false, vlanIds: new Set([1]) });
    expect(info.disabled_reason).toBe("Untagged vlan 77 is NOT defined on switch");
  });
});

/** a Q-BRIDGE part's tables, by the labels of the reads the part asks for */
function qbridgeTables(part: ReturnType<typeof qBridgeVlans>, byLabel: Record<string, Columns>): Tables {
  const out = new Tables();
  for (const [key, read] of Object.entries(part.reads("learn")))
    if (read.label && byLabel[read.label]) out.setColumns(key, byLabel[read.label]);
  return out;
}

describe("LLDP neighbours", () => {
  test("local port numbers go through the bridge port map; management addresses come from the index", () => {
    const rem = table({
      [lldp.lldpRemChassisIdSubtype]: { "0.3.1": int(4) },
      [lldp.lldpRemChassisId]: { "0.3.1": octets(Buffer.from([0, 0x1b, 0x54, 1, 2, 3])) },
      [lldp.lldpRemPortIdSubtype]: { "0.3.1": int(5) },
      [lldp.lldpRemPortId]: { "0.3.1": octets("Te1/1/1") },
      [lldp.lldpRemSysCapEnabled]: { "0.3.1": octets(Buffer.from([0x28, 0])) },
    });
    const v6 = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    const manAddr = table({
      [lldp.lldpRemManAddrIfSubtype]: {
        "0.3.1.1.4.10.0.0.9": int(2),
        [`0.3.1.2.16.${v6.join(".")}`]: int(2),
      },
    });
    const ports = bridgePortsFrom(column({ 3: int(1003) }));
    const found = neighborsByInterface(rem, manAddr, ports, new Set([1003]));
    expect(found.get(1003)).toEqual([
      expect.objectContaining({
        chassis_id: "00:1b:54:01:02:03",
        port_name: "Te1/1/1",
        capabilities: "Switch, Router",
        management_address_v4: "10.0.0.9",
        management_address_v6: "2001:db8::1",
      }),
    ]);
  });
});
