/**
 * Lab switches registered in a test app's inventory: an SNMP profile for them, groups,
 * devices. Tests then drive the real HTTP API against real SNMP on 127.0.0.1.
 */
import { startLabSwitch, type LabSwitch, type LabSwitchOptions } from "../../lab";
import type { TestApp } from "./harness";
import { snmpProfileRow, switchRow } from "../../db/inventory";

export interface GroupSpec {
  name: string;
  read_only?: boolean;
  allow_poe_toggle?: boolean;
  edit_if_descr?: boolean;
  allow_all_vlans?: boolean;
  vlans?: number[];
  users?: number[];
}

export interface DeviceSpec {
  name: string;
  lab: LabSwitch;
  groups: number[];
  read_only?: boolean;
  allow_poe_toggle?: boolean;
  edit_if_descr?: boolean;
  status?: "active" | "inactive";
  driver?: string;
  /** v3 profile instead of v2c */
  v3?: boolean;
  /** the SNMP profile's timeout (default 500 ms) */
  timeoutMs?: number;
}

export async function startLab(opts: LabSwitchOptions = {}): Promise<LabSwitch> {
  return startLabSwitch({ latencyMs: 0, ...opts });
}

/** an SNMP profile for a lab switch (v2c write community, or its v3 user) */
export async function labProfile(app: TestApp, lab: LabSwitch, v3 = false, timeoutMs = 500): Promise<number> {
  const t = lab.snmpTarget({ version: v3 ? "3" : "2c", write: true });
  const name = `lab-${lab.port}-${v3 ? "v3" : "v2c"}-${timeoutMs}`;
  const existing = await app.services.repos.inventory.findByName("snmp_profiles", name);
  if (existing) return existing.id;
  const enc = (v?: string) => (v ? app.services.secrets.encrypt(v) : null);
  const row = await app.services.repos.inventory.create(
    "snmp_profiles",
    snmpProfileRow({
      name,
      version: t.version,
      community_enc: enc(t.community),
      username: t.username ?? "",
      auth_protocol: t.auth_protocol ?? null,
      auth_key_enc: enc(t.auth_key),
      priv_protocol: t.priv_protocol ?? null,
      priv_key_enc: enc(t.priv_key),
      timeout_ms: timeoutMs,
    }),
  );
  return row.id;
}

export async function addGroup(app: TestApp, g: GroupSpec): Promise<number> {
  const row = await app.services.repos.inventory.create(
    "switch_groups",
    {
      name: g.name,
      description: `${g.name} group`,
      display_name: "",
      comments: "",
      read_only: g.read_only ? 1 : 0,
      allow_poe_toggle: g.allow_poe_toggle ? 1 : 0,
      edit_if_descr: g.edit_if_descr === false ? 0 : 1,
      allow_all_vlans: g.allow_all_vlans ? 1 : 0,
    },
    [
      { relation: "vlans", ids: g.vlans ?? [] },
      { relation: "users", ids: g.users ?? [] },
    ],
  );
  return row.id;
}

export async function addDevice(app: TestApp, d: DeviceSpec): Promise<number> {
  const profile = await labProfile(app, d.lab, d.v3, d.timeoutMs);
  const row = await app.services.repos.inventory.create(
    "switches",
    switchRow({
      name: d.name,
      primary_ipv4: "127.0.0.1",
      snmp_port: d.lab.port,
      driver: d.driver ?? "auto",
      snmp_profile_id: profile,
      read_only: d.read_only ? 1 : 0,
      allow_poe_toggle: d.allow_poe_toggle ? 1 : 0,
      edit_if_descr: d.edit_if_descr === false ? 0 : 1,
      status: d.status ?? "active",
    }),
    [{ relation: "groups", ids: d.groups }],
  );
  return row.id;
}
