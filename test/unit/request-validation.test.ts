/**
 * The shell validates a request by running the operation's validators on the parameters it
 * has already read (server/validation.ts requestErrors), not through openapi-backend's
 * validateRequest, which parses the request again. Both must find the same faults: for
 * every operation of the spec, with good and bad path ids, query values, and bodies (the
 * spec's examples, and copies with an unknown member, a member left out, a wrong type).
 */
import { loadContract, type Contract } from "../../server/contract";
import { requestErrors } from "../../server/validation";
import type { Operation } from "openapi-backend";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);

interface Case {
  op: Operation;
  pathname: string;
  query: Record<string, string>;
  body: unknown;
  contentType: string;
}

/** the faults as the contract's texts read them: where, which rule, what was named */
function verdicts(errors: readonly { instancePath?: string; keyword?: string; params?: unknown }[]): string[] {
  return errors
    .map((e) => `${e.instancePath ?? ""} ${e.keyword ?? ""} ${JSON.stringify(e.params ?? {})}`)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function pathParams(op: Operation): { name: string; type: unknown }[] {
  return ((op.parameters ?? []) as { in?: string; name?: string; schema?: { type?: unknown } }[])
    .filter((p) => p.in === "path" && typeof p.name === "string")
    .map((p) => ({ name: p.name!, type: p.schema?.type }));
}

function queryNames(op: Operation): string[] {
  return ((op.parameters ?? []) as { in?: string; name?: string }[])
    .filter((p) => p.in === "query" && typeof p.name === "string")
    .map((p) => p.name!);
}

/** the request's bodies to try: none, empty, the spec's examples, and each example broken */
function bodies(op: Operation): unknown[] {
  const json = (op.requestBody as { content?: Json } | undefined)?.content?.["application/json"];
  const examples: unknown[] = [];
  if (isObject(json)) {
    if ("example" in json) examples.push(json.example);
    if (isObject(json.examples)) for (const e of Object.values(json.examples)) if (isObject(e)) examples.push(e.value);
  }
  const out: unknown[] = [undefined, {}, ...examples];
  for (const value of examples) {
    if (!isObject(value)) continue;
    const [first, ...rest] = Object.keys(value);
    out.push({ ...value, not_in_the_spec: 1 });
    if (first !== undefined) {
      out.push(Object.fromEntries(rest.map((k) => [k, value[k]])));
      out.push({ ...value, [first]: typeof value[first] === "string" ? 12345 : "text" });
      out.push({ ...value, [first]: null });
    }
  }
  return out;
}

function cases(contract: Contract): Case[] {
  const out: Case[] = [];
  for (const entry of contract.paths) {
    for (const op of entry.methods.values()) {
      const params = pathParams(op);
      // each path parameter good, then each in turn text where a number is asked, or empty-ish
      const pathValues: Record<string, string>[] = [Object.fromEntries(params.map((p) => [p.name, "7"]))];
      for (const p of params) {
        pathValues.push({ ...pathValues[0], [p.name]: "x y" });
        pathValues.push({ ...pathValues[0], [p.name]: "1001" });
      }
      const queries: Record<string, string>[] = [{}];
      for (const name of queryNames(op)) {
        queries.push({ [name]: "12" });
        queries.push({ [name]: "not-a-number" });
        queries.push({ [name]: "" });
      }
      for (const values of pathValues) {
        const pathname = entry.template.replace(/\{([^}]+)\}/g, (_m, n: string) => encodeURIComponent(values[n]));
        for (const query of queries)
          for (const body of bodies(op))
            for (const contentType of body === undefined ? ["", "application/json"] : ["application/json"])
              out.push({ op, pathname, query, body, contentType });
      }
    }
  }
  return out;
}

describe("request validation on the shell's parameters", () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract();
  });

  it("finds what openapi-backend's validateRequest finds, on every operation", () => {
    const all = cases(contract);
    let compared = 0;
    let faulty = 0;
    const disagreements: string[] = [];
    for (const c of all) {
      const hit = contract.match(c.pathname);
      // a value that makes another path match (a literal segment) is not this operation's case
      if (!hit || ![...hit.entry.methods.values()].includes(c.op)) continue;
      const ours = requestErrors(contract.api, c.op, {
        path: hit.params,
        query: c.query,
        headers: { accept: "application/json" },
        contentType: c.contentType,
        body: c.body,
      });
      const theirs = contract.api.validateRequest(
        {
          method: c.op.method,
          path: c.pathname,
          query: { ...c.query },
          headers: { accept: "application/json", "content-type": c.contentType },
          body: c.body,
        },
        c.op,
      ).errors;
      compared++;
      if (ours.length) faulty++;
      const a = verdicts(ours);
      const b = verdicts(theirs ?? []);
      if (JSON.stringify(a) !== JSON.stringify(b))
        disagreements.push(`${c.op.operationId} ${c.pathname} ${JSON.stringify(c.query)} ${JSON.stringify(c.body)}`);
    }
    expect(disagreements).toEqual([]);
    // the cases reach every kind of fault: both good and refused requests were compared
    expect(compared).toBeGreaterThan(1000);
    expect(faulty).toBeGreaterThan(compared / 10);
    expect(faulty).toBeLessThan(compared);
  });

  it("leaves the shell's own query and path values as they were (the validators coerce a copy)", () => {
    const entry = contract.paths.find((e) => [...e.methods.values()].some((op) => queryNames(op).length > 0))!;
    const op = [...entry.methods.values()].find((o) => queryNames(o).length > 0)!;
    const query = Object.fromEntries(queryNames(op).map((n) => [n, "12"]));
    const path: Record<string, string> = Object.fromEntries(pathParams(op).map((p) => [p.name, "7"]));
    requestErrors(contract.api, op, { path, query, headers: {}, contentType: "", body: undefined });
    for (const v of [...Object.values(query), ...Object.values(path)]) expect(typeof v).toBe("string");
  });
});
