// generated/openapi.json: spec/openapi.yaml as parsed (js-yaml's core schema, as
// app/spec.ts reads it), with the SHA-256 of the YAML text it came from. The service and
// every test process read this instead of parsing the YAML (a hundredth of the time), and
// only while the hash matches the YAML beside it; `npm run generate` writes it and
// `npm run check:generated` fails when it is stale.
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { load, CORE_SCHEMA } = require("js-yaml");

const root = path.resolve(__dirname, "..");

/** the file's text for the spec as it is now */
function specJson() {
  const yaml = fs.readFileSync(path.join(root, "spec", "openapi.yaml"), "utf8");
  const sha256 = crypto.createHash("sha256").update(yaml).digest("hex");
  return `${JSON.stringify({ yaml_sha256: sha256, document: load(yaml, { schema: CORE_SCHEMA }) })}\n`;
}

module.exports = { specJson, file: path.join(root, "generated", "openapi.json") };

if (require.main === module) fs.writeFileSync(module.exports.file, specJson());
