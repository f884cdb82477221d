/**
 * fast-check arbitraries for the API fuzzer: values from a JSON schema of the spec
 * (valid ones, with hints by field name so that writes reach the lab switch), hostile
 * values (wrong types, huge strings, Unicode edge cases, control characters, deep
 * nesting) and the near-valid bodies between the two.
 */
import fc from "fast-check";

/**
 * The parts of a schema of the spec the fuzzer reads: a node of the parsed document
 * (which openapi-backend validated when the contract was loaded), by a `$ref` or inline.
 */
export interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  nullable?: boolean;
}

/** what the fuzzer knows of the world when it generates (ids are picked at send time) */
export interface Hints {
  vlans: number[];
  /** the service's MAX_BODY_BYTES: some bodies are one byte over it */
  maxBodyBytes: number;
}

const UNICODE_EDGES = [
  "\uD800", // lone high surrogate
  "\uDFFF", // lone low surrogate
  "a\uDC00b",
  "\u202Eevil\u202C", // bidi override
  "\u2066isolate\u2069",
  "\u200B\u200D\uFEFF", // zero width, BOM
  "e\u0301", // combining
  "\u{1F600}\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
  "\uFFFF\uFFFE",
  "𝕊𝕎𝕀𝕋ℂℍ",
];

const CONTROL = [
  "\u0000",
  "a\u0000b",
  "\u001b[31mred\u001b[0m",
  "\r\n",
  "line\nbreak",
  "\t",
  "\u0007\u0008",
  "\u007f",
  "\u0085\u2028\u2029",
];

const INJECTION = [
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  "<script>alert(1)</script>",
  "${7*7}",
  "../../etc/passwd",
  "%00",
  "%2F",
  "\\",
  "__proto__",
  "constructor",
  "null",
  "NaN",
  "-0",
  "1e999",
];

/** strings no one means to send */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...UNICODE_EDGES, ...CONTROL, ...INJECTION, "", " ", "   padded   "),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.integer({ min: 1000, max: 100_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 1, max: 3000 }).map((n) => "\u202E\uD800".repeat(n)),
);

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** a value of any JSON type, often one the schema does not ask for */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, -1e308, 2 ** 53 + 1, 4095, 4094, 99999999999, [], {}, [
    1,
    "a",
    null,
  ]),
  fc.integer({ min: 10, max: 2000 }).map(nested),
  fc.array(fc.oneof(fc.integer(), hostileString), { maxLength: 6 }),
  fc.dictionary(fc.constantFrom("__proto__", "constructor", "a", "x"), fc.oneof(fc.integer(), fc.string()), {
    maxKeys: 3,
  }),
);

const ON_VALUES = [
  "on",
  "off",
  "enabled",
  "enable",
  "disabled",
  "yes",
  "y",
  "no",
  "1",
  "0",
  "true",
  "false",
  "ON",
  "Yes",
  "bogus",
];

/** four valid values for one odd one */
const mostly = <T, U>(good: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: odd });

