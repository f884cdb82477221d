/**
 * Devices of the inventory (api/admin/switches/ and the YAML import): how to reach them
 * (addresses, SNMP port, connector, driver, profiles), their flags and their groups. A
 * switch on an API connector (1 AOS-CX REST, 2 Junos NETCONF, 3 Arista eAPI) logs in with
 * a credential profile and names its driver (the connector's only one when left out).
 * driver_info and lab are the service's own columns and never come from outside. The API
 * speaks OpenL2M's names (primary_ip4, primary_ip6, netmiko_profile, status 1/0); the
 * inventory and the import keep switchdesk's (primary_ipv4, primary_ipv6,
 * credentials_profile, "active"/"inactive").
 */
import net from "node:net";
import { checkIds, type Checked, type Resource } from "./resource";
import { Issues, choice, flag, given, integer, name, text } from "./fields";
import { idList } from "./parse";
import { ApiInput, Refused, integerOf, isEmpty } from "./api-names";
import { connectorsWithDrivers, driverNamesFor } from "../../drivers/registry";
import type { RelationIds, Row } from "../../db/inventory";
import { connectorWords } from "../../domain/records";
import type { Services } from "../services";
import type { components } from "../../generated/api";
import { bool } from "../../db/flags";

type Input = Record<string, unknown>;
type SwitchRow = Row<"switches">;
type AdminSwitch = components["schemas"]["AdminSwitch"];

/** the fields the check reads; snmp_profile, credentials_profile and groups are references */
export const SWITCH_FIELDS = [
  "name",
  "hostname",
  "description",
  "comments",
  "nms_id",
  "primary_ipv4",
  "primary_ipv6",
  "snmp_port",
  "connector_type",
  "driver",
  "read_only",
  "allow_poe_toggle",
  "edit_if_descr",
  "status",
  "default_view",
  "bulk_edit",
] as const;

export const SWITCH_STATUSES = ["active", "inactive"] as const;
export const DEFAULT_VIEWS = [0, 1] as const;

export function driverNames(): string[] {
  return [...new Set(connectorsWithDrivers().flatMap((c) => driverNamesFor(c)))];
}

/** A connector number the service has a driver for: anything else is refused, never stored and ignored. */
function connector(input: Input, issues: Issues): number | undefined {
  const v = input.connector_type;
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v))
    return void issues.invalid("connector_type", "expected a connector number");
  if (!connectorsWithDrivers().includes(v)) return void issues.reason("connector_type", `No driver for connector ${v}`);
  return v;
}

/**
 * The driver a switch gets: the one it names; else the one it has, when that speaks over
 * its connector; else the connector's only driver (the API connectors have one each).
 * Null: it must name one (none given, and the connector has several or none).
 */
export function driverFor(named: string | undefined, kept: string, allowed: readonly string[]): string | null {
  if (named !== undefined) return named;
  if (allowed.includes(kept)) return kept;
  return allowed.length === 1 ? allowed[0] : null;
}

/** The driver must speak over the switch's connector ("auto" only where a probe can choose). */
function checkDriverForConnector(
  columns: { connector_type?: number; driver?: string },
  current: SwitchRow | null,
  issues: Issues,
): void {
  if (issues.has("connector_type") || issues.has("driver")) return;
  const connectorType = columns.connector_type ?? current?.connector_type ?? 0;
  const allowed = driverNamesFor(connectorType);
  const kept = current?.driver ?? "auto";
  const chosen = driverFor(columns.driver, kept, allowed);
  if (chosen !== null && columns.driver === undefined && chosen !== kept) columns.driver = chosen;
  const driver = chosen ?? kept;
  if (!allowed.includes(driver)) {
    issues.invalid(
      "driver",
      `driver '${driver}' does not speak over connector ${connectorType}; one of ${allowed.join(", ")}`,
    );
  }
}

/** The connectors whose drivers log in with a credential profile's user name and password (the API drivers). */
export const API_CONNECTORS: Readonly<Record<number, { https: boolean }>> = {
  1: { https: true },
  2: { https: false },
  3: { https: true },
};

export function isApiConnector(connector: number): boolean {
  return Object.prototype.hasOwnProperty.call(API_CONNECTORS, connector);
}

/** What the profile rule needs to know of a credential profile (stored, or as a YAML file will leave it). */
export interface ProfileFacts {
  name: string;
  username: string;
  port: number;
  password: boolean;
  privateKey: boolean;
}

export function profileFacts(row: Row<"credentials">): ProfileFacts {
  return {
    name: row.name,
    username: row.username,
    port: row.port,
    password: row.password_enc !== null,
    privateKey: row.private_key_enc !== null,
  };
}

/** the SSH port, a credential profile's default: never an HTTPS API's */
const SSH_PORT = 22;

