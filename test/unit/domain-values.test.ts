import {
  hasControlCharacter,
  isOnValue,
  isSaveValue,
  isVlanId,
  parseDescription,
  parseInteger,
  parseOnOff,
  parseSave,
  parseUntaggedVlan,
  parseVlanDefinition,
  parseVlanIdToDelete,
  textFault,
  textLength,
} from "../../domain/request-values";

describe("on-values for state and poe_state", () => {
  it.each(["on", "enabled", "enable", "yes", "y", "1", "true", "ON", "Enabled", "TRUE", "Yes", " y "])(
    "%j means up",
    (word) => {
      expect(parseOnOff(word, "state")).toEqual({ ok: true, value: true });
    },
  );

  it("JSON true and 1 mean up, JSON false and 0 mean down", () => {
    expect(isOnValue(true)).toBe(true);
    expect(isOnValue(1)).toBe(true);
    expect(parseOnOff(false, "state")).toEqual({ ok: true, value: false });
    expect(parseOnOff(0, "poe_state")).toEqual({ ok: true, value: false });
  });

  it.each(["off", "disabled", "no", "0", "false", "2", "onn"])(
    "%j means down (OpenL2M: anything else is off)",
    (word) => {
      expect(parseOnOff(word, "state")).toEqual({ ok: true, value: false });
    },
  );

  it("a missing or blank value names the parameter", () => {
    for (const value of [undefined, null, "", "  "]) {
      expect(parseOnOff(value, "poe_state")).toEqual({
        ok: false,
        status: 400,
        code: "missing_parameter",
        reason: "Missing or invalid required parameter: 'poe_state'",
      });
    }
  });

  it("an object or list is invalid, not silently off", () => {
    expect(parseOnOff({ on: true }, "state")).toMatchObject({ ok: false, code: "invalid_parameter", status: 400 });
    expect(parseOnOff(["on"], "state")).toMatchObject({ ok: false, code: "invalid_parameter" });
  });
});

describe("the save set", () => {
  it.each(["on", "enabled", "enable", "yes", "y", "1", "YES"])("%j asks for a save", (word) => {
    expect(parseSave(word)).toEqual({ ok: true, value: true });
  });

  it("JSON 1 asks for a save", () => {
    expect(isSaveValue(1)).toBe(true);
  });

  it("'true' is not in the save set, neither as text nor as JSON true", () => {
    for (const value of ["true", true, "no", "0"]) {
      expect(parseSave(value)).toEqual({
        ok: false,
        status: 400,
        code: "invalid_parameter",
        reason: "No save requested (why did you call us?).",
      });
    }
  });

  it("missing save has its own text", () => {
    expect(parseSave(undefined)).toEqual({
      ok: false,
      status: 400,
      code: "missing_parameter",
      reason: "Missing or invalid required parameter and value: 'save=yes'",
    });
  });
});

describe("integers from JSON numbers or numeric strings", () => {
  it("accepts numbers and digit strings", () => {
    expect(parseInteger(10)).toBe(10);
    expect(parseInteger("10")).toBe(10);
    expect(parseInteger("010")).toBe(10);
    expect(parseInteger("-5")).toBe(-5);
    expect(parseInteger(10.0)).toBe(10);
    expect(Object.is(parseInteger("-0"), 0)).toBe(true);
  });

  it.each(["10a", "1.5", "", " 10", "10 ", "+10", "1e3", "0x10", "٣"])("rejects the string %j", (text) => {
    expect(parseInteger(text)).toBeNull();
  });

  it("rejects fractions, non-finite numbers, booleans and objects", () => {
    for (const value of [1.5, NaN, Infinity, true, null, undefined, [10], { v: 10 }]) {
      expect(parseInteger(value)).toBeNull();
    }
  });

  it("rejects integers beyond the exact range", () => {
    expect(parseInteger(2 ** 60)).toBeNull();
    expect(parseInteger("99999999999999999999")).toBeNull();
  });
});

