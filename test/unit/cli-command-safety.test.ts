/**
 * Values on their way to a command line: what could start another command (line
 * breaks, control keys, shell syntax) is refused before anything is sent, or, for the
 * Linux shell, quoted so that a real /bin/sh reads it back as the plain text it was.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { configLines, iosDescription, iosInterface, iosVlanName } from "../../drivers/families/cisco-ios-cli/commands";
import { linuxCommands, linuxInterface, shellQuote } from "../../drivers/families/linux/commands";
import { checkText, checkVlanId, UnsafeValue } from "../../drivers/ssh/safe-values";
import { NotSupported } from "../../model/failures";

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UnsafeValue);
    expect(e).toBeInstanceOf(NotSupported);
    return (e as Error).message;
  }
  throw new Error("expected the value to be refused");
};

// what would end an IOS line and run a second command, or type a control key
const LINE_INJECTIONS = [
  "x\nreload",
  "x\r\nwrite erase",
  "x\rreload",
  "desk\u2028reload",
  "x\u0085reload",
  "x\x1aend",
  "x\x03",
  "x\tcompletion",
  "x\x00y",
  "x\x7f",
].map(
  // [the value as a test title shows it (every invisible character escaped), the value]
  (v) => [
    JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    v,
  ],
);

describe("checks every dialect shares", () => {
  test.each(LINE_INJECTIONS)("%s is refused as a description of any dialect", (_shown, text) => {
    refused(() => checkText(text, { what: "interface description", maxLength: 240 }));
  });

  test("bidirectional controls and lone surrogates are refused, paired ones (emoji) are not", () => {
    expect(refused(() => checkText("desk \u202eevil", { what: "interface description", maxLength: 240 }))).toMatch(
      /bidirectional/,
    );
    expect(refused(() => checkText("desk \u2066x\u2069", { what: "interface description", maxLength: 240 }))).toMatch(
      /bidirectional/,
    );
    expect(refused(() => checkText("x\ud800", { what: "VLAN name", maxLength: 32 }))).toMatch(/surrogate/);
    expect(refused(() => checkText("\udc00x", { what: "VLAN name", maxLength: 32 }))).toMatch(/surrogate/);
    expect(checkText("café \u{1F600}", { what: "interface description", maxLength: 240 })).toBe("café \u{1F600}");
  });

  test("lengths count characters, or UTF-8 bytes where the device counts bytes", () => {
    expect(checkText("é".repeat(10), { what: "d", maxLength: 10 })).toHaveLength(10);
    expect(refused(() => checkText("é".repeat(10), { what: "d", maxLength: 10, bytes: true }))).toMatch(
      /longer than 10 bytes/,
    );
  });

  test("the message names the value's role, never the value", () => {
    const message = refused(() => checkText("secret-ish\nreload", { what: "interface description", maxLength: 240 }));
    expect(message).toContain("interface description");
    expect(message).not.toContain("secret-ish");
    expect(message).not.toContain("reload");
  });

  test("VLAN ids are whole numbers from 1 to 4094", () => {
    expect(checkVlanId(4094)).toBe(4094);
    for (const bad of [0, 4095, 1.5, NaN, -1, "10"]) refused(() => checkVlanId(bad));
  });
});

describe("Cisco IOS command lines", () => {
  test.each(LINE_INJECTIONS)("description %s never becomes a command line", (_shown, text) => {
    refused(() => configLines.description("Gi1/0/1", text));
  });

  test.each(LINE_INJECTIONS)("VLAN name %s never becomes a command line", (_shown, text) => {
    refused(() => configLines.renameVlan(10, text));
    refused(() => configLines.createVlan(10, text));
  });

  test("shell syntax is plain text to IOS and stays one description line", () => {
    for (const text of ["$(reboot)", "'; reboot; '", "`reboot`", "a | include x", "x ! y"]) {
      expect(configLines.description("Gi1/0/1", text)).toEqual([
        "interface GigabitEthernet1/0/1",
        `description ${text}`,
      ]);
    }
  });

  test("'?' (IOS answers it with help and drops it), non-ASCII and surrounding blanks are refused", () => {
    expect(refused(() => iosDescription("what?"))).toMatch(/help/);
    expect(refused(() => iosDescription("café"))).toMatch(/ASCII/);
    expect(refused(() => iosDescription(" desk"))).toMatch(/blank/);
    expect(refused(() => iosDescription("desk "))).toMatch(/blank/);
  });

  test("a VLAN name is one word of at most 32 characters", () => {
    expect(iosVlanName("guests-2")).toBe("guests-2");
    expect(refused(() => iosVlanName("guest wifi"))).toMatch(/one word/);
    expect(refused(() => iosVlanName("x".repeat(33)))).toMatch(/32/);
    expect(refused(() => iosVlanName(""))).toMatch(/empty/);
  });

  test("descriptions up to 240 characters; '' removes the description", () => {
    expect(configLines.description("Gi1/0/1", "d".repeat(240))[1]).toHaveLength("description ".length + 240);
    refused(() => configLines.description("Gi1/0/1", "d".repeat(241)));
    expect(configLines.description("Gi1/0/1", "")).toEqual(["interface GigabitEthernet1/0/1", "no description"]);
  });

  test("interface names: both spellings and abbreviations become the long name; anything else is refused", () => {
    expect(iosInterface("Gi1/0/1")).toBe("GigabitEthernet1/0/1");
    expect(iosInterface("gig1/0/1")).toBe("GigabitEthernet1/0/1");
    expect(iosInterface("GigabitEthernet 1/0/1")).toBe("GigabitEthernet1/0/1");
    expect(iosInterface("Te1/1/1")).toBe("TenGigabitEthernet1/1/1");
    expect(iosInterface("Twe1/0/1")).toBe("TwentyFiveGigE1/0/1");
    expect(iosInterface("Po12")).toBe("Port-channel12");
    for (const bad of ["Gi1/0/1\nreload", "Gi1/0/1; reload", "Gi1/0/1 description x", "", "1/0/1", "../x"])
      refused(() => iosInterface(bad));
  });

  test("VLAN commands carry only checked numbers", () => {
    expect(configLines.createVlan(42, "")).toEqual(["vlan 42"]);
    expect(configLines.createVlan(42, "guests")).toEqual(["vlan 42", "name guests"]);
    expect(configLines.deleteVlan(42)).toEqual(["no vlan 42"]);
    refused(() => configLines.accessVlan("Gi1/0/1", 4095));
    refused(() => configLines.deleteVlan(Number("1; reload")));
  });
});

describe("Linux command lines", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cli-safety-"));
  const marker = path.join(dir, "ran");
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** what a real POSIX shell makes of a quoted value */
  const throughShell = (value: string) =>
    execFileSync("/bin/sh", ["-c", `printf '%s' ${shellQuote(value)}`], { encoding: "utf8" });

  test.each([
    `$(touch ${"MARKER"})`,
    `'; touch MARKER; '`,
    "`touch MARKER`",
    `"; touch MARKER; "`,
    "x && touch MARKER",
    "it's a 'quoted' desk",
    "\\'",
    "$HOME ${PATH}",
    "*",
  ])("%j reaches the command as plain text and runs nothing", (template) => {
    const value = template.replace(/MARKER/g, marker);
    expect(throughShell(value)).toBe(value);
    expect(fs.existsSync(marker)).toBe(false);
  });

  test("the alias command quotes the text; an empty alias is an empty argument", () => {
    expect(linuxCommands.setAlias("port1", "desk 4 'a'")).toBe(`ip link set dev 'port1' alias 'desk 4 '\\''a'\\'''`);
    expect(linuxCommands.setAlias("port1", "")).toBe("ip link set dev 'port1' alias ''");
  });

  test.each(LINE_INJECTIONS)("alias %s is refused before quoting", (_shown, text) => {
    refused(() => linuxCommands.setAlias("port1", text));
  });

  test("aliases are limited to 255 bytes (the kernel's IFALIASZ)", () => {
    expect(linuxCommands.setAlias("eth0", "x".repeat(255))).toContain("x".repeat(255));
    refused(() => linuxCommands.setAlias("eth0", "é".repeat(128)));
  });

  test("interface names follow the kernel's rules and never look like options", () => {
    expect(linuxInterface("veth-port1")).toBe("veth-port1");
    for (const bad of ["-f", "eth0 up", "a/b", "a:b", ".", "..", "x".repeat(16), "eth0;reboot", "$(reboot)", ""])
      refused(() => linuxInterface(bad));
  });
});
