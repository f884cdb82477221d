/** The spec document, read once: served at api/schema/ and the source of the router. */
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { projectRoot } from "./paths";

let cached: Record<string, any> | null = null;

export function loadSpecDocument(): Record<string, any> {
  cached ??= YAML.parse(fs.readFileSync(path.join(projectRoot(), "spec", "openapi.yaml"), "utf8"));
  return cached!;
}
