/** docs/api-decisions.md section 1: paths, slashes, methods, OPTIONS, bodies, error shape. */
import { startAppWithRoot, startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

describeDb("conventions", () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    ({ app, root: token } = await startAppWithRoot());
  });
  afterAll(async () => app?.close());

  it("redirects a GET without trailing slash to the slashed path, keeping the query", async () => {
    const r = await app.request("GET", "/api/admin/log?page=2", { token });
    expect(r.status).toBe(301);
    expect(r.headers.get("location")).toBe("/api/admin/log/?page=2");
  });

  it("answers other methods without trailing slash with 404 naming the slashed path", async () => {
    const r = await app.request("POST", "/api/users/token", { json: { username: "root", password: "pw-root-1" } });
    expect(r.status).toBe(404);
    expect(r.body.reason).toContain("/api/users/token/");
    expect(r.body.code).toBe("not_found");
  });

  it("answers an unknown path with 404 JSON", async () => {
    const r = await app.request("GET", "/api/nothing/here/", { token });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ reason: expect.stringContaining("/api/nothing/here/"), code: "not_found" });
  });

  it("answers a non-numeric id in the path with 404", async () => {
    const r = await app.request("GET", "/api/admin/users/abc/", { token });
    expect(r.status).toBe(404);
  });

  // found by the API fuzzer (test/api/fuzz.test.ts): these were 500s
  it.each([
    ["GET", "/api/admin/users/%ZZ/"],
    ["POST", "/api/switches/%E0%A4%A/1/save/"],
    ["GET", "/api/switches/search/%ED%A0%80/"],
    ["DELETE", "/api/users/tokens/%ED%A0%80/"],
    ["OPTIONS", "/api/admin/switches/%ZZ/redetect/"],
  ])("answers %s %s (broken percent-encoding in the path) with 404 JSON", async (method, path) => {
    const r = await app.request(method, path, { token, ...(method === "POST" ? { json: { save: "yes" } } : {}) });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ reason: `Not found: ${path}`, code: "not_found" });
  });

  // found by the API fuzzer: a 404 the spec did not declare for device paths
  it("answers a group or switch id that is not a number on a device path with 404, as the spec declares", async () => {
    for (const [method, path] of [
      ["GET", "/api/switches/1/abc/"],
      ["GET", "/api/switches/1.0/1/details/"],
      ["POST", "/api/switches/1/-1/save/"],
      ["POST", "/api/switches/0x1/1/vlan/add/"],
    ]) {
      const r = await app.request(method, path, { token, ...(method === "POST" ? { json: {} } : {}) });
      expect([path, r.status, r.body.code]).toEqual([path, 404, "not_found"]);
    }
  });

  // found by the API fuzzer: any unknown query parameter was a 400 naming no parameter
  it("ignores query parameters an operation does not declare, and still names a bad declared one", async () => {
    const menu = await app.request("GET", "/api/switches/?format=json", { token });
    expect(menu.status).toBe(200);
    const log = await app.request("GET", "/api/admin/log/?format=json&page_size=1&_=123", { token });
    expect(log.status).toBe(200);
    expect(log.body.page_size).toBe(1);
    const bad = await app.request("GET", "/api/admin/log/?page=abc&format=json", { token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ reason: "Invalid query parameter: 'page'", code: "invalid_parameter" });
  });

  it("answers a wrong method with 405 and Allow including OPTIONS", async () => {
    const r = await app.request("GET", "/api/users/token/", { token });
    expect(r.status).toBe(405);
    expect(r.headers.get("allow")).toBe("POST, OPTIONS");
    expect(r.body.code).toBe("method_not_allowed");
    const save = await app.request("GET", "/api/switches/1/1/save/", { token });
    expect(save.status).toBe(405);
    expect(save.headers.get("allow")).toBe("POST, OPTIONS");
    const del = await app.request("PUT", "/api/admin/users/", { token, json: {} });
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
  });

  it("answers OPTIONS with Allow and a short description", async () => {
    const r = await app.request("OPTIONS", "/api/switches/3/4/interface/7/vlan/", { token });
    expect(r.status).toBe(200);
    expect(r.headers.get("allow")).toBe("POST, OPTIONS");
    expect(r.body.methods).toEqual(["POST", "OPTIONS"]);
    expect(r.body.parameters.POST.body).toContain("vlan");
    expect(typeof r.body.name).toBe("string");
  });

  it("answers OPTIONS on the save path as the spec declares it, without credentials", async () => {
    const declared = app.contract.match("/api/switches/3/4/save/")!.entry.methods.get("OPTIONS");
    expect(declared?.operationId).toBe("describeSaveConfig");
    // the harness checks the body against the declared PathDescription
    const r = await app.request("OPTIONS", "/api/switches/3/4/save/");
    expect(r.status).toBe(200);
    expect(r.headers.get("allow")).toBe("POST, OPTIONS");
    expect(r.body).toMatchObject({
      path: "/api/switches/{group}/{switch}/save/",
      methods: ["POST", "OPTIONS"],
      parameters: { POST: { path: ["group", "switch"], body: ["save"] } },
    });
    expect(Object.keys(r.body.parameters)).toEqual(["POST"]);
    const wrong = await app.request("GET", "/api/switches/3/4/save/", { token });
    expect(wrong.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("answers malformed JSON with 400 JSON, never an HTML page", async () => {
    const r = await app.request("POST", "/api/users/token/", {
      raw: { body: '{"username": "root",', contentType: "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toContain("application/json");
    expect(r.body.code).toBe("malformed_body");
    expect(r.body.reason).toMatch(/JSON/);
  });

  it("answers a body with an unknown or missing content type with 415", async () => {
    const a = await app.request("POST", "/api/users/token/", {
      raw: { body: "username=root", contentType: "text/plain" },
    });
    expect(a.status).toBe(415);
    expect(a.body.code).toBe("unsupported_media_type");
    const b = await app.request("POST", "/api/users/token/", { raw: { body: "username=root" } });
    // fetch labels a bare string body text/plain; either way it is not JSON or a form
    expect(b.status).toBe(415);
  });

  it("HEAD works wherever GET does", async () => {
    const r = await app.request("HEAD", "/api/", { token });
    expect(r.status).toBe(200);
    expect(r.text).toBe("");
  });

  it("serves the OpenAPI document at api/schema/", async () => {
    const r = await app.request("GET", "/api/schema/", { token });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe("3.0.3");
    expect(Object.keys(r.body.paths)).toContain("/api/switches/{group}/{switch}/save/");
  });

  it("gives the API root with absolute URLs, admin only for superusers", async () => {
    const r = await app.request("GET", "/api/", { token });
    expect(r.body.switches).toBe(`${app.url}/api/switches/`);
    expect(r.body.admin).toBe(`${app.url}/api/admin/`);
    await app.createUser("plain", "pw-plain-1");
    const t2 = await app.login("plain", "pw-plain-1");
    const r2 = await app.request("GET", "/api/", { token: t2 });
    expect(r2.status).toBe(200);
    expect(r2.body.admin).toBeUndefined();
  });
});

describeDb("session cookies behind an https proxy", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ trustedProxies: ["127.0.0.1"] });
    await app.createUser("web", "pw-web-1");
  });
  afterAll(async () => app?.close());

  it("marks the session cookie Secure, HttpOnly and SameSite=Lax when the request came over https", async () => {
    const page = await fetch(`${app.url}/login/`, { headers: { "x-forwarded-proto": "https" } });
    const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    expect(page.headers.get("set-cookie")).toContain("Secure");
    const login = await fetch(`${app.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "x-forwarded-proto": "https",
        "content-type": "application/x-www-form-urlencoded",
        cookie: `csrftoken=${csrf}`,
      },
      body: new URLSearchParams({
        username: "web",
        password: "pw-web-1",
        csrfmiddlewaretoken: csrf,
        next: "/api/",
      }).toString(),
    });
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/api/");
    const session = login.headers.getSetCookie().find((c) => c.startsWith("sessionid="))!;
    expect(session).toContain("HttpOnly");
    expect(session).toContain("SameSite=Lax");
    expect(session).toContain("Secure");
  });

  it("sends a login to an outside address back to api/ instead", async () => {
    const page = await fetch(`${app.url}/login/`);
    const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    const login = await fetch(`${app.url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
      body: new URLSearchParams({
        username: "web",
        password: "pw-web-1",
        csrfmiddlewaretoken: csrf,
        next: "//evil.example/",
      }).toString(),
    });
    expect(login.headers.get("location")).toBe("/api/");
    expect(login.headers.getSetCookie().find((c) => c.startsWith("sessionid="))).not.toContain("Secure");
  });
});
