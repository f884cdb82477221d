/**
 * The database schema as Kysely types. Booleans are stored as 0/1 integers and
 * timestamps as ISO 8601 UTC strings in both dialects, so rows read back the same on
 * SQLite and MariaDB; repositories turn them into API values.
 */
import type { Generated } from "kysely";

type Bool = number; // 0 | 1

export interface UsersTable {
  id: Generated<number>;
  username: string;
  password: string;
  first_name: string;
  last_name: string;
  email: string;
  date_joined: string;
  last_login: string | null;
  is_active: Bool;
  is_staff: Bool;
  is_superuser: Bool;
}

export interface ProfilesTable {
  user_id: number;
  allow_poe_toggle: Bool;
  are_you_sure: Bool;
  bulk_edit: Bool;
  edit_if_descr: Bool;
  read_only: Bool;
  vlan_edit: Bool;
  theme: string;
  last_ldap_dn: string;
  last_ldap_login: string | null;
  ldap_linked: Bool;
  ldap_checked: string | null;
}

export interface TokensTable {
  id: Generated<number>;
  user_id: number;
  key_hash: string;
  created: string;
  expires: string | null;
  last_used: string | null;
  write_enabled: Bool;
  description: string;
}

export interface SessionsTable {
  id: Generated<number>;
  key_hash: string;
  user_id: number;
  csrf_token: string;
  created: string;
  expires: string;
}

export interface SwitchGroupsTable {
  id: Generated<number>;
  name: string;
  description: string;
  display_name: string;
  comments: string;
  read_only: Bool;
  allow_poe_toggle: Bool;
  edit_if_descr: Bool;
  allow_all_vlans: Bool;
  /** migration 0009 (OpenL2M's flag): several ports of the group's devices may be edited at once */
  bulk_edit: Generated<Bool>;
}

export interface GroupUsersTable {
  group_id: number;
  user_id: number;
}

export interface GroupSwitchesTable {
  group_id: number;
  switch_id: number;
}

export interface GroupVlansTable {
  group_id: number;
  vlan_id: number;
}

export interface SnmpProfilesTable {
  id: Generated<number>;
  name: string;
  description: string;
  version: string;
  community_enc: string | null;
  read_only: Bool;
  username: string;
  auth_protocol: string | null;
  auth_key_enc: string | null;
  priv_protocol: string | null;
  priv_key_enc: string | null;
  context: string;
  timeout_ms: number;
  retries: number;
}

export interface CredentialsTable {
  id: Generated<number>;
  name: string;
  description: string;
  username: string;
  password_enc: string | null;
  private_key_enc: string | null;
  enable_password_enc: string | null;
  port: number;
  /** migration 0009: OpenL2M's Netmiko device type, kept for its admin API; the device's driver decides */
  device_type: Generated<string>;
  /** migration 0010: a PEM file of CA certificates that HTTPS devices are verified against ("" none: pinned) */
  ca_file: Generated<string>;
}

export interface SwitchesTable {
  id: Generated<number>;
  name: string;
  hostname: string;
  description: string;
  comments: string;
  nms_id: string;
  primary_ipv4: string | null;
  primary_ipv6: string | null;
  snmp_port: number;
  connector_type: number;
  driver: string;
  snmp_profile_id: number | null;
  credentials_profile_id: number | null;
  read_only: Bool;
  allow_poe_toggle: Bool;
  edit_if_descr: Bool;
  status: string;
  default_view: number;
  driver_info: string;
  /** set for switches the built-in lab created, so they can be told apart */
  lab: Bool;
  /** what driver "auto" chose, and the sysObjectID it chose by (null before the first contact) */
  detected_driver: string | null;
  detected_sysobjectid: string | null;
  /** SSH: the pinned host key fingerprint (SHA256:...) and when it was accepted */
  ssh_host_key: string | null;
  ssh_host_key_accepted: string | null;
  /** SSH: a different key the device presented, waiting for an admin to accept it */
  ssh_host_key_presented: string | null;
  /** migration 0009 (OpenL2M's flag): several ports of the device may be edited at once */
  bulk_edit: Generated<Bool>;
  /** migration 0010, HTTPS API connectors: the pinned certificate fingerprint (SHA-256, "AB:CD:...") and when it was accepted */
  tls_certificate: string | null;
  tls_certificate_accepted: string | null;
  /** HTTPS: a different certificate the device presented, waiting for an admin to accept it */
  tls_certificate_presented: string | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  time: string;
  user_id: number | null;
  username: string;
  source_address: string;
  switch_id: number | null;
  switch_name: string;
  group_id: number | null;
  interface: string;
  action: string;
  old_value: string;
  new_value: string;
  /** how the attempt ended (the spec's LogEntry outcome); "pending": a device write not settled yet */
  outcome: "success" | "failure" | "refused" | "unknown" | "pending";
  code: string | null;
  message: string;
  /** the write lease a pending device write ran under ('' for every other row); not in the API */
  write_lease: Generated<string>;
  /** migration 0011: the batch this row belongs to (app/port-batch.ts); null for a lone write */
  batch_id: Generated<string | null>;
}

