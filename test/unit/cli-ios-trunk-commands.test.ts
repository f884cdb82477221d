/**
 * The IOS trunk lines (cisco-ios-cli/commands.ts) and the reading of a port's trunk
 * settings (parse-switchport.ts): only checked VLAN ids reach a line, lists are cut where
 * IOS takes them, the order never cuts a port off; and on `show interfaces switchport`
 * output of real IOS switches (../shared/fixtures/cli, skipped when absent) every allowed
 * list reads as VLAN ids, and a port set to negotiate its encapsulation gets the dot1q
 * line before `switchport mode trunk`.
 */
import fs from "node:fs";
import path from "node:path";
import { configLines, iosVlanLists, type IosTrunkChange } from "../../drivers/families/cisco-ios-cli/commands";
import { allowedVlanSet, parseSwitchport } from "../../drivers/families/cisco-ios-cli/parse-switchport";
import { UnsafeValue } from "../../drivers/ssh/safe-values";
import { fixturesDir } from "../support/fixtures";

const IF = "GigabitEthernet1/0/5";

describe("iosVlanLists", () => {
  test("ascending ids, ranges for runs, commas, no blanks", () => {
    expect(iosVlanLists([30, 10, 11, 12, 20, 21, 4094])).toEqual(["10-12,20-21,30,4094"]);
    expect(iosVlanLists([5, 5, 5])).toEqual(["5"]);
  });

  test("cut into whole items of at most the given length", () => {
    const ids = Array.from({ length: 50 }, (_, i) => 100 + 2 * i);
    const pieces = iosVlanLists(ids, 40);
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(40);
    expect(pieces.join(",").split(",").map(Number)).toEqual(ids);
  });

  test.each([[0], [4095], [1.5], [NaN], [-3]])("refuses %p: not a VLAN id, nothing is built", (bad) => {
    expect(() => iosVlanLists([10, bad])).toThrow(UnsafeValue);
  });
});

describe("trunk and access lines", () => {
  const base: IosTrunkChange = {
    trunk: false,
    encapsulation: false,
    oldNative: 1,
    native: 10,
    current: "all",
    allowed: new Set([10, 20, 30]),
  };

  test("an access port: native and allowed list before the mode; encapsulation first where needed", () => {
    expect(configLines.trunk(IF, base)).toEqual([
      `interface ${IF}`,
      "switchport trunk native vlan 10",
      "switchport trunk allowed vlan 10,20,30",
      "switchport mode trunk",
    ]);
    expect(configLines.trunk(IF, { ...base, encapsulation: true, allowed: "all" }).slice(1)).toEqual([
      "switchport trunk encapsulation dot1q",
      "switchport trunk native vlan 10",
      "switchport trunk allowed vlan all",
      "switchport mode trunk",
    ]);
  });

  test("a live trunk allowing all: the list that drops comes last and never a bare list before the native move", () => {
    const lines = configLines.trunk(IF, { ...base, trunk: true, oldNative: 1, current: "all" });
    expect(lines.slice(1)).toEqual(["switchport trunk native vlan 10", "switchport trunk allowed vlan 10,20,30"]);
  });

  test("a live trunk: add first, native, then the replacing list (it only drops)", () => {
    const lines = configLines.trunk(IF, { ...base, trunk: true, oldNative: 5, current: new Set([5, 20, 40]) });
    expect(lines.slice(1)).toEqual([
      "switchport trunk allowed vlan add 10,30",
      "switchport trunk native vlan 10",
      "switchport trunk allowed vlan 10,20,30",
    ]);
  });

  test("a live trunk that only gains VLANs and keeps its native: add lines only", () => {
    const lines = configLines.trunk(IF, { ...base, trunk: true, oldNative: 10, current: new Set([10, 20]) });
    expect(lines.slice(1)).toEqual(["switchport trunk allowed vlan add 30"]);
  });

  test("a live trunk whose new list is too long for one line drops with remove lines", () => {
    const allowed = new Set(Array.from({ length: 200 }, (_, i) => 1000 + 2 * i));
    const lines = configLines.trunk(IF, {
      ...base,
      trunk: true,
      native: 1000,
      oldNative: 1000,
      current: "all",
      allowed,
    });
    expect(lines.slice(1).every((l) => l.startsWith("switchport trunk allowed vlan remove "))).toBe(true);
    const listed = (l: string) => allowedVlanSet(l.replace(/^switchport trunk allowed vlan remove /, "").split(","));
    const removed = new Set(lines.slice(1).flatMap((l) => [...(listed(l) as Set<number>)]));
    for (const v of [1, 999, 1001, 4094]) expect(removed.has(v)).toBe(true);
    for (const v of allowed) expect(removed.has(v)).toBe(false);
  });

  test("to allow all on a live trunk: one line, nothing dropped", () => {
    expect(
      configLines.trunk(IF, { ...base, trunk: true, oldNative: 10, current: new Set([10]), allowed: "all" }).slice(1),
    ).toEqual(["switchport trunk allowed vlan all"]);
  });

  test("an access port: the access VLAN before the mode", () => {
    expect(configLines.accessPort(IF, 20, true)).toEqual([
      `interface ${IF}`,
      "switchport access vlan 20",
      "switchport mode access",
    ]);
    expect(configLines.accessPort(IF, 20, false)).toEqual([`interface ${IF}`, "switchport access vlan 20"]);
  });

  test("a native VLAN that is no VLAN id is refused before a line is built", () => {
    expect(() => configLines.trunk(IF, { ...base, native: 4096 })).toThrow(UnsafeValue);
    expect(() => configLines.accessPort(IF, 0, true)).toThrow(UnsafeValue);
  });
});

