/**
 * The spec's response schemas as validators compiled once for a whole test run.
 *
 * Jest gives every suite its own modules, so validators compiled in memory are compiled
 * again in the next suite: with the library's per-operation compile (every status of an
 * operation, each with its referenced schemas inlined) that was about a fifth of an API
 * suite's CPU. Here one Ajv compiles every (operation, status) schema once, with the
 * components shared, into a module of plain JavaScript (Ajv's standalone code) kept under
 * node_modules/.cache; every later suite of the run, and of later runs while the spec and
 * this file are unchanged, only loads it. The schemas are the document's own (refs into
 * components/schemas), with the options the service's validators use (strict off, the
 * OpenAPI formats of ajv-formats), so an answer passes here exactly when it matches the spec.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Ajv, { _, type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import standaloneCode from "ajv/dist/standalone";
import { loadSpecDocument } from "../../app/spec";
import { HTTP_METHODS } from "../../server/contract";
import { pointerToken as token, resolvePointer } from "./json-pointer";

export type Validate = ((body: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** the compiled module: a validator per schema, and which one checks each "operationId status" */
type Compiled = Record<string, Validate> & { byResponse: Record<string, string> };

const root = path.resolve(__dirname, "..", "..");

/** "operationId status" -> the pointer of its JSON response schema in the document */
function responseSchemas(document: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [template, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method] as { operationId?: string; responses?: Record<string, unknown> } | undefined;
      if (!op?.operationId) continue;
      for (const [status, given] of Object.entries(op.responses ?? {})) {
        // a response is written out or a $ref to one of components/responses
        const ref = (given as { $ref?: unknown }).$ref;
        const at = typeof ref === "string" ? ref : `#/paths/${token(template)}/${method}/responses/${token(status)}`;
        const response = typeof ref === "string" ? resolvePointer(document, ref) : given;
        const content = (response as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
        if (!content?.["application/json"]?.schema) continue;
        out.set(`${op.operationId} ${status}`, `${at}/content/application~1json/schema`);
      }
    }
  }
  return out;
}

function compileModule(document: Record<string, unknown>): string {
  const ajv = new Ajv({
    strict: false,
    validateSchema: false,
    allErrors: false,
    // every referenced schema one shared function, not a copy in each validator that uses it
    inlineRefs: false,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  ajv.addSchema(document, "spec");
  // one validator per schema: many answers are the same shared response (405, 413, 503...)
  const ids = new Map<string, string>();
  const byResponse: Record<string, string> = {};
  for (const [key, pointer] of responseSchemas(document)) {
    let id = ids.get(pointer);
    if (!id) {
      id = `r${ids.size}`;
      ajv.addSchema({ $ref: `spec${pointer}` }, id);
      ids.set(pointer, id);
    }
    byResponse[key] = id;
  }
  const code = standaloneCode(ajv, Object.fromEntries([...ids.values()].map((id) => [id, id])));
  return `${code}\nexports.byResponse = ${JSON.stringify(byResponse)};\n`;
}

/** the cached module's file: named by what it is compiled from (the spec, Ajv, this file) */
function moduleFile(specText: string): string {
  const hash = crypto
    .createHash("sha256")
    .update(specText)
    .update(fs.readFileSync(require.resolve("ajv/package.json")))
    .update(fs.readFileSync(__filename))
    .digest("hex")
    .slice(0, 16);
  const dir = path.join(root, "node_modules", ".cache", "switchdesk-test");
  return path.join(dir, `response-validators-${hash}.js`);
}

let loaded: Compiled | null = null;

function validators(): Compiled {
  if (loaded) return loaded;
  const specText = fs.readFileSync(path.join(root, "spec", "openapi.yaml"), "utf8");
  const file = moduleFile(specText);
  if (!fs.existsSync(file)) {
    const code = compileModule(loadSpecDocument());
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // whole or not at all: workers of the run may write it at the same time
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module written at run time, by name
  loaded = require(file) as Compiled;
  return loaded;
}

/**
 * The validator of an operation's answer with this status (the status itself, then its
 * class "4XX", then "default"), or null when the spec gives that answer no JSON schema.
 */
export function responseValidator(operationId: string, status: number): Validate | null {
  const all = validators();
  const id =
    all.byResponse[`${operationId} ${status}`] ??
    all.byResponse[`${operationId} ${Math.floor(status / 100)}XX`] ??
    all.byResponse[`${operationId} default`];
  return id === undefined ? null : all[id];
}

/** The errors of an answer's body against its schema, or null when it matches (or has none). */
export function responseErrors(operationId: string, status: number, body: unknown): ErrorObject[] | null {
  const validate = responseValidator(operationId, status);
  if (!validate || validate(body)) return null;
  return validate.errors ?? [];
}
