/**
 * spec/openapi.yaml is read by other YAML parsers than the service's (js-yaml, app/spec.ts):
 * client generators in Python use PyYAML (YAML 1.1), others strict YAML 1.2 parsers such
 * as the yaml package. The document must parse in each without an error or a warning and
 * mean the same in each (YAML 1.1 reads a bare yes, on or 1:30 differently, and PyYAML
 * refuses some plain scalars in flow mappings, such as one holding "?)").
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { load, CORE_SCHEMA } from "js-yaml";
import { loadSpecDocument } from "../../app/spec";

const specPath = path.resolve(__dirname, "../../spec/openapi.yaml");
const text = fs.readFileSync(specPath, "utf8");
/** the document as the service reads it */
const asServed = loadSpecDocument();

const PYTHON = "/usr/bin/python3";
const havePyYaml = fs.existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import yaml"], { stdio: "ignore" }).status === 0;
// without PyYAML the check is reported as skipped, never as passed; CI installs python3-yaml
const withPyYaml = havePyYaml || process.env.CI ? it : it.skip;
if (!havePyYaml && !process.env.CI)
  console.warn(`spec-yaml: ${PYTHON} with PyYAML (python3-yaml) is missing: the PyYAML check is skipped`);

describe("the spec parses the same in other YAML parsers", () => {
  it("as the service reads it (generated/openapi.json while its hash matches): js-yaml's parse of the YAML", () => {
    expect(asServed).toEqual(load(text, { schema: CORE_SCHEMA }));
  });

  it("in strict YAML 1.2 (the yaml package): one document, no errors, no warnings, no duplicate keys", () => {
    const docs = YAML.parseAllDocuments(text, { strict: true, uniqueKeys: true, prettyErrors: true });
    expect(Array.isArray(docs) ? docs.length : 0).toBe(1);
    const doc = (docs as YAML.Document.Parsed[])[0];
    expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
    expect(doc.toJS()).toEqual(asServed);
  });

  it("as YAML 1.1 (the yaml package's 1.1 schema): the same values", () => {
    const doc = YAML.parseDocument(text, { version: "1.1", strict: true, uniqueKeys: true });
    expect([...doc.errors, ...doc.warnings].map((e) => e.message)).toEqual([]);
    expect(doc.toJS()).toEqual(asServed);
  });

  withPyYaml("in PyYAML (safe_load): no error, the same values", () => {
    // dates would come back as date objects: none are expected, so they are not converted
    const script = "import json, sys, yaml\njson.dump(yaml.safe_load(open(sys.argv[1], encoding='utf-8')), sys.stdout)";
    const r = spawnSync(PYTHON, ["-c", script, specPath], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: "" });
    expect(JSON.parse(r.stdout)).toEqual(asServed);
  });
});