/** by field name: values that get past validation and reach the handler's own checks */
function hinted(name: string, hints: Hints): fc.Arbitrary<unknown> | null {
  const vlan = mostly(
    fc.oneof(fc.constantFrom(...hints.vlans), fc.integer({ min: 1, max: 4094 })),
    fc.constantFrom(0, 4095, -1),
  );
  switch (name) {
    case "vlan":
    case "vlan_id":
    case "untagged_vlan":
      return mostly(fc.oneof(vlan, vlan.map(String)), fc.constantFrom("010", " 10 ", "1e1", "0x10"));
    case "tagged_vlans":
      return mostly(
        fc.oneof(
          fc.array(vlan, { maxLength: 4 }),
          fc.array(vlan, { maxLength: 4 }).map((a) => a.join(",")),
          fc.array(vlan, { maxLength: 4 }).map((a) => a.join(", ")),
          fc.constant(""),
        ),
        fc.constantFrom("1,,2", "a,b", "10;20", "10,10", "-1", "99999999999", 20, [20, [30]]),
      );
    case "wait":
      // a bounce or PoE cycle waits this long holding the device's lease: short, or out of bounds
      return mostly(fc.constantFrom(0, "0", 0.01, "0.02"), fc.constantFrom(61, -1, "abc", "1e9", null));
    case "state":
    case "poe_state":
    case "save":
    case "allow_all":
      return fc.oneof(fc.constantFrom(...ON_VALUES), fc.boolean(), fc.constantFrom(0, 1, 2));
    case "vlan_name":
    case "description":
      return mostly(
        fc.string({ maxLength: 40 }),
        fc.oneof(fc.constantFrom(...UNICODE_EDGES, ...CONTROL), fc.constant("d".repeat(300))),
      );
    case "primary_ipv4":
      // inventory the fuzzer writes may never point anywhere but this machine
      return mostly(
        fc.constantFrom("127.0.0.1", "127.0.0.2", "", null),
        fc.constantFrom("127.000.000.001", "127.0.0.256", "1.2.3"),
      );
    case "primary_ipv6":
      return mostly(fc.constantFrom("::1", "", null), fc.constantFrom("::ffff:127.0.0.1", "fe80::1%eth0", ":::"));
    case "snmp_port":
    case "port":
      return mostly(fc.integer({ min: 1, max: 65535 }), fc.constantFrom(0, 65536, -1));
    case "timeout_ms":
    case "retries":
      return mostly(fc.integer({ min: 1, max: 100000 }), fc.constantFrom(-1, 0, 2 ** 31));
    case "switchgroups":
    case "users":
    case "switches":
    case "vlans":
      return mostly(
        fc.oneof(
          fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
          fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }).map((a) => a.join(",")),
        ),
        fc.constantFrom("", "1,,2", "a,b", " 1 , 2 ", "1;2", "-1", "99999999999", "0"),
      );
    case "profile":
      return fc.oneof(
        fc.record(
          {
            read_only: fc.boolean(),
            vlan_edit: fc.boolean(),
            allow_poe_toggle: fc.boolean(),
            edit_if_descr: fc.boolean(),
            theme: fc.constantFrom("light", "dark", "neon"),
            bogus: fc.integer(),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom(
          '{"read_only": true}',
          '{"theme": "dark"}',
          "{not json",
          "[]",
          "null",
          '"x"',
          '{"vlan_edit": "yes"}',
        ),
      );
    case "snmp_profile":
    case "credentials_profile":
      return mostly(fc.oneof(fc.integer({ min: 1, max: 4 }), fc.constant(null)), fc.constantFrom(0, 999999));
    case "connector_type":
      return mostly(fc.constant(0), fc.constantFrom(7, 3, -1));
    case "driver":
      return mostly(
        fc.constantFrom("auto", "generic", "ciscosb"),
        fc.constantFrom("cisco_ios_cli", "linux_host", "nonesuch", ""),
      );
    case "username":
      return mostly(
        fc.stringMatching(/^[a-z0-9_.@+-]{1,12}$/).map((s) => `fz-${s}`),
        fc.constantFrom("root", "ro-user", "", " ", "has space", "x".repeat(200)),
      );
    case "name":
      return mostly(
        fc.string({ minLength: 1, maxLength: 12 }).map((s) => `fz-${s}`),
        fc.constantFrom("", "Lab", "fuzz-lab"),
      );
    case "password":
      return mostly(fc.constantFrom("pw-root-1", "pw-ro-1", "a-good-password-1"), fc.string({ maxLength: 20 }));
    case "hostname":
      return mostly(
        fc.constantFrom("", "sw-fz", "sw-fz.lab.invalid"),
        fc.constantFrom("-bad-", "a..b", "x".repeat(300)),
      );
    case "private_key":
      return mostly(
        fc.constant("-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"),
        fc.constantFrom("", "not a key"),
      );
    case "auth_key":
    case "priv_key":
      return mostly(fc.constantFrom("key-of-12-chars", "another-longer-key"), fc.constantFrom("", "short"));
    case "email":
      return mostly(fc.oneof(fc.emailAddress(), fc.constant("")), fc.constantFrom("not-an-email", "a@b"));
    default:
      return null;
  }
}

