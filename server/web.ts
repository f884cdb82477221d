/**
 * The web UI session: /login/, /logout/, and the browsable rendering of api/ pages for
 * a browser with a session (every endpoint listed, GET results as formatted JSON with
 * links, forms that send the POST endpoints with the session's CSRF token).
 */
import crypto from "node:crypto";
import express, { type Express, type Request, type Response } from "express";
import type { Ctx, Reply, Services } from "../handlers/context";
import type { Contract, PathEntry } from "./contract";
import { parseCookies, SESSION_COOKIE, CSRF_COOKIE, CSRF_FIELD } from "./auth";
import { checkLogin } from "../app/login";
import { ApiError } from "../app/errors";
import { clientIp } from "./request-info";

export function wantsHtml(req: Request): boolean {
  const accept = String(req.headers.accept ?? "");
  return /text\/html/i.test(accept) && !req.headers.authorization;
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** Secure when configured or when the request came over https (behind a trusted proxy too) */
function cookie(name: string, value: string, req: Request, s: Services, opts: { httpOnly: boolean; maxAgeS?: number }): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (opts.httpOnly) parts.push("HttpOnly");
  if (s.config.secureCookies || req.secure) parts.push("Secure");
  if (opts.maxAgeS !== undefined) parts.push(`Max-Age=${opts.maxAgeS}`);
  return parts.join("; ");
}

/** only same-site paths: no scheme, no //host */
function safeNext(next: unknown): string {
  const n = typeof next === "string" ? next : "";
  return n.startsWith("/") && !n.startsWith("//") && !n.includes("\\") ? n : "/api/";
}

