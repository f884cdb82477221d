/**
 * The spec document, read once: served at api/schema/ and the source of the router. Read
 * with js-yaml's core schema (YAML 1.2 core, no timestamps or other extras), a fifth of the
 * yaml package's time on this document; test/unit/spec-yaml.test.ts holds the two parsers
 * (and PyYAML) to the same values. `npm run generate` keeps that parse in
 * generated/openapi.json with the hash of the YAML it came from (scripts/spec-json.js):
 * while the hash matches, the JSON is read instead (about a hundredth of the YAML's
 * parsing time, which every service start and every test suite paid); otherwise the YAML.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { load, CORE_SCHEMA } from "js-yaml";
import { projectRoot } from "./paths";

let cached: Record<string, unknown> | null = null;

/** The document as parsed (a mapping); the router (server/contract.ts) checks it is an OpenAPI document. */
export function loadSpecDocument(): Record<string, unknown> {
  if (cached) return cached;
  const file = path.join(projectRoot(), "spec", "openapi.yaml");
  const yaml = fs.readFileSync(file, "utf8");
  // js-yaml's core schema: YAML 1.2 scalars, as the yaml package and PyYAML read this file
  const parsed: unknown = parsedBefore(yaml) ?? load(yaml, { schema: CORE_SCHEMA });
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${file} is not a mapping`);
  cached = { ...parsed };
  return cached;
}

/** generated/openapi.json's document when it was made from exactly this YAML text, else null */
function parsedBefore(yaml: string): unknown {
  let stored: unknown;
  try {
    stored = JSON.parse(fs.readFileSync(path.join(projectRoot(), "generated", "openapi.json"), "utf8"));
  } catch {
    return null;
  }
  if (typeof stored !== "object" || stored === null || !("yaml_sha256" in stored) || !("document" in stored))
    return null;
  const sha256 = crypto.createHash("sha256").update(yaml).digest("hex");
  return stored.yaml_sha256 === sha256 ? stored.document : null;
}
