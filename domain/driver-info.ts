/**
 * Whether what a learn found about a device (its driver_info: model, software, serial,
 * uptime...) is worth writing over the stored copy the menu shows. Every learn reads a new
 * uptime, so writing whenever the text differs was a database write (and a new inventory
 * version, which empties every instance's kept menu) on nearly every device read. The
 * stored copy is written when anything but the uptime changed, when the uptime went back
 * (the device restarted), or when the stored uptime is an hour or more behind: the menu's
 * uptime is at most an hour old, a restart shows at the next read. A driver that gives the
 * uptime as text only has it written when the text changes.
 */

/** the uptime fields of a driver_info: they change at every learn */
const UPTIME_KEYS = new Set(["uptime", "uptime_seconds"]);

/** how far behind the stored uptime may fall before it is written again, seconds */
export const UPTIME_REFRESH_SECONDS = 3600;

export function driverInfoWorthWriting(stored: string | null, fresh: Record<string, string | number>): boolean {
  let old: unknown;
  try {
    old = stored ? JSON.parse(stored) : null;
  } catch {
    return true;
  }
  if (typeof old !== "object" || old === null || Array.isArray(old)) return true;
  const before = old as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(fresh)]);
  for (const key of keys) {
    if (UPTIME_KEYS.has(key)) continue;
    if (before[key] !== fresh[key]) return true;
  }
  const was = before.uptime_seconds;
  const now = fresh.uptime_seconds;
  if (typeof was === "number" && typeof now === "number") return now < was || now - was >= UPTIME_REFRESH_SECONDS;
  // a driver that gives the uptime as text only (a command line's "uptime is ..."): as read
  return before.uptime !== fresh.uptime;
}
