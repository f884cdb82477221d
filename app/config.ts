/** Configuration comes from the environment only; every name is documented in the README. */
import path from "node:path";
import type { Policy } from "../domain/access";
import { parseAddressList } from "../domain/addresses";
import { loadDirectoryConfig, type DirectoryConfig } from "./directory/config";
import { loadPortProtection, loadAuditRetention, type AuditRetentionConfig } from "./protection-config";
import type { PortProtection } from "../domain/port-protection";
import { LOG_LEVELS, type LogLevel } from "./telemetry";
import { loadFindConfig, type FindConfig } from "./find-config";

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  adminUser: string;
  adminPassword: string | undefined;
  secretKey: string | undefined;
  secretKeyFile: string;
  /** auto: the lab starts when the inventory is empty; off: never; on: always */
  demo: "auto" | "off" | "on";
  apiMaxTokens: number;
  /** ms, null = tokens do not expire */
  apiTokenLifetimeMs: number | null;
  sessionLifetimeMs: number;
  loginMaxFailures: number;
  loginWindowMs: number;
  /** LOGIN_DELAY_STEP_MS: wait added per counted failed login before the next check (domain/throttle.ts) */
  loginDelayStepMs: number;
  /** PASSWORD_MIN_LENGTH: the shortest password a local account may be given */
  passwordMinLength: number;
  /** also allow PoE toggling everywhere (OpenL2M's ALWAYS_ALLOW_POE_TOGGLE) */
  alwaysAllowPoeToggle: boolean;
  /** superusers may change trunks (OpenL2M's ALLOW_TAGS_EDIT; on by default) */
  allowTagsEdit: boolean;
  /** staff users may change trunks too (OpenL2M's STAFF_ALLOW_TAGS_EDIT; off by default, needs ALLOW_TAGS_EDIT) */
  staffAllowTagsEdit: boolean;
  /** behind https: mark cookies Secure */
  secureCookies: boolean;
  /**
   * TRUSTED_PROXIES: addresses and networks of the reverse proxies whose X-Forwarded-For,
   * -Proto and -Host are read (domain/addresses.ts); empty: none, the socket's peer is the client
   */
  trustedProxies: string[];
  /** scheme://host[:port] for the absolute URLs of answers (BASE_URL); null: trusted headers, else the address the request came in on */
  baseUrl: string | null;
  maxBodyBytes: number;
  /** SNMP requests (SSH sessions of API calls) in flight to one device at most, across all calls */
  deviceConcurrency: number;
  /** writes to one device across instances (app/write-lease.ts): lease lifetime, longest wait for a turn */
  deviceLeaseMs: number;
  deviceWriteWaitMs: number;
  /** requests that may wait for one device; a new call beyond it is 503 device_busy */
  deviceQueueLimit: number;
  /** directory login (LDAP_*, app/directory/config.ts); null = off */
  directory: DirectoryConfig | null;
  /** LOG_LEVEL: the JSON log's threshold (info by default) */
  logLevel: LogLevel;
  /** SHUTDOWN_TIMEOUT (s): how long SIGTERM waits for requests and device writes in flight */
  shutdownTimeoutMs: number;
  /** METRICS_ALLOW: the client addresses or networks that may read /metrics ("all": anyone) */
  metricsAllow: string[] | "all";
  /** OpenL2M's port protections and description guards (IFACE_*, HIDE_NONE_ETHERNET_INTERFACES; app/protection-config.ts) */
  portProtection: PortProtection;
  /** LOG_MAX_AGE and how the service removes older audit rows (app/audit-retention.ts) */
  auditRetention: AuditRetentionConfig;
  /** FIND_*: where is it plugged in (app/find-config.ts) */
  find: FindConfig;
}

function int(v: string | undefined, fallback: number, name: string): number {
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer (got "${v}")`);
  return n;
}

function atLeastOne(n: number, name: string): number {
  if (n < 1) throw new Error(`${name} must be at least 1 (got ${n})`);
  return n;
}

/** SWITCHDESK_DEMO: auto (default), 0/off/false/no, 1/on/true/yes; anything else is a mistake worth saying */
function demoMode(v: string | undefined): Config["demo"] {
  const raw = (v ?? "").trim().toLowerCase();
  if (raw === "" || raw === "auto") return "auto";
  if (/^(0|false|no|off)$/.test(raw)) return "off";
  if (/^(1|true|yes|on)$/.test(raw)) return "on";
  throw new Error(`SWITCHDESK_DEMO must be auto, 0 (never) or 1 (always) (got "${v}")`);
}

function flag(v: string | undefined, fallback: boolean): boolean {
  if (v === undefined || v === "") return fallback;
  return /^(1|true|yes|on)$/i.test(v);
}

/** BASE_URL: an http(s) origin (a path prefix is not supported), kept without a trailing slash */
function baseUrl(v: string | undefined): string | null {
  if (v === undefined || v === "") return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(
      `BASE_URL must be an absolute http or https URL such as https://switchdesk.example.net (got "${v}")`,
    );
  }
  if (
    (u.protocol !== "http:" && u.protocol !== "https:") ||
    u.username ||
    u.password ||
    u.search ||
    u.hash ||
    (u.pathname !== "/" && u.pathname !== "")
  ) {
    throw new Error(`BASE_URL must be a scheme and host only, such as https://switchdesk.example.net (got "${v}")`);
  }
  return u.origin;
}

function logLevel(v: string | undefined): LogLevel {
  const level = (v || "info").toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level))
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${v}")`);
  return level as LogLevel;
}

