/**
 * Requests the API fuzzer sends: one operation of the spec (or its path with a method it
 * does not have), odd path parameters, a caller (none, a bad token, the superuser, a
 * read-only user, a web session with or without its CSRF token), a query, an Accept
 * header and a body (valid, near-valid, hostile, malformed, in JSON, in a form or raw
 * with any Content-Type). Ids are chosen when the request is sent (see World), so the
 * same seed gives the same requests whatever the fuzzer created before.
 */
import fc from "fast-check";
import {
  contentTypes,
  hostileValue,
  malformedForm,
  malformedJson,
  nearValid,
  validValue,
  type Hints,
  type Schema,
} from "./values";

export interface OpInfo {
  method: string;
  template: string;
  operationId: string;
  params: string[];
  bodySchema: Schema | null;
}

export type Auth =
  | "none"
  | "bad-token"
  | "malformed-auth"
  | "superuser"
  | "read-only"
  | "session"
  | "session-form-csrf"
  | "session-no-csrf"
  | "session-bad-csrf";

/** a path parameter: one of the world's ids (written oddly, perhaps), or a literal already encoded for the URL */
export type Param = { pick: number; style: "plain" | "zeros" | "percent" } | { literal: string };

export type BodySpec =
  | { kind: "none" }
  | { kind: "json"; value: unknown; contentType?: string }
  | { kind: "form"; value: Record<string, unknown> }
  | { kind: "raw"; text: string; contentType?: string };

export interface FuzzRequest {
  op: OpInfo;
  /** the method sent: the operation's own, or another (405, OPTIONS, HEAD) */
  method: string;
  params: Record<string, Param>;
  /** how the path ends: as the spec says, without its slash, or with junk */
  tail: "" | "no-slash" | "double-slash" | "dot-segment";
  query: string;
  auth: Auth;
  accept: string | null;
  body: BodySpec;
}

const ODD_IDS = [
  "0",
  "-1",
  "+1",
  "1.0",
  "1e0",
  "0x1",
  "99999999999",
  "1".repeat(300),
  "%2F",
  "a%2Fb",
  "%ZZ",
  "%E0%A4%A",
  "%ED%A0%80",
  "%00",
  "%20",
  "abc",
  "%F0%9F%98%80",
  "..",
  "%2e%2e",
  "null",
  "%E2%80%AE1",
];
const ODD_TEXT = [
  "%2F",
  "a%2Fb",
  "%ZZ",
  "%ED%A0%80",
  "%00",
  "%E2%80%AE",
  "..",
  "x".repeat(3000),
  "%25",
  "%C0%AF",
  "a%3Fb%23c",
];

function paramArb(name: string): fc.Arbitrary<Param> {
  const pick = fc.record({
    pick: fc.nat(1000),
    style: fc.constantFrom("plain" as const, "plain" as const, "plain" as const, "zeros" as const, "percent" as const),
  });
  if (name === "text") {
    return fc.oneof(
      pick,
      fc
        .string({ unit: "grapheme", maxLength: 30 })
        .filter((s) => s.length > 0)
        .map((s) => ({ literal: encodeURIComponent(s) })),
      fc.constantFrom(...ODD_TEXT).map((literal) => ({ literal })),
    );
  }
  return fc.oneof(
    { weight: 4, arbitrary: pick },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_IDS).map((literal) => ({ literal })) },
  );
}

const QUERIES = [
  "",
  "",
  "",
  "?page=2",
  "?page=0",
  "?page=abc",
  "?page_size=501",
  "?page_size=1&page=99999",
  "?switch=1&user=1",
  "?user=%ZZ",
  "?format=json",
  "?a=%ED%A0%80",
  "?page=1&page=2",
  "?" + "q=1&".repeat(500),
  "?__proto__=1",
  // GET api/switches/find/ (the others ignore them): found, narrowed, refused
  "?address=000c.2900.0000",
  "?address=127.0.0.1&group=1",
  "?address=00-0C-29-00-00-01&switches=1,2,99",
  "?address=00:0c:29",
];

function authArb(): fc.Arbitrary<Auth> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Auth>("superuser") },
    { weight: 2, arbitrary: fc.constantFrom<Auth>("session", "session-form-csrf") },
    { weight: 2, arbitrary: fc.constant<Auth>("read-only") },
    {
      weight: 3,
      arbitrary: fc.constantFrom<Auth>("none", "bad-token", "malformed-auth", "session-no-csrf", "session-bad-csrf"),
    },
  );
}

