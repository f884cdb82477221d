/**
 * The web pages' static files, served from memory under /assets/ (the Content-Security-
 * Policy allows scripts and styles from this site only, nothing inline).
 */
import type { Express } from "express";
import { ASSETS_PREFIX } from "./security-headers";

const SITE_CSS = `body{font-family:system-ui,sans-serif;margin:0;color:#1d2733;background:#f5f7fa}
header{background:#1d3557;color:#fff;padding:.6rem 1rem;display:flex;justify-content:space-between;align-items:center}
header a{color:#fff;text-decoration:none;font-weight:600}header nav a{margin-right:1rem}
main{max-width:1100px;margin:1rem auto;padding:0 1rem}
pre{background:#fff;border:1px solid #d0d7de;padding:1rem;overflow:auto;font-size:.85rem}
table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}
.method{font-family:monospace;font-weight:700}
form.op{background:#fff;border:1px solid #d0d7de;padding:.6rem;margin:.5rem 0}
form.op label{display:inline-block;margin:.2rem .6rem .2rem 0}
.logout{display:flex;gap:.5rem;align-items:center}.error{color:#b00020}
.status{font-weight:600}`;

/** The api/ pages' forms: each sends its operation with the session's CSRF token (from #forms). */
const FORMS_JS = `for (const f of document.querySelectorAll("form.op")) f.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const csrf = document.getElementById("forms").dataset.csrf;
  let url = f.dataset.template;
  for (const i of f.querySelectorAll("input[data-path]")) url = url.replace("{" + i.dataset.path + "}", encodeURIComponent(i.value.replace(/\\//g, "_")));
  const body = new URLSearchParams();
  for (const i of f.querySelectorAll("input[name],select[name]")) if (i.value !== "") body.append(i.name, i.value);
  const r = await fetch(url, {method: f.dataset.method, headers: {"X-CSRFToken": csrf, "Accept": "application/json",
    "Content-Type": "application/x-www-form-urlencoded"}, body: f.dataset.method === "DELETE" ? undefined : body, credentials: "same-origin"});
  const out = f.querySelector(".answer"); out.hidden = false;
  const text = await r.text(); let shown = text; try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
  out.textContent = "HTTP " + r.status + "\\n" + shown;
});
`;

const ASSETS: Record<string, { type: string; body: string }> = {
  "site.css": { type: "text/css; charset=utf-8", body: SITE_CSS },
  "forms.js": { type: "text/javascript; charset=utf-8", body: FORMS_JS },
};

export function mountAssets(app: Express): void {
  app.get(`${ASSETS_PREFIX}:name`, (req, res) => {
    const asset = Object.prototype.hasOwnProperty.call(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) res.status(404).json({ reason: `Not found: ${req.path}`, code: "not_found" });
    else res.type(asset.type).send(asset.body);
  });
}
