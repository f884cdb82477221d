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
] as const;
export type DeviceAction = (typeof DEVICE_ACTIONS)[number];

/** the administered objects, named as their tables */
export const ADMIN_OBJECTS = ["users", "snmp_profiles", "credentials", "switch_groups", "switches"] as const;
export type AdminObject = (typeof ADMIN_OBJECTS)[number];

export const ADMIN_OPERATIONS = ["create", "update", "delete", "unlock", "redetect", "accept_hostkey"] as const;
export type AdminOperation = (typeof ADMIN_OPERATIONS)[number];

export type AdminAction = `admin:${AdminObject}:${AdminOperation}`;

export function adminAction(object: AdminObject, operation: AdminOperation): AdminAction {
  return `admin:${object}:${operation}`;
}

/** How an attempt ended: done, failed on the device, refused before it, or not known. */
export type AuditOutcome = "success" | "failure";
