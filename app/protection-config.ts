/**
 * OpenL2M's port protection settings and its audit retention, read from the environment
 * under OpenL2M's names (README configuration table) and checked at start: a pattern that
 * does not compile, a speed or an age that is not a number, or a switch that is neither
 * on nor off stops the start with one line naming the setting.
 */
import { compilePattern, type PortProtection } from "../domain/port-protection";

/** How the service removes audit rows older than LOG_MAX_AGE (app/audit-retention.ts). */
export interface AuditRetentionConfig {
  /** LOG_MAX_AGE: days an audit row is kept; 0 keeps every row */
  maxAgeDays: number;
  /** rows one DELETE removes at most */
  batchRows: number;
  /** batches one run removes at most (the rest waits for the next run) */
  maxBatchesPerRun: number;
  /** between runs */
  intervalMs: number;
  /** from the start to the first run */
  firstRunDelayMs: number;
}

/** OpenL2M keeps 180 days of log */
export const DEFAULT_LOG_MAX_AGE_DAYS = 180;

function pattern(env: NodeJS.ProcessEnv, name: string): RegExp | null {
  const text = env[name] ?? "";
  try {
    return compilePattern(text);
  } catch (e) {
    throw new Error(
      `${name} is not a regular expression switchdesk can use: ${e instanceof Error ? e.message : String(e)} (got "${text}")`,
      { cause: e },
    );
  }
}

function count(env: NodeJS.ProcessEnv, name: string, fallback: number, unit: string): number {
  const text = (env[name] ?? "").trim();
  if (text === "") return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n))
    throw new Error(`${name} must be a whole number of ${unit}, 0 for off (got "${env[name]}")`);
  return n;
}

/** OpenL2M writes True/False; the usual on/off words are taken too, anything else is refused */
function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const text = (env[name] ?? "").trim().toLowerCase();
  if (text === "") return fallback;
  if (/^(1|true|yes|on)$/.test(text)) return true;
  if (/^(0|false|no|off)$/.test(text)) return false;
  throw new Error(`${name} must be on or off (true/false, 1/0, yes/no) (got "${env[name]}")`);
}

export function loadPortProtection(env: NodeJS.ProcessEnv): PortProtection {
  return {
    hideNamePattern: pattern(env, "IFACE_HIDE_REGEX_IFNAME"),
    hideDescriptionPattern: pattern(env, "IFACE_HIDE_REGEX_IFDESCR"),
    hideSpeedAboveMbps: count(env, "IFACE_HIDE_SPEED_ABOVE", 0, "Mbps"),
    hideNonEthernet: onOff(env, "HIDE_NONE_ETHERNET_INTERFACES", false),
    descriptionNotAllowedPattern: pattern(env, "IFACE_ALIAS_NOT_ALLOW_REGEX"),
    descriptionKeepBeginningPattern: pattern(env, "IFACE_ALIAS_KEEP_BEGINNING_REGEX"),
  };
}

export function loadAuditRetention(env: NodeJS.ProcessEnv): AuditRetentionConfig {
  return {
    maxAgeDays: count(env, "LOG_MAX_AGE", DEFAULT_LOG_MAX_AGE_DAYS, "days"),
    batchRows: 1000,
    maxBatchesPerRun: 100,
    intervalMs: 3600_000,
    firstRunDelayMs: 60_000,
  };
}
