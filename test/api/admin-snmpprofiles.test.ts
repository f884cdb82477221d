/**
 * docs/api-decisions.md sections 7 and 14: api/admin/switches/snmpprofiles/ (OpenL2M's path, names and
 * numbers), form and JSON, secrets write-only and encrypted at rest.
 */
import { secretCheckingClient, startAppWithRoles, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";

const FORBIDDEN = "You do not have permission to perform this action.";
const BASE = "/api/admin/switches/snmpprofiles/";

describeDb("admin: SNMP profiles", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let regular: string;
  beforeAll(async () => {
    ({ app, root, staff, regular } = await startAppWithRoles());
  });
  afterAll(async () => app?.close());

  /** every answer of this file is checked for the secrets it was given */
  const { secretsSeen, call, count } = secretCheckingClient(
    () => app,
    () => root,
    BASE,
  );

  async function storedRow(id: number) {
    return app.services.store.db.selectFrom("snmp_profiles").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  it("creates a v2c profile from a form; the community is encrypted at rest and never returned", async () => {
    secretsSeen.push("lab-community-1");
    const r = await call("POST", BASE, {
      form: { name: "lab-v2", version: "2", community: "lab-community-1", timeout_ms: "1500", read_only: "true" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: "lab-v2",
      description: "",
      version: 2,
      community: null,
      community_set: true,
      username: "",
      passphrase: null,
      passphrase_set: false,
      priv_passphrase: null,
      priv_passphrase_set: false,
      auth_protocol: 0,
      priv_protocol: 0,
      sec_level: 0,
      context_name: "",
      context_engine_id: null,
      udp_port: 161,
      read_only: true,
      timeout_ms: 1500,
      retries: 1,
    });
    const row = await storedRow(r.body.id);
    expect(row.community_enc).not.toBeNull();
    expect(row.community_enc).not.toContain("lab-community-1");
    expect(app.services.secrets.decrypt(row.community_enc!)).toBe("lab-community-1");
  });

  it("creates a v3 authPriv profile from JSON with SHA-512 and AES-256, keys encrypted", async () => {
    secretsSeen.push("auth-pass-512", "priv-pass-256");
    const r = await call("POST", BASE, {
      json: {
        name: "core-v3",
        version: 3,
        username: "ops",
        auth_protocol: 6,
        passphrase: "auth-pass-512",
        priv_protocol: 5,
        priv_passphrase: "priv-pass-256",
        context_name: "vlan-1",
        retries: 3,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      version: 3,
      username: "ops",
      auth_protocol: 6,
      priv_protocol: 5,
      sec_level: 2,
      context_name: "vlan-1",
      retries: 3,
      community: null,
      community_set: false,
      passphrase: null,
      passphrase_set: true,
      priv_passphrase: null,
      priv_passphrase_set: true,
    });
    const row = await storedRow(r.body.id);
    expect(app.services.secrets.decrypt(row.auth_key_enc!)).toBe("auth-pass-512");
    expect(app.services.secrets.decrypt(row.priv_key_enc!)).toBe("priv-pass-256");
    expect(row.auth_key_enc).not.toContain("auth-pass-512");
    // the other SHA-2 and AES choices are accepted as well, by OpenL2M's number or by name
    for (const [auth, priv, numbers] of [
      [2, 3, [2, 3]],
      ["SHA-256", "AES-192", [4, 4]],
      [1, "DES", [1, 1]],
    ] as const) {
      const x = await call("POST", BASE, {
        json: {
          name: `v3-${auth}-${priv}`,
          version: 3,
          username: "u",
          auth_protocol: auth,
          passphrase: "auth-pass-512",
          priv_protocol: priv,
          priv_passphrase: "priv-pass-256",
        },
      });
      expect(x.status).toBe(201);
      expect([x.body.auth_protocol, x.body.priv_protocol]).toEqual(numbers);
    }
  });

  it("refuses incomplete or invalid profiles, naming the field, and stores nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ version: 2, community: "c1" }, "Missing or invalid required parameter: 'name'"],
      [
        { name: "no-community", version: 2 },
        "Missing or invalid required parameter: 'community' (SNMP version 2c needs a community)",
      ],
      [
        { name: "no-community2", community: "" },
        "Missing or invalid required parameter: 'community' (SNMP version 2c needs a community)",
      ],
      [
        { name: "v3-nouser", version: 3, auth_protocol: 2, passphrase: "12345678" },
        "Missing or invalid required parameter: 'username' (SNMP version 3 needs a username)",
      ],
      [
        { name: "v3-noauth", version: 3, username: "u" },
        "Missing or invalid required parameter: 'auth_protocol' (SNMP version 3 needs authentication)",
      ],
      [
        { name: "v3-nokey", version: 3, username: "u", auth_protocol: 2 },
        "Missing or invalid required parameter: 'passphrase' (SNMP version 3 needs an authentication key)",
      ],
      [
        { name: "v3-short", version: 3, username: "u", auth_protocol: 2, passphrase: "1234567" },
        "Invalid value for parameter 'passphrase': an SNMPv3 key must be at least 8 characters",
      ],
      [
        {
          name: "v3-nopriv",
          version: 3,
          username: "u",
          auth_protocol: 2,
          passphrase: "12345678",
          priv_protocol: 3,
        },
        "Missing or invalid required parameter: 'priv_passphrase' (a privacy protocol needs a privacy key)",
      ],
      [
        {
          name: "v3-privonly",
          version: 3,
          username: "u",
          auth_protocol: 2,
          passphrase: "12345678",
          priv_passphrase: "12345678",
        },
        "Missing or invalid required parameter: 'priv_protocol' (a privacy key needs a privacy protocol)",
      ],
      [
        { name: "slow", community: "c", timeout_ms: 60001 },
        "Invalid value for parameter 'timeout_ms': expected an integer from 100 to 60000",
      ],
      [
        { name: "fast", community: "c", timeout_ms: 99 },
        "Invalid value for parameter 'timeout_ms': expected an integer from 100 to 60000",
      ],
      [
        { name: "stubborn", community: "c", retries: 11 },
        "Invalid value for parameter 'retries': expected an integer from 0 to 10",
      ],
      [{ name: "bad\nname", community: "c" }, "Invalid value for parameter 'name': control characters are not allowed"],
      [{ name: "   ", community: "c" }, "Missing or invalid required parameter: 'name'"],
    ];
    for (const [json, reason] of cases) {
      const r = await call("POST", BASE, { json });
      expect({ json, status: r.status, reason: r.body.reason }).toEqual({ json, status: 400, reason });
    }
    // OpenL2M's numbers: an unknown protocol or version is refused with the choices
    for (const [json, reason] of [
      [
        { name: "md4", version: 3, username: "u", auth_protocol: "MD4", passphrase: "12345678" },
        "Invalid value for parameter 'auth_protocol': expected one of 0 (none), 1 (MD5), 2 (SHA), 3 (SHA-224), 4 (SHA-256), 5 (SHA-384), 6 (SHA-512)",
      ],
      [
        { name: "v1", version: 1, community: "c" },
        "Invalid value for parameter 'version': expected 2 (SNMP v2c) or 3 (SNMPv3)",
      ],
    ] as const) {
      const r = await call("POST", BASE, { json });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ reason, code: "invalid_parameter" });
    }
    const form = await call("POST", BASE, {
      form: { name: "form-v3", version: "3", username: "u", auth_protocol: "2", passphrase: "short" },
    });
    expect(form.status).toBe(400);
    expect(form.body.reason).toContain("'passphrase'");
    expect(await count()).toBe(before);
  });

  it("refuses a duplicate name, also differing in case, with already_exists", async () => {
    const r = await call("POST", BASE, { json: { name: "LAB-V2", community: "other-c" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ reason: "SNMP profile with name 'LAB-V2' already exists.", code: "already_exists" });
  });

  it("lists and reads profiles; an unknown id is 404 Invalid profile id!", async () => {
    const list = await call("GET", BASE);
    expect(list.status).toBe(200);
    const lab = list.body.find((p: Schemas["SnmpProfile"]) => p.name === "lab-v2");
    expect(lab.community_set).toBe(true);
    const one = await call("GET", `${BASE}${lab.id}/`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(lab);
    for (const [method, opts] of [
      ["GET", {}],
      ["POST", { json: { retries: 2 } }],
      ["PATCH", { json: { retries: 2 } }],
      ["DELETE", {}],
    ] as const) {
      const r = await call(method, `${BASE}999999/`, opts);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ reason: "Invalid profile id!", code: "not_found" });
    }
  });

  it("updates by POST (form) and PATCH (JSON); a secret left out keeps its value, an empty one clears it", async () => {
    secretsSeen.push("v3-auth-key-A", "v3-priv-key-A", "v3-auth-key-B");
    const c = await call("POST", BASE, {
      json: {
        name: "edit-v3",
        version: 3,
        username: "a",
        auth_protocol: 2,
        passphrase: "v3-auth-key-A",
        priv_protocol: 3,
        priv_passphrase: "v3-priv-key-A",
      },
    });
    const id = c.body.id;
    const a = await call("POST", `${BASE}${id}/`, { form: { description: "core", timeout_ms: "3000", retries: "2" } });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      description: "core",
      timeout_ms: 3000,
      retries: 2,
      username: "a",
      passphrase_set: true,
      priv_passphrase_set: true,
    });
    expect(app.services.secrets.decrypt((await storedRow(id)).auth_key_enc!)).toBe("v3-auth-key-A");

    const b = await call("PATCH", `${BASE}${id}/`, { json: { passphrase: "v3-auth-key-B", auth_protocol: 5 } });
    expect(b.status).toBe(200);
    expect(b.body.auth_protocol).toBe(5);
    expect(app.services.secrets.decrypt((await storedRow(id)).auth_key_enc!)).toBe("v3-auth-key-B");

    // authPriv -> authNoPriv: clear the privacy protocol and key
    const d = await call("PATCH", `${BASE}${id}/`, { form: { priv_protocol: "0", priv_passphrase: "" } });
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ priv_protocol: 0, sec_level: 1, priv_passphrase_set: false, passphrase_set: true });
    expect((await storedRow(id)).priv_key_enc).toBeNull();
  });

  it("refuses an update that would leave the profile unusable, and changes nothing", async () => {
    const lab = (await call("GET", BASE)).body.find((p: Schemas["SnmpProfile"]) => p.name === "lab-v2");
    const a = await call("PATCH", `${BASE}${lab.id}/`, { json: { community: "", description: "should not stick" } });
    expect(a.status).toBe(400);
    expect(a.body.reason).toContain("'community'");
    const b = await call("POST", `${BASE}${lab.id}/`, { json: { version: 3 } });
    expect(b.status).toBe(400);
    expect(b.body.reason).toContain("'username'");
    const after = await call("GET", `${BASE}${lab.id}/`);
    expect(after.body).toEqual(lab);
    expect(app.services.secrets.decrypt((await storedRow(lab.id)).community_enc!)).toBe("lab-community-1");
    // renaming onto another profile's name is a duplicate
    const dup = await call("PATCH", `${BASE}${lab.id}/`, { json: { name: "core-v3" } });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("already_exists");
  });

  it("deletes a profile (204); devices that used it are left without a profile", async () => {
    const p = await call("POST", BASE, { json: { name: "doomed", community: "doomed-c" } });
    secretsSeen.push("doomed-c");
    const sw = await call("POST", "/api/admin/switches/", {
      json: { name: "uses-doomed", primary_ip4: "192.0.2.1", snmp_profile: p.body.id },
    });
    expect(sw.status).toBe(201);
    expect(sw.body.snmp_profile).toBe(p.body.id);
    const del = await call("DELETE", `${BASE}${p.body.id}/`);
    expect(del.status).toBe(204);
    expect((await call("GET", `${BASE}${p.body.id}/`)).status).toBe(404);
    expect((await call("DELETE", `${BASE}${p.body.id}/`)).status).toBe(404);
    const after = await call("GET", `/api/admin/switches/${sw.body.id}/`);
    expect(after.status).toBe(200);
    expect(after.body.snmp_profile).toBeNull();
  });

  it("is for superusers only: staff and regular users get 403", async () => {
    const lab = (await call("GET", BASE)).body.find((p: Schemas["SnmpProfile"]) => p.name === "lab-v2");
    for (const token of [staff, regular]) {
      const tries: [string, string, Parameters<TestApp["request"]>[2]][] = [
        ["GET", BASE, {}],
        ["POST", BASE, { json: { name: "sneaky", community: "c" } }],
        ["GET", `${BASE}${lab.id}/`, {}],
        ["POST", `${BASE}${lab.id}/`, { json: { retries: 5 } }],
        ["PATCH", `${BASE}${lab.id}/`, { json: { retries: 5 } }],
        ["DELETE", `${BASE}${lab.id}/`, {}],
      ];
      for (const [method, path, opts] of tries) {
        const r = await app.request(method, path, { ...opts, token });
        expect({ method, path, status: r.status, reason: r.body.reason }).toEqual({
          method,
          path,
          status: 403,
          reason: FORBIDDEN,
        });
      }
    }
    const still = await call("GET", `${BASE}${lab.id}/`);
    expect(still.body).toEqual(lab);
  });
});
