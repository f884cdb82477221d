/** LDAP_* configuration: defaults, and one clear line naming the variable for every mistake. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import util from "node:util";
import {
  loadDirectoryConfig,
  describeDirectory,
  directoryWarnings,
  DirectoryConfigError,
  DEFAULT_GROUP_SEARCH_FILTER,
} from "../../app/directory/config";
import { loadConfig } from "../../app/config";

const SERVICE = {
  LDAP_URL: "ldap://ldap.example.org",
  LDAP_BIND_DN: "cn=svc,dc=example,dc=org",
  LDAP_BIND_PASSWORD: "svc-secret-value",
  LDAP_USER_BASE: "ou=people,dc=example,dc=org",
};

// made when the file loads: the table of bad settings below is built before any hook runs
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sd-dircfg-"));
const caFile = path.join(tmp, "ca.pem");
fs.writeFileSync(caFile, "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
const notPem = path.join(tmp, "not.pem");
fs.writeFileSync(notPem, "hello");
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function error(env: Record<string, string>): string {
  try {
    loadDirectoryConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(DirectoryConfigError);
    return (e as Error).message;
  }
  throw new Error("no error for " + JSON.stringify(Object.keys(env)));
}

describe("loadDirectoryConfig", () => {
  it("is off without LDAP_URL", () => {
    expect(loadDirectoryConfig({})).toBeNull();
    expect(loadConfig({}).directory).toBeNull();
  });

  it("has safe defaults for a service account search", () => {
    const c = loadDirectoryConfig(SERVICE)!;
    expect(c).toMatchObject({
      url: "ldap://ldap.example.org",
      startTls: false,
      ca: null,
      tlsVerify: true,
      userSearch: { base: "ou=people,dc=example,dc=org", filter: "(uid={username})" },
      attributes: { firstName: "givenName", lastName: "sn", email: "mail" },
      membership: { kind: "memberof", attribute: "memberOf" },
      precedence: "directory",
      timeoutMs: 5000,
      groups: { superuser: [], staff: [], readOnly: [], vlanEdit: [], deviceGroups: [] },
    });
    expect(c.bind).toMatchObject({ kind: "search", dn: "cn=svc,dc=example,dc=org" });
  });

  it("is reached through server/config.ts", () => {
    expect(loadConfig(SERVICE).directory?.url).toBe("ldap://ldap.example.org");
    expect(() => loadConfig({ ...SERVICE, LDAP_PRECEDENCE: "both" })).toThrow(/^LDAP_PRECEDENCE /);
  });

  it("never shows the service account password when printed", () => {
    const c = loadDirectoryConfig(SERVICE)!;
    expect(util.inspect(c, { depth: 10 })).not.toContain("svc-secret-value");
    expect(JSON.stringify(c)).not.toContain("svc-secret-value");
    expect(String(c.bind.kind === "search" ? c.bind.password : undefined)).not.toContain("svc-secret-value");
    expect(describeDirectory(c)).not.toContain("svc-secret-value");
    expect(c.bind.kind === "search" && c.bind.password.reveal()).toBe("svc-secret-value");
  });

  it("reads mappings: DN lists separated by ;, device groups as DN=Name", () => {
    const c = loadDirectoryConfig({
      ...SERVICE,
      LDAP_GROUP_SUPERUSER: "CN=Admins, OU=Groups,DC=example,DC=org ; cn=root-ish,ou=groups,dc=example,dc=org",
      LDAP_GROUP_DEVICE_GROUPS:
        "cn=netops,ou=groups,dc=example,dc=org=Core Network;cn=help desk,ou=groups,dc=example,dc=org=Access",
      LDAP_GROUP_SEARCH_BASE: "ou=groups,dc=example,dc=org",
    })!;
    expect(c.groups.superuser).toEqual([
      "cn=admins,ou=groups,dc=example,dc=org",
      "cn=root-ish,ou=groups,dc=example,dc=org",
    ]);
    expect(c.groups.deviceGroups).toEqual([
      { dn: "cn=netops,ou=groups,dc=example,dc=org", group: "Core Network" },
      { dn: "cn=help desk,ou=groups,dc=example,dc=org", group: "Access" },
    ]);
    // a search base alone chooses the search lookup, with the default filter
    expect(c.membership).toEqual({
      kind: "search",
      base: "ou=groups,dc=example,dc=org",
      filter: DEFAULT_GROUP_SEARCH_FILTER,
    });
  });

  it("accepts a direct bind, with or without a search for the entry", () => {
    const t = loadDirectoryConfig({
      LDAP_URL: "ldaps://dc1.example.com",
      LDAP_USER_DN_TEMPLATE: "{username}@example.com",
    })!;
    expect(t.bind).toEqual({ kind: "template", template: "{username}@example.com" });
    expect(t.userSearch).toBeNull();
    const s = loadDirectoryConfig({
      LDAP_URL: "ldaps://dc1.example.com",
      LDAP_USER_DN_TEMPLATE: "{username}@example.com",
      LDAP_USER_BASE: "dc=example,dc=com",
      LDAP_USER_FILTER: "(sAMAccountName={username})",
    })!;
    expect(s.userSearch).toEqual({ base: "dc=example,dc=com", filter: "(sAMAccountName={username})" });
  });

  it("reads the CA file and TLS switches", () => {
    const c = loadDirectoryConfig({
      ...SERVICE,
      LDAP_URL: "ldap://ldap.example.org:389",
      LDAP_STARTTLS: "on",
      LDAP_CA_FILE: caFile,
    })!;
    expect(c.startTls).toBe(true);
    expect(c.ca).toContain("BEGIN CERTIFICATE");
    const off = loadDirectoryConfig({ ...SERVICE, LDAP_URL: "ldaps://ldap.example.org", LDAP_TLS_VERIFY: "off" })!;
    expect(off.tlsVerify).toBe(false);
    expect(describeDirectory(off)).toContain("NOT verified");
    expect(describeDirectory(loadDirectoryConfig(SERVICE)!)).toContain("unencrypted");
  });

  it("reads the recheck interval, its grace and the username attribute, with defaults", () => {
    const d = loadDirectoryConfig(SERVICE)!;
    expect([d.recheckMs, d.recheckGraceMs, d.attributes.username]).toEqual([300_000, 3_600_000, "uid"]);
    const c = loadDirectoryConfig({
      ...SERVICE,
      LDAP_RECHECK_SECONDS: "60",
      LDAP_RECHECK_GRACE_SECONDS: "0",
      LDAP_ATTR_USERNAME: "sAMAccountName",
    })!;
    expect([c.recheckMs, c.recheckGraceMs, c.attributes.username]).toEqual([60_000, 0, "sAMAccountName"]);
    expect(error({ ...SERVICE, LDAP_RECHECK_SECONDS: "0" })).toMatch(
      /^LDAP_RECHECK_SECONDS must be a whole number of seconds from 1/,
    );
    expect(error({ ...SERVICE, LDAP_RECHECK_GRACE_SECONDS: "1h" })).toMatch(/^LDAP_RECHECK_GRACE_SECONDS /);
    expect(error({ ...SERVICE, LDAP_ATTR_USERNAME: "u id" })).toMatch(/^LDAP_ATTR_USERNAME /);
  });

  it("warns about plain LDAP and about rights that cannot be rechecked (direct bind)", () => {
    expect(directoryWarnings(loadDirectoryConfig(SERVICE)!)).toEqual([
      expect.stringContaining("passwords travel unencrypted"),
    ]);
    expect(directoryWarnings(loadDirectoryConfig({ ...SERVICE, LDAP_URL: "ldaps://ldap.example.org" })!)).toEqual([]);
    const template = loadDirectoryConfig({
      LDAP_URL: "ldaps://ldap.example.org",
      LDAP_USER_DN_TEMPLATE: "uid={username},dc=example,dc=org",
    })!;
    expect(directoryWarnings(template)).toEqual([expect.stringContaining("checked only when it logs in")]);
    expect(describeDirectory(template)).toContain("rights checked at login only");
  });

  // each bad value or combination: [env, the variable the message must start with, a word it must hold]
  const bad: Array<[string, Record<string, string>, string, RegExp]> = [
    ["stray variable without LDAP_URL", { LDAP_BIND_DN: "cn=x" }, "LDAP_BIND_DN", /LDAP_URL is not/],
    ["http URL", { ...SERVICE, LDAP_URL: "http://x" }, "LDAP_URL", /ldap:\/\/ or ldaps:\/\//],
    ["not a URL", { ...SERVICE, LDAP_URL: "ldap.example.org" }, "LDAP_URL", /ldaps?:\/\//],
    ["URL with a path", { ...SERVICE, LDAP_URL: "ldap://x/dc=example" }, "LDAP_URL", /LDAP_USER_BASE/],
    ["URL with credentials", { ...SERVICE, LDAP_URL: "ldap://u:p@x" }, "LDAP_URL", /user or password/],
    ["StartTLS over ldaps", { ...SERVICE, LDAP_URL: "ldaps://x", LDAP_STARTTLS: "on" }, "LDAP_STARTTLS", /ldaps/],
    ["StartTLS not on/off", { ...SERVICE, LDAP_STARTTLS: "maybe" }, "LDAP_STARTTLS", /on or off/],
    ["CA file on plain LDAP", { ...SERVICE, LDAP_CA_FILE: caFile }, "LDAP_CA_FILE", /not TLS/],
    ["verify switch on plain LDAP", { ...SERVICE, LDAP_TLS_VERIFY: "off" }, "LDAP_TLS_VERIFY", /not TLS/],
    [
      "verify off with a CA file",
      { ...SERVICE, LDAP_URL: "ldaps://x", LDAP_TLS_VERIFY: "off", LDAP_CA_FILE: caFile },
      "LDAP_TLS_VERIFY",
      /LDAP_CA_FILE/,
    ],
    [
      "missing CA file",
      { ...SERVICE, LDAP_URL: "ldaps://x", LDAP_CA_FILE: "/nonexistent/ca.pem" },
      "LDAP_CA_FILE",
      /cannot be read.*ENOENT/,
    ],
    [
      "CA file without a certificate",
      { ...SERVICE, LDAP_URL: "ldaps://x", LDAP_CA_FILE: notPem },
      "LDAP_CA_FILE",
      /no PEM/,
    ],
    ["no way to bind", { LDAP_URL: "ldap://x" }, "LDAP_BIND_DN", /LDAP_USER_DN_TEMPLATE/],
    [
      "both ways to bind",
      { ...SERVICE, LDAP_USER_DN_TEMPLATE: "uid={username},dc=x" },
      "LDAP_USER_DN_TEMPLATE",
      /LDAP_BIND_DN/,
    ],
    ["service DN without password", { ...SERVICE, LDAP_BIND_PASSWORD: "" }, "LDAP_BIND_PASSWORD", /anonymous/],
    [
      "password without service DN",
      { LDAP_URL: "ldap://x", LDAP_BIND_PASSWORD: "p" },
      "LDAP_BIND_PASSWORD",
      /LDAP_BIND_DN/,
    ],
    ["service account without user base", { ...SERVICE, LDAP_USER_BASE: "" }, "LDAP_USER_BASE", /LDAP_BIND_DN/],
    ["service DN not a DN", { ...SERVICE, LDAP_BIND_DN: "svc" }, "LDAP_BIND_DN", /not a DN/],
    ["filter without placeholder", { ...SERVICE, LDAP_USER_FILTER: "(uid=alice)" }, "LDAP_USER_FILTER", /\{username\}/],
    [
      "filter without parentheses",
      { ...SERVICE, LDAP_USER_FILTER: "uid={username}" },
      "LDAP_USER_FILTER",
      /valid LDAP filter/,
    ],
    [
      "filter with unknown placeholder",
      { ...SERVICE, LDAP_USER_FILTER: "(&(uid={username})(o={org}))" },
      "LDAP_USER_FILTER",
      /placeholder/,
    ],
    [
      "template without placeholder",
      { LDAP_URL: "ldap://x", LDAP_USER_DN_TEMPLATE: "uid=alice,dc=x" },
      "LDAP_USER_DN_TEMPLATE",
      /\{username\}/,
    ],
    [
      "template with base but no filter",
      { LDAP_URL: "ldap://x", LDAP_USER_DN_TEMPLATE: "uid={username},dc=x", LDAP_USER_BASE: "dc=x" },
      "LDAP_USER_FILTER",
      /together/,
    ],
    ["bad group DN", { ...SERVICE, LDAP_GROUP_STAFF: "staff" }, "LDAP_GROUP_STAFF", /not a DN/],
    [
      "device group without a name",
      { ...SERVICE, LDAP_GROUP_DEVICE_GROUPS: "cn=netops,dc=x=" },
      "LDAP_GROUP_DEVICE_GROUPS",
      /GroupName/,
    ],
    [
      "device group without a DN",
      { ...SERVICE, LDAP_GROUP_DEVICE_GROUPS: "Core" },
      "LDAP_GROUP_DEVICE_GROUPS",
      /GroupName/,
    ],
    ["search lookup without base", { ...SERVICE, LDAP_GROUP_MEMBERSHIP: "search" }, "LDAP_GROUP_SEARCH_BASE", /search/],
    ["unknown lookup", { ...SERVICE, LDAP_GROUP_MEMBERSHIP: "nested" }, "LDAP_GROUP_MEMBERSHIP", /memberof or search/],
    [
      "search filter with memberof",
      { ...SERVICE, LDAP_GROUP_MEMBERSHIP: "memberof", LDAP_GROUP_SEARCH_FILTER: "(member={dn})" },
      "LDAP_GROUP_SEARCH_FILTER",
      /search/,
    ],
    [
      "memberOf attribute with search",
      { ...SERVICE, LDAP_GROUP_SEARCH_BASE: "dc=x", LDAP_MEMBEROF_ATTRIBUTE: "isMemberOf" },
      "LDAP_MEMBEROF_ATTRIBUTE",
      /memberof/,
    ],
    [
      "group filter without placeholder",
      { ...SERVICE, LDAP_GROUP_SEARCH_BASE: "dc=x", LDAP_GROUP_SEARCH_FILTER: "(objectClass=groupOfNames)" },
      "LDAP_GROUP_SEARCH_FILTER",
      /\{dn\}/,
    ],
    ["attribute name with spaces", { ...SERVICE, LDAP_ATTR_EMAIL: "e mail" }, "LDAP_ATTR_EMAIL", /attribute name/],
    ["unknown precedence", { ...SERVICE, LDAP_PRECEDENCE: "both" }, "LDAP_PRECEDENCE", /directory or local/],
    ["timeout not a number", { ...SERVICE, LDAP_TIMEOUT_MS: "5s" }, "LDAP_TIMEOUT_MS", /milliseconds/],
    ["timeout too small", { ...SERVICE, LDAP_TIMEOUT_MS: "10" }, "LDAP_TIMEOUT_MS", /100/],
  ];

  it.each(bad)("refuses %s with one line naming the variable", (_what, env, variable, word) => {
    const m = error(env);
    expect(m.startsWith(`${variable} `)).toBe(true);
    expect(m).toMatch(word);
    expect(m).not.toContain("\n");
    expect(m).not.toContain("svc-secret-value");
  });
});
