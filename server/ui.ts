/**
 * The helpdesk web UI under /ui/: one small HTML page per address (the same page for
 * every /ui/ path; the script in ui/ reads the path and draws the menu, a device, its
 * VLANs, the audit log or the tokens page) and the script and style files of ui/, served
 * from memory. Every read and every change goes through the REST API with the session's
 * cookie and CSRF token: nothing here reads a device or writes anything.
 *
 * The page carries what the API does not tell the script: the profile's theme,
 * are_you_sure and bulk_edit, whether the user is a superuser, and the CSRF token. Its
 * logout form sends the page's own path, so that logging in again comes back to it.
 *
 * /ui/reference/ is the interactive reference of spec/openapi.yaml (Swagger UI from its
 * npm package, swagger-ui-dist), reading the spec from /api/schema/.
 */
import fs from "node:fs";
import path from "node:path";
import type { Express, Request, Response } from "express";
import type { Services } from "../handlers/context";
import { projectRoot } from "../app/paths";
import { identify } from "./auth";
import { loginFor } from "./web";
import { sameSitePath } from "../domain/urls";

export const UI_PREFIX = "/ui/";

interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/** the files of one folder with a known type, read once */
function readFolder(dir: string, only?: Set<string>): Map<string, Asset> {
  const out = new Map<string, Asset>();
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir)) {
    const type = TYPES[path.extname(name)];
    if (!type || (only && !only.has(name))) continue;
    out.set(name, { type, body: fs.readFileSync(path.join(dir, name)) });
  }
  return out;
}

/** Swagger UI's two files, from its package (absent: the reference page says so) */
function swaggerFolder(): string {
  try {
    return path.dirname(require.resolve("swagger-ui-dist/package.json"));
  } catch {
    return "";
  }
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

interface PageUser {
  username: string;
  is_superuser: boolean;
  profile: { theme: string; are_you_sure: boolean; bulk_edit: boolean };
}

/** `here`: the page's own path, where a login after this logout comes back to */
function shell(user: PageUser, csrf: string, here: string): string {
  const p = user.profile;
  const theme = p.theme === "dark" ? "dark" : "light";
  return `<!doctype html><html lang="en" data-theme="${theme}"><head><meta charset="utf-8">
<title>switchdesk</title><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${theme}">
<link rel="stylesheet" href="${UI_PREFIX}static/ui.css"></head>
<body data-user="${esc(user.username)}" data-superuser="${user.is_superuser}" data-are-you-sure="${p.are_you_sure}" data-bulk-edit="${p.bulk_edit}" data-csrf="${esc(csrf)}">
<a class="skip" href="#main">Skip to content</a>
<header class="top"><nav aria-label="Main"><a class="brand" href="${UI_PREFIX}">switchdesk</a>
<a href="${UI_PREFIX}">Devices</a><a href="${UI_PREFIX}tokens/">My tokens</a>${user.is_superuser ? `<a href="${UI_PREFIX}audit/">Audit log</a>` : ""}<a href="/api/">API</a></nav>
<form method="post" action="/logout/" class="logout"><input type="hidden" name="csrfmiddlewaretoken" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(here)}">
<span class="who">${esc(user.username)}</span> <button type="submit">Log out</button></form></header>
<main id="main" tabindex="-1"><p class="loading" role="status">Loading…</p></main>
<script type="module" src="${UI_PREFIX}static/app.js"></script></body></html>`;
}

function referencePage(haveSwagger: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API reference · switchdesk</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${haveSwagger ? `<link rel="stylesheet" href="${UI_PREFIX}reference/static/swagger-ui.css">` : ""}
<link rel="stylesheet" href="${UI_PREFIX}static/reference.css"></head>
<body><header class="ref"><a href="/api/">Browsable API</a> <a href="${UI_PREFIX}">Web UI</a> <a href="/api/schema/">OpenAPI document (JSON)</a></header>
<main><div id="swagger-ui">${haveSwagger ? "" : "<p>The swagger-ui-dist package is not installed; the OpenAPI document is at /api/schema/.</p>"}</div></main>
${haveSwagger ? `<script src="${UI_PREFIX}reference/static/swagger-ui-bundle.js"></script><script src="${UI_PREFIX}static/reference.js"></script>` : ""}
</body></html>`;
}

export function mountUi(app: Express, s: Services): void {
  const own = readFolder(path.join(projectRoot(), "ui"));
  const swaggerDir = swaggerFolder();
  const swagger = swaggerDir
    ? readFolder(swaggerDir, new Set(["swagger-ui-bundle.js", "swagger-ui.css"]))
    : new Map<string, Asset>();

  const sendAsset = (files: Map<string, Asset>) => (req: Request, res: Response) => {
    const asset = files.get(String(req.params.name));
    if (!asset) res.status(404).json({ reason: `Not found: ${req.path}`, code: "not_found" });
    else res.setHeader("Cache-Control", "public, max-age=3600").type(asset.type).send(asset.body);
  };
  app.get(`${UI_PREFIX}static/:name`, sendAsset(own));
  app.get(`${UI_PREFIX}reference/static/:name`, sendAsset(swagger));

  /** the session's user, or a redirect to the login page (API tokens do not open pages) */
  const sessionUser = async (req: Request, res: Response) => {
    const { authorization: _ignored, ...headers } = req.headers;
    const caller = await identify(s, { method: "GET", headers }).catch(() => null);
    if (caller?.session) return caller;
    res.redirect(302, loginFor(req.originalUrl));
    return null;
  };

  app.get(`${UI_PREFIX}reference/`, async (req, res) => {
    if (!(await sessionUser(req, res))) return;
    res.type("html").send(referencePage(swagger.size === 2));
  });

  // every other page of the UI: the same document, drawn by the script from the path
  app.get(/^\/ui(\/.*)?$/, async (req, res) => {
    if (!req.path.endsWith("/")) {
      // only a normal path of this site is redirected (domain/urls.ts); "/ui//host" names nothing
      const slashed = sameSitePath(`${req.originalUrl.split("?")[0]}/`);
      if (!slashed) return void res.status(404).json({ reason: `Not found: ${req.path}`, code: "not_found" });
      return void res.redirect(301, slashed);
    }
    const caller = await sessionUser(req, res);
    if (!caller) return;
    res.type("html").send(shell(caller.user, caller.session!.csrf_token, req.originalUrl));
  });
}