/** The schema a `$ref` points at in the document (a chain of them, ten at most), or the schema itself. */
function resolve(schema: Schema, doc: unknown): Schema {
  let s: Schema | undefined = schema;
  for (let i = 0; i < 10 && s && typeof s.$ref === "string"; i++) {
    let node: unknown = doc;
    for (const k of s.$ref.replace(/^#\//, "").split("/"))
      node = node && typeof node === "object" ? (node as Record<string, unknown>)[k] : undefined;
    s = node as Schema | undefined;
  }
  return s ?? {};
}

const NEEDED = new Set([
  "name",
  "username",
  "vlan",
  "vlan_id",
  "vlan_name",
  "state",
  "poe_state",
  "save",
  "description",
  "untagged_vlan",
  "tagged_vlans",
  "allow_all",
  "wait",
]);

/**
 * hinted() once per field name and world: the request arbitraries ask for the same field
 * many times, and some of its arbitraries take milliseconds to build (fc.stringMatching);
 * an arbitrary holds no state, so one serves every place and the same seed draws the same values
 */
const hintedOnce = new WeakMap<Hints, Map<string, fc.Arbitrary<unknown> | null>>();
function hintedArbitrary(name: string, hints: Hints): fc.Arbitrary<unknown> | null {
  let byName = hintedOnce.get(hints);
  if (!byName) hintedOnce.set(hints, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, hinted(name, hints));
  return byName.get(name) ?? null;
}

/** a value the schema accepts (the hints may also give near misses on purpose) */
export function validValue(schema: Schema, doc: unknown, hints: Hints, name = ""): fc.Arbitrary<unknown> {
  const h = name ? hintedArbitrary(name, hints) : null;
  if (h) return h;
  const s = resolve(schema, doc);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const alts = s.anyOf ?? s.oneOf;
  if (Array.isArray(alts)) return fc.oneof(...alts.map((a) => validValue(a, doc, hints)));
  let arb: fc.Arbitrary<unknown>;
  switch (s.type) {
    case "string":
      arb = fc.string({ maxLength: 30 });
      break;
    case "integer":
      arb = fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 100000 });
      break;
    case "number":
      arb = fc.double({ noNaN: true, noDefaultInfinity: true });
      break;
    case "boolean":
      arb = fc.boolean();
      break;
    case "array":
      arb = fc.array(validValue(s.items ?? {}, doc, hints), { maxLength: 5 });
      break;
    case "object":
    default: {
      const props: Record<string, Schema> = s.properties ?? {};
      if (!Object.keys(props).length) {
        arb = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), {
          maxKeys: 3,
        });
        break;
      }
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, sub] of Object.entries(props)) shape[k] = validValue(sub, doc, hints, k);
      // the fields a handler asks for (not always marked required in the spec) are always there
      const needed = Object.keys(props).filter((k) => (s.required ?? []).includes(k) || NEEDED.has(k));
      arb = fc.record(shape, { requiredKeys: needed });
    }
  }
  return s.nullable ? fc.oneof(fc.constant(null), arb) : arb;
}

type Mutation =
  | { kind: "wrong-type"; key: string; value: unknown }
  | { kind: "extra"; key: string; value: unknown }
  | { kind: "drop" }
  | { kind: "numeric-string" };

/** a valid body with one thing wrong: a field of the wrong type, an unknown field, a required field gone */
export function nearValid(schema: Schema, doc: unknown, hints: Hints): fc.Arbitrary<Record<string, unknown>> {
  const s = resolve(schema, doc);
  const keys = Object.keys(s.properties ?? {});
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    keys.length
      ? fc.record({ kind: fc.constant("wrong-type" as const), key: fc.constantFrom(...keys), value: hostileValue })
      : fc.constant({ kind: "drop" as const }),
    fc.record({
      kind: fc.constant("extra" as const),
      key: fc.constantFrom("bogus", "__proto__", "constructor", "id", "is_superuser", "csrfmiddlewaretoken", ""),
      value: hostileValue,
    }),
    fc.constant({ kind: "drop" as const }),
    fc.constant({ kind: "numeric-string" as const }),
  );
  return fc.tuple(validValue(s, doc, hints) as fc.Arbitrary<Record<string, unknown>>, mutation).map(([body, m]) => {
    const out: Record<string, unknown> = { ...(body ?? {}) };
    if (m.kind === "wrong-type") out[m.key] = m.value;
    else if (m.kind === "extra")
      Object.defineProperty(out, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    else if (m.kind === "drop") delete out[(s.required ?? keys)[0]];
    else for (const [k, v] of Object.entries(out)) if (typeof v === "number") out[k] = String(v);
    return out;
  });
}

/** request body texts JSON.parse or the form reader must refuse or survive */
export const malformedJson = fc.oneof(
  fc.constantFrom(
    '{"a":',
    '{"vlan": 10,}',
    "{'vlan': 10}",
    "\uFEFF{}",
    "null",
    "[]",
    "1",
    '"text"',
    "true",
    "{}{}",
    '{"a":1}garbage',
    "\u0000",
    '{"\\ud800": 1}',
    '{"a":"\\u00"}',
    "NaN",
  ),
  fc.integer({ min: 100, max: 50_000 }).map((n) => "[".repeat(n)),
  fc.integer({ min: 100, max: 10_000 }).map((n) => '{"a":'.repeat(n) + "1" + "}".repeat(n)),
  fc.string({ unit: "binary", maxLength: 60 }),
);

export const malformedForm = fc.constantFrom(
  "vlan=%E0%A4%A",
  "=&=&&",
  "a=1&a=2&a=3",
  "%",
  "vlan[]=1&vlan[]=2",
  "x".repeat(5000) + "=1",
  "state=%00",
  "description=%ED%A0%80",
);

export const contentTypes = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-8",
  "text/plain",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/vnd.api+json",
  "application/json;;;",
  "; charset=utf-8",
  "*/*",
  "",
);
