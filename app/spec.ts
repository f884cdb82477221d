/**
 * The spec document, read once: served at api/schema/ and the source of the router. Read
 * with js-yaml's core schema (YAML 1.2 core, no timestamps or other extras), a fifth of the
 * yaml package's time on this document; test/unit/spec-yaml.test.ts holds the two parsers
 * (and PyYAML) to the same values.
 */
import fs from "node:fs";
import path from "node:path";
import { load, CORE_SCHEMA } from "js-yaml";
import { projectRoot } from "./paths";

let cached: Record<string, unknown> | null = null;

/** The document as parsed (a mapping); the router (server/contract.ts) checks it is an OpenAPI document. */
export function loadSpecDocument(): Record<string, unknown> {
  if (cached) return cached;
  const file = path.join(projectRoot(), "spec", "openapi.yaml");
  // js-yaml's core schema: YAML 1.2 scalars, as the yaml package and PyYAML read this file
  const parsed: unknown = load(fs.readFileSync(file, "utf8"), { schema: CORE_SCHEMA });
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${file} is not a mapping`);
  cached = { ...parsed };
  return cached;
}
