/**
 * Directory login settings from the environment (the README's "Directory login" section lists them).
 * Directory login is off unless LDAP_URL is set. Every mistake is reported as one line
 * that names the variable; a secret's value is never part of a message.
 */
import fs from "node:fs";
import util from "node:util";
import { FilterParser } from "ldapts";
import { escapeFilterValue, fillTemplate, normalizeDn } from "./escape";

/** A value that must not reach logs: it prints as [secret] however it is printed. */
export class Secret {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  reveal(): string {
    return this.#value;
  }
  toString(): string {
    return "[secret]";
  }
  toJSON(): string {
    return "[secret]";
  }
  [util.inspect.custom](): string {
    return "[secret]";
  }
}

export type Precedence = "directory" | "local";

export interface DeviceGroupMapping {
  /** normalised DN of the directory group */
  dn: string;
  /** name of the switch group (device group) its members join */
  group: string;
}

export interface GroupMappings {
  /** normalised DNs; an empty list means the right is not managed by the directory */
  superuser: string[];
  staff: string[];
  readOnly: string[];
  vlanEdit: string[];
  deviceGroups: DeviceGroupMapping[];
}

export type Membership = { kind: "memberof"; attribute: string } | { kind: "search"; base: string; filter: string };

export interface DirectoryConfig {
  url: string;
  startTls: boolean;
  /** PEM text of LDAP_CA_FILE; null = the system's trusted CAs */
  ca: string | null;
  tlsVerify: boolean;
  /** search: bind as a service account, find the user; template: bind at a DN built from the name */
  bind: { kind: "search"; dn: string; password: Secret } | { kind: "template"; template: string };
  /** where and how to find the user's entry; null only in template mode (read the entry at its DN) */
  userSearch: { base: string; filter: string } | null;
  /** username: the entry's own name for the person, the username stored here */
  attributes: { username: string; firstName: string; lastName: string; email: string };
  groups: GroupMappings;
  membership: Membership;
  precedence: Precedence;
  timeoutMs: number;
  /** a directory user's rights are checked again when older than this (LDAP_RECHECK_SECONDS) */
  recheckMs: number;
  /** how long after their last check the last known rights hold while the directory cannot be asked */
  recheckGraceMs: number;
}

export class DirectoryConfigError extends Error {}

const fail = (variable: string, text: string): never => {
  throw new DirectoryConfigError(`${variable} ${text}`);
};

/** Every variable this module reads; one of them set without LDAP_URL is a mistake. */
export const DIRECTORY_VARIABLES = [
  "LDAP_URL",
  "LDAP_STARTTLS",
  "LDAP_CA_FILE",
  "LDAP_TLS_VERIFY",
  "LDAP_BIND_DN",
  "LDAP_BIND_PASSWORD",
  "LDAP_USER_DN_TEMPLATE",
  "LDAP_USER_BASE",
  "LDAP_USER_FILTER",
  "LDAP_ATTR_USERNAME",
  "LDAP_ATTR_FIRST_NAME",
  "LDAP_ATTR_LAST_NAME",
  "LDAP_ATTR_EMAIL",
  "LDAP_GROUP_SUPERUSER",
  "LDAP_GROUP_STAFF",
  "LDAP_GROUP_READ_ONLY",
  "LDAP_GROUP_VLAN_EDIT",
  "LDAP_GROUP_DEVICE_GROUPS",
  "LDAP_GROUP_MEMBERSHIP",
  "LDAP_MEMBEROF_ATTRIBUTE",
  "LDAP_GROUP_SEARCH_BASE",
  "LDAP_GROUP_SEARCH_FILTER",
  "LDAP_PRECEDENCE",
  "LDAP_TIMEOUT_MS",
  "LDAP_RECHECK_SECONDS",
  "LDAP_RECHECK_GRACE_SECONDS",
] as const;

export const DEFAULT_USER_FILTER = "(uid={username})";
export const DEFAULT_GROUP_SEARCH_FILTER = "(|(member={dn})(uniqueMember={dn})(memberUid={username}))";
export const DEFAULT_TIMEOUT_MS = 5000;
export const DEFAULT_RECHECK_SECONDS = 300;
export const DEFAULT_RECHECK_GRACE_SECONDS = 3600;

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v.trim() === "") return fallback;
  if (/^(1|on|true|yes)$/i.test(v.trim())) return true;
  if (/^(0|off|false|no)$/i.test(v.trim())) return false;
  return fail(name, `must be on or off (got "${v}")`);
}

const text = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

