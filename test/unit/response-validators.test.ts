/**
 * The run's compiled response validators (test/support/response-validators.ts), which
 * check every answer the API suites see, judge as the service's own OpenAPI library does:
 * on every example answer the spec gives, and on each of those examples broken (a member
 * it does not allow, a required member left out, a member of the wrong type), both agree.
 */
import { loadContract } from "../../server/contract";
import { loadSpecDocument } from "../../app/spec";
import { responseErrors, responseValidator } from "../support/response-validators";
import { resolvePointer } from "../support/json-pointer";

interface Example {
  operationId: string;
  status: number;
  value: unknown;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

function deref(document: Json, value: unknown): unknown {
  const ref = isObject(value) ? value.$ref : undefined;
  return typeof ref === "string" ? resolvePointer(document, ref) : value;
}

/** every example value of a JSON answer in the spec, with its operation and status */
function examples(document: Json): Example[] {
  const out: Example[] = [];
  for (const item of Object.values(document.paths as Json)) {
    for (const op of Object.values(item as Json)) {
      if (!isObject(op) || typeof op.operationId !== "string" || !isObject(op.responses)) continue;
      for (const [status, given] of Object.entries(op.responses)) {
        if (!/^\d{3}$/.test(status)) continue;
        const json = (deref(document, given) as { content?: Json } | undefined)?.content?.["application/json"];
        if (!isObject(json)) continue;
        const values = [
          ...("example" in json ? [json.example] : []),
          ...Object.values(isObject(json.examples) ? json.examples : {}).map((e) => (deref(document, e) as Json).value),
        ];
        for (const value of values) out.push({ operationId: op.operationId, status: Number(status), value });
      }
    }
  }
  return out;
}

/** the example broken in the ways a wrong answer would be */
function broken(value: unknown): unknown[] {
  if (!isObject(value)) return [];
  const keys = Object.keys(value);
  const out: unknown[] = [{ ...value, not_in_the_spec: 1 }];
  if (keys.length > 0) {
    const [first, ...rest] = keys;
    out.push(Object.fromEntries(rest.map((k) => [k, value[k]])));
    out.push({ ...value, [first]: typeof value[first] === "string" ? 12345 : "text" });
  }
  return out;
}

describe("compiled response validators", () => {
  const document = loadSpecDocument();
  const all = examples(document);

  it("find the spec's example answers to check", () => {
    expect(all.length).toBeGreaterThan(30);
  });

  it("agree with the OpenAPI library on every example answer and on broken copies of it", async () => {
    const contract = await loadContract();
    let disagreements: string[] = [];
    let rejected = 0;
    for (const ex of all) {
      for (const body of [ex.value, ...broken(ex.value)]) {
        const theirs = contract.api.validateResponse(body, ex.operationId, ex.status).valid;
        const ours = responseErrors(ex.operationId, ex.status, body) === null;
        if (!ours) rejected++;
        if (theirs !== ours)
          disagreements.push(
            `${ex.operationId} ${ex.status}: library ${theirs}, compiled ${ours}: ${JSON.stringify(body)}`,
          );
      }
    }
    disagreements = disagreements.slice(0, 10);
    expect(disagreements).toEqual([]);
    // the broken copies are mostly refused: the check can fail
    expect(rejected).toBeGreaterThan(all.length);
  });

  it("refuses an error answer without a code, or with a code the spec does not list", () => {
    expect(responseErrors("createToken", 400, { reason: "x", code: "invalid_parameter" })).toBeNull();
    expect(responseErrors("createToken", 400, { reason: "x" })?.[0]?.params).toEqual({ missingProperty: "code" });
    expect(responseErrors("createToken", 400, { reason: "x", code: "no_such_code" })).not.toBeNull();
  });

  it("has no validator for an answer the spec gives no JSON schema", () => {
    expect(responseValidator("createToken", 299)).toBeNull();
    expect(responseValidator("noSuchOperation", 200)).toBeNull();
  });
});
