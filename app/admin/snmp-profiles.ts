/**
 * SNMP profiles (api/admin/switches/snmpprofiles/, its alias api/admin/snmpprofiles/, and
 * the YAML import): v2c with a community, or v3 with a user, authentication and
 * optionally privacy. Secrets are write-only. The API speaks OpenL2M's names and numbers
 * (passphrase, priv_passphrase, context_name, version 2/3, protocols and sec_level as
 * numbers); the inventory and the import keep switchdesk's (auth_key, priv_key, context,
 * "2c"/"3", protocol names).
 */
import { type Checked, type Resource } from "./resource";
import { Issues, choice, flag, given, integer, name, optionalChoice, secret, text } from "./fields";
import { ApiInput, Refused, integerOf, isEmpty, numbered } from "./api-names";
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

/** OpenL2M's numbers of the protocols (its switches/constants.py); null is none (0) */
const AUTH_BY_NUMBER: Record<number, (typeof AUTH_PROTOCOLS)[number] | null> = {
  0: null,
  1: "MD5",
  2: "SHA",
  3: "SHA-224",
  4: "SHA-256",
  5: "SHA-384",
  6: "SHA-512",
};
const PRIV_BY_NUMBER: Record<number, (typeof PRIV_PROTOCOLS)[number] | null> = {
  0: null,
  1: "DES",
  3: "AES",
  4: "AES-192",
  5: "AES-256",
};
const numberOf = <N extends string>(table: Record<number, N | null>, name: string | null): number =>
  Number(Object.entries(table).find(([, n]) => n === name)?.[0] ?? 0);

type SnmpProfileApi = components["schemas"]["SnmpProfile"];

/** what the stored protocols make of a v3 profile: 0 noAuthNoPriv, 1 authNoPriv, 2 authPriv (v2c: 0) */
function secLevel(row: ProfileRow): SnmpProfileApi["sec_level"] {
  if (row.version !== "3" || !row.auth_protocol) return 0;
  return row.priv_protocol ? 2 : 1;
}

export function snmpProfileView(row: ProfileRow): SnmpProfileApi {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version === "3" ? 3 : 2,
    community: null,
    community_set: row.community_enc !== null,
    username: row.username,
    passphrase: null,
    passphrase_set: row.auth_key_enc !== null,
    priv_passphrase: null,
    priv_passphrase_set: row.priv_key_enc !== null,
    auth_protocol: numberOf(AUTH_BY_NUMBER, row.auth_protocol) as SnmpProfileApi["auth_protocol"],
    priv_protocol: numberOf(PRIV_BY_NUMBER, row.priv_protocol) as SnmpProfileApi["priv_protocol"],
    sec_level: secLevel(row),
    context_name: row.context,
    context_engine_id: null,
    udp_port: 161,
    read_only: bool(row.read_only),
    timeout_ms: row.timeout_ms,
    retries: row.retries,
  };
}

const version = (v: unknown): unknown => {
  const n = integerOf(v);
  if (n === 2 || v === "2c") return "2c";
  if (n === 3) return "3";
  return new Refused("expected 2 (SNMP v2c) or 3 (SNMPv3)");
};

const levelOf = (v: unknown): 0 | 1 | 2 | Refused => {
  const n = integerOf(v);
  return n === 0 || n === 1 || n === 2 ? n : new Refused("expected 0 (noAuthNoPriv), 1 (authNoPriv) or 2 (authPriv)");
};

/**
 * OpenL2M's sec_level decides which protocols a v3 profile uses: 1 no privacy, 2 privacy
 * (AES when none is set), 1 and 2 authentication (SHA when none is set): OpenL2M's
 * defaults. A protocol given against the level is refused rather than dropped. A v2c
 * profile has no level (OpenL2M: "don't care"); switchdesk's v3 always authenticates.
 */
function applySecLevel(a: ApiInput, level: 0 | 1 | 2, current: ProfileRow | null): void {
  const out = a.out;
  if ((out.version ?? current?.version ?? "2c") !== "3") return;
  if (level === 0) {
    a.issues.invalid("sec_level", "switchdesk uses SNMPv3 with authentication: sec_level 1 or 2");
    return;
  }
  const against = (field: string, why: string) => a.issues.invalid(a.nameOf(field), why);
  if (out.auth_protocol === null) against("auth_protocol", `sec_level ${level} needs an authentication protocol`);
  else if (out.auth_protocol === undefined && !current?.auth_protocol) out.auth_protocol = "SHA";
  if (level === 1) {
    if (out.priv_protocol) against("priv_protocol", "a privacy protocol needs sec_level 2");
    else out.priv_protocol = null;
  } else if (out.priv_protocol === null) {
    against("priv_protocol", "sec_level 2 needs a privacy protocol");
  } else if (out.priv_protocol === undefined && !current?.priv_protocol) {
    out.priv_protocol = "AES";
  }
}

/** An admin API body (OpenL2M's names, or switchdesk's earlier ones) as the check's input. */
export function snmpProfileFromApi(
  body: Record<string, unknown>,
  current: ProfileRow | null,
  issues: Issues,
): ApiInput {
  const a = new ApiInput(body, issues);
  a.rename("passphrase", "auth_key");
  a.rename("priv_passphrase", "priv_key");
  a.rename("context_name", "context");
  a.nullToEmpty("username");
  a.nullToEmpty("context");
  a.convert("version", version);
  a.convert("auth_protocol", numbered(AUTH_BY_NUMBER, "one of"));
  a.convert("priv_protocol", (v) =>
    integerOf(v) === 6 || integerOf(v) === 7
      ? new Refused("OpenL2M's Cisco variants (6, 7) are not supported: use 4 (AES-192) or 5 (AES-256)")
      : numbered(PRIV_BY_NUMBER, "one of")(v),
  );
  a.onlyWhen("context_engine_id", isEmpty, "switchdesk does not use an SNMPv3 context engine id: leave it empty");
  a.onlyWhen(
    "udp_port",
    (v) => integerOf(v) === 161,
    "only 161: switchdesk takes the SNMP port from the device (set snmp_port on the switch)",
  );
  const level = a.take("sec_level", levelOf);
  if (level !== undefined) applySecLevel(a, level, current);
  return a;
}

export const snmpProfiles: Resource<"snmp_profiles"> = {
  table: "snmp_profiles",
  kind: "SNMP profile",
  invalidId: "Invalid profile id!",
  secretColumns: SNMP_SECRET_COLUMNS,
  check: checkSnmpProfile,
  fromApi: snmpProfileFromApi,
  views: async (_s, rows) => rows.map(snmpProfileView),
};
