/**
 * The service configured for the test directory the way an operator would: through the
 * LDAP_* environment variables, parsed by the real configuration code.
 */
import { loadDirectoryConfig } from "../../app/directory/config";
import type { Config } from "../../app/config";
import { startTestApp, type TestApp } from "./harness";
import { GROUPS, PEOPLE, SERVICE_DN, groupDn, type TestDirectory } from "./slapd";

export type Transport = "plain" | "starttls" | "ldaps";

/** LDAP_URL and TLS settings for one transport, trusting the directory's own test CA. */
export function transportEnv(dir: TestDirectory, transport: Transport): Record<string, string> {
  if (transport === "plain") return { LDAP_URL: dir.ldapUrl };
  if (transport === "starttls") return { LDAP_URL: dir.ldapUrl, LDAP_STARTTLS: "on", LDAP_CA_FILE: dir.caFile };
  return { LDAP_URL: dir.ldapsUrl, LDAP_CA_FILE: dir.caFile };
}

/** A service account that searches people by uid; groups found by a search of ou=groups. */
export function searchEnv(dir: TestDirectory, transport: Transport = "plain"): Record<string, string> {
  return {
    ...transportEnv(dir, transport),
    LDAP_BIND_DN: SERVICE_DN,
    LDAP_BIND_PASSWORD: dir.servicePassword,
    LDAP_USER_BASE: PEOPLE,
    LDAP_USER_FILTER: "(&(objectClass=inetOrgPerson)(uid={username}))",
    LDAP_GROUP_SEARCH_BASE: GROUPS,
  };
}

/** Every right mapped, one group kind each (see TEST_GROUPS). */
export function mappingEnv(): Record<string, string> {
  return {
    LDAP_GROUP_SUPERUSER: groupDn("sd-admins"),
    LDAP_GROUP_STAFF: groupDn("sd-staff"),
    LDAP_GROUP_READ_ONLY: groupDn("sd-readonly"),
    LDAP_GROUP_VLAN_EDIT: groupDn("sd-vlan"),
    LDAP_GROUP_DEVICE_GROUPS: `${groupDn("netops")}=Core; ${groupDn("helpdesk")}=Access`,
  };
}

export interface DirectoryApp extends TestApp {
  /** token of the local superuser "root" (password rootPassword) */
  root: string;
}

export const ROOT_PASSWORD = "local-root-pw-7c1d";

/** A test app with directory login configured from env, plus a local superuser "root". */
export async function startDirectoryApp(
  env: Record<string, string>,
  overrides: Partial<Config> = {},
): Promise<DirectoryApp> {
  const app = await startTestApp({ directory: loadDirectoryConfig(env), ...overrides });
  try {
    await app.createUser("root", ROOT_PASSWORD, { is_superuser: true });
    const root = await app.login("root", ROOT_PASSWORD);
    return Object.assign(app, { root });
  } catch (e) {
    await app.close();
    throw e;
  }
}

/** POST /login/ with a fresh CSRF token; the raw answer (status, Location, page text). */
export async function webLoginRaw(
  app: TestApp,
  username: string,
  password: string,
): Promise<{ status: number; location: string | null; text: string }> {
  const page = await fetch(`${app.url}/login/`);
  const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
  const r = await fetch(`${app.url}/login/`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
    body: new URLSearchParams({ username, password, csrfmiddlewaretoken: csrf, next: "/api/" }).toString(),
  });
  return { status: r.status, location: r.headers.get("location"), text: await r.text() };
}

export const tokenLogin = (app: TestApp, username: string, password: string) =>
  app.request("POST", "/api/users/token/", { json: { username, password } });
