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

let cached: Record<string, any> | null = null;

export function loadSpecDocument(): Record<string, any> {
  cached ??= load(fs.readFileSync(path.join(projectRoot(), "spec", "openapi.yaml"), "utf8"), {
    schema: CORE_SCHEMA,
  }) as NonNullable<typeof cached>;
  return cached!;
}