function checkUrl(raw: string): { url: string; secure: boolean } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return fail("LDAP_URL", "must be an ldap:// or ldaps:// URL such as ldaps://ldap.example.org:636");
  }
  if (u.protocol !== "ldap:" && u.protocol !== "ldaps:")
    return fail("LDAP_URL", `must start with ldap:// or ldaps:// (got ${u.protocol}//)`);
  if (u.username || u.password)
    return fail("LDAP_URL", "must not contain a user or password (use LDAP_BIND_DN and LDAP_BIND_PASSWORD)");
  if (!u.hostname) return fail("LDAP_URL", "needs a host name, e.g. ldaps://ldap.example.org");
  if ((u.pathname && u.pathname !== "/") || u.search || u.hash)
    return fail("LDAP_URL", "takes a scheme, host and port only (put the search base in LDAP_USER_BASE)");
  return { url: `${u.protocol}//${u.host}`, secure: u.protocol === "ldaps:" };
}

function checkFilter(name: string, filter: string, placeholders: string[]): string {
  if (!placeholders.some((p) => filter.includes(`{${p}}`))) {
    fail(name, `must contain ${placeholders.map((p) => `{${p}}`).join(" or ")} (got "${filter}")`);
  }
  const sample = fillTemplate(filter, Object.fromEntries(placeholders.map((p) => [p, "x"])), escapeFilterValue);
  if (/\{[a-z]+\}/.test(sample))
    fail(name, `has an unknown placeholder (known: ${placeholders.map((p) => `{${p}}`).join(", ")})`);
  try {
    if (!sample.startsWith("(") || !sample.endsWith(")")) throw new Error("not in parentheses");
    FilterParser.parseString(sample);
  } catch {
    fail(
      name,
      `is not a valid LDAP filter (got "${filter}"); it must be in parentheses, e.g. ${name === "LDAP_USER_FILTER" ? DEFAULT_USER_FILTER : DEFAULT_GROUP_SEARCH_FILTER}`,
    );
  }
  return filter;
}

function checkDn(name: string, dn: string): string {
  const norm = normalizeDn(dn);
  if (norm === null || norm === "") fail(name, `is not a DN (got "${dn}")`);
  return dn;
}

/** `dn;dn;...` — DNs contain commas, so the list separator is a semicolon. */
function dnList(env: NodeJS.ProcessEnv, name: string): string[] {
  const v = text(env, name);
  if (!v) return [];
  return v
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((dn) => normalizeDn(checkDn(name, dn))!);
}

/** `dn=GroupName;dn=GroupName` — the group name is what follows the last `=`. */
function deviceGroups(env: NodeJS.ProcessEnv): DeviceGroupMapping[] {
  const name = "LDAP_GROUP_DEVICE_GROUPS";
  const v = text(env, name);
  if (!v) return [];
  return v
    .split(";")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.lastIndexOf("=");
      const dn = at > 0 ? item.slice(0, at).trim() : "";
      const group = at > 0 ? item.slice(at + 1).trim() : "";
      const norm = dn ? normalizeDn(dn) : null;
      if (!group || !norm || !dn.includes("=")) {
        return fail(name, `entries must look like cn=netops,ou=groups,dc=example,dc=org=GroupName (got "${item}")`);
      }
      return { dn: norm, group };
    });
}

