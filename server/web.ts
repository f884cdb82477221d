/**
 * The web UI session: /login/, /logout/, and the browsable rendering of api/ pages for
 * a browser with a session (every endpoint listed, GET results as formatted JSON with
 * links, forms that send the POST endpoints with the session's CSRF token).
 */
import crypto from "node:crypto";
import type { Express, Request, Response } from "express";
import type { Ctx, Reply, Services } from "../handlers/context";
import type { Operation } from "openapi-backend";
import type { Contract, PathEntry } from "./contract";
import { parseCookies, SESSION_COOKIE, CSRF_COOKIE, CSRF_FIELD } from "./auth";
import { checkLogin } from "../app/login";
import { ApiError, toApiError } from "../app/errors";
import { cameOverHttps, clientIp } from "./request-info";
import { parseBody, readRaw } from "./body";
import { sameSitePath } from "../domain/urls";

/** the login and logout forms are small: a few fields */
const FORM_LIMIT = 16 * 1024;

/**
 * Reads a login/logout form (or JSON) body the way the API reads bodies; a failure is
 * thrown, and express hands it to the error handler (a web page's error).
 */
async function readForm(req: Request): Promise<Record<string, unknown>> {
  const raw = await readRaw(req, FORM_LIMIT);
  return parseBody(raw, req.headers["content-type"]).body ?? {};
}

/** a field of a form as text ("" when absent; a JSON number or boolean as its text) */
function fieldText(form: Record<string, unknown>, name: string): string {
  const v = form[name];
  if (typeof v === "string") return v;
  return typeof v === "number" || typeof v === "boolean" ? String(v) : "";
}

/** Paths that answer with HTML pages (their errors are pages too). */
export function isWebPage(req: Request): boolean {
  return req.path === "/login/" || req.path === "/logout/" || req.path === "/";
}

/** An error on a web page: the same status, a page saying what went wrong, nothing internal. */
export function sendWebError(res: Response, e: ApiError): void {
  res.status(e.status);
  for (const [k, v] of Object.entries(e.headers)) res.setHeader(k, v);
  res
    .type("html")
    .send(
      page(
        "Error",
        `<h1>${e.status}</h1><p class="error" role="alert">${esc(e.reason)}</p><p><a href="/login/">Back to the login page</a></p>`,
      ),
    );
}

export function wantsHtml(req: Request): boolean {
  const accept = String(req.headers.accept ?? "");
  return /text\/html/i.test(accept) && !req.headers.authorization;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Secure when configured or when the request came over https (behind a trusted proxy too) */
function cookie(
  name: string,
  value: string,
  req: Request,
  s: Services,
  opts: { httpOnly: boolean; maxAgeS?: number },
): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (opts.httpOnly) parts.push("HttpOnly");
  if (s.config.secureCookies || cameOverHttps(req, s.config)) parts.push("Secure");
  if (opts.maxAgeS !== undefined) parts.push(`Max-Age=${opts.maxAgeS}`);
  return parts.join("; ");
}

/** where a login goes when it was not sent from a page (or from one it may not go back to) */
const DEFAULT_NEXT = "/api/";

/** where a person lands: the web UI's devices page (docs/api-decisions.md section 18) */
export const LANDING_PAGE = "/ui/";

/**
 * A login's `next`: a normal path of this site (domain/urls.ts). Without one (absent or
 * empty), a browser lands on the web UI and a script on api/, as before; a `next` that is
 * refused goes to api/.
 */
function safeNext(next: unknown, req: Request): string {
  if (next === undefined || next === "") return wantsHtml(req) ? LANDING_PAGE : DEFAULT_NEXT;
  return sameSitePath(next) ?? DEFAULT_NEXT;
}

function page(title: string, body: string, user?: string, csrf?: string): string {
  const logout = user
    ? `<form method="post" action="/logout/" class="logout"><input type="hidden" name="${CSRF_FIELD}" value="${esc(csrf ?? "")}">` +
      `<span>${esc(user)}</span> <button type="submit">Log out</button></form>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · switchdesk</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/assets/site.css"></head><body><header><nav><a href="/api/">switchdesk API</a>${user ? ` <a href="/ui/">Web UI</a> <a href="/ui/reference/">API reference</a>` : ""}</nav>${logout}</header><main>${body}</main></body></html>`;
}

function loginPage(next: string, csrf: string, error?: string): string {
  return page(
    "Log in",
    `<h1>Log in</h1>${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/login/">
<input type="hidden" name="${CSRF_FIELD}" value="${esc(csrf)}"><input type="hidden" name="next" value="${esc(next)}">
<p><label>Username <input name="username" autocomplete="username" required autofocus></label></p>
<p><label>Password <input name="password" type="password" autocomplete="current-password" required></label></p>
<p><button type="submit">Log in</button></p></form>`,
  );
}