describe("VLAN ids", () => {
  it("are 1..4094", () => {
    expect([0, 1, 4094, 4095, -1].map(isVlanId)).toEqual([false, true, true, false, false]);
  });

  it("the interface vlan parameter: missing and non-numeric use the numeric text", () => {
    expect(parseUntaggedVlan("20")).toEqual({ ok: true, value: 20 });
    expect(parseUntaggedVlan(undefined)).toEqual({
      ok: false,
      status: 400,
      code: "missing_parameter",
      reason: "Missing or invalid required numeric parameter: 'vlan'",
    });
    expect(parseUntaggedVlan("ten")).toMatchObject({
      code: "invalid_parameter",
      reason: "Missing or invalid required numeric parameter: 'vlan'",
    });
  });

  it("VLAN delete: 0 and 4095 are invalid ids, text for bad input names vlan_id", () => {
    expect(parseVlanIdToDelete("4094")).toEqual({ ok: true, value: 4094 });
    expect(parseVlanIdToDelete(0)).toEqual({
      ok: false,
      status: 400,
      code: "invalid_parameter",
      reason: "Invalid new vlan id: '0'",
    });
    expect(parseVlanIdToDelete("4095")).toMatchObject({ reason: "Invalid new vlan id: '4095'" });
    expect(parseVlanIdToDelete("x")).toMatchObject({
      code: "invalid_parameter",
      reason: "Missing or invalid required parameter: 'vlan_id'",
    });
    expect(parseVlanIdToDelete(undefined)).toMatchObject({ code: "missing_parameter" });
  });
});

describe("VLAN add / edit parameters", () => {
  const both = "One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'";

  it("parses a form body (strings) and a JSON body (number), trimming the name", () => {
    expect(parseVlanDefinition({ vlan_id: "777", vlan_name: "  seven " }, "add")).toEqual({
      ok: true,
      value: { id: 777, name: "seven" },
    });
    expect(parseVlanDefinition({ vlan_id: 777, vlan_name: "seven" }, "edit")).toEqual({
      ok: true,
      value: { id: 777, name: "seven" },
    });
  });

  it("a missing or non-numeric id, or a missing name, gives the combined text", () => {
    expect(parseVlanDefinition({ vlan_name: "x" }, "add")).toEqual({
      ok: false,
      status: 400,
      code: "missing_parameter",
      reason: both,
    });
    expect(parseVlanDefinition({ vlan_id: "7a", vlan_name: "x" }, "add")).toMatchObject({
      code: "invalid_parameter",
      reason: both,
    });
    expect(parseVlanDefinition({ vlan_id: 7 }, "edit")).toMatchObject({ code: "missing_parameter", reason: both });
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: { a: 1 } }, "edit")).toMatchObject({
      code: "invalid_parameter",
      reason: both,
    });
  });

  it("ids 0 and 4095 are invalid", () => {
    expect(parseVlanDefinition({ vlan_id: 0, vlan_name: "x" }, "add")).toMatchObject({
      status: 400,
      reason: "Invalid new vlan id: '0'",
    });
    expect(parseVlanDefinition({ vlan_id: "4095", vlan_name: "x" }, "add")).toMatchObject({
      reason: "Invalid new vlan id: '4095'",
    });
  });

  it("an empty or blank name: add and edit have their own texts", () => {
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: "" }, "add")).toMatchObject({
      status: 400,
      reason: "Please provide a vlan name!",
    });
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: "   " }, "edit")).toMatchObject({
      status: 400,
      reason: "Vlan name can not be empty!",
    });
  });

  it("names longer than 32 (or the driver's limit) are refused", () => {
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: "n".repeat(32) }, "add")).toMatchObject({ ok: true });
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: "n".repeat(33) }, "add")).toMatchObject({
      ok: false,
      code: "invalid_parameter",
      reason: "Vlan name is too long (max 32 characters)",
    });
    expect(
      parseVlanDefinition({ vlan_id: 7, vlan_name: "n".repeat(17) }, "add", { characters: 16, bytes: 16 }),
    ).toMatchObject({
      reason: "Vlan name is too long (max 16 characters)",
    });
  });

  it.each([
    ["line feed", "a\nb"],
    ["carriage return", "a\rb"],
    ["tab", "a\tb"],
    ["next line U+0085", "a\u0085b"],
    ["NUL", "a\u0000b"],
    ["escape", "a\u001bb"],
    ["DEL", "a\u007fb"],
    ["line separator", "a\u2028b"],
  ])("a name with a %s is refused", (_label, name) => {
    const result = parseVlanDefinition({ vlan_id: 7, vlan_name: name }, "add");
    expect(result).toMatchObject({ ok: false, status: 400, code: "invalid_parameter" });
    expect(!result.ok && result.reason).toMatch(/control characters/);
  });
});

