/**
 * What api/environment/ and api/stats/ report: versions of the runtime, the database and
 * the libraries; counts of the inventory and the log; usage in the last hour, today, 7
 * and 31 days. Changes are successful device changes (the audit log's device actions).
 */
import os from "node:os";
import path from "node:path";
import { databaseVersion } from "../db/connect";
import { hourBucket } from "../db/audit";
import { projectRoot, versionOf } from "./paths";
import { DEVICE_ACTIONS } from "../domain/audit-actions";
import type { Services } from "./services";

function packageVersion(name: string): string {
  try {
    return versionOf(path.join(projectRoot(), "node_modules", name, "package.json"));
  } catch {
    return "not installed";
  }
}

const entry = (label: string, value: string) => ({ label, value });

export async function environment(s: Services) {
  return {
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
  };
}

const DAY = 24 * 3600 * 1000;

export async function statistics(s: Services) {
  const r = s.repos;
  // this instance's counts are written first; another instance's last second may not be in yet
  await s.usage.flush();
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
    const changes = await r.audit.countSince(w.since.toISOString(), { outcome: "success", actions: DEVICE_ACTIONS });
    usage[`devices_${key}`] = stat(`Devices ${w.label}`, u.devices);
    usage[`changes_${key}`] = stat(`Changes ${w.label}`, changes);
    usage[`users_${key}`] = stat(`Users ${w.label}`, u.users);
    usage[`api_calls_${key}`] = stat(`API Calls ${w.label}`, u.calls);
  }
  usage.changes_total = stat(
    "Total Changes",
    await r.audit.countSince(null, { outcome: "success", actions: DEVICE_ACTIONS }),
  );
  return { database, usage };
}