function readCa(path: string): string {
  let pem: string;
  try {
    pem = fs.readFileSync(path, "utf8");
  } catch (e) {
    return fail("LDAP_CA_FILE", `cannot be read: ${path} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) fail("LDAP_CA_FILE", `holds no PEM certificate: ${path}`);
  return pem;
}

function positiveMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const v = text(env, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100 || n > 120_000)
    fail(name, `must be a whole number of milliseconds from 100 to 120000 (got "${v}")`);
  return n;
}

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const v = text(env, name);
  if (v === undefined) return fallback * 1000;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > 86_400)
    fail(name, `must be a whole number of seconds from ${min} to 86400 (got "${v}")`);
  return n * 1000;
}

/**
 * Reads the directory settings; null when LDAP_URL is unset (directory login off).
 * Throws DirectoryConfigError with one line naming the variable on a bad value or a bad
 * combination.
 */
export function loadDirectoryConfig(env: NodeJS.ProcessEnv = process.env): DirectoryConfig | null {
  const rawUrl = text(env, "LDAP_URL");
  if (!rawUrl) {
    const stray = DIRECTORY_VARIABLES.find((v) => v !== "LDAP_URL" && text(env, v) !== undefined);
    if (stray) fail(stray, "is set but LDAP_URL is not: set LDAP_URL to turn directory login on, or unset it");
    return null;
  }
  const { url, secure } = checkUrl(rawUrl);

  const startTls = onOff(env, "LDAP_STARTTLS", false);
  if (startTls && secure)
    fail(
      "LDAP_STARTTLS",
      "cannot be combined with an ldaps:// LDAP_URL (ldaps is already TLS; use ldap:// for StartTLS)",
    );
  const tls = secure || startTls;
  const tlsVerify = onOff(env, "LDAP_TLS_VERIFY", true);
  const caPath = text(env, "LDAP_CA_FILE");
  if (!tls && caPath)
    fail("LDAP_CA_FILE", "is set but the connection is not TLS: use an ldaps:// LDAP_URL or LDAP_STARTTLS=on");
  if (!tls && env.LDAP_TLS_VERIFY !== undefined && env.LDAP_TLS_VERIFY.trim() !== "") {
    fail("LDAP_TLS_VERIFY", "is set but the connection is not TLS: use an ldaps:// LDAP_URL or LDAP_STARTTLS=on");
  }
  if (!tlsVerify && caPath) fail("LDAP_TLS_VERIFY", "is off, so LDAP_CA_FILE would not be used: remove one of them");
  const ca = caPath ? readCa(caPath) : null;

  const bindDn = text(env, "LDAP_BIND_DN");
  // a password is taken as it is (spaces may be part of it); only "unset" and "" mean none
  const bindPassword = env.LDAP_BIND_PASSWORD;
  const template = text(env, "LDAP_USER_DN_TEMPLATE");
  const userBase = text(env, "LDAP_USER_BASE");
  const userFilter = text(env, "LDAP_USER_FILTER");
  let bind: DirectoryConfig["bind"];
  let userSearch: DirectoryConfig["userSearch"];
  if (bindDn && template)
    fail(
      "LDAP_USER_DN_TEMPLATE",
      "cannot be combined with LDAP_BIND_DN: choose a service account search or a direct bind",
    );
  if (bindDn) {
    checkDn("LDAP_BIND_DN", bindDn);
    if (!bindPassword)
      fail("LDAP_BIND_PASSWORD", "must be set with LDAP_BIND_DN (an empty password would be an anonymous bind)");
    if (!userBase) fail("LDAP_USER_BASE", "must be set with LDAP_BIND_DN: it is where users are searched");
    bind = { kind: "search", dn: bindDn, password: new Secret(bindPassword!) };
    userSearch = {
      base: checkDn("LDAP_USER_BASE", userBase!),
      filter: checkFilter("LDAP_USER_FILTER", userFilter ?? DEFAULT_USER_FILTER, ["username"]),
    };
  } else if (template) {
    if (!template.includes("{username}")) fail("LDAP_USER_DN_TEMPLATE", `must contain {username} (got "${template}")`);
    if (/\{(?!username\})[a-z]+\}/.test(template))
      fail("LDAP_USER_DN_TEMPLATE", "knows only the placeholder {username}");
    if (bindPassword)
      fail("LDAP_BIND_PASSWORD", "is set without LDAP_BIND_DN: set both, or neither with LDAP_USER_DN_TEMPLATE");
    if (!!userBase !== !!userFilter) {
      fail(
        userBase ? "LDAP_USER_FILTER" : "LDAP_USER_BASE",
        "must be set together with the other with LDAP_USER_DN_TEMPLATE (to read the entry by a search as the user), or neither",
      );
    }
    bind = { kind: "template", template };
    userSearch = userBase
      ? {
          base: checkDn("LDAP_USER_BASE", userBase),
          filter: checkFilter("LDAP_USER_FILTER", userFilter!, ["username"]),
        }
      : null;
  } else {
    if (bindPassword) fail("LDAP_BIND_PASSWORD", "is set without LDAP_BIND_DN");
    return fail(
      "LDAP_BIND_DN",
      "or LDAP_USER_DN_TEMPLATE must be set: a service account that searches users, or a DN template for a direct bind",
    );
  }

  const groups: GroupMappings = {
    superuser: dnList(env, "LDAP_GROUP_SUPERUSER"),
    staff: dnList(env, "LDAP_GROUP_STAFF"),
    readOnly: dnList(env, "LDAP_GROUP_READ_ONLY"),
    vlanEdit: dnList(env, "LDAP_GROUP_VLAN_EDIT"),
    deviceGroups: deviceGroups(env),
  };

  const searchBase = text(env, "LDAP_GROUP_SEARCH_BASE");
  const searchFilter = text(env, "LDAP_GROUP_SEARCH_FILTER");
  const kindRaw = (text(env, "LDAP_GROUP_MEMBERSHIP") ?? (searchBase ? "search" : "memberof")).toLowerCase();
  let membership: Membership;
  if (kindRaw === "search") {
    if (!searchBase) fail("LDAP_GROUP_SEARCH_BASE", "must be set when LDAP_GROUP_MEMBERSHIP=search");
    if (text(env, "LDAP_MEMBEROF_ATTRIBUTE"))
      fail("LDAP_MEMBEROF_ATTRIBUTE", "is used only with LDAP_GROUP_MEMBERSHIP=memberof");
    membership = {
      kind: "search",
      base: checkDn("LDAP_GROUP_SEARCH_BASE", searchBase!),
      filter: checkFilter("LDAP_GROUP_SEARCH_FILTER", searchFilter ?? DEFAULT_GROUP_SEARCH_FILTER, ["dn", "username"]),
    };
  } else if (kindRaw === "memberof") {
    if (searchBase) fail("LDAP_GROUP_SEARCH_BASE", "is used only with LDAP_GROUP_MEMBERSHIP=search");
    if (searchFilter) fail("LDAP_GROUP_SEARCH_FILTER", "is used only with LDAP_GROUP_MEMBERSHIP=search");
    const attribute = text(env, "LDAP_MEMBEROF_ATTRIBUTE") ?? "memberOf";
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(attribute))
      fail("LDAP_MEMBEROF_ATTRIBUTE", `is not an attribute name (got "${attribute}")`);
    membership = { kind: "memberof", attribute };
  } else {
    return fail("LDAP_GROUP_MEMBERSHIP", `must be memberof or search (got "${kindRaw}")`);
  }

  const attributes = {
    username: text(env, "LDAP_ATTR_USERNAME") ?? "uid",
    firstName: text(env, "LDAP_ATTR_FIRST_NAME") ?? "givenName",
    lastName: text(env, "LDAP_ATTR_LAST_NAME") ?? "sn",
    email: text(env, "LDAP_ATTR_EMAIL") ?? "mail",
  };
  for (const [name, value] of [
    ["LDAP_ATTR_USERNAME", attributes.username],
    ["LDAP_ATTR_FIRST_NAME", attributes.firstName],
    ["LDAP_ATTR_LAST_NAME", attributes.lastName],
    ["LDAP_ATTR_EMAIL", attributes.email],
  ]) {
    if (!/^[A-Za-z][A-Za-z0-9-]*$/.test(value)) fail(name, `is not an attribute name (got "${value}")`);
  }

  const precedenceRaw = (text(env, "LDAP_PRECEDENCE") ?? "directory").toLowerCase();
  if (precedenceRaw !== "directory" && precedenceRaw !== "local")
    fail("LDAP_PRECEDENCE", `must be directory or local (got "${precedenceRaw}")`);

  return {
    url,
    startTls,
    ca,
    tlsVerify,
    bind,
    userSearch,
    attributes,
    groups,
    membership,
    precedence: precedenceRaw as Precedence,
    timeoutMs: positiveMs(env, "LDAP_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    recheckMs: seconds(env, "LDAP_RECHECK_SECONDS", DEFAULT_RECHECK_SECONDS, 1),
    recheckGraceMs: seconds(env, "LDAP_RECHECK_GRACE_SECONDS", DEFAULT_RECHECK_GRACE_SECONDS, 0),
  };
}

/** One line for the start-up log: what is configured, never a secret. */
export function describeDirectory(c: DirectoryConfig): string {
  const tls = c.url.startsWith("ldaps:")
    ? "LDAPS"
    : c.startTls
      ? "StartTLS"
      : "plain LDAP (passwords travel unencrypted)";
  const verify =
    c.url.startsWith("ldaps:") || c.startTls
      ? c.tlsVerify
        ? c.ca
          ? ", CA from LDAP_CA_FILE"
          : ", system CAs"
        : ", certificate NOT verified"
      : "";
  const recheck =
    c.bind.kind === "search"
      ? `rights rechecked after ${c.recheckMs / 1000} s (grace ${c.recheckGraceMs / 1000} s)`
      : "rights checked at login only (a recheck needs LDAP_BIND_DN)";
  return `directory login: ${c.url} over ${tls}${verify}; ${c.bind.kind === "search" ? "service account search" : "direct bind"}; precedence ${c.precedence}; ${recheck}`;
}

/** Warnings about the settings, for the log at warn level: passwords in clear, rights that cannot follow the directory. */
export function directoryWarnings(c: DirectoryConfig): string[] {
  const out: string[] = [];
  if (c.url.startsWith("ldap:") && !c.startTls) {
    out.push(
      `directory login: ${c.url} is plain LDAP without StartTLS: passwords travel unencrypted (use ldaps:// or LDAP_STARTTLS=on)`,
    );
  }
  if (c.bind.kind === "template") {
    out.push(
      "directory login: without a service account (LDAP_BIND_DN) a directory user's rights are checked only when it logs in, not while its tokens and sessions are used",
    );
  }
  return out;
}
