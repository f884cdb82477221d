/**
 * SNMP profiles (api/admin/snmpprofiles/ and the YAML import): v2c with a community, or
 * v3 with a user, authentication and optionally privacy. Secrets are write-only.
 */
import { type Checked, type Resource } from "./resource";
import { Issues, choice, flag, given, integer, name, optionalChoice, secret, text } from "./fields";
import type { Row } from "../../db/inventory";
import type { components } from "../../generated/api";
import { bool } from "../../db/flags";

type Input = Record<string, unknown>;
type ProfileRow = Row<"snmp_profiles">;

export const SNMP_VERSIONS = ["2c", "3"] as const;
export const AUTH_PROTOCOLS = ["MD5", "SHA", "SHA-224", "SHA-256", "SHA-384", "SHA-512"] as const;
export const PRIV_PROTOCOLS = ["DES", "AES", "AES-192", "AES-256"] as const;
/** RFC 3414 (USM): a password used to derive a key must be at least 8 octets */
const MIN_V3_KEY = 8;

export const SNMP_PROFILE_FIELDS = [
  "name",
  "description",
  "version",
  "community",
  "read_only",
  "username",
  "auth_protocol",
  "auth_key",
  "priv_protocol",
  "priv_key",
  "context",
  "timeout_ms",
  "retries",
] as const;

export const SNMP_SECRET_COLUMNS = { community: "community_enc", auth_key: "auth_key_enc", priv_key: "priv_key_enc" };

/** The one check of an SNMP profile, for the API and the import alike. */
export function checkSnmpProfile(input: Input, current: ProfileRow | null, issues: Issues): Checked<"snmp_profiles"> {
  // YAML readers write `version: 3` without quotes; that is the same version
  const versionInput = input.version === 3 ? { version: "3" } : input;
  const columns = given({
    name: name(input, issues, current === null),
    description: text(input, "description", issues, { max: 255 }),
    version: choice(versionInput, "version", issues, SNMP_VERSIONS),
    read_only: flag(input, "read_only", issues),
    username: text(input, "username", issues, { max: 128 }),
    auth_protocol: optionalChoice(input, "auth_protocol", issues, AUTH_PROTOCOLS),
    priv_protocol: optionalChoice(input, "priv_protocol", issues, PRIV_PROTOCOLS),
    context: text(input, "context", issues, { max: 128 }),
    timeout_ms: integer(input, "timeout_ms", issues, 100, 60000),
    retries: integer(input, "retries", issues, 0, 10),
  });
  const secrets = given({
    community: secret(input, "community", issues, { max: 255 }),
    auth_key: secret(input, "auth_key", issues, { max: 255 }),
    priv_key: secret(input, "priv_key", issues, { max: 255 }),
  }) as Record<string, string | null>;
  for (const k of ["auth_key", "priv_key"]) {
    const v = secrets[k];
    if (typeof v === "string" && v.length < MIN_V3_KEY)
      issues.invalid(k, `an SNMPv3 key must be at least ${MIN_V3_KEY} characters`);
  }

  // the profile as it will be stored decides what else it needs
  const after = <K extends keyof ProfileRow>(k: K, fallback: ProfileRow[K]): ProfileRow[K] =>
    (columns as Partial<ProfileRow>)[k] !== undefined ? (columns as ProfileRow)[k] : current ? current[k] : fallback;
  const isSet = (field: keyof typeof SNMP_SECRET_COLUMNS) =>
    secrets[field] !== undefined
      ? secrets[field] !== null
      : current !== null && current[SNMP_SECRET_COLUMNS[field] as keyof ProfileRow] !== null;
  const version = after("version", "2c");
  const need = (field: string, why: string) => {
    if (!issues.has(field)) issues.missing(field, why);
  };
  if (version === "2c" && !isSet("community")) need("community", "SNMP version 2c needs a community");
  if (version === "3") {
    if (after("username", "") === "") need("username", "SNMP version 3 needs a username");
    if (after("auth_protocol", null) === null) need("auth_protocol", "SNMP version 3 needs authentication");
    if (!isSet("auth_key")) need("auth_key", "SNMP version 3 needs an authentication key");
    const priv = after("priv_protocol", null);
    if (priv !== null && !isSet("priv_key")) need("priv_key", "a privacy protocol needs a privacy key");
    if (priv === null && secrets.priv_key) need("priv_protocol", "a privacy key needs a privacy protocol");
  }
  return { columns, secrets, relations: [] };
}

export function snmpProfileView(row: ProfileRow): components["schemas"]["SnmpProfile"] {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version as "2c" | "3",
    read_only: bool(row.read_only),
    username: row.username,
    auth_protocol: row.auth_protocol as components["schemas"]["SnmpProfile"]["auth_protocol"],
    priv_protocol: row.priv_protocol as components["schemas"]["SnmpProfile"]["priv_protocol"],
    context: row.context,
    timeout_ms: row.timeout_ms,
    retries: row.retries,
    community_set: row.community_enc !== null,
    auth_key_set: row.auth_key_enc !== null,
    priv_key_set: row.priv_key_enc !== null,
  };
}

export const snmpProfiles: Resource<"snmp_profiles"> = {
  table: "snmp_profiles",
  kind: "SNMP profile",
  invalidId: "Invalid profile id!",
  secretColumns: SNMP_SECRET_COLUMNS,
  check: checkSnmpProfile,
  views: async (_s, rows) => rows.map(snmpProfileView),
};
