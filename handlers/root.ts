/** api/, api/schema/, api/environment/, api/stats/, api/admin/ */
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { callerOf, ok, type Handler } from "./context";
import { databaseVersion } from "../db/connect";
import { hourBucket } from "../db/audit";
import { projectRoot } from "../server/paths";

export const apiRoot: Handler = async (ctx) => {
  const b = `${ctx.baseUrl}/api`;
  const body: Record<string, string> = {
    switches: `${b}/switches/`,
    stats: `${b}/stats/`,
    environment: `${b}/environment/`,
    schema: `${b}/schema/`,
  };
  if (callerOf(ctx).user.is_superuser) body.admin = `${b}/admin/`;
  return ok(body);
};

export const adminRoot: Handler = async (ctx) => {
  const b = `${ctx.baseUrl}/api/admin`;
  return ok({
    users: `${b}/users/`,
    switches: `${b}/switches/`,
    switchgroups: `${b}/switchgroups/`,
    snmpprofiles: `${b}/snmpprofiles/`,
    credentials: `${b}/credentials/`,
    log: `${b}/log/`,
  });
};

export const getSchema: Handler = async (ctx) => ok(ctx.services.spec);

function packageVersion(name: string): string {
  try {
    const file = path.join(projectRoot(), "node_modules", name, "package.json");
    return JSON.parse(fs.readFileSync(file, "utf8")).version;
  } catch {
    return "not installed";
  }
}

const entry = (label: string, value: string) => ({ label, value });

export const getEnvironment: Handler = async (ctx) => {
  const s = ctx.services;
  return ok({
    switchdesk: entry("switchdesk", s.version),
    node: entry("Node.js", process.version.replace(/^v/, "")),
    os: entry("OS", `${os.type()} (${os.release()})`),
    hostname: entry("Hostname", os.hostname()),
    database: entry("Database", await databaseVersion(s.store)),
    database_engine: entry("Database engine", s.store.dialect === "sqlite" ? "SQLite (embedded)" : "MySQL/MariaDB"),
    net_snmp: entry("net-snmp", packageVersion("net-snmp")),
    ssh2: entry("ssh2", packageVersion("ssh2")),
    kysely: entry("Kysely", packageVersion("kysely")),
    express: entry("Express", packageVersion("express")),
    started: entry("Running since", s.startedAt.toISOString()),
  });
};

const DAY = 24 * 3600 * 1000;

export const getStats: Handler = async (ctx) => {
  const r = ctx.services.repos;
  const now = Date.now();
  const startOfDay = new Date(new Date(now).toISOString().slice(0, 10) + "T00:00:00.000Z");
  const windows = {
    last_hour: { label: "Last Hour", since: new Date(now - 3600 * 1000) },
    today: { label: "Today", since: startOfDay },
    last_7_days: { label: "Last 7 Days", since: new Date(now - 7 * DAY) },
    last_31_days: { label: "Last 31 Days", since: new Date(now - 31 * DAY) },
  };
  const stat = (label: string, value: number) => ({ label, value });
  const database: Record<string, { label: string; value: number }> = {
    switches: stat("Switches", await r.inventory.count("switches")),
    switchgroups: stat("Switch Groups", await r.inventory.countGroupsWithSwitches()),
    vlans: stat("VLANs in group lists", await r.inventory.countGroupVlans()),
    snmp_profiles: stat("SNMP Profiles", await r.inventory.count("snmp_profiles")),
    credentials_profiles: stat("Credentials Profiles", await r.inventory.count("credentials")),
    users: stat("Users", await r.users.count()),
    api_tokens: stat("API Tokens", await r.tokens.count()),
    log_entries: stat("Log Entries", await r.audit.count()),
  };
  const usage: Record<string, { label: string; value: number }> = {};
  for (const [key, w] of Object.entries(windows)) {
    const u = await r.usage.summary(hourBucket(w.since));
    const changes = await r.audit.countSince(w.since.toISOString(), true);
    usage[`devices_${key}`] = stat(`Devices ${w.label}`, u.devices);
    usage[`changes_${key}`] = stat(`Changes ${w.label}`, changes);
    usage[`users_${key}`] = stat(`Users ${w.label}`, u.users);
    usage[`api_calls_${key}`] = stat(`API Calls ${w.label}`, u.calls);
  }
  usage.changes_total = stat("Total Changes", await r.audit.countSince(null, true));
  return ok({ database, usage });
};