describe("allowedVlanSet", () => {
  test("ALL, NONE, ids and ranges; not a list: null", () => {
    expect(allowedVlanSet(["ALL"])).toBe("all");
    expect(allowedVlanSet(["1-4094"])).toBe("all");
    expect(allowedVlanSet(["NONE"])).toEqual(new Set());
    expect(allowedVlanSet(["1", "12", "31-33"])).toEqual(new Set([1, 12, 31, 32, 33]));
    expect(allowedVlanSet(["5-3"])).toBeNull();
    expect(allowedVlanSet(["all but 5"])).toBeNull();
    expect(allowedVlanSet(["4095"])).toBeNull();
  });
});

const FIXTURES = path.join(fixturesDir, "cli", "cisco_ios", "show_interfaces_switchport");
const present = fs.existsSync(FIXTURES);
if (!present) console.warn(`cli-ios-trunk-commands: fixture tests skipped, no fixtures at ${FIXTURES}`);
const files = present ? fs.readdirSync(FIXTURES).filter((f) => f.endsWith(".raw")) : [];

(present ? describe : describe.skip)("trunk settings of real IOS output (show interfaces switchport)", () => {
  test.each(files)("%s: every port's allowed list reads as VLAN ids; negotiate ports get the dot1q line", (file) => {
    const raw = fs.readFileSync(path.join(FIXTURES, file), "utf8");
    const rows = parseSwitchport(raw);
    expect(rows.length).toBeGreaterThan(0);
    const printed = (raw.match(/^Administrative Trunking Encapsulation: (\S+)/gm) ?? []).map((l) => l.split(": ")[1]);
    expect(rows.filter((r) => r.adminEncapsulation !== "").map((r) => r.adminEncapsulation)).toEqual(printed);
    for (const row of rows.filter((r) => r.switchport === "Enabled" && r.trunkingVlans.length > 0)) {
      const current = allowedVlanSet(row.trunkingVlans);
      expect({ port: row.interface, current: current === null ? "unreadable" : "ok" }).toEqual({
        port: row.interface,
        current: "ok",
      });
      const lines = configLines.trunk(row.interface, {
        trunk: row.adminMode === "trunk",
        encapsulation: row.adminMode !== "trunk" && /^(negotiate|isl)$/.test(row.adminEncapsulation),
        oldNative: Number(row.nativeVlan) || null,
        native: 10,
        current: current!,
        allowed: new Set([10, 20]),
      });
      if (row.adminMode !== "trunk") {
        expect(lines[lines.length - 1]).toBe("switchport mode trunk");
        expect(lines[1] === "switchport trunk encapsulation dot1q").toBe(row.adminEncapsulation === "negotiate");
      } else {
        expect(lines).not.toContain("switchport mode trunk");
      }
    }
  });

  test("a wrapped allowed list (switchport2) reads as the ids printed over both lines", () => {
    const file = path.join(FIXTURES, "cisco_ios_show_interfaces_switchport2.raw");
    const raw = fs.readFileSync(file, "utf8");
    const row = parseSwitchport(raw).find((r) => r.adminMode === "trunk")!;
    const set = allowedVlanSet(row.trunkingVlans) as Set<number>;
    // as printed: "1,12,15,31-36,40-42,80,..."
    for (const v of [1, 12, 15, 31, 36, 40, 42, 80]) expect(set.has(v)).toBe(true);
    for (const v of [2, 30, 37, 39, 43]) expect(set.has(v)).toBe(false);
    // and the continuation line's: "     900,910,920,930,940"
    for (const v of [604, 900, 940]) expect(set.has(v)).toBe(true);
    expect(set.size).toBe(3 + 6 + 3 + 9 + 5);
  });
});