export function mountWeb(app: Express, s: Services): void {
  // a person (a browser) lands on the web UI; a script on api/, as before
  app.get("/", (req, res) => res.redirect(302, wantsHtml(req) ? LANDING_PAGE : "/api/"));

  app.get("/login/", (req, res) => {
    const csrf = parseCookies(req.headers.cookie)[CSRF_COOKIE] || crypto.randomBytes(32).toString("hex");
    res.setHeader("Set-Cookie", cookie(CSRF_COOKIE, csrf, req, s, { httpOnly: false }));
    res.type("html").send(loginPage(safeNext(req.query.next, req), csrf));
  });

  app.post("/login/", async (req: Request, res: Response) => {
    const body = await readForm(req);
    const next = safeNext(body.next, req);
    const csrfCookie = parseCookies(req.headers.cookie)[CSRF_COOKIE];
    const fresh = crypto.randomBytes(32).toString("hex");
    if (!csrfCookie || body[CSRF_FIELD] !== csrfCookie) {
      res.setHeader("Set-Cookie", cookie(CSRF_COOKIE, fresh, req, s, { httpOnly: false }));
      res
        .status(403)
        .type("html")
        .send(loginPage(next, fresh, "Your login form expired; please try again."));
      return;
    }
    try {
      const user = await checkLogin(
        s,
        fieldText(body, "username"),
        fieldText(body, "password"),
        clientIp(req, s.config),
        "web",
      );
      const session = await s.repos.sessions.create(user.id, s.config.sessionLifetimeMs);
      res.setHeader("Set-Cookie", [
        cookie(SESSION_COOKIE, session.key, req, s, {
          httpOnly: true,
          maxAgeS: Math.floor(s.config.sessionLifetimeMs / 1000),
        }),
        cookie(CSRF_COOKIE, session.csrf, req, s, { httpOnly: false }),
      ]);
      res.redirect(302, next);
    } catch (err) {
      // a database that cannot be reached is 503 with Retry-After here too, not a 500
      const e = toApiError(err);
      const status = e ? e.status : 500;
      if (e && e.headers["Retry-After"]) res.setHeader("Retry-After", e.headers["Retry-After"]);
      res
        .status(status)
        .type("html")
        .send(loginPage(next, csrfCookie, e ? e.reason : "Login failed"));
    }
  });

  app.post("/logout/", async (req: Request, res: Response) => {
    const body = await readForm(req);
    const cookies = parseCookies(req.headers.cookie);
    const session = cookies[SESSION_COOKIE] ? await s.repos.sessions.find(cookies[SESSION_COOKIE]) : null;
    const sent = body[CSRF_FIELD] ?? req.headers["x-csrftoken"];
    if (session && sent !== session.csrf_token) {
      res.status(403).type("html").send(page("Log out", `<p class="error">CSRF check failed.</p>`));
      return;
    }
    if (cookies[SESSION_COOKIE]) await s.repos.sessions.remove(cookies[SESSION_COOKIE]);
    res.setHeader("Set-Cookie", cookie(SESSION_COOKIE, "", req, s, { httpOnly: true, maxAgeS: 0 }));
    // a page that sends its own path (the web UI does) is where the next login goes back to
    res.redirect(302, loginFor(fieldText(body, "next")));
  });

  // a browser without a session is sent to the login page instead of a JSON 403
  app.use("/api", async (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !wantsHtml(req)) return next();
    // a path that is not a normal one of this site names nothing: the API's 404, not the login page
    if (!sameSitePath(req.originalUrl)) return next();
    const key = parseCookies(req.headers.cookie)[SESSION_COOKIE];
    const session = key ? await s.repos.sessions.find(key).catch(() => null) : null;
    if (session) return next();
    res.redirect(302, loginFor(req.originalUrl));
  });
}

/** the login page that comes back to `here` when it is a normal path of this site, else the plain one */
export function loginFor(here: string): string {
  const back = sameSitePath(here);
  return back ? `/login/?next=${encodeURIComponent(back)}` : "/login/";
}

/**
 * Compact JSON text indented as JSON.stringify(value, null, 2) would write it, keys in the
 * text's own order (a body sent as text, whose integer-like keys a parse would reorder).
 */
export function indentJson(compact: string): string {
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = () => "\n" + "  ".repeat(depth);
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i];
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      if (compact[i + 1] === close) {
        out += c + close;
        i++;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === "}" || c === "]") {
      depth--;
      out += newline() + c;
    } else if (c === ",") out += "," + newline();
    else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
}

/** the reply's JSON, indented, with every absolute URL of this service turned into a link */
function linkedJson(reply: Reply, baseUrl: string): string {
  const json =
    reply.json === undefined
      ? JSON.stringify(reply.body ?? null, null, 2)
      : indentJson(Buffer.concat(reply.json).toString("utf8"));
  const text = esc(json);
  const base = esc(baseUrl);
  return text.replace(/&quot;(https?:\/\/[^&\s]+?)&quot;/g, (m, url: string) => {
    // a link only to a path of this site: base followed by "/", and never "//" (another host)
    const path = url.startsWith(`${base}/`) ? url.slice(base.length) : null;
    return path && !path.startsWith("//") && !path.includes("\\") ? `&quot;<a href="${path}">${url}</a>&quot;` : m;
  });
}