describe("interface descriptions", () => {
  it("strips surrounding blanks and keeps inner ones", () => {
    expect(parseDescription("  uplink to core  ")).toEqual({ ok: true, value: "uplink to core" });
    expect(parseDescription("\u00a0printer\u3000")).toEqual({ ok: true, value: "printer" });
  });

  it("an empty description is allowed (it clears the port's)", () => {
    expect(parseDescription("")).toEqual({ ok: true, value: "" });
    expect(parseDescription("   ")).toEqual({ ok: true, value: "" });
  });

  it("a JSON number is taken as its text", () => {
    expect(parseDescription(42)).toEqual({ ok: true, value: "42" });
  });

  it("missing is a missing parameter, a non-text is invalid", () => {
    expect(parseDescription(undefined)).toEqual({
      ok: false,
      status: 400,
      code: "missing_parameter",
      reason: "Missing or invalid required parameter: 'description'",
    });
    expect(parseDescription(true)).toMatchObject({ code: "invalid_parameter" });
    expect(parseDescription(["x"])).toMatchObject({ code: "invalid_parameter" });
  });

  it("64 characters pass, 65 do not; blanks around do not count", () => {
    expect(parseDescription("d".repeat(64))).toMatchObject({ ok: true });
    expect(parseDescription(` ${"d".repeat(64)} `)).toMatchObject({ ok: true });
    expect(parseDescription("d".repeat(65))).toEqual({
      ok: false,
      status: 400,
      code: "invalid_parameter",
      reason: "Description is too long (max 64 characters)",
    });
  });

  it("the driver's limit replaces 64 in rule and text", () => {
    expect(parseDescription("d".repeat(33), { characters: 32, bytes: 32 })).toMatchObject({
      reason: "Description is too long (max 32 characters)",
    });
  });

  it("bytes of UTF-8 count too: 64 characters that are 70 bytes do not fit a 64-byte ifAlias", () => {
    const text = "é".repeat(6) + "d".repeat(58); // 64 characters, 70 bytes
    expect(parseDescription(text, { characters: 64, bytes: 64 })).toMatchObject({
      ok: false,
      code: "invalid_parameter",
      reason: "Description is too long for the device (max 64 bytes of UTF-8, this one has 70)",
    });
    expect(parseDescription(text, { characters: 64, bytes: 240 })).toEqual({ ok: true, value: text });
    expect(
      parseVlanDefinition({ vlan_id: 7, vlan_name: "ü".repeat(17) }, "add", { characters: 32, bytes: 32 }),
    ).toMatchObject({
      reason: "Vlan name is too long for the device (max 32 bytes of UTF-8, this one has 34)",
    });
  });

  it.each([
    ["a right-to-left override", "desk \u202e21.4"],
    ["an isolate", "desk \u2066x\u2069"],
    ["a lone high surrogate", "desk \ud800"],
    ["a lone low surrogate", "\udc00 desk"],
  ])("refuses %s in descriptions and VLAN names", (_what, text) => {
    expect(parseDescription(text)).toMatchObject({
      ok: false,
      reason: "Description may not contain control characters or line breaks",
    });
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: text }, "add")).toMatchObject({
      ok: false,
      code: "invalid_parameter",
    });
  });

  it("a proper surrogate pair (an emoji) is one character and allowed", () => {
    expect(parseDescription("desk 🖥", { characters: 6, bytes: 64 })).toEqual({ ok: true, value: "desk 🖥" });
  });

  it("length counts characters, not UTF-16 units", () => {
    expect(textLength("😀é")).toBe(2);
    expect(parseDescription("😀".repeat(64), { characters: 64, bytes: 256 })).toMatchObject({ ok: true });
    expect(parseDescription("😀".repeat(65), { characters: 64, bytes: 1000 })).toMatchObject({
      ok: false,
      reason: "Description is too long (max 64 characters)",
    });
  });

  it.each([
    ["line feed", "a\nb"],
    ["carriage return", "a\rb"],
    ["tab", "a\tb"],
    ["next line U+0085", "a\u0085b"],
    ["NUL", "a\u0000b"],
    ["escape", "\u001b[2J"],
    ["DEL", "a\u007f"],
    ["C1 U+009B", "a\u009bb"],
    ["line separator", "a\u2028b"],
    ["paragraph separator", "a\u2029b"],
    ["trailing line feed", "text\n"],
    ["leading tab", "\ttext"],
  ])("refuses a %s", (_label, text) => {
    expect(parseDescription(text)).toEqual({
      ok: false,
      status: 400,
      code: "invalid_parameter",
      reason: "Description may not contain control characters or line breaks",
    });
  });

  it("ordinary punctuation and letters of any script are fine", () => {
    expect(hasControlCharacter("AP-3 (Raum 1.02) – Ölfeld #5 / 東京")).toBe(false);
  });
});

