/** The spec document, read once: served at api/schema/ and the source of the router. */
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { projectRoot } from "./paths";

let cached: Record<string, unknown> | null = null;

/** The document as parsed (a mapping); the router (server/contract.ts) checks it is an OpenAPI document. */
export function loadSpecDocument(): Record<string, unknown> {
  if (cached) return cached;
  const file = path.join(projectRoot(), "spec", "openapi.yaml");
  const parsed: unknown = YAML.parse(fs.readFileSync(file, "utf8"));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${file} is not a mapping`);
  cached = { ...parsed };
  return cached;
}
