// Fails when generated/ is stale: regenerates the types from spec/openapi.yaml into a
// temporary file and compares it with the committed one, and the parsed spec
// (generated/openapi.json, scripts/spec-json.js) likewise.
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const tmp = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-gen-")), "api.ts");
execFileSync(
  process.execPath,
  [path.join(root, "node_modules", "openapi-typescript", "bin", "cli.js"), "spec/openapi.yaml", "-o", tmp],
  { cwd: root, stdio: "ignore" },
);
const fresh = fs.readFileSync(tmp, "utf8");
const committed = fs.existsSync(path.join(root, "generated/api.ts"))
  ? fs.readFileSync(path.join(root, "generated/api.ts"), "utf8")
  : "";
fs.rmSync(path.dirname(tmp), { recursive: true, force: true });
if (fresh !== committed) {
  console.error("generated/api.ts is stale: run `npm run generate` and commit the result.");
  process.exit(1);
}
const specJson = require("./spec-json");
if (!fs.existsSync(specJson.file) || fs.readFileSync(specJson.file, "utf8") !== specJson.specJson()) {
  console.error("generated/openapi.json is stale: run `npm run generate` and commit the result.");
  process.exit(1);
}
console.log("generated/api.ts and generated/openapi.json match spec/openapi.yaml");
