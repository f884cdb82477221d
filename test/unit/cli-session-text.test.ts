/**
 * The pure parts of talking to a command line: replaying what a terminal shows (a pager
 * erasing its marker, carriage-return redraws, colour codes), recognising IOS prompts,
 * host key fingerprints as OpenSSH prints them, and reading iproute2's JSON.
 */
import { createHash } from "node:crypto";
import { iosDialect } from "../../drivers/families/cisco-ios-cli/dialect";
import { iosName, nameKey } from "../../drivers/families/cisco-ios-cli/interface-names";
import { sameFingerprint, sha256Fingerprint } from "../../drivers/ssh/host-key";
import {
  parseAddresses,
  parseLinks,
  parseNeighbours,
  UnexpectedOutput,
} from "../../drivers/families/linux/parse-ip-json";
import { lastTerminalLine, terminalLines } from "../../drivers/ssh/terminal-text";

describe("terminal replay", () => {
  test("a pager marker erased with backspaces leaves the lines around it intact", () => {
    const more = " --More-- ";
    const erase = "\b".repeat(more.length) + " ".repeat(more.length) + "\b".repeat(more.length);
    const raw = `line 1\r\nline 2\r\n${more}${erase}line 3\r\nhost#`;
    expect(terminalLines(raw)).toEqual(["line 1", "line 2", "line 3", "host#"]);
  });

  test("a carriage return redraws the line; colour codes draw nothing", () => {
    expect(terminalLines("progress 10%\rprogress 100%\r\n\x1b[1mbold\x1b[0m\r\nsw1>")).toEqual([
      "progress 100%",
      "bold",
      "sw1>",
    ]);
  });

  test("the last line is where prompts and pagers show", () => {
    expect(lastTerminalLine("output\r\n --More-- ")).toBe(" --More--");
    expect(lastTerminalLine("a\r\nb\r\nsw1(config-if)#")).toBe("sw1(config-if)#");
  });
});

describe("IOS prompts and names", () => {
  const prompt = (line: string) => iosDialect.promptPattern.exec(line)?.slice(1, 4) ?? null;

  test("user, privileged and configuration prompts; output lines are none", () => {
    expect(prompt("sw-1.lab>")).toEqual(["sw-1.lab", undefined, ">"]);
    expect(prompt("sw-1.lab#")).toEqual(["sw-1.lab", undefined, "#"]);
    expect(prompt("core(config-if)#")).toEqual(["core", "(config-if)", "#"]);
    expect(prompt("Building configuration...")).toBeNull();
    expect(prompt("% Invalid input detected at '^' marker.")).toBeNull();
    expect(prompt("Gi1/0/1   desk 4 #")).toBeNull();
  });

  test("both spellings of one interface meet under one key", () => {
    expect(nameKey("Gi1/0/1")).toBe(nameKey("GigabitEthernet1/0/1"));
    expect(nameKey("Po1")).toBe(nameKey("port-channel1"));
    expect(iosName("Vl99")).toEqual({ long: "Vlan99", short: "Vl99", family: "Vlan" });
    // an unknown family keeps its spelling
    expect(iosName("fc2/1")).toEqual({ long: "fc2/1", short: "fc2/1", family: "" });
    expect(iosName("not an interface")).toBeNull();
  });
});

describe("host key fingerprints", () => {
  test("SHA256 over the key blob, base64 without padding, as ssh-keygen -l prints it", () => {
    const blob = Buffer.from("an ssh public key blob");
    const expected = createHash("sha256").update(blob).digest("base64").replace(/=+$/, "");
    expect(sha256Fingerprint(blob)).toBe(`SHA256:${expected}`);
    expect(sameFingerprint(`SHA256:${expected}`, `${expected}=`)).toBe(true);
    expect(sameFingerprint(`SHA256:${expected}`, "SHA256:AAAA")).toBe(false);
  });
});

describe("iproute2 JSON", () => {
  const links = JSON.stringify([
    {
      ifindex: 1,
      ifname: "lo",
      flags: ["LOOPBACK", "UP", "LOWER_UP"],
      mtu: 65536,
      operstate: "UNKNOWN",
      link_type: "loopback",
      address: "00:00:00:00:00:00",
    },
    {
      ifindex: 3,
      link: "port1p",
      ifname: "port1",
      flags: ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"],
      mtu: 1500,
      operstate: "UP",
      link_type: "ether",
      address: "a2:13:44:43:e1:a2",
      linkinfo: { info_kind: "veth" },
      ifalias: "desk 'x' $(y) é",
    },
  ]);

  test("links with flags, state, alias and kind", () => {
    const [lo, port] = parseLinks(links);
    expect(lo).toMatchObject({ ifname: "lo", operstate: "UNKNOWN", link_type: "loopback", ifalias: "", kind: "" });
    expect(port).toMatchObject({
      ifname: "port1",
      flags: ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"],
      ifalias: "desk 'x' $(y) é",
      kind: "veth",
    });
  });

  test("addresses per link and the neighbour cache", () => {
    const addr = JSON.stringify([
      {
        ifname: "port1",
        addr_info: [
          { family: "inet", local: "10.9.9.1", scope: "global" },
          { family: "inet6", local: "fe80::1", scope: "link" },
        ],
      },
    ]);
    expect(parseAddresses(addr)).toEqual([
      { ifname: "port1", family: "inet", local: "10.9.9.1", scope: "global" },
      { ifname: "port1", family: "inet6", local: "fe80::1", scope: "link" },
    ]);
    const neigh = JSON.stringify([
      { dst: "10.9.9.2", dev: "port1", lladdr: "AA:BB:CC:00:11:22", state: ["REACHABLE"] },
      { dst: "10.9.9.3", dev: "port1", state: ["FAILED"] },
    ]);
    expect(parseNeighbours(neigh)).toEqual([
      { dst: "10.9.9.2", dev: "port1", lladdr: "aa:bb:cc:00:11:22", family: "inet" },
    ]);
  });

  test("output that is not iproute2's JSON is reported, not half read", () => {
    expect(() => parseLinks('Option "-j" is unknown')).toThrow(UnexpectedOutput);
    expect(() => parseLinks('{"ifname": "x"}')).toThrow(UnexpectedOutput);
    expect(() => parseLinks('[{"ifname": 3}]')).toThrow(UnexpectedOutput);
  });
});
