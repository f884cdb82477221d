import { orderedJson, orderedRecord } from "../../domain/ordered-record";

describe("orderedRecord", () => {
  const record = orderedRecord([
    ["35", { name: "b" }],
    ["12", { name: "a" }],
    ["7", { name: "c" }],
  ]);

  it("keeps integer-like keys in the given order for JSON and Object.keys", () => {
    expect(JSON.stringify(record)).toBe('{"35":{"name":"b"},"12":{"name":"a"},"7":{"name":"c"}}');
    expect(Object.keys(record)).toEqual(["35", "12", "7"]);
    expect(Object.entries(record).map(([key]) => key)).toEqual(["35", "12", "7"]);
  });

  it("reads like a plain object", () => {
    expect(record["12"]).toEqual({ name: "a" });
    expect("7" in record).toBe(true);
    expect(record).toEqual({ "7": { name: "c" }, "12": { name: "a" }, "35": { name: "b" } });
  });

  it("a repeated key keeps its first place and the last value", () => {
    const twice = orderedRecord([
      ["2", 1],
      ["1", 2],
      ["2", 3],
    ]);
    expect(JSON.stringify(twice)).toBe('{"2":3,"1":2}');
  });

  it("cannot be changed afterwards, so the order cannot go stale", () => {
    expect(() => {
      "use strict";
      (record as Record<string, unknown>)["99"] = 1;
    }).toThrow(TypeError);
    expect(Object.keys(record)).toEqual(["35", "12", "7"]);
  });
});

describe("orderedJson", () => {
  it("writes what JSON.stringify writes of the same orderedRecord, keys in the given order", () => {
    const entries: [string, unknown][] = [
      ["35", { name: "b" }],
      ["12", [1, "x"]],
      ["2", null],
      ["12", "again"],
    ];
    const text = orderedJson(entries.map(([k, v]) => [k, JSON.stringify(v)] as const));
    expect(text).toBe(JSON.stringify(orderedRecord(entries)));
    expect(text).toBe('{"35":{"name":"b"},"12":"again","2":null}');
    expect(orderedJson([])).toBe("{}");
  });
});
