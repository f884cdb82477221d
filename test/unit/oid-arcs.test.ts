import { compareOidTexts, compareOids, parseOid } from "../../mib/oid-arcs";

const sign = (n: number) => Math.sign(n);

describe("compareOidTexts: dotted OIDs compared in place", () => {
  it("orders like the parsed arcs: arc by arc, numerically, a prefix first", () => {
    const pairs: [string, string][] = [
      ["1.3.6.1.2.1.2.2.1.2.9", "1.3.6.1.2.1.2.2.1.2.10"],
      ["1.3.6.1.2.1.2.2.1.2.10", "1.3.6.1.2.1.2.2.1.2.9"],
      ["1.3.6.1", "1.3.6.1.0"],
      ["1.3.6.1.0", "1.3.6.1"],
      ["1.3.6.1.2", "1.3.6.1.2"],
      [".1.3.6", "1.3.6"],
      ["1.3.6.1.4.1.9.9.46.1.3.1.1.4.1.1002", "1.3.6.1.4.1.9.9.46.1.3.1.1.4.1.999"],
      ["4294967295", "4294967294"],
      ["0.0", "0"],
      ["2", "10.1"],
    ];
    for (const [a, b] of pairs) {
      expect([a, b, sign(compareOidTexts(a, b))]).toEqual([a, b, sign(compareOids(parseOid(a), parseOid(b)))]);
    }
  });

  it("agrees with the parsed form on random OIDs (bounded: 2,000 pairs)", () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const oid = () =>
      Array.from({ length: 1 + next(6) }, () => String(next(3) === 0 ? next(4294967296) : next(12))).join(".");
    for (let k = 0; k < 2000; k++) {
      const a = oid();
      const b = next(4) === 0 ? a : oid();
      expect(sign(compareOidTexts(a, b))).toBe(sign(compareOids(parseOid(a), parseOid(b))));
    }
  });

  it("compares only the instance parts when told where they start (both under one column)", () => {
    const column = "1.3.6.1.2.1.2.2.1.2";
    const from = column.length + 1;
    expect(compareOidTexts(`${column}.10`, `${column}.9`, from)).toBeGreaterThan(0);
    expect(compareOidTexts(`${column}.9`, `${column}.10`, from)).toBeLessThan(0);
    expect(compareOidTexts(`${column}.5.1`, `${column}.5`, from)).toBeGreaterThan(0);
    expect(compareOidTexts(`${column}.7`, `${column}.7`, from)).toBe(0);
    expect(() => compareOidTexts(`${column}.7.`, `${column}.7`, from)).toThrow("bad OID");
  });

  it("still refuses what is not an OID, as parsing did", () => {
    for (const bad of ["1..3", "1.3.", "1.x.3", "4294967296.1", "1.3.-1"]) {
      expect(() => compareOidTexts(bad, "1.3")).toThrow(`bad OID: ${bad}`);
      expect(() => compareOidTexts("1.3", bad)).toThrow(`bad OID: ${bad}`);
    }
  });
});