describe("textFault: the one check of every free text", () => {
  it.each([
    ["U+202E right-to-left override", "name\u202e", "bidi"],
    ["U+2066 left-to-right isolate", "\u2066name", "bidi"],
    ["U+200F right-to-left mark", "na\u200fme", "bidi"],
    ["U+200E left-to-right mark", "na\u200eme", "bidi"],
    ["U+061C Arabic letter mark", "na\u061cme", "bidi"],
    ["a lone high surrogate", "name\ud800", "surrogate"],
    ["a lone low surrogate", "\udc00name", "surrogate"],
    ["NUL", "na\u0000me", "control"],
    ["a line feed", "na\nme", "control"],
    ["a tab", "na\tme", "control"],
    ["DEL", "name\u007f", "control"],
    ["C1 U+0085", "na\u0085me", "control"],
    ["C1 U+009B", "na\u009bme", "control"],
  ])("finds %s", (_what, text, fault) => {
    expect(textFault(text)).toBe(fault);
    expect(hasControlCharacter(text)).toBe(true);
  });

  it("with lines allowed, tab, line feed and carriage return pass; other controls do not", () => {
    expect(textFault("first line\r\n\tsecond line\n", { lines: true })).toBeNull();
    expect(textFault("a\u0000b", { lines: true })).toBe("control");
    expect(textFault("a\u0085b", { lines: true })).toBe("control");
    expect(textFault("a\u202eb", { lines: true })).toBe("bidi");
    expect(textFault("a\ud800b", { lines: true })).toBe("surrogate");
  });

  it("letters of any script, emoji (a proper surrogate pair) and joiners are fine", () => {
    expect(textFault("Access – Ölfeld / 東京 / שלום / مرحبا 🖥")).toBeNull();
    expect(textFault("👩\u200d💻")).toBeNull();
  });

  it("port descriptions and VLAN names use it, marks included", () => {
    expect(parseDescription("desk\u200f")).toMatchObject({ ok: false, code: "invalid_parameter" });
    expect(parseVlanDefinition({ vlan_id: 7, vlan_name: "v\u061c" }, "add")).toMatchObject({
      ok: false,
      code: "invalid_parameter",
    });
  });
});
