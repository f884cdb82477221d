import fc from "fast-check";
import { naturalCompare, naturalSortBy } from "../../model/natural-order";

const sorted = (items: string[]) => [...items].sort(naturalCompare);

describe("natural order", () => {
  it("numbers compare by value", () => {
    expect(sorted(["10", "2", "1", "100", "20"])).toEqual(["1", "2", "10", "20", "100"]);
  });

  it("slot/port names compare part by part", () => {
    expect(sorted(["1/1/10", "1/1/2", "1/2/1", "1/1/1"])).toEqual(["1/1/1", "1/1/2", "1/1/10", "1/2/1"]);
    expect(sorted(["Gi1/0/10", "Gi1/0/9", "Gi1/0/1", "Te1/1/1"])).toEqual([
      "Gi1/0/1",
      "Gi1/0/9",
      "Gi1/0/10",
      "Te1/1/1",
    ]);
  });

  it("letters ignore case; shorter prefixes come first", () => {
    expect(sorted(["ethernet2", "Ethernet10", "ethernet1"])).toEqual(["ethernet1", "ethernet2", "Ethernet10"]);
    expect(sorted(["ge-0/0/1.0", "ge-0/0/1"])).toEqual(["ge-0/0/1", "ge-0/0/1.0"]);
  });

  it("digit runs longer than a double's exact range still compare correctly", () => {
    expect(naturalCompare("port12345678901234567890", "port12345678901234567891")).toBeLessThan(0);
  });

  it("is total: equal values up to case or leading zeros still have a fixed order", () => {
    expect(naturalCompare("01", "1")).not.toBe(0);
    expect(naturalCompare("a", "A")).not.toBe(0);
    expect(naturalCompare("x", "x")).toBe(0);
  });

  it("naturalSortBy sorts a copy by key", () => {
    const items = [{ id: "10" }, { id: "9" }];
    expect(naturalSortBy(items, (item) => item.id).map((item) => item.id)).toEqual(["9", "10"]);
    expect(items[0].id).toBe("10");
  });

  it("naturalSortBy orders as naturalCompare does, equal keys in their first order", () => {
    const name = fc.stringMatching(/^[A-Za-z]{0,3}[0-9]{0,3}(\/[0-9]{1,2}){0,2}$/);
    fc.assert(
      fc.property(fc.array(fc.record({ key: name, n: fc.nat() }), { maxLength: 60 }), (items) => {
        const expected = items
          .map((item, i) => ({ item, i }))
          .sort((a, b) => naturalCompare(a.item.key, b.item.key) || a.i - b.i)
          .map((x) => x.item);
        expect(naturalSortBy(items, (item) => item.key)).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
