/**
 * Turns ajv's findings on a request into the contract's texts. An operation with one
 * fixed text for any bad body says so in the spec (`x-invalid-reason`); otherwise the
 * text names the parameter, as OpenL2M's scripts expect.
 */
import type { OpenAPIBackend, Operation } from "openapi-backend";
import type { ErrorCode } from "../app/errors";

interface AjvError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  /** what the `required` and `additionalProperties` keywords name (ajv's params of other keywords are not read) */
  params?: { missingProperty?: string; additionalProperty?: string };
}

export interface Verdict {
  status: number;
  code: ErrorCode;
  reason: string;
}

export function validationReason(op: Operation, errors: AjvError[]): Verdict {
  // path parameters that fail their schema mean the resource does not exist
  const pathErr = errors.find((e) => (e.instancePath ?? "").startsWith("/path"));
  if (pathErr) return { status: 404, code: "not_found", reason: "Not found" };
  const fixed = invalidReason(op);
  const first = errors[0] ?? {};
  const where = (first.instancePath ?? "").split("/").filter(Boolean);
  const section = where[0] ?? "";
  let name = first.params?.missingProperty ?? first.params?.additionalProperty ?? where[1] ?? "";
  if (section === "query") {
    name = where[1] ?? first.params?.missingProperty ?? "";
    return { status: 400, code: "invalid_parameter", reason: `Invalid query parameter: '${name}'` };
  }
  if (fixed)
    return {
      status: 400,
      code: first.keyword === "required" ? "missing_parameter" : "invalid_parameter",
      reason: fixed,
    };
  if (first.keyword === "additionalProperties") {
    return { status: 400, code: "invalid_parameter", reason: `Unknown parameter: '${name}'` };
  }
  if (first.keyword === "required") {
    return { status: 400, code: "missing_parameter", reason: `Missing or invalid required parameter: '${name}'` };
  }
  if (!name) return { status: 400, code: "invalid_parameter", reason: "Missing or invalid request body" };
  // anyOf reports every branch; the outer failure reads best
  const anyOf = errors.find((e) => e.keyword === "anyOf" && e.instancePath === first.instancePath);
  const detail = anyOf ? "wrong type" : (first.message ?? "invalid");
  return { status: 400, code: "invalid_parameter", reason: `Invalid value for parameter '${name}': ${detail}` };
}

/** the operation's one text for any bad body (the spec's `x-invalid-reason`), if it has one */
function invalidReason(op: Operation): string | undefined {
  if (!("x-invalid-reason" in op)) return undefined;
  const reason = op["x-invalid-reason"];
  return typeof reason === "string" ? reason : undefined;
}

/**
 * The query parameters the operation declares (the last value of each); any other
 * parameter (`?format=json` from a DRF client, a cache buster) is ignored, as OpenL2M does.
 */
export function declaredQuery(op: Operation, params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of (op.parameters ?? []) as Array<{ in?: string; name?: string }>) {
    if (p.in !== "query" || !p.name) continue;
    const all = params.getAll(p.name);
    if (all.length) out[p.name] = all[all.length - 1];
  }
  return out;
}

/** What the shell has read of a request by the time it is validated. */
export interface RequestParts {
  /** the path parameters as matched, still text (the validators coerce their own copy) */
  path: Record<string, string>;
  /** declaredQuery's result */
  query: Record<string, string>;
  headers: NodeJS.Dict<string | string[]>;
  /** the media type the body is read as */
  contentType: string;
  body: unknown;
}

/**
 * Ajv's findings on a request, from the operation's validators as openapi-backend built them
 * (its validateRequest runs the same ones), on the parameters as the shell already has them.
 * validateRequest would first parse the request again: the path against its template (a
 * RegExp built per call), the query (a deep copy), the headers and cookies (lodash), about
 * a fortieth of the service's CPU per call of the load row (docs/performance.md). The spec
 * declares no header or cookie parameters; the shell's own path match decodes segments as
 * the library's did (test/unit/request-validation.test.ts holds the two to the same verdicts).
 */
export function requestErrors(api: OpenAPIBackend, op: Operation, parts: RequestParts): AjvError[] {
  const validators = api.validator.getRequestValidatorsForOperation(op.operationId!) ?? [];
  const query: Record<string, string | string[]> = { ...parts.query };
  for (const p of (op.parameters ?? []) as Array<{ in?: string; name?: string; schema?: { type?: unknown } }>)
    if (p.in === "query" && p.name && typeof query[p.name] === "string" && p.schema?.type === "array")
      query[p.name] = [query[p.name] as string];
  const parameters: Record<string, unknown> = {
    path: { ...parts.path },
    query,
    // Node's header names are lower case already; a copy, as the validators may coerce
    header: { ...parts.headers, "content-type": parts.contentType },
    cookie: {},
  };
  if (typeof parts.body === "object" || parts.contentType === "application/json") parameters.requestBody = parts.body;
  const errors: AjvError[] = [];
  for (const validate of validators) {
    validate(parameters);
    if (validate.errors) errors.push(...validate.errors);
  }
  return errors;
}
