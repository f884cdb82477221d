/**
 * mib/ber.ts lengths, INTEGERs and the in-place header reader (BerReader.step), which the
 * lab's agent encodes every answer with and the drivers' v2c client reads every answer
 * with: the encodings X.690 gives, values read back as written, and a TLV that claims
 * more than its enclosing one holds refused.
 */
import fc from "fast-check";
import { BerError, BerReader, decodeInteger, encodeInteger, header, lengthOfLength, tlv } from "../../mib/ber";
import { Tag } from "../../mib/smi-values";

const hex = (b: Buffer) => b.toString("hex");

describe("BER lengths", () => {
  it.each([
    [0, "3000"],
    [0x7f, "307f"],
    [0x80, "308180"],
    [0xff, "3081ff"],
    [0x100, "30820100"],
    [0xffff, "3082ffff"],
    [0x10000, "3083010000"],
    [0x1000000, "308401000000"],
  ])("writes a header of length %i in its shortest definite form", (len, expected) => {
    expect(hex(header(Tag.Sequence, len))).toBe(expected);
    expect(header(Tag.Sequence, len).length).toBe(1 + lengthOfLength(len));
  });

  it("reads back the tag and content bounds of any TLV it wrote", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 70000 }), (len) => {
        const t = tlv(Tag.OctetString, Buffer.alloc(len, 7));
        const r = new BerReader(t);
        expect(r.step()).toBe(Tag.OctetString);
        expect([r.valueStart, r.valueEnd]).toEqual([1 + lengthOfLength(len), t.length]);
        expect(r.pos).toBe(r.valueStart);
        expect(t.subarray(r.valueStart).equals(Buffer.alloc(len, 7))).toBe(true);
        // the object form, for the callers that keep one
        expect(new BerReader(t).readHeader()).toEqual({ tag: Tag.OctetString, start: r.valueStart, end: r.valueEnd });
      }),
      { numRuns: 100 },
    );
  });
});

describe("BER TLVs of several parts", () => {
  it("holds the parts one after another, in order", () => {
    const t = tlv(Tag.Sequence, Buffer.from("0201", "hex"), Buffer.alloc(0), Buffer.from("05", "hex"));
    expect(hex(t)).toBe("3003020105");
    expect(hex(tlv(Tag.Sequence))).toBe("3000");
  });
});

describe("BER INTEGERs", () => {
  it.each([
    [0, Tag.Integer, "020100"],
    [127, Tag.Integer, "02017f"],
    [128, Tag.Integer, "02020080"],
    [-1, Tag.Integer, "0201ff"],
    [-128, Tag.Integer, "020180"],
    [-129, Tag.Integer, "0202ff7f"],
    [2147483647, Tag.Integer, "02047fffffff"],
    [-2147483648, Tag.Integer, "020480000000"],
    [4294967295, Tag.Gauge32, "420500ffffffff"],
    [1001, Tag.Counter32, "410203e9"],
  ])("encodes %i with tag %i as X.690 says", (n, tag, expected) => {
    expect(hex(encodeInteger(n, tag))).toBe(expected);
  });

  it("reads back every signed 32-bit and unsigned 32-bit value it writes", () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.nat({ max: 2 ** 32 - 1 }), (s, u) => {
        const a = encodeInteger(s);
        expect(decodeInteger(a, 2, a.length, true)).toBe(s);
        const b = encodeInteger(u, Tag.Gauge32);
        expect(decodeInteger(b, 2, b.length, false)).toBe(u);
        expect(new BerReader(a).readInteger()).toBe(s);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses what is not an integer, and a negative unsigned value", () => {
    expect(() => encodeInteger(1.5)).toThrow(BerError);
    expect(() => encodeInteger(-1, Tag.Counter32)).toThrow(BerError);
  });
});

describe("BerReader.step within an enclosing TLV", () => {
  it("refuses a TLV that runs past the limit it is read within, though the buffer holds more", () => {
    // a VarBind of 4 content bytes whose OID claims 5, followed by more data
    const data = Buffer.from("3004060501020304050607", "hex");
    const r = new BerReader(data);
    expect(r.step()).toBe(Tag.Sequence);
    expect(() => r.step(r.valueEnd)).toThrow(/length beyond end of data/);
    // without the limit the same bytes would be read as a whole OID
    const loose = new BerReader(data, 2);
    expect(loose.step()).toBe(Tag.ObjectIdentifier);
  });

  it("refuses a header cut off at the limit", () => {
    const r = new BerReader(Buffer.from("300106", "hex"));
    r.step();
    expect(() => r.step(r.valueEnd)).toThrow(/truncated header/);
  });
});
