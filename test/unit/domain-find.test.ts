/**
 * domain/find.ts, the rules of "where is it plugged in": which texts are a MAC or an IP
 * address (and the reason when not), the ids of `switches`, the MACs an IP stands for,
 * edge or uplink, and the order of the matches (edge ports first).
 */
import {
  compareMatches,
  macsOfIp,
  normalIpv6,
  parseDeviceIds,
  parseFindAddress,
  portRole,
  type MatchOrder,
} from "../../domain/find";
import type { LldpNeighbor, MacEntry } from "../../model/device";

const MAC = "00:1b:21:3a:4f:05";

describe("the searched address", () => {
  it.each([
    "00:1b:21:3a:4f:05",
    "00:1B:21:3A:4F:05",
    "00-1b-21-3a-4f-05",
    "001b.213a.4f05",
    "001B.213A.4F05",
    "001b21-3a4f05",
    "001b213a4f05",
    "0:1b:21:3a:4f:5",
    "  001b213a4f05 ",
  ])("takes the MAC %j", (text) => {
    expect(parseFindAddress(text)).toEqual({ query: { kind: "mac", mac: MAC } });
  });

  it("takes IPv4 and IPv6 addresses, IPv6 in one spelling", () => {
    expect(parseFindAddress("10.1.0.17")).toEqual({ query: { kind: "ipv4", ip: "10.1.0.17" } });
    expect(parseFindAddress("2001:DB8:0:0:0:0:0:1")).toEqual({ query: { kind: "ipv6", ip: "2001:db8::1" } });
    expect(parseFindAddress("::ffff:10.1.0.17")).toEqual({ query: { kind: "ipv6", ip: "::ffff:a01:11" } });
    expect(normalIpv6("fe80::1%eth0")).toBeNull();
  });

  it.each([
    ["00:1b:21", "partial"],
    ["001b21", "partial"],
    ["4f05", "partial"],
    ["001b.213a", "partial"],
    ["00:1b:21-3a:4f:05", "other"],
    ["001b213a4f0512", "other"],
    ["00:1b:21:3a:4f:05:07", "other"],
    ["10.1.2", "other"],
    ["010.1.2.3", "other"],
    ["256.1.2.3", "other"],
    ["fe80::1%eth0", "other"],
    ["printer 4", "other"],
  ])("refuses %j with a reason (%s)", (text, kind) => {
    const r = parseFindAddress(text);
    expect("reason" in r).toBe(true);
    const reason = "reason" in r ? r.reason : "";
    expect(reason).toContain(`'${text}'`);
    if (kind === "partial") expect(reason).toMatch(/is not a whole MAC address: .*prefixes are not searched$/);
    else expect(reason).toMatch(/is not a MAC address \(.*\) or an IPv4 or IPv6 address$/);
  });

  it("asks for an address when none is given, and bounds its length", () => {
    expect(parseFindAddress("  ")).toEqual({ reason: "Missing or invalid parameter: 'address' is required!" });
    expect(parseFindAddress("a".repeat(65))).toEqual({
      reason: "'address' is not a MAC or IP address (65 characters)",
    });
  });
});

describe("the switches parameter", () => {
  it("reads ids separated by commas, once each", () => {
    expect(parseDeviceIds("7, 12,7,,31", 10)).toEqual({ ids: [7, 12, 31] });
  });
  it.each([
    ["", "'switches' must list device ids separated by commas, such as 7,12"],
    ["7,x", "'switches' must list device ids separated by commas: 'x' is not one"],
    ["0", "'switches' must list device ids separated by commas: '0' is not one"],
    ["1,2,3", "'switches' lists 3 devices; at most 2 are searched in one call"],
  ])("refuses %j", (text, reason) => {
    expect(parseDeviceIds(text, 2)).toEqual({ reason });
  });
});

const entry = (address: string, ipv4: string[] = [], ipv6: string[] = []): MacEntry => ({
  address,
  vlan: 1,
  ipv4,
  ipv6,
});

describe("the MACs an IP address stands for", () => {
  it("are those whose ARP addresses hold it, IPv6 compared in one spelling", () => {
    const entries = [entry("aa:aa:aa:aa:aa:01", ["10.0.0.1"]), entry("aa:aa:aa:aa:aa:02", [], ["2001:DB8::0:1"])];
    expect([...macsOfIp({ kind: "ipv4", ip: "10.0.0.1" }, entries)]).toEqual(["aa:aa:aa:aa:aa:01"]);
    expect([...macsOfIp({ kind: "ipv6", ip: "2001:db8::1" }, entries)]).toEqual(["aa:aa:aa:aa:aa:02"]);
    expect([...macsOfIp({ kind: "ipv4", ip: "10.0.0.9" }, entries)]).toEqual([]);
  });
});

const neighbour = (capabilities: string): LldpNeighbor => ({
  port_name: "eth0",
  port_description: "",
  system_name: "n",
  system_description: "",
  chassis_id: "",
  chassis_type: 4,
  capabilities,
  management_address_v4: "",
  management_address_v6: "",
});

describe("edge port or uplink", () => {
  const macs = (n: number) =>
    Array.from({ length: n }, (_, i) => entry(`aa:aa:aa:aa:aa:${i.toString(16).padStart(2, "0")}`));

  it("is an uplink with a network device as LLDP neighbour, however it spells its capabilities", () => {
    for (const caps of ["Switch, Router", "Bridge", "Router", "Repeater", "bridge, router", "Switch", ""])
      expect([caps, portRole({ macs: macs(1), neighbors: [neighbour(caps)] }, 10)]).toEqual([
        caps,
        { role: "uplink", because: "lldp_neighbor" },
      ]);
  });

  it("stays an edge port with a phone or an access point as neighbour", () => {
    for (const caps of ["Phone", "Telephone", "Wireless AP", "WLAN Access Point", "Station"])
      expect([caps, portRole({ macs: macs(2), neighbors: [neighbour(caps)] }, 10).role]).toEqual([caps, "edge"]);
  });

  it("is an uplink with more MACs than the setting, an edge port with that many", () => {
    expect(portRole({ macs: macs(10), neighbors: [] }, 10)).toEqual({ role: "edge", because: null });
    expect(portRole({ macs: macs(11), neighbors: [] }, 10)).toEqual({ role: "uplink", because: "many_macs" });
  });
});

describe("the order of the matches", () => {
  const m = (role: "edge" | "uplink", group: string, sw: string, iface: string, vlan = 1): MatchOrder => ({
    role,
    group,
    switch: sw,
    interface: iface,
    vlan,
  });
  it("puts edge ports first, then group, device and interface in natural order", () => {
    const list = [
      m("uplink", "A", "a", "Gi1/0/1"),
      m("edge", "B", "z", "Gi1/0/10"),
      m("edge", "B", "z", "Gi1/0/9"),
      m("edge", "a", "Y", "Gi1/0/1", 20),
      m("edge", "a", "Y", "Gi1/0/1", 10),
    ];
    expect([...list].sort(compareMatches)).toEqual([
      m("edge", "a", "Y", "Gi1/0/1", 10),
      m("edge", "a", "Y", "Gi1/0/1", 20),
      m("edge", "B", "z", "Gi1/0/9"),
      m("edge", "B", "z", "Gi1/0/10"),
      m("uplink", "A", "a", "Gi1/0/1"),
    ]);
  });
});
