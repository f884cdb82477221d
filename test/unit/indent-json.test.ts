import { indentJson } from "../../server/web";

describe("indentJson: a JSON text indented for the browsable API page", () => {
  it("writes what JSON.stringify(value, null, 2) writes, strings left as they are", () => {
    const value = {
      a: [1, { b: "x, y: {z} [w]" }, [], {}],
      'quote " and \\ , :': { c: null, d: true, e: -1.5e3 },
      empty: "",
    };
    expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });

  it("keeps the text's key order (integer-like keys in menu order)", () => {
    expect(indentJson('{"35":{"n":1},"12":{}}')).toBe('{\n  "35": {\n    "n": 1\n  },\n  "12": {}\n}');
  });
});
