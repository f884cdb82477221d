/**
 * The audit log's action names: one typed list, used by every writer of the log and by
 * the statistics (which count device changes). Device actions name what changed on a
 * device; administrative ones are "admin:<object>:<operation>".
 */

export const DEVICE_ACTIONS = [
  "admin_state",
  "poe_state",
  "untagged_vlan",
  "description",
  "save_config",
  "vlan_add",
  "vlan_rename",
  "vlan_delete",
  "tagged_vlans",
  "port_bounce",
  "poe_cycle",
] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

/** what each device action changes, in words (for messages) */
export const DEVICE_ACTION_WORDS: Record<DeviceAction, string> = {
  admin_state: "admin state",
  poe_state: "PoE state",
  untagged_vlan: "untagged VLAN",
  description: "description",
  save_config: "the saved configuration",
  vlan_add: "the VLAN list (a new VLAN)",
  vlan_rename: "a VLAN's name",
  vlan_delete: "the VLAN list (a deleted VLAN)",
  tagged_vlans: "tagged and native VLANs",
  port_bounce: "admin state (a bounce: down, then up)",
  poe_cycle: "PoE state (a power cycle: off, then on)",
};

/** How an attempt that did not succeed is recorded, by its error code. */
export function outcomeOfCode(code: string): SettledOutcome {
  if (code === "device_outcome_unknown") return "unknown";
  // device_busy: the service's own queue was full, nothing was sent: refused like a throttle
  if (code === "device_busy") return "refused";
  if (code === "server_error" || code.startsWith("device_")) return "failure";
  return "refused";
}

/** the administered objects, named as their tables */
export const ADMIN_OBJECTS = ["users", "snmp_profiles", "credentials", "switch_groups", "switches"] as const;
export type AdminObject = (typeof ADMIN_OBJECTS)[number];

export const ADMIN_OPERATIONS = [
  "create",
  "update",
  "delete",
  "unlock",
  "redetect",
  "accept_hostkey",
  "accept_certificate",
] as const;
export type AdminOperation = (typeof ADMIN_OPERATIONS)[number];

export type AdminAction = `admin:${AdminObject}:${AdminOperation}`;

/**
 * A device's SSH host key or TLS certificate pinned at its first contact (trust on first
 * use): never silent, always a row.
 */
export const PIN_ACTIONS = { ssh: "pin_hostkey", tls: "pin_certificate" } as const;
export type PinAction = (typeof PIN_ACTIONS)[keyof typeof PIN_ACTIONS];

/** a failed login (token or web page) */
export const LOGIN_ACTION = "login";

/** a refused request that is neither a device write nor a login: its operationId */
export type RequestAction = `request:${string}`;

export type AuditAction = DeviceAction | AdminAction | PinAction | typeof LOGIN_ACTION | RequestAction;

export function adminAction(object: AdminObject, operation: AdminOperation): AdminAction {
  return `admin:${object}:${operation}`;
}

/**
 * How an attempt ended: done, failed on the device, refused before it, or not known; or
 * "pending": a device write whose row is written and whose device answer is not in yet.
 */
export const AUDIT_OUTCOMES = ["success", "failure", "refused", "unknown", "pending"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];
/** how an attempt ended once known (every outcome but "pending") */
export type SettledOutcome = Exclude<AuditOutcome, "pending">;
