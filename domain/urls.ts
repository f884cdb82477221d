/**
 * Addresses of this service: absolute API addresses for answers, and the one check every
 * redirect target of this service passes (the trailing-slash redirect, a login's `next`,
 * logout, the web UI's redirects to the login page).
 *
 * `baseUrl` is scheme, host and any path prefix, e.g. "https://host/nms".
 */

export function apiUrl(baseUrl: string, path = ""): string {
  return `${baseUrl.replace(/\/+$/, "")}/api/${path}`;
}

export function switchUrl(baseUrl: string, groupId: number, deviceId: number): string {
  return apiUrl(baseUrl, `switches/${groupId}/${deviceId}/`);
}

/** longest redirect target taken; the UI's own paths are far shorter */
const MAX_TARGET = 2048;

/**
 * `raw` (a path with an optional query and fragment) when it is a normal path of this
 * site, else null. Normal: printable ASCII only (no blank or control character: browsers
 * drop tabs and line breaks, turning "/\t/host" into "//host"); one leading "/" and never
 * "//" anywhere ("//host" is another site); no backslash (browsers read "\" as "/"); no
 * "." or ".." segment. The path is checked again percent-decoded, so "%2F", "%5C" and
 * "%2E" cannot spell what is refused in plain text (a proxy or browser that decodes them
 * would see it), and broken percent-encoding is refused too. Starting with "/", it cannot
 * carry a scheme. Nothing is rewritten: a path that is not normal is not guessed at.
 */
export function sameSitePath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > MAX_TARGET) return null;
  if (!/^[\x21-\x7e]+$/.test(raw)) return null;
  const end = raw.search(/[?#]/);
  const path = end === -1 ? raw : raw.slice(0, end);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  for (const p of [path, decoded]) {
    if (!p.startsWith("/") || p.includes("//") || p.includes("\\") || /\p{Cc}/u.test(p)) return null;
    if (p.split("/").some((segment) => segment === "." || segment === "..")) return null;
  }
  return raw;
}
