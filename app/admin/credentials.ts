/**
 * Credential profiles (OpenL2M's Netmiko profiles: api/admin/switches/netmikoprofiles/,
 * its alias api/admin/credentials/, and the YAML import): a user name with a password
 * and/or a private key, an optional enable password, the TCP port, a Netmiko device type
 * kept for reference, and for the HTTPS API connectors (1, 3) an optional CA file to
 * verify the device's certificate against instead of pinning it. SSH switches (7) and the
 * API drivers (1, 2, 3) log in with them. Secrets are write-only. The API says tcp_port
 * where the inventory and the import say port.
 */
import { type Checked, type Resource } from "./resource";
import { Issues, given, integer, name, secret, text } from "./fields";
import { ApiInput, integerOf } from "./api-names";
import { caPathProblem, readCaFileSync } from "../ca-file";
import type { Row } from "../../db/inventory";
import type { components } from "../../generated/api";

type Input = Record<string, unknown>;
type CredentialRow = Row<"credentials">;

export const CREDENTIAL_FIELDS = [
  "name",
  "description",
  "username",
  "password",
  "private_key",
  "enable_password",
  "port",
  "device_type",
  "ca_file",
] as const;

export const CREDENTIAL_SECRET_COLUMNS = {
  password: "password_enc",
  private_key: "private_key_enc",
  enable_password: "enable_password_enc",
};

// PEM ("-----BEGIN RSA PRIVATE KEY-----") and OpenSSH ("-----BEGIN OPENSSH PRIVATE KEY-----")
/** Netmiko's device type names: lower case letters, digits and underscores */
const DEVICE_TYPE = /^[a-z0-9_]*$/;

const PRIVATE_KEY = /^\s*-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]+-----END [A-Z0-9 ]*PRIVATE KEY-----\s*$/;

/** The one check of a credential profile, for the API and the import alike. */
export function checkCredential(input: Input, current: CredentialRow | null, issues: Issues): Checked<"credentials"> {
  const columns = given({
    name: name(input, issues, current === null),
    description: text(input, "description", issues, { max: 255 }),
    username: text(input, "username", issues, { max: 128 }),
    port: integer(input, "port", issues, 1, 65535),
    device_type: text(input, "device_type", issues, { max: 64 }),
    ca_file: caFileSetting(input, issues),
  });
  if (columns.device_type !== undefined && !DEVICE_TYPE.test(columns.device_type))
    issues.invalid("device_type", "expected a Netmiko device type (lower case letters, digits and _)");
  const secrets = given({
    // passwords are typed on device command lines: no line breaks there
    password: secret(input, "password", issues, { max: 255 }),
    enable_password: secret(input, "enable_password", issues, { max: 255 }),
    // a key file has lines
    private_key: secret(input, "private_key", issues, { max: 16384, multiline: true }),
  }) as Record<string, string | null>;
  if (typeof secrets.private_key === "string" && !PRIVATE_KEY.test(secrets.private_key)) {
    issues.invalid("private_key", "expected a private key in PEM or OpenSSH format");
  }
  return { columns, secrets, relations: [] };
}

/**
 * ca_file: "" or null for none (the certificate is pinned); otherwise an absolute path to
 * a PEM file of CA certificates that is read now, so a path that would fail every call is
 * refused at once (calls read it again: docs/api-decisions.md section 17).
 */
function caFileSetting(input: Input, issues: Issues): string | undefined {
  if (input.ca_file === null) return "";
  const file = text(input, "ca_file", issues, { max: 1024 });
  if (file === undefined || file === "") return file;
  const badPath = caPathProblem(file);
  if (badPath) return void issues.invalid("ca_file", badPath);
  const answer = readCaFileSync(file);
  if ("problem" in answer) return void issues.invalid("ca_file", `${file} ${answer.problem}`);
  return file;
}

export function credentialView(row: CredentialRow): components["schemas"]["NetmikoProfile"] {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    username: row.username,
    password: null,
    password_set: row.password_enc !== null,
    enable_password: null,
    enable_password_set: row.enable_password_enc !== null,
    private_key: null,
    private_key_set: row.private_key_enc !== null,
    device_type: row.device_type,
    tcp_port: row.port,
    verify_hostkey: true,
    ca_file: row.ca_file,
  };
}

/** An admin API body (OpenL2M's names, or switchdesk's earlier port) as the check's input. */
export function credentialFromApi(body: Record<string, unknown>, _current: CredentialRow | null, issues: Issues) {
  const a = new ApiInput(body, issues);
  a.rename("tcp_port", "port");
  a.convert("port", integerOf);
  a.nullToEmpty("username");
  a.nullToEmpty("device_type");
  a.onlyWhen(
    "verify_hostkey",
    (v) => v === true,
    "switchdesk always verifies SSH host keys (pinned at the first contact, a changed key refused until an administrator accepts it)",
  );
  return a;
}

export const credentials: Resource<"credentials"> = {
  table: "credentials",
  kind: "Credential profile",
  invalidId: "Invalid profile id!",
  secretColumns: CREDENTIAL_SECRET_COLUMNS,
  check: checkCredential,
  fromApi: credentialFromApi,
  views: async (_s, rows) => rows.map(credentialView),
};