/** the spec's objects, as openapi-backend types them (OpenAPI 3.0 or 3.1) */
type NotRef<T> = Exclude<T, { $ref: string }>;
type RequestBody = NotRef<NonNullable<Operation["requestBody"]>>;
type Schema = NotRef<NonNullable<RequestBody["content"][string]["schema"]>>;

/** the JSON body schema of an operation (the spec writes them inline, not as $ref) */
function bodySchema(op: Operation): Schema | null {
  const body = op.requestBody;
  if (!body || "$ref" in body) return null;
  const schema = body.content["application/json"]?.schema;
  return schema && !("$ref" in schema) ? schema : null;
}

/** a property's type for a placeholder: "string", or "integer|boolean" for anyOf */
function typeText(p: Schema | { $ref: string }): string {
  if ("$ref" in p) return "";
  if (p.type !== undefined) return Array.isArray(p.type) ? p.type.join("|") : String(p.type);
  return (p.anyOf ?? []).map((x) => ("$ref" in x || x.type === undefined ? "" : String(x.type))).join("|");
}

function fieldInputs(schema: Schema | null): string {
  const props = Object.entries<Schema | { $ref: string }>(schema?.properties ?? {});
  return props
    .map(([name, p]) => {
      const type = typeText(p);
      const input =
        type === "boolean"
          ? `<select name="${esc(name)}"><option value="">(unchanged)</option><option>true</option><option>false</option></select>`
          : `<input name="${esc(name)}" placeholder="${esc(String(type || "string"))}">`;
      return `<label>${esc(name)} ${input}</label>`;
    })
    .join("");
}

/** The api/ page for a browser: results as formatted JSON, every endpoint with a form. */
/** one form per POST/PATCH/DELETE operation; path parameters already known are filled in */
function operationForm(entry: PathEntry, method: string, op: Operation, known: Record<string, string>): string {
  const schema = bodySchema(op);
  const pathInputs = entry.names
    .map((n) =>
      known[n] !== undefined
        ? `<input type="hidden" data-path="${esc(n)}" value="${esc(known[n])}">`
        : `<label>${esc(n)} <input data-path="${esc(n)}" required></label>`,
    )
    .join("");
  return (
    `<form class="op" data-method="${method}" data-template="${esc(entry.template)}" id="form-${esc(op.operationId ?? "")}">` +
    `<strong>${method} ${esc(entry.template)}</strong> <small>${esc(op.summary ?? "")}</small><br>${pathInputs}${fieldInputs(schema)}` +
    `<button type="submit">Send</button><pre class="answer" hidden></pre></form>`
  );
}

/**
 * An api/ page for a browser: the result as formatted JSON with links; on api/ every
 * endpoint with its description; below that, forms for the POST/PATCH/DELETE endpoints:
 * all of them on api/, those under the current path elsewhere (a switch's page offers
 * its interface, VLAN and save actions with the switch already filled in).
 */
export function renderBrowsable(contract: Contract, ctx: Ctx, pathname: string, reply: Reply): string {
  const caller = ctx.caller!;
  const csrf = caller.session?.csrf_token ?? "";
  const root = pathname === "/api/";
  const here = contract.match(pathname);
  const rows: string[] = [];
  const forms: string[] = [];
  for (const entry of contract.paths) {
    const below = root || (here !== null && entry.template.startsWith(here.entry.template));
    for (const [method, op] of entry.methods) {
      if (method === "OPTIONS") continue; // answered on every path; not an endpoint of its own
      if (root) {
        const link =
          method === "GET" && entry.names.length === 0
            ? `<a href="${esc(entry.template)}">${esc(entry.template)}</a>`
            : esc(entry.template);
        rows.push(
          `<tr><td class="method">${method}</td><td>${link}</td><td>${esc(op.summary ?? "")}${op.description ? `<br><small>${esc(op.description)}</small>` : ""}</td></tr>`,
        );
      }
      if (below && (method === "POST" || method === "PATCH" || method === "DELETE"))
        forms.push(operationForm(entry, method, op, root ? {} : here!.params));
    }
  }
  const result = `<h1>${esc(pathname)}</h1><p class="status">HTTP ${reply.status}</p><pre id="result">${linkedJson(reply, ctx.baseUrl)}</pre>`;
  const table = rows.length
    ? `<h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
    : "";
  const actions = forms.length
    ? `<h2>Send a request</h2><div id="forms" data-csrf="${esc(csrf)}">${forms.join("")}</div><script src="/assets/forms.js"></script>`
    : "";
  return page(root ? "API" : pathname, result + table + actions, caller.user.username, csrf);
}
