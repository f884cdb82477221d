// The one way the UI reads and changes anything: the REST API under /api/, with the
// session's cookie and its CSRF token on every change.
const csrf = document.body.dataset.csrf;

export class ApiError extends Error {
  constructor(status, reason, code) {
    super(reason);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRFToken"] = csrf;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new ApiError(0, "The switchdesk server could not be reached.", "network");
  }
  if (r.status === 204) return null;
  const text = await r.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    /* not JSON: the status says it */
  }
  if (!r.ok) {
    let reason = data?.reason ?? `The server answered HTTP ${r.status}.`;
    if (r.status === 403 && data?.code === "not_authenticated") {
      reason = "Your session has ended: please log in again.";
      sessionEnded();
    }
    throw new ApiError(r.status, reason, data?.code ?? "");
  }
  return data;
}

/** once the session is gone: a notice atop the page with a login that comes back here */
export function sessionEnded() {
  if (document.getElementById("session-ended")) return;
  const here = location.pathname + location.search;
  const link = Object.assign(document.createElement("a"), {
    href: `/login/?next=${encodeURIComponent(here)}`,
    textContent: "Log in again",
  });
  const notice = Object.assign(document.createElement("p"), { id: "session-ended", className: "error" });
  notice.setAttribute("role", "alert");
  notice.append("Your session has ended. ", link, " to come back to this page.");
  document.getElementById("main").prepend(notice);
}

/** the API's path of a device; an interface id with "/" travels as "_" */
export const devicePath = (g, s) => `/api/switches/${encodeURIComponent(g)}/${encodeURIComponent(s)}/`;
export const interfacePath = (g, s, id) =>
  `${devicePath(g, s)}interface/${encodeURIComponent(String(id).replace(/\//g, "_"))}/`;
