/**
 * NETCONF framing (RFC 6242) of the driver (drivers/netconf/framing.ts) and of the lab's
 * face (lab/netconf/framing.ts), two implementations held to each other: end-of-message
 * and chunked messages split at every byte and merged into one packet, the switch from
 * `]]>]]>` to chunks right after the hello, multi-byte characters cut by a chunk
 * boundary, and the bounds (a message over the limit, malformed chunk headers).
 */
import { encodeFrame, FrameDecoder, FramingError } from "../../drivers/netconf/framing";
import { frame, LabFrameReader } from "../../lab/netconf/framing";
import { escapeXml, parseXml, XmlSyntaxError } from "../../model/xml";

function drain(d: FrameDecoder): string[] {
  const out: string[] = [];
  for (let m = d.next(); m !== null; m = d.next()) out.push(m);
  return out;
}

const messages = ['<rpc-reply message-id="1"><ok/></rpc-reply>', "<data>Grüße — ünïcödé ✓</data>", "<x/>"];

describe("driver decoder", () => {
  for (const framing of ["eom", "chunked"] as const) {
    test(`${framing}: every split point of a stream of three messages gives the same messages`, () => {
      const wire = Buffer.concat(messages.map((m) => encodeFrame(m, framing, 7)));
      for (let cut = 0; cut <= wire.length; cut++) {
        const d = new FrameDecoder(1024);
        d.setFraming(framing);
        const got: string[] = [];
        d.push(wire.subarray(0, cut));
        got.push(...drain(d));
        d.push(wire.subarray(cut));
        got.push(...drain(d));
        expect(got).toEqual(messages);
      }
    });

    test(`${framing}: byte by byte`, () => {
      const wire = Buffer.concat(messages.map((m) => encodeFrame(m, framing, 5)));
      const d = new FrameDecoder(1024);
      d.setFraming(framing);
      const got: string[] = [];
      for (const b of wire) {
        d.push(Buffer.from([b]));
        got.push(...drain(d));
      }
      expect(got).toEqual(messages);
    });
  }

  test("a hello with ]]>]]> and the first chunked message in one packet: the framing switches between them", () => {
    const d = new FrameDecoder(1024);
    d.push(Buffer.concat([encodeFrame("<hello/>", "eom"), Buffer.from("\n"), encodeFrame("<rpc-reply/>", "chunked")]));
    expect(d.next()).toBe("<hello/>");
    d.setFraming("chunked");
    expect(d.next()).toBe("<rpc-reply/>");
    expect(d.next()).toBeNull();
  });

  test("a multi-byte character cut by a chunk boundary is whole in the message", () => {
    const wire = encodeFrame("<t>€€€</t>", "chunked", 4);
    expect(wire.toString("latin1")).toContain("\n#4\n");
    const d = new FrameDecoder(100);
    d.setFraming("chunked");
    d.push(wire);
    expect(d.next()).toBe("<t>€€€</t>");
  });

  test("bounds: a message over the limit is refused in either framing, as is endless unframed data", () => {
    const eom = new FrameDecoder(16);
    eom.push(encodeFrame("<a>0123456789abcdef</a>", "eom"));
    expect(() => eom.next()).toThrow(FramingError);
    expect(() => new FrameDecoder(16).push(Buffer.alloc(100, 0x41))).toThrow(
      /no end-of-message marker within 16 bytes/,
    );
    const chunked = new FrameDecoder(16);
    chunked.setFraming("chunked");
    // the whole message over the limit, in chunks each under it
    chunked.push(encodeFrame("<a>0123456789abcdef</a>", "chunked", 8));
    expect(() => drain(chunked)).toThrow(/longer than 16 bytes/);
    const header = new FrameDecoder(1 << 20);
    header.setFraming("chunked");
    header.push(Buffer.from("\n#99999999999\n"));
    expect(() => header.next()).toThrow(FramingError);
  });

  test.each([
    ["a size with a leading zero", "\n#05\nhello\n##\n"],
    ["a size that is not a number", "\n#x\nhello\n##\n"],
    ["no \\n# before a chunk", "#5\nhello\n##\n"],
    ["an end marker without a chunk", "\n##\n"],
    ["a broken end marker", "\n#5\nhello\n##x"],
  ])("malformed chunks: %s", (_what, wire) => {
    const d = new FrameDecoder(1024);
    d.setFraming("chunked");
    d.push(Buffer.from(wire, "latin1"));
    expect(() => drain(d)).toThrow(FramingError);
  });
});

