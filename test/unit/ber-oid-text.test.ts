/**
 * mib/ber.ts decodeOidText, which every value an SNMP walk receives goes through (the
 * drivers' v2c client): the dotted text of any encodable OID, equal to the arcs the
 * array decoder reads, and errors for content that is not an OID.
 */
import fc from "fast-check";
import { BerError, BerReader, decodeOidText, encodeOid, oidContent } from "../../mib/ber";

const text = (arcs: number[]) => {
  const c = oidContent(arcs);
  return decodeOidText(c, 0, c.length);
};

describe("decodeOidText", () => {
  it("gives the dotted arcs of any OID, whatever its arcs' sizes and its length", () => {
    const arc = fc.oneof(fc.integer({ min: 0, max: 127 }), fc.integer({ min: 0, max: 0xffffffff }));
    const oid = fc
      .tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), fc.array(arc, { maxLength: 200 }))
      .map(([a, b, rest]) => [a, b, ...rest]);
    fc.assert(
      fc.property(oid, (arcs) => {
        expect(text(arcs)).toBe(arcs.join("."));
        // the same as the lab's array decoder reads from the same TLV
        expect(text(arcs)).toBe(new BerReader(encodeOid(arcs)).readOid().join("."));
      }),
      { numRuns: 200 },
    );
  });

  it("reads the first byte's two arcs, including a second arc above 39 under 2", () => {
    expect(text([1, 3, 6, 1, 2, 1, 1, 5, 0])).toBe("1.3.6.1.2.1.1.5.0");
    expect(text([0, 0])).toBe("0.0");
    expect(text([2, 999, 3])).toBe("2.999.3");
    expect(text([2, 4294967295])).toBe("2.4294967295");
  });

  it("decodes within the given bounds only, and refuses a truncated or oversized arc", () => {
    const c = Buffer.concat([Buffer.from([0xff]), oidContent([1, 3, 6, 1]), Buffer.from([0xff])]);
    expect(decodeOidText(c, 1, c.length - 1)).toBe("1.3.6.1");
    expect(decodeOidText(c, 1, 1)).toBe("");
    expect(() => decodeOidText(Buffer.from([0x2b, 0x86]), 0, 2)).toThrow(BerError);
    expect(() => decodeOidText(Buffer.from([0x2b, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), 0, 7)).toThrow(
      "OID sub-identifier too large",
    );
  });
});