/**
 * The one rule of a switch on an API connector and its credential profile, for the admin
 * API and the YAML import alike: a profile is required, with a user name and a password
 * (NETCONF: or a private key); an HTTPS connector is not sent to SSH's port 22 (a profile
 * made without a port has 22: the administrator says 443, or the device's own port). The
 * port is the profile's, never guessed (docs/api-decisions.md section 17).
 */
export function checkConnectorProfile(
  connector: number,
  profile: ProfileFacts | null,
  issues: Issues,
  field = "credentials_profile",
): void {
  const api = API_CONNECTORS[connector];
  if (!api) return;
  const what = connectorWords(connector);
  if (!profile)
    return issues.missing(field, `${what} logs in with a credential profile: its username, password and port`);
  const named = `credential profile '${profile.name}'`;
  if (!profile.username) issues.invalid(field, `${named} has no username; ${what} logs in with one`);
  if (api.https && !profile.password)
    issues.invalid(field, `${named} has no password; ${what} logs in with a username and password`);
  if (!api.https && !profile.password && !profile.privateKey)
    issues.invalid(field, `${named} has neither a password nor a private key; ${what} logs in with one`);
  if (api.https && profile.port === SSH_PORT)
    issues.invalid(
      field,
      `${named} has port ${SSH_PORT} (SSH's); ${what} speaks HTTPS: set the profile's port (tcp_port) to the switch's HTTPS port, usually 443`,
    );
}

// a DNS name (letters, digits, '-', '_' in dot-separated labels) or an address literal
const HOST_LABEL = /^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
function validHostname(h: string): boolean {
  if (net.isIP(h)) return true;
  const labels = h.replace(/\.$/, "").split(".");
  return h.length <= 253 && labels.every((l) => HOST_LABEL.test(l));
}

/** an address field: "" and null mean none */
function address(
  input: Input,
  field: string,
  issues: Issues,
  valid: (s: string) => boolean,
  what: string,
): string | null | undefined {
  const v = input[field];
  if (v === undefined) return undefined;
  if (v === null || v === "") return null;
  if (typeof v !== "string" || !valid(v.trim())) return void issues.invalid(field, `not a valid ${what} address`);
  return v.trim();
}

/** The one check of a device, for the API and the import alike. */
export function checkSwitch(input: Input, current: SwitchRow | null, issues: Issues): Checked<"switches"> {
  const hostname = text(input, "hostname", issues, { max: 255 })?.trim();
  if (hostname && !validHostname(hostname)) issues.invalid("hostname", "not a valid host name or address");
  const columns = given({
    name: name(input, issues, current === null),
    hostname,
    description: text(input, "description", issues, { max: 255 }),
    comments: text(input, "comments", issues, { max: 10000, multiline: true }),
    nms_id: text(input, "nms_id", issues, { max: 128 }),
    primary_ipv4: address(input, "primary_ipv4", issues, net.isIPv4, "IPv4"),
    primary_ipv6: address(input, "primary_ipv6", issues, net.isIPv6, "IPv6"),
    snmp_port: integer(input, "snmp_port", issues, 1, 65535),
    connector_type: connector(input, issues),
    driver: choice(input, "driver", issues, driverNames()),
    read_only: flag(input, "read_only", issues),
    allow_poe_toggle: flag(input, "allow_poe_toggle", issues),
    edit_if_descr: flag(input, "edit_if_descr", issues),
    status: choice(input, "status", issues, SWITCH_STATUSES),
    default_view: choice(input, "default_view", issues, DEFAULT_VIEWS),
    bulk_edit: flag(input, "bulk_edit", issues),
  });
  checkDriverForConnector(columns, current, issues);
  // a change of how the switch is reached makes what "auto" chose stale: probe again
  const reach = ["connector_type", "driver", "primary_ipv4", "hostname", "snmp_port"] as const;
  if (current && reach.some((k) => columns[k] !== undefined && columns[k] !== current[k])) {
    Object.assign(columns, { detected_driver: null, detected_sysobjectid: null });
  }
  return { columns, secrets: {}, relations: [] };
}

/** a profile id, or null (JSON null, or "" from a form) */
async function profileRef(
  s: Services,
  body: Input,
  field: string,
  table: "snmp_profiles" | "credentials",
  what: string,
  issues: Issues,
) {
  const v = body[field];
  if (v === undefined) return undefined;
  if (v === null || v === "") return null;
  const id = typeof v === "number" ? v : typeof v === "string" && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(id)) return void issues.invalid(field, "expected a profile id or null");
  await checkIds(s, table, [id], field, what, issues);
  return id;
}

/**
 * The profile rule (checkConnectorProfile) when a switch is created, or its connector or
 * credential profile changes: an update of another field of a switch whose profile changed
 * since is not refused for it (the call then says what is missing).
 */