describe("driver and lab framing agree", () => {
  for (const framing of ["eom", "chunked"] as const) {
    test(`${framing}: the lab reads what the driver writes, the driver what the lab writes, split anywhere`, () => {
      const fromDriver = Buffer.concat(messages.map((m) => encodeFrame(m, framing, 6)));
      const fromLab = Buffer.concat(messages.map((m) => frame(m, framing)));
      for (let cut = 0; cut <= Math.min(fromDriver.length, fromLab.length); cut += 3) {
        const lab = new LabFrameReader(1024);
        lab.framing = framing;
        const got: string[] = [];
        for (const part of [fromDriver.subarray(0, cut), fromDriver.subarray(cut)]) {
          expect(lab.add(part)).toBe(true);
          for (let m = lab.take(); m !== null; m = lab.take()) got.push(m);
        }
        expect(got).toEqual(messages);
        const d = new FrameDecoder(1024);
        d.setFraming(framing);
        d.push(fromLab.subarray(0, cut));
        const back = drain(d);
        d.push(fromLab.subarray(cut));
        expect([...back, ...drain(d)]).toEqual(messages);
      }
    });
  }

  test("the lab cuts off a message over its bound and malformed chunks", () => {
    const lab = new LabFrameReader(16);
    lab.framing = "chunked";
    lab.add(encodeFrame("<a>0123456789abcdef</a>", "chunked", 8));
    expect(() => {
      while (lab.take() !== null);
    }).toThrow(/too long/);
    const bad = new LabFrameReader(1024);
    bad.framing = "chunked";
    bad.add(Buffer.from("\n#05\nhello\n##\n"));
    expect(() => bad.take()).toThrow(/bad chunk header/);
    expect(new LabFrameReader(16).add(Buffer.alloc(200))).toBe(false);
  });
});

describe("the XML reader both sides use (model/xml.ts)", () => {
  test("prefixes, attributes, entities, CDATA, comments and the declaration", () => {
    const doc = parseXml(
      `<?xml version="1.0"?><!-- hi --><nc:rpc xmlns:nc="urn:x" message-id='a&amp;b'><x a="&lt;1&gt;">t&#233;&#x41;<![CDATA[<raw>]]></x><y/></nc:rpc>`,
    );
    expect(doc).toMatchObject({ name: "rpc", prefix: "nc", attrs: { "message-id": "a&b" } });
    expect(doc.children.map((c) => c.name)).toEqual(["x", "y"]);
    expect(doc.children[0]).toMatchObject({ attrs: { a: "<1>" }, text: "téA<raw>" });
    expect(parseXml(`<a>${escapeXml(`<"it's" & ]]>]]>`)}</a>`).text).toBe(`<"it's" & ]]>]]>`);
  });

  test.each([
    ["a document type (no entity expansion)", '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>'],
    ["an unknown entity", "<a>&x;</a>"],
    ["a wrong end tag", "<a></b>"],
    ["an unclosed element", "<a><b></b>"],
    ["two roots", "<a/><b/>"],
    ["text outside the root", "<a/>x"],
    ["an unquoted attribute", "<a b=c/>"],
  ])("refuses %s", (_what, text) => {
    expect(() => parseXml(text)).toThrow(XmlSyntaxError);
  });

  test("bounds: nesting depth and element count", () => {
    expect(() => parseXml("<a>".repeat(70) + "</a>".repeat(70))).toThrow(/deeper than 64/);
    expect(() => parseXml(`<a>${"<b/>".repeat(20)}</a>`, { maxElements: 10 })).toThrow(/more than 10 elements/);
  });
});