function bodyArb(op: OpInfo, doc: unknown, hints: Hints): fc.Arbitrary<BodySpec> {
  const schema = op.bodySchema ?? { type: "object", properties: {} };
  const anyObject = fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { maxKeys: 4 });
  const asForm = (v: unknown): BodySpec => ({
    kind: "form",
    value: (v && typeof v === "object" && !Array.isArray(v) ? v : { value: v }) as Record<string, unknown>,
  });
  const arbs: Array<{ weight: number; arbitrary: fc.Arbitrary<BodySpec> }> = [
    { weight: 5, arbitrary: validValue(schema, doc, hints).map((value) => ({ kind: "json" as const, value })) },
    { weight: 3, arbitrary: validValue(schema, doc, hints).map(asForm) },
    { weight: 4, arbitrary: nearValid(schema, doc, hints).map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: nearValid(schema, doc, hints).map(asForm) },
    { weight: 1, arbitrary: anyObject.map((value) => ({ kind: "json" as const, value })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validValue(schema, doc, hints), contentTypes)
        .map(([value, contentType]) => ({ kind: "json" as const, value, contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(malformedJson, fc.constantFrom("application/json", "application/json; charset=utf-8"))
        .map(([text, contentType]) => ({ kind: "raw" as const, text, contentType })),
    },
    {
      weight: 1,
      arbitrary: malformedForm.map((text) => ({
        kind: "raw" as const,
        text,
        contentType: "application/x-www-form-urlencoded",
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 40 }), fc.option(contentTypes, { nil: undefined }))
        .map(([text, contentType]) => ({ kind: "raw" as const, text, contentType })),
    },
    {
      weight: 1,
      // no body, or (rarely: megabytes each) one twice MAX_BODY_BYTES
      arbitrary: fc.oneof(
        { weight: 19, arbitrary: fc.constant({ kind: "none" as const }) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom("application/json", "application/x-www-form-urlencoded", "text/plain")
            .map((contentType) => ({
              kind: "raw" as const,
              text: `{"description":"${"x".repeat(2 * hints.maxBodyBytes)}"}`,
              contentType,
            })),
        },
      ),
    },
  ];
  if (!op.bodySchema) arbs.push({ weight: 8, arbitrary: fc.constant({ kind: "none" as const }) });
  return fc.oneof(...arbs);
}

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"];

/** one request for one operation */
export function requestArb(op: OpInfo, doc: unknown, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const params: Record<string, fc.Arbitrary<Param>> = {};
  for (const p of op.params) params[p] = paramArb(p);
  return fc.record({
    op: fc.constant(op),
    method: fc.oneof(
      { weight: 12, arbitrary: fc.constant(op.method) },
      { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
    ),
    params: fc.record(params),
    tail: fc.oneof(
      { weight: 20, arbitrary: fc.constant("" as const) },
      { weight: 1, arbitrary: fc.constantFrom("no-slash" as const, "double-slash" as const, "dot-segment" as const) },
    ),
    query: fc.constantFrom(...QUERIES),
    auth: authArb(),
    accept: fc.constantFrom(
      "application/json",
      "application/json",
      "application/json",
      "text/html,application/xhtml+xml",
      "*/*",
      null,
    ),
    body: bodyArb(op, doc, hints),
  });
}

/** The parts of an operation of the spec document that operationsOf reads. */
interface OperationNode {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: Schema } | undefined> };
}

/** the spec's operations, in the order of the document (the parsed spec/openapi.yaml) */
export function operationsOf(doc: unknown): OpInfo[] {
  const out: OpInfo[] = [];
  const paths = (doc as { paths?: Record<string, Record<string, OperationNode | undefined>> } | null)?.paths ?? {};
  for (const [template, item] of Object.entries(paths)) {
    for (const m of ["get", "post", "put", "patch", "delete"]) {
      const op = item[m];
      if (!op?.operationId) continue;
      out.push({
        method: m.toUpperCase(),
        template,
        operationId: op.operationId,
        params: [...template.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]),
        bodySchema: op.requestBody?.content?.["application/json"]?.schema ?? null,
      });
    }
  }
  return out;
}
