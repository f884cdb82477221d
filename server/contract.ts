/**
 * The spec as router and validator. openapi-backend (strict, ajv + formats) matches
 * operations and validates requests and responses; a path table built from the same
 * document answers what the spec implies for paths it does not route: 404, 405 with
 * Allow, OPTIONS.
 */
import OpenAPIBackend, { type Document, type Operation } from "openapi-backend";
import addFormats from "ajv-formats";
import { loadSpecDocument } from "../app/spec";

export interface PathEntry {
  template: string;
  regex: RegExp;
  names: string[];
  /** upper-case HTTP methods -> operation */
  methods: Map<string, Operation>;
}

export interface Contract {
  api: OpenAPIBackend;
  document: Document;
  paths: PathEntry[];
  match(pathname: string): { entry: PathEntry; params: Record<string, string> } | null;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The parsed spec is an OpenAPI 3 document with paths. Only the top is looked at here:
 * npm test checks the whole document against the OpenAPI schema (test/unit/spec-lint.test.ts).
 */
function isOpenApiDocument(doc: Record<string, unknown>): doc is Record<string, unknown> & Document {
  const isMapping = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
  return typeof doc.openapi === "string" && /^3\./.test(doc.openapi) && isMapping(doc.info) && isMapping(doc.paths);
}

let cached: Promise<Contract> | null = null;

/** One contract per process: the document never changes at run time. */
export function loadContract(): Promise<Contract> {
  cached ??= buildContract();
  return cached;
}

async function buildContract(): Promise<Contract> {
  const document = loadSpecDocument();
  if (!isOpenApiDocument(document)) throw new Error("spec/openapi.yaml is not an OpenAPI 3 document with paths");
  const api = new OpenAPIBackend({
    definition: structuredClone(document),
    strict: true,
    // quick: no definition check at start (test/unit/spec-lint.test.ts checks the document
    // strictly in npm test) and each operation's validators compiled when first used:
    // start-up in tens of milliseconds instead of seconds
    quick: true,
    validate: true,
    // our paths all end with a slash; the slash rules are applied before matching
    ignoreTrailingSlashes: false,
    // each operation's validators get an Ajv of their own; checking each schema against the
    // JSON Schema meta-schema first compiled that meta-schema again every time (two thirds
    // of a first call's validation work). spec-lint checks the document's schemas instead.
    ajvOpts: { validateSchema: false },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
  await api.init();
  const paths: PathEntry[] = [];
  // the library builds its operation list anew on each call: once here, not once per path and method
  const operations = api.getOperations();
  for (const template of Object.keys(document.paths ?? {})) {
    const names: string[] = [];
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_m, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const methods = new Map<string, Operation>();
    for (const m of HTTP_METHODS) {
      const op = operations.find((o) => o.path === template && o.method === m);
      if (op) methods.set(m.toUpperCase(), op);
    }
    paths.push({ template, regex: new RegExp(`^${pattern}$`), names, methods });
  }
  // literal segments win over parameters (search/ before {group}/)
  paths.sort((a, b) => a.names.length - b.names.length);
  return {
    api,
    document,
    paths,
    match(pathname: string) {
      for (const entry of paths) {
        const m = entry.regex.exec(pathname);
        if (!m) continue;
        const params: Record<string, string> = {};
        for (const [i, n] of entry.names.entries()) {
          const value = decodeSegment(m[i + 1]);
          // a parameter that is not valid percent-encoded UTF-8 names nothing: 404
          if (value === null) return null;
          params[n] = value;
        }
        return { entry, params };
      }
      return null;
    },
  };
}

/** A path segment decoded, or null when its percent-encoding is broken (%ZZ, a lone surrogate) */
function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Methods to list in Allow for a path: its own, HEAD with GET, and always OPTIONS. */
export function allowedMethods(entry: PathEntry): string[] {
  const list = [...entry.methods.keys()].filter((m) => m !== "OPTIONS");
  if (list.includes("GET")) list.push("HEAD");
  list.push("OPTIONS");
  return list;
}
