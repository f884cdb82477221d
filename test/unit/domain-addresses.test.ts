/**
 * Address lists (METRICS_ALLOW, TRUSTED_PROXIES) and the client behind proxies
 * (domain/addresses.ts), and how the configuration reads the two settings.
 */
import {
  addressMatcher,
  clientAddress,
  forwardedAddress,
  nearestForwarded,
  parseAddressList,
} from "../../domain/addresses";
import { loadConfig } from "../../app/config";

describe("address lists", () => {
  it("reads addresses and networks of both families", () => {
    expect(parseAddressList(" 127.0.0.1, 10.0.0.0/8 ,fd00::/8, ::1,")).toEqual({
      entries: [
        { address: "127.0.0.1", family: 4 },
        { address: "10.0.0.0", family: 4, prefix: 8 },
        { address: "fd00::", family: 6, prefix: 8 },
        { address: "::1", family: 6 },
      ],
    });
    expect(parseAddressList("")).toEqual({ entries: [] });
  });

  it.each(["localhost", "10.0.0.0/33", "::/129", "10.0.0.0/8/1", "10.0.0.1/", "10.0.0.0/x", "300.1.1.1", "all"])(
    "names the bad entry %j",
    (bad) => {
      expect(parseAddressList(`127.0.0.1, ${bad}`)).toEqual({ bad });
    },
  );

  it("matches addresses, networks and IPv4 peers on a dual-stack socket", () => {
    const m = addressMatcher(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);
    expect(["127.0.0.1", "10.200.3.4", "::ffff:10.1.1.1", "fd12::7", "::ffff:127.0.0.1"].filter(m)).toHaveLength(5);
    expect(["127.0.0.2", "11.0.0.1", "fe80::1", "::1", "", "garbage", "10.0.0.1:80"].some(m)).toBe(false);
    expect(addressMatcher([])("127.0.0.1")).toBe(false);
    expect(() => addressMatcher(["nonsense"])).toThrow(/nonsense/);
  });

  it("the configuration reads both lists with the same rules and names the setting at fault", () => {
    const c = loadConfig({ TRUSTED_PROXIES: "127.0.0.1, 10.0.0.0/8", METRICS_ALLOW: "192.0.2.0/24" });
    expect(c.trustedProxies).toEqual(["127.0.0.1", "10.0.0.0/8"]);
    expect(c.metricsAllow).toEqual(["192.0.2.0/24"]);
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ METRICS_ALLOW: "all" }).metricsAllow).toBe("all");
    expect(() => loadConfig({ TRUSTED_PROXIES: "proxy.example" })).toThrow(
      'TRUSTED_PROXIES must be addresses and networks such as 127.0.0.1, 10.0.0.0/8, ::1 (got "proxy.example")',
    );
    expect(() => loadConfig({ METRICS_ALLOW: "10.0.0.0/40" })).toThrow(
      'METRICS_ALLOW must be "all" or addresses and networks such as 127.0.0.1, 10.0.0.0/8, ::1 (got "10.0.0.0/40")',
    );
  });

  it("the former on/off TRUST_PROXY is refused when on, naming TRUSTED_PROXIES; off is harmless", () => {
    for (const on of ["1", "true", "yes", "on"]) {
      expect(() => loadConfig({ TRUST_PROXY: on })).toThrow(
        /TRUST_PROXY is no longer read: list the reverse proxies' addresses in TRUSTED_PROXIES/,
      );
      expect(() => loadConfig({ TRUST_PROXY: on, TRUSTED_PROXIES: "127.0.0.1" })).toThrow(/TRUSTED_PROXIES/);
    }
    for (const off of ["", "0", "off", "false", "no"])
      expect(loadConfig({ TRUST_PROXY: off }).trustedProxies).toEqual([]);
  });
});

describe("the client behind proxies", () => {
  const trusted = addressMatcher(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

  it("without a trusted peer the header is the client's own text and is ignored", () => {
    expect(clientAddress("203.0.113.5", "127.0.0.1", trusted)).toBe("203.0.113.5");
    expect(clientAddress("::ffff:203.0.113.5", "10.0.0.1, 127.0.0.1", trusted)).toBe("203.0.113.5");
    expect(clientAddress("198.51.100.1", undefined, trusted)).toBe("198.51.100.1");
  });

  it("a trusted peer without the header: the peer is the client", () => {
    expect(clientAddress("127.0.0.1", undefined, trusted)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", " , ", trusted)).toBe("127.0.0.1");
  });

  it("walks from the right past trusted proxies; the first untrusted entry is the client", () => {
    // one appending proxy: the client's forged entries stay to the left of its true address
    expect(clientAddress("127.0.0.1", "127.0.0.1, 192.0.2.66, 203.0.113.5", trusted)).toBe("203.0.113.5");
    // two hops, both trusted
    expect(clientAddress("10.0.0.2", "1.2.3.4, 203.0.113.5, 10.0.0.1", trusted)).toBe("203.0.113.5");
    expect(clientAddress("fd00::2", "2001:db8::7, fd00::1", trusted)).toBe("2001:db8::7");
  });

  it("every entry trusted: the left-most is the client", () => {
    expect(clientAddress("127.0.0.1", "10.1.1.1, 10.0.0.1", trusted)).toBe("10.1.1.1");
  });

  it("an entry that is not an address stops the walk at the trusted hop that passed it on", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.5, unknown, 10.0.0.1", trusted)).toBe("10.0.0.1");
    expect(clientAddress("127.0.0.1", "evil, 999.1.1.1", trusted)).toBe("127.0.0.1");
  });

  it("reads entries with ports and brackets as load balancers write them", () => {
    expect(forwardedAddress("203.0.113.5:51234")).toBe("203.0.113.5");
    expect(forwardedAddress("[2001:db8::7]:443")).toBe("2001:db8::7");
    expect(forwardedAddress("[2001:db8::7]")).toBe("2001:db8::7");
    expect(forwardedAddress(" ::ffff:192.0.2.1 ")).toBe("192.0.2.1");
    expect(forwardedAddress("_hidden")).toBeNull();
    expect(forwardedAddress("203.0.113.5:x")).toBeNull();
    expect(clientAddress("127.0.0.1", "192.0.2.9, 203.0.113.5:51234", trusted)).toBe("203.0.113.5");
  });

  it("a forwarded scheme or host is the value the nearest proxy wrote", () => {
    expect(nearestForwarded("http, https")).toBe("https");
    expect(nearestForwarded(["evil.example", "sd.example.org"])).toBe("sd.example.org");
    expect(nearestForwarded(" ")).toBeUndefined();
    expect(nearestForwarded(undefined)).toBeUndefined();
  });
});
