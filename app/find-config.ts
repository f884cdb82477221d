/**
 * The settings of "where is it plugged in" (GET api/switches/find/), read from the
 * environment (README configuration table) and checked at start: a value that is not a
 * whole number in its range stops the start with one line naming the setting.
 */

export interface FindConfig {
  /** FIND_CONCURRENCY: devices one search reads at once (each through its per-device bound) */
  concurrency: number;
  /** FIND_DEADLINE_MS: a search answers at the latest this long after it started; devices not done by then are "not answered" */
  deadlineMs: number;
  /** FIND_MAX_DEVICES: devices one search may read; a wider search is refused (400) and asked to narrow */
  maxDevices: number;
  /** FIND_UPLINK_MACS: a port with more MAC addresses than this is an uplink */
  uplinkMacs: number;
}

export const FIND_DEFAULTS: FindConfig = { concurrency: 8, deadlineMs: 10_000, maxDevices: 256, uplinkMacs: 10 };

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = (env[name] ?? "").trim();
  if (text === "") return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${env[name]}")`);
  return n;
}

export function loadFindConfig(env: NodeJS.ProcessEnv): FindConfig {
  return {
    concurrency: whole(env, "FIND_CONCURRENCY", FIND_DEFAULTS.concurrency, 1, 256),
    deadlineMs: whole(env, "FIND_DEADLINE_MS", FIND_DEFAULTS.deadlineMs, 100, 600_000),
    maxDevices: whole(env, "FIND_MAX_DEVICES", FIND_DEFAULTS.maxDevices, 1, 100_000),
    uplinkMacs: whole(env, "FIND_UPLINK_MACS", FIND_DEFAULTS.uplinkMacs, 1, 100_000),
  };
}