/** a list of addresses and CIDR networks (10.0.0.0/8, fd00::/8) separated by commas, checked */
function addressList(v: string, name: string, orElse = ""): string[] {
  const parsed = parseAddressList(v);
  if ("bad" in parsed)
    throw new Error(
      `${name} must be ${orElse}addresses and networks such as 127.0.0.1, 10.0.0.0/8, ::1 (got "${parsed.bad}")`,
    );
  return v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
}

/** METRICS_ALLOW: "all", or addresses and networks */
function metricsAllow(v: string | undefined): string[] | "all" {
  const text = v || "127.0.0.1, ::1";
  if (/^\s*(all|\*)\s*$/i.test(text)) return "all";
  return addressList(text, "METRICS_ALLOW", '"all" or ');
}

/**
 * TRUSTED_PROXIES: the proxies in front of this service. The former on/off TRUST_PROXY
 * trusted whatever the socket's peer was, so it is refused when on (naming the new
 * setting) rather than guessed at: a wrong guess would hand the client's choice of
 * address to the login throttle, METRICS_ALLOW and the audit log.
 */
function trustedProxies(v: string | undefined, legacy: string | undefined): string[] {
  if (legacy !== undefined && legacy !== "" && !/^(0|false|no|off)$/i.test(legacy.trim())) {
    throw new Error(
      `TRUST_PROXY is no longer read: list the reverse proxies' addresses in TRUSTED_PROXIES instead, e.g. TRUSTED_PROXIES=127.0.0.1, ::1 (got TRUST_PROXY="${legacy}")`,
    );
  }
  return addressList(v ?? "", "TRUSTED_PROXIES");
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const demo = demoMode(env.SWITCHDESK_DEMO);
  const lifetimeS = int(env.API_TOKEN_LIFETIME, 0, "API_TOKEN_LIFETIME");
  return {
    port: int(env.PORT, 8000, "PORT"),
    host: env.HOST || "127.0.0.1",
    databaseUrl: env.DATABASE_URL || "sqlite:./data/switchdesk.db",
    adminUser: env.SWITCHDESK_ADMIN_USER || "admin",
    adminPassword: env.SWITCHDESK_ADMIN_PASSWORD || undefined,
    secretKey: env.SWITCHDESK_SECRET_KEY || undefined,
    secretKeyFile: path.resolve(env.SWITCHDESK_SECRET_KEY_FILE || "./data/secret.key"),
    demo,
    apiMaxTokens: int(env.API_MAX_TOKENS, 10, "API_MAX_TOKENS"),
    apiTokenLifetimeMs: lifetimeS > 0 ? lifetimeS * 1000 : null,
    sessionLifetimeMs: int(env.SESSION_LIFETIME, 8 * 3600, "SESSION_LIFETIME") * 1000,
    loginMaxFailures: int(env.LOGIN_MAX_FAILURES, 5, "LOGIN_MAX_FAILURES"),
    loginWindowMs: int(env.LOGIN_LOCKOUT_SECONDS, 900, "LOGIN_LOCKOUT_SECONDS") * 1000,
    loginDelayStepMs: int(env.LOGIN_DELAY_STEP_MS, 200, "LOGIN_DELAY_STEP_MS"),
    passwordMinLength: atLeastOne(int(env.PASSWORD_MIN_LENGTH, 10, "PASSWORD_MIN_LENGTH"), "PASSWORD_MIN_LENGTH"),
    alwaysAllowPoeToggle: flag(env.ALWAYS_ALLOW_POE_TOGGLE, false),
    allowTagsEdit: flag(env.ALLOW_TAGS_EDIT, true),
    staffAllowTagsEdit: flag(env.STAFF_ALLOW_TAGS_EDIT, false),
    secureCookies: flag(env.SECURE_COOKIES, false),
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES, env.TRUST_PROXY),
    baseUrl: baseUrl(env.BASE_URL),
    maxBodyBytes: int(env.MAX_BODY_BYTES, 1024 * 1024, "MAX_BODY_BYTES"),
    deviceConcurrency: atLeastOne(int(env.DEVICE_CONCURRENCY, 4, "DEVICE_CONCURRENCY"), "DEVICE_CONCURRENCY"),
    deviceQueueLimit: int(env.DEVICE_QUEUE_LIMIT, 100, "DEVICE_QUEUE_LIMIT"),
    deviceLeaseMs: Math.max(1, int(env.DEVICE_LEASE_SECONDS, 15, "DEVICE_LEASE_SECONDS")) * 1000,
    deviceWriteWaitMs: int(env.DEVICE_WRITE_WAIT_SECONDS, 30, "DEVICE_WRITE_WAIT_SECONDS") * 1000,
    directory: loadDirectoryConfig(env),
    logLevel: logLevel(env.LOG_LEVEL),
    shutdownTimeoutMs: int(env.SHUTDOWN_TIMEOUT, 10, "SHUTDOWN_TIMEOUT") * 1000,
    metricsAllow: metricsAllow(env.METRICS_ALLOW),
    portProtection: loadPortProtection(env),
    auditRetention: loadAuditRetention(env),
    find: loadFindConfig(env),
  };
}

/** The service-wide settings the permission rules read (domain/access.ts Policy). */
export function policyOf(
  config: Pick<Config, "alwaysAllowPoeToggle" | "allowTagsEdit" | "staffAllowTagsEdit" | "portProtection">,
): Policy {
  return {
    always_allow_poe_toggle: config.alwaysAllowPoeToggle,
    protection: config.portProtection,
    allow_tags_edit: config.allowTagsEdit,
    staff_allow_tags_edit: config.staffAllowTagsEdit,
  };
}