async function checkProfileOfApiSwitch(
  s: Services,
  body: Input,
  profileId: number | null | undefined,
  current: SwitchRow | null,
  issues: Issues,
): Promise<void> {
  const connectorGiven = body.connector_type !== undefined;
  if (current && !connectorGiven && profileId === undefined) return;
  if (issues.has("credentials_profile")) return;
  const connector = connectorGiven ? body.connector_type : (current?.connector_type ?? 0);
  if (typeof connector !== "number" || !isApiConnector(connector)) return;
  const id = profileId !== undefined ? profileId : (current?.credentials_profile_id ?? null);
  const row = id === null ? null : await s.repos.inventory.get("credentials", id);
  checkConnectorProfile(connector, row ? profileFacts(row) : null, issues);
}

/** OpenL2M's status numbers: 1 active, 0 offline (its other states are not switchdesk's) */
const status = (v: unknown): unknown => {
  const n = integerOf(v);
  if (n === 1 || v === "active") return "active";
  if (n === 0 || v === "inactive") return "inactive";
  return new Refused("expected 1 (active) or 0 (inactive)");
};

/** An admin API body (OpenL2M's names, or switchdesk's earlier ones) as the check's input. */
export function switchFromApi(body: Input, _current: SwitchRow | null, issues: Issues): ApiInput {
  const a = new ApiInput(body, issues);
  a.rename("primary_ip4", "primary_ipv4");
  a.rename("primary_ip6", "primary_ipv6");
  a.rename("netmiko_profile", "credentials_profile");
  a.convert("status", status);
  a.nullToEmpty("hostname");
  a.nullToEmpty("nms_id");
  a.onlyWhen("napalm_device_type", isEmpty, "switchdesk has no Napalm connector: leave it empty");
  a.onlyWhen("command_list", isEmpty, "switchdesk has no command lists: leave it empty");
  a.onlyWhen("command_templates", isEmpty, "switchdesk has no command templates: leave it empty");
  return a;
}

export const switches: Resource<"switches"> = {
  table: "switches",
  kind: "Switch",
  invalidId: "Invalid switch id!",
  secretColumns: {},
  check: checkSwitch,
  fromApi: switchFromApi,
  async references(s, body, issues, current) {
    const refs = given({
      snmp_profile_id: await profileRef(s, body, "snmp_profile", "snmp_profiles", "SNMP profile", issues),
      credentials_profile_id: await profileRef(
        s,
        body,
        "credentials_profile",
        "credentials",
        "credential profile",
        issues,
      ),
    });
    await checkProfileOfApiSwitch(s, body, refs.credentials_profile_id, current, issues);
    // another SNMP profile may reach another agent: what "auto" chose is probed again
    const columns =
      refs.snmp_profile_id !== undefined ? { ...refs, detected_driver: null, detected_sysobjectid: null } : refs;
    const relations: RelationIds[] = [];
    if (body.switchgroups !== undefined) {
      const ids = idList(body.switchgroups, "switchgroups");
      await checkIds(s, "switch_groups", ids, "switchgroups", "switch group", issues);
      relations.push({ relation: "groups", ids });
    }
    return { columns, relations };
  },
  async views(s, rows) {
    const inv = s.repos.inventory;
    let groupsOf: (id: number) => number[];
    if (rows.length === 1) {
      const mine = await inv.groupsOfSwitch(rows[0].id);
      groupsOf = () => mine;
    } else {
      // group -> switches, turned around
      const bySwitch = new Map<number, number[]>();
      for (const [g, members] of await inv.relationMap("switches")) {
        for (const sw of members) bySwitch.set(sw, [...(bySwitch.get(sw) ?? []), g]);
      }
      groupsOf = (id) => (bySwitch.get(id) ?? []).sort((a, b) => a - b);
    }
    return rows.map((r): AdminSwitch => ({
      id: r.id,
      name: r.name,
      description: r.description,
      comments: r.comments,
      hostname: r.hostname,
      nms_id: r.nms_id,
      primary_ip4: r.primary_ipv4,
      primary_ip6: r.primary_ipv6,
      connector_type: r.connector_type as AdminSwitch["connector_type"],
      napalm_device_type: "",
      snmp_profile: r.snmp_profile_id,
      netmiko_profile: r.credentials_profile_id,
      command_list: null,
      command_templates: [],
      read_only: bool(r.read_only),
      bulk_edit: bool(r.bulk_edit),
      allow_poe_toggle: bool(r.allow_poe_toggle),
      edit_if_descr: bool(r.edit_if_descr),
      status: r.status === "inactive" ? 0 : 1,
      default_view: r.default_view as AdminSwitch["default_view"],
      switchgroups: groupsOf(r.id),
      snmp_port: r.snmp_port,
      driver: r.driver,
      detected_driver: r.detected_driver,
      detected_sysobjectid: r.detected_sysobjectid,
      ssh_host_key: r.ssh_host_key,
      ssh_host_key_accepted: r.ssh_host_key_accepted,
      ssh_host_key_presented: r.ssh_host_key_presented,
      tls_certificate: r.tls_certificate,
      tls_certificate_accepted: r.tls_certificate_accepted,
      tls_certificate_presented: r.tls_certificate_presented,
    }));
  },
};
