/**
 * The web UI as the server gives it (the browser tests in test/browser/ui-*.test.ts use
 * it): /ui/ pages only with a web session, the profile's theme and flags on the page, no
 * inline script or style under the same Content-Security-Policy, its files and Swagger
 * UI's served from this site.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { CONTENT_SECURITY_POLICY } from "../../server/security-headers";

describeDb("web UI pages from the server", () => {
  let app: TestApp;
  let root: string;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    await app.createUser("nighttime", "pw-night-2", {
      profile: { theme: "dark", are_you_sure: false, bulk_edit: false },
    });
  });
  afterAll(async () => app?.close());

  it("sends a caller without a web session to the login page, API tokens included", async () => {
    for (const opts of [{}, { token: root }]) {
      const r = await app.request("GET", "/ui/switch/1/2/", { ...opts, headers: { accept: "text/html" } });
      expect(r.status).toBe(302);
      expect(r.headers.get("location")).toBe(`/login/?next=${encodeURIComponent("/ui/switch/1/2/")}`);
    }
    const bare = await app.request("GET", "/ui");
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe("/ui/");
  });

  it("gives a session the page with its profile's theme and flags, under the strict CSP", async () => {
    const session = await app.webLogin("nighttime", "pw-night-2");
    const r = await app.request("GET", "/ui/", { session, headers: { accept: "text/html" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.text).toContain('<html lang="en" data-theme="dark">');
    expect(r.text).toContain('data-are-you-sure="false" data-bulk-edit="false"');
    expect(r.text).toContain(`data-csrf="${session.csrf}"`);
    expect(r.text).toContain('<script type="module" src="/ui/static/app.js"></script>');
    expect(r.text).not.toMatch(/<script>|<style>|style="/);
    // not a superuser: no audit log in the menu
    expect(r.text).not.toContain("/ui/audit/");
  });

  it("serves the UI's files and Swagger UI's from this site, nothing else", async () => {
    for (const [path, type] of [
      ["/ui/static/app.js", "text/javascript"],
      ["/ui/static/ui.css", "text/css"],
      ["/ui/reference/static/swagger-ui-bundle.js", "text/javascript"],
      ["/ui/reference/static/swagger-ui.css", "text/css"],
    ]) {
      const r = await app.request("GET", path);
      expect({ path, status: r.status, type: r.headers.get("content-type")?.split(";")[0] }).toEqual({
        path,
        status: 200,
        type,
      });
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    }
    for (const path of [
      "/ui/static/nothing.js",
      "/ui/static/..%2Fpackage.json",
      "/ui/reference/static/index.html",
      "/ui/reference/static/package.json",
    ]) {
      expect({ path, status: (await app.request("GET", path)).status }).toEqual({ path, status: 404 });
    }
  });
});
