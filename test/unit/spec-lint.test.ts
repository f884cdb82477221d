import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { CAPABILITY_FLAGS, capabilityOf } from "../../model/capabilities";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import OpenAPIBackend from "openapi-backend";
import { resolvePointer } from "../support/json-pointer";

/**
 * spec/openapi.yaml routes and validates every request and response of the server, and
 * generates the client types. A mistake in it shows up to users as a route that 404s, a
 * valid request refused, or a generated client that does not compile; this file catches
 * those mistakes before the server is even started.
 */

const specPath = path.resolve(__dirname, "../../spec/openapi.yaml");

/** A node of the parsed YAML as yaml's parse gives it: untyped; the assertions below check its shape. */
type Json = ReturnType<typeof YAML.parse>;
const METHODS = ["get", "post", "patch", "put", "delete"] as const;

interface Op {
  method: string;
  path: string;
  op: Json;
  pathItem: Json;
}

function operationsOf(doc: Json): Op[] {
  const ops: Op[] = [];
  for (const [p, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      if (item[method]) ops.push({ method, path: p, op: item[method], pathItem: item });
    }
  }
  return ops;
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

/** A response object with its $ref followed (one level is all the spec uses). */
function deref(doc: Json, node: Json): Json {
  return node && typeof node.$ref === "string" ? (resolvePointer(doc, node.$ref) as Json) : node;
}

function examplesOf(media: Json): unknown[] {
  const list: unknown[] = [];
  if (media.example !== undefined) list.push(media.example);
  for (const ex of Object.values<Json>(media.examples ?? {})) list.push(ex.value);
  return list;
}

const EXPECTED_OPERATION_IDS = [
  // the helpdesk writes (issue 20): switchdesk's own paths
  "runPortBatch",
  "bounceInterface",
  "cycleInterfacePoe",
  "apiRoot",
  "getSchema",
  "getEnvironment",
  "getStats",
  "getMenu",
  "searchSwitch",
  "findAddress",
  "getSwitchBasic",
  "getSwitchDetails",
  "setInterfaceVlan",
  "setInterfaceState",
  "setInterfacePoe",
  "setInterfaceDescription",
  "setInterfaceTags",
  "saveConfig",
  "addVlan",
  "editVlan",
  "deleteVlan",
  "createToken",
  "listTokens",
  "revokeToken",
  "adminRoot",
  "listLog",
  "unlockUser",
  "redetectAdminSwitch",
  "acceptHostKeyAdminSwitch",
  "acceptCertificateAdminSwitch",
  "getHealth",
  "getMetrics",
  ...[
    ["Users", "User"],
    ["SnmpProfiles", "SnmpProfile"],
    ["Credentials", "Credential"],
    ["SwitchGroups", "SwitchGroup"],
    ["AdminSwitches", "AdminSwitch"],
    // OpenL2M's paths (api/admin/switches/...); the three above are their aliases
    ["AdminSnmpProfiles", "AdminSnmpProfile"],
    ["NetmikoProfiles", "NetmikoProfile"],
    ["AdminSwitchGroups", "AdminSwitchGroup"],
  ].flatMap(([plural, one]) => [
    `list${plural}`,
    `create${one}`,
    `get${one}`,
    `update${one}`,
    `patch${one}`,
    `delete${one}`,
  ]),
];

/** POST actions that take no body: the path names everything. */
const BODYLESS_ACTIONS = [
  "unlockUser",
  "redetectAdminSwitch",
  "acceptHostKeyAdminSwitch",
  "acceptCertificateAdminSwitch",
];

// The fixed texts the handlers answer for any bad body of these operations.
const INVALID_REASONS: Record<string, string> = {
  setInterfaceVlan: "Missing or invalid required numeric parameter: 'vlan'",
  addVlan: "One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'",
  editVlan: "One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'",
  deleteVlan: "Missing or invalid required parameter: 'vlan_id'",
  saveConfig: "Missing or invalid required parameter and value: 'save=yes'",
  setInterfaceState: "Missing or invalid required parameter: 'state'",
  setInterfacePoe: "Missing or invalid required parameter: 'poe_state'",
  setInterfaceDescription: "Missing or invalid required parameter: 'description'",
  setInterfaceTags: "Missing or invalid parameter: 'untagged_vlan', 'tagged_vlans' and 'allow_all' are required!",
};

describe("spec/openapi.yaml", () => {
  const doc: Json = YAML.parse(fs.readFileSync(specPath, "utf8"));
  const ops = operationsOf(doc);

  test("is OpenAPI 3.0.3 served from the root, with token and session security", () => {
    expect(doc.openapi).toBe("3.0.3");
    expect(doc.servers).toEqual([{ url: "/" }]);
    expect(doc.security).toEqual([{ tokenAuth: [] }, { sessionAuth: [] }]);
    expect(doc.components.securitySchemes.tokenAuth).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "Authorization",
    });
    expect(doc.components.securitySchemes.sessionAuth).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "sessionid",
    });
  });

  test("openapi-backend accepts it in strict mode and routes slashed paths", async () => {
    const api = new OpenAPIBackend({
      definition: specPath,
      strict: true,
      quick: false,
      ignoreTrailingSlashes: false,
      // as the server has it (server/contract.ts): each validator is compiled without
      // checking its schema against the meta-schema first; the last test below checks
      // every schema with a strict Ajv
      ajvOpts: { validateSchema: false },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    const route = (method: string, p: string) =>
      api.router.matchOperation({ method, path: p, headers: {} })?.operationId;
    expect(route("get", "/api/switches/search/core-1/")).toBe("searchSwitch");
    expect(route("get", "/api/switches/find/")).toBe("findAddress");
    expect(route("get", "/api/switches/35/272/")).toBe("getSwitchBasic");
    expect(route("post", "/api/switches/35/272/interface/1_1_1/state/")).toBe("setInterfaceState");
    expect(route("post", "/api/users/token/")).toBe("createToken");
  });

  test("has exactly the operationIds the server maps to handlers", () => {
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...EXPECTED_OPERATION_IDS].sort());
  });

  test("every operation under /api/admin/ is tagged admin, and no other is (the superuser gate follows the tag)", () => {
    for (const { path: p, op } of ops) {
      expect({ path: p, admin: (op.tags ?? []).includes("admin") }).toEqual({
        path: p,
        admin: p.startsWith("/api/admin/"),
      });
    }
  });

  test("the switch section's capability flags are the one capability table, described the same", () => {
    const device = doc.components.schemas.Device;
    for (const [flag, info] of Object.entries(CAPABILITY_FLAGS)) {
      expect({ flag, type: device.properties[flag]?.type, description: device.properties[flag]?.description }).toEqual({
        flag,
        type: "boolean",
        description: info.description,
      });
      expect(device.required).toContain(flag);
      for (const operationId of info.operations) expect(ops.map((o) => o.op.operationId)).toContain(operationId);
    }
    // every device write needs a capability; no other operation does
    const writes = ops
      .filter((o) => o.path.startsWith("/api/switches/") && o.method === "post")
      .map((o) => o.op.operationId);
    // a port batch is the exception: each of its items needs its own change's capability (app/port-batch.ts)
    expect(writes.filter((id) => capabilityOf(id) === null && id !== "runPortBatch")).toEqual([]);
  });

  test("every path starts at /api/ and ends with a slash, but the operators' two (tagged ops, open to all)", () => {
    const ops = (p: string) => Object.values<Json>(doc.paths[p]).some((op) => (op.tags ?? []).includes("ops"));
    for (const p of Object.keys(doc.paths)) {
      if (ops(p))
        expect({ p, security: doc.paths[p].get.security }).toEqual({
          p: expect.stringMatching(/^\/(healthz|metrics)$/),
          security: [],
        });
      else expect(p).toMatch(/^\/api\/(.*\/)?$/);
    }
  });

  test("path parameters have the agreed types", () => {
    const expectedType: Record<string, string> = {
      group: "integer",
      switch: "integer",
      id: "integer",
      interface: "string",
      text: "string",
    };
    for (const { path: p, op, pathItem } of ops) {
      const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((x: Json) => deref(doc, x));
      const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const name of inPath) {
        const param = params.find((x: Json) => x.in === "path" && x.name === name);
        expect({ op: op.operationId, name, type: param?.schema?.type, required: param?.required }).toEqual({
          op: op.operationId,
          name,
          type: expectedType[name],
          required: true,
        });
      }
    }
  });

  test("every $ref resolves", () => {
    const unresolved = collectRefs(doc).filter((ref) => resolvePointer(doc, ref) === undefined);
    expect(unresolved).toEqual([]);
  });

  test("every operation documents a response example, and every JSON success has one", () => {
    for (const { op } of ops) {
      const responses = Object.entries<Json>(op.responses).map(([status, r]) => [status, deref(doc, r)] as const);
      const withExample = responses.filter(
        ([, r]) => r.content?.["application/json"] && examplesOf(r.content["application/json"]).length > 0,
      );
      expect({ op: op.operationId, examples: withExample.length > 0 }).toEqual({ op: op.operationId, examples: true });
      for (const [status, r] of responses) {
        if (status.startsWith("2") && r.content?.["application/json"]) {
          expect({ op: op.operationId, status, n: examplesOf(r.content["application/json"]).length > 0 }).toEqual({
            op: op.operationId,
            status,
            n: true,
          });
        }
      }
    }
  });

  test("every error response uses the Error schema (the health check's 503 is its own shape), and access denied is never 401", () => {
    for (const { op } of ops) {
      expect(Object.keys(op.responses)).not.toContain("401");
      for (const [status, raw] of Object.entries<Json>(op.responses)) {
        if (!/^[45]/.test(status)) continue;
        if (op.operationId === "getHealth" && status === "503") continue;
        const r = deref(doc, raw);
        expect({ op: op.operationId, status, schema: r.content?.["application/json"]?.schema?.$ref }).toEqual({
          op: op.operationId,
          status,
          schema: "#/components/schemas/Error",
        });
      }
    }
  });

  test("Error lists the stable codes and keeps reason and code required", () => {
    const error = doc.components.schemas.Error;
    expect(error.required).toEqual(["reason", "code"]);
    expect(error.additionalProperties).toBe(false);
    for (const code of [
      "access_denied",
      "same_value",
      "missing_parameter",
      "invalid_parameter",
      "not_found",
      "device_unreachable",
      "device_refused",
      "device_mismatch",
      "not_supported",
      "rate_limited",
      "token_read_only",
      "invalid_token",
    ]) {
      expect(error.properties.code.enum).toContain(code);
    }
  });

  test("every POST and PATCH with a body takes JSON and form bodies with the same schema", () => {
    for (const { method, op } of ops) {
      if (method !== "post" && method !== "patch") continue;
      // actions on an object that take no parameters (unlock) have no body at all
      if (!op.requestBody && BODYLESS_ACTIONS.includes(op.operationId)) continue;
      const content = op.requestBody?.content ?? {};
      const json = content["application/json"]?.schema?.$ref;
      const form = content["application/x-www-form-urlencoded"]?.schema?.$ref;
      expect({ op: op.operationId, json: typeof json, same: json === form }).toEqual({
        op: op.operationId,
        json: "string",
        same: true,
      });
      expect(resolvePointer(doc, json)).toMatchObject({ type: "object", additionalProperties: false });
    }
  });

  test("device actions carry the contract's fixed text for a bad body", () => {
    const byId = new Map(ops.map((o) => [o.op.operationId, o.op]));
    for (const [id, text] of Object.entries(INVALID_REASONS)) expect(byId.get(id)?.["x-invalid-reason"]).toBe(text);
  });

  test("ajv compiles every schema, and every example fits its schema", async () => {
    // Examples are checked against the dereferenced document, as the server sees it.
    const api = new OpenAPIBackend({ definition: specPath, strict: true, quick: true });
    await api.init();
    const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
    addFormats(ajv);
    const failures: string[] = [];
    const check = (where: string, media: Json) => {
      const validate = ajv.compile(media.schema);
      for (const example of examplesOf(media)) {
        if (!validate(example)) failures.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      }
    };
    // the dereferenced document's paths, walked like the YAML's
    const paths = new Map(Object.entries<Json>(api.definition.paths ?? {}));
    for (const { method, path: p } of ops) {
      const op = paths.get(p)[method];
      for (const [status, r] of Object.entries<Json>(op.responses)) {
        const media = r.content?.["application/json"];
        if (media) check(`${op.operationId} ${status}`, media);
      }
      for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {}))
        check(`${op.operationId} ${type}`, media);
    }
    expect(failures).toEqual([]);
  });
});