function page(title: string, body: string, user?: string, csrf?: string): string {
  const logout = user
    ? `<form method="post" action="/logout/" class="logout"><input type="hidden" name="${CSRF_FIELD}" value="${esc(csrf ?? "")}">` +
      `<span>${esc(user)}</span> <button type="submit">Log out</button></form>`
    : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · switchdesk</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#1d2733;background:#f5f7fa}
header{background:#1d3557;color:#fff;padding:.6rem 1rem;display:flex;justify-content:space-between;align-items:center}
header a{color:#fff;text-decoration:none;font-weight:600}
main{max-width:1100px;margin:1rem auto;padding:0 1rem}
pre{background:#fff;border:1px solid #d0d7de;padding:1rem;overflow:auto;font-size:.85rem}
table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
.method{font-family:monospace;font-weight:700}
form.op{background:#fff;border:1px solid #d0d7de;padding:.6rem;margin:.5rem 0}
form.op label{display:inline-block;margin:.2rem .6rem .2rem 0}
.logout{display:flex;gap:.5rem;align-items:center}.error{color:#b00020}
.status{font-weight:600}
</style></head><body><header><a href="/api/">switchdesk API</a>${logout}</header><main>${body}</main></body></html>`;
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
  const form = express.urlencoded({ extended: false, limit: "16kb" });

  app.get("/", (_req, res) => res.redirect(302, "/api/"));

  app.get("/login/", (req, res) => {
    const csrf = parseCookies(req.headers.cookie)[CSRF_COOKIE] || crypto.randomBytes(32).toString("hex");
    res.setHeader("Set-Cookie", cookie(CSRF_COOKIE, csrf, req, s, { httpOnly: false }));
    res.type("html").send(loginPage(safeNext(req.query.next), csrf));
  });

  app.post("/login/", form, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const next = safeNext(body.next);
    const csrfCookie = parseCookies(req.headers.cookie)[CSRF_COOKIE];
    const fresh = crypto.randomBytes(32).toString("hex");
    if (!csrfCookie || body[CSRF_FIELD] !== csrfCookie) {
      res.setHeader("Set-Cookie", cookie(CSRF_COOKIE, fresh, req, s, { httpOnly: false }));
      res.status(403).type("html").send(loginPage(next, fresh, "Your login form expired; please try again."));
      return;
    }
    try {
      const user = await checkLogin(s, String(body.username ?? ""), String(body.password ?? ""), clientIp(req, s.config.trustProxy));
      const session = await s.repos.sessions.create(user.id, s.config.sessionLifetimeMs);
      res.setHeader("Set-Cookie", [
        cookie(SESSION_COOKIE, session.key, req, s, { httpOnly: true, maxAgeS: Math.floor(s.config.sessionLifetimeMs / 1000) }),
        cookie(CSRF_COOKIE, session.csrf, req, s, { httpOnly: false }),
      ]);
      res.redirect(302, next);
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 500;
      if (e instanceof ApiError && e.headers["Retry-After"]) res.setHeader("Retry-After", e.headers["Retry-After"]);
      res.status(status).type("html").send(loginPage(next, csrfCookie, e instanceof ApiError ? e.reason : "Login failed"));
    }
  });

  app.post("/logout/", form, async (req: Request, res: Response) => {
    const cookies = parseCookies(req.headers.cookie);
    const session = cookies[SESSION_COOKIE] ? await s.repos.sessions.find(cookies[SESSION_COOKIE]) : null;
    const sent = (req.body ?? {})[CSRF_FIELD] ?? req.headers["x-csrftoken"];
    if (session && sent !== session.csrf_token) {
      res.status(403).type("html").send(page("Log out", `<p class="error">CSRF check failed.</p>`));
      return;
    }
    if (cookies[SESSION_COOKIE]) await s.repos.sessions.remove(cookies[SESSION_COOKIE]);
    res.setHeader("Set-Cookie", cookie(SESSION_COOKIE, "", req, s, { httpOnly: true, maxAgeS: 0 }));
    res.redirect(302, "/login/");
  });

  // a browser without a session is sent to the login page instead of a JSON 403
  app.use("/api", async (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !wantsHtml(req)) return next();
    const key = parseCookies(req.headers.cookie)[SESSION_COOKIE];
    const session = key ? await s.repos.sessions.find(key).catch(() => null) : null;
    if (session) return next();
    res.redirect(302, `/login/?next=${encodeURIComponent(req.originalUrl)}`);
  });
}

/** JSON with every absolute URL of this service turned into a link */
function linkedJson(value: unknown, baseUrl: string): string {
  const text = esc(JSON.stringify(value, null, 2));
  const base = esc(baseUrl);
  return text.replace(/&quot;(https?:\/\/[^&\s]+?)&quot;/g, (m, url: string) =>
    url.startsWith(base) ? `&quot;<a href="${url.slice(base.length)}">${url}</a>&quot;` : m,
  );
}

function fieldInputs(schema: any): string {
  const props = Object.entries<any>(schema?.properties ?? {});
  return props
    .map(([name, p]) => {
      const type = p.type ?? (p.anyOf ?? []).map((x: any) => x.type).join("|");
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
function operationForm(entry: PathEntry, method: string, op: any, known: Record<string, string>): string {
  const schema = op.requestBody?.content?.["application/json"]?.schema;
  const pathInputs = entry.names
    .map((n) =>
      known[n] !== undefined
        ? `<input type="hidden" data-path="${esc(n)}" value="${esc(known[n])}">`
        : `<label>${esc(n)} <input data-path="${esc(n)}" required></label>`,
    )
    .join("");
  return (
    `<form class="op" data-method="${method}" data-template="${esc(entry.template)}" id="form-${esc(op.operationId)}">` +
    `<strong>${method} ${esc(entry.template)}</strong> <small>${esc(op.summary ?? "")}</small><br>${pathInputs}${fieldInputs(schema)}` +
    `<button type="submit">Send</button><pre class="answer" hidden></pre></form>`
  );
}

const FORM_SCRIPT = `
for (const f of document.querySelectorAll("form.op")) f.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  let url = f.dataset.template;
  for (const i of f.querySelectorAll("input[data-path]")) url = url.replace("{" + i.dataset.path + "}", encodeURIComponent(i.value.replace(/\\//g, "_")));
  const body = new URLSearchParams();
  for (const i of f.querySelectorAll("input[name],select[name]")) if (i.value !== "") body.append(i.name, i.value);
  const r = await fetch(url, {method: f.dataset.method, headers: {"X-CSRFToken": csrf, "Accept": "application/json",
    "Content-Type": "application/x-www-form-urlencoded"}, body: f.dataset.method === "DELETE" ? undefined : body, credentials: "same-origin"});
  const out = f.querySelector(".answer"); out.hidden = false;
  const text = await r.text(); let shown = text; try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
  out.textContent = "HTTP " + r.status + "\\n" + shown;
});`;

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
      const o = op as any;
      if (root) {
        const link = method === "GET" && entry.names.length === 0 ? `<a href="${esc(entry.template)}">${esc(entry.template)}</a>` : esc(entry.template);
        rows.push(`<tr><td class="method">${method}</td><td>${link}</td><td>${esc(o.summary ?? "")}${o.description ? `<br><small>${esc(o.description)}</small>` : ""}</td></tr>`);
      }
      if (below && (method === "POST" || method === "PATCH" || method === "DELETE")) forms.push(operationForm(entry, method, o, root ? {} : here!.params));
    }
  }
  const result = `<h1>${esc(pathname)}</h1><p class="status">HTTP ${reply.status}</p><pre id="result">${linkedJson(reply.body ?? null, ctx.baseUrl)}</pre>`;
  const table = rows.length
    ? `<h2>Endpoints</h2><table><thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
    : "";
  const actions = forms.length ? `<h2>Send a request</h2>${forms.join("")}<script>const csrf=${JSON.stringify(csrf)};${FORM_SCRIPT}</script>` : "";
  return page(root ? "API" : pathname, result + table + actions, caller.user.username, csrf);
}
