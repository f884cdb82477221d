/**
 * docs/api-decisions.md sections 7 and 14: api/admin/switches/netmikoprofiles/ (SSH credential profiles with
 * OpenL2M's names), form and JSON, secrets write-only and encrypted at rest.
 */
import crypto from "node:crypto";
import { secretCheckingClient, startAppWithRoles, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";

const FORBIDDEN = "You do not have permission to perform this action.";
const BASE = "/api/admin/switches/netmikoprofiles/";

describeDb("admin: SSH credential profiles", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let regular: string;
  // a real key in PKCS#8 PEM, made here so no key material lives in the repository
  const privateKey = crypto
    .generateKeyPairSync("ed25519")
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();

  beforeAll(async () => {
    ({ app, root, staff, regular } = await startAppWithRoles());
  });
  afterAll(async () => app?.close());

  const client = secretCheckingClient(
    () => app,
    () => root,
    BASE,
  );
  const { secretsSeen, count } = client;
  async function call(method: string, path: string, opts: Parameters<TestApp["request"]>[2] = {}) {
    const r = await client.call(method, path, opts);
    // no piece of a key either
    expect(r.text).not.toContain("PRIVATE KEY");
    return r;
  }
  async function storedRow(id: number) {
    return app.services.store.db.selectFrom("credentials").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  }

  it("creates a profile from a form with tcp_port 22 by default; the password is encrypted at rest", async () => {
    secretsSeen.push("ssh-pass-1");
    const r = await call("POST", BASE, { form: { name: "lab-ssh", username: "netops", password: "ssh-pass-1" } });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: "lab-ssh",
      description: "",
      username: "netops",
      password: null,
      password_set: true,
      enable_password: null,
      enable_password_set: false,
      private_key: null,
      private_key_set: false,
      device_type: "",
      tcp_port: 22,
      verify_hostkey: true,
      ca_file: "",
    });
    const row = await storedRow(r.body.id);
    expect(row.password_enc).not.toContain("ssh-pass-1");
    expect(app.services.secrets.decrypt(row.password_enc!)).toBe("ssh-pass-1");
  });

  it("creates from JSON with a private key (with its line breaks) and an enable password", async () => {
    secretsSeen.push("enable-pass-1");
    const r = await call("POST", BASE, {
      json: {
        name: "key-ssh",
        username: "svc",
        private_key: privateKey,
        enable_password: "enable-pass-1",
        tcp_port: 2222,
        description: "keys only",
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      tcp_port: 2222,
      password_set: false,
      private_key_set: true,
      enable_password_set: true,
      description: "keys only",
    });
    const row = await storedRow(r.body.id);
    expect(app.services.secrets.decrypt(row.private_key_enc!)).toBe(privateKey);
    expect(app.services.secrets.decrypt(row.enable_password_enc!)).toBe("enable-pass-1");
    expect(row.private_key_enc).not.toContain("PRIVATE KEY");
  });

  it("refuses invalid profiles, naming the field, and stores nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ username: "x" }, "Missing or invalid required parameter: 'name'"],
      [
        { name: "k1", private_key: "not a key" },
        "Invalid value for parameter 'private_key': expected a private key in PEM or OpenSSH format",
      ],
      [
        { name: "k2", password: "line\nbreak" },
        "Invalid value for parameter 'password': control characters are not allowed",
      ],
      [
        { name: "k3", username: "a\u0007b" },
        "Invalid value for parameter 'username': control characters are not allowed",
      ],
      [{ name: "x".repeat(151) }, "Invalid value for parameter 'name': longer than 150 characters"],
    ];
    for (const [json, reason] of cases) {
      const r = await call("POST", BASE, { json });
      expect({ json, status: r.status, reason: r.body.reason }).toEqual({ json, status: 400, reason });
    }
    for (const form of [
      { name: "p0", tcp_port: "0" },
      { name: "p1", tcp_port: "65536" },
      { name: "p2", tcp_port: "ssh" },
    ]) {
      const r = await call("POST", BASE, { form });
      expect({ form, status: r.status }).toEqual({ form, status: 400 });
    }
    expect(await count()).toBe(before);
    const dup = await call("POST", BASE, { json: { name: "Lab-SSH" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({
      reason: "Credential profile with name 'Lab-SSH' already exists.",
      code: "already_exists",
    });
  });

  it("lists and reads; an unknown id is 404", async () => {
    const list = await call("GET", BASE);
    expect(list.body.map((c: Schemas["NetmikoProfile"]) => c.name)).toEqual(["key-ssh", "lab-ssh"]);
    expect((await call("GET", `${BASE}${list.body[0].id}/`)).body).toEqual(list.body[0]);
    for (const [method, opts] of [
      ["GET", {}],
      ["POST", { json: { tcp_port: 23 } }],
      ["PATCH", { form: { tcp_port: "23" } }],
      ["DELETE", {}],
    ] as const) {
      const r = await call(method, `${BASE}999999/`, opts);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ reason: "Invalid profile id!", code: "not_found" });
    }
  });

  it("updates by POST and PATCH; secrets left out are kept, empty ones cleared", async () => {
    secretsSeen.push("ssh-pass-2");
    const c = (await call("GET", BASE)).body.find((x: Schemas["NetmikoProfile"]) => x.name === "lab-ssh");
    const a = await call("POST", `${BASE}${c.id}/`, { form: { tcp_port: "2022", description: "moved" } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ...c, tcp_port: 2022, description: "moved" });
    expect(app.services.secrets.decrypt((await storedRow(c.id)).password_enc!)).toBe("ssh-pass-1");
    const b = await call("PATCH", `${BASE}${c.id}/`, { json: { password: "ssh-pass-2", enable_password: "" } });
    expect(b.status).toBe(200);
    expect(app.services.secrets.decrypt((await storedRow(c.id)).password_enc!)).toBe("ssh-pass-2");
    const d = await call("PATCH", `${BASE}${c.id}/`, { form: { password: "" } });
    expect(d.body.password_set).toBe(false);
    expect((await storedRow(c.id)).password_enc).toBeNull();
    const bad = await call("PATCH", `${BASE}${c.id}/`, { json: { tcp_port: 70000 } });
    expect(bad.status).toBe(400);
    expect((await call("GET", `${BASE}${c.id}/`)).body.tcp_port).toBe(2022);
  });

  it("deletes (204); devices that used the profile are left without one", async () => {
    const c = (await call("GET", BASE)).body.find((x: Schemas["NetmikoProfile"]) => x.name === "key-ssh");
    const sw = await call("POST", "/api/admin/switches/", {
      json: { name: "cli-sw", connector_type: 7, driver: "cisco_ios_cli", netmiko_profile: c.id },
    });
    expect(sw.body.netmiko_profile).toBe(c.id);
    expect((await call("DELETE", `${BASE}${c.id}/`)).status).toBe(204);
    expect((await call("GET", `${BASE}${c.id}/`)).status).toBe(404);
    expect((await call("GET", `/api/admin/switches/${sw.body.id}/`)).body.netmiko_profile).toBeNull();
  });

  it("is for superusers only: staff and regular users get 403", async () => {
    const c = (await call("GET", BASE)).body[0];
    for (const token of [staff, regular]) {
      const tries: [string, string, Parameters<TestApp["request"]>[2]][] = [
        ["GET", BASE, {}],
        ["POST", BASE, { form: { name: "sneaky" } }],
        ["GET", `${BASE}${c.id}/`, {}],
        ["POST", `${BASE}${c.id}/`, { json: { tcp_port: 1 } }],
        ["PATCH", `${BASE}${c.id}/`, { json: { tcp_port: 1 } }],
        ["DELETE", `${BASE}${c.id}/`, {}],
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
    expect((await call("GET", `${BASE}${c.id}/`)).body).toEqual(c);
  });
});