/**
 * Migration 0011: a port (kind "bounce") or its PoE ("poe_cycle") that a bounce or power
 * cycle switched off under write lease `write_lease` and has not switched on again yet
 * (app/port-cycles.ts). The device's next lease holder switches it on and audits it.
 */
export interface PendingPortUpsTable {
  id: Generated<number>;
  switch_id: number;
  /** the driver's interface id (ifIndex, or the name for command-line drivers) */
  interface_id: string;
  interface_name: string;
  kind: "bounce" | "poe_cycle";
  write_lease: string;
  batch_id: string | null;
  username: string;
  /** ISO time it was switched off */
  created: string;
}

/** API calls per hour, user and switch (0 = none), for api/stats/. */
/** API calls per hour, instance, user and switch (0 for none); migration 0013 added the instance */
export interface UsageTable {
  hour: string; // YYYY-MM-DDTHH
  /** the instance that counted them (app/instance-presence.ts instanceName) */
  instance: string;
  user_id: number;
  switch_id: number;
  calls: number;
}

/** The inventory's version (migration 0014): one row, id 1, raised with every inventory change. */
export interface InventoryVersionTable {
  id: number;
  version: number;
}

/**
 * One login attempt (migration 0008): its username and client address keys (SHA-256),
 * its time, and whether its password check is still running. A successful attempt is
 * deleted; `user_hash` is emptied when a success or an unlock forgets the username's
 * failures, so the row still counts for its address.
 */
export interface LoginAttemptsTable {
  id: Generated<number>;
  user_hash: string;
  addr_hash: string;
  time_ms: number;
  pending: number;
}

/** A row per throttle key, locked while an attempt takes its place in the counts. */
export interface LoginThrottleKeysTable {
  key_hash: string;
  stamp: Generated<number>;
  touched_ms: number;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  tokens: TokensTable;
  sessions: SessionsTable;
  switch_groups: SwitchGroupsTable;
  group_users: GroupUsersTable;
  group_switches: GroupSwitchesTable;
  group_vlans: GroupVlansTable;
  snmp_profiles: SnmpProfilesTable;
  credentials: CredentialsTable;
  switches: SwitchesTable;
  audit_log: AuditLogTable;
  usage_counts: UsageTable;
  inventory_version: InventoryVersionTable;
  login_attempts: LoginAttemptsTable;
  login_throttle_keys: LoginThrottleKeysTable;
  settings: SettingsTable;
  device_leases: LeasesTable;
  migration_lease: LeasesTable;
  pending_port_ups: PendingPortUpsTable;
}

/**
 * A lease by name: who holds it (instance and request) until when (ms since the epoch,
 * the holder's clock). `device_leases` orders the writes to one device across instances;
 * `migration_lease` lets one instance at a time migrate (created outside the migrations).
 */
export interface LeasesTable {
  name: string;
  /** "" when free */
  owner: string;
  expires_ms: number;
  /** when the present holder took it (ISO) */
  since: string;
}

/** Settings of the database itself (the secret key's check value). */
export interface SettingsTable {
  name: string;
  value: string;
}
