/**
 * Failed-login throttling rules. Every attempt is counted under three keys:
 *
 * - the username and client address together: after `maxFailures` inside the window the
 *   pair is refused until its oldest counted attempt leaves the window. Someone guessing
 *   from elsewhere locks out only themselves, never the account's owner.
 * - the client address: four times that limit (an address may serve many people behind
 *   NAT), refused the same way.
 * - the username, from every address: never refused, but each counted attempt adds one
 *   step to the wait before the next password check, up to USER_MAX_DELAY_MS, so that
 *   guessing one password from many addresses still slows down.
 *
 * Pure: the attempt times come from the store and the clock is a parameter, so the rules
 * are unit tested without timers.
 *
 * A successful login forgets the failures of its own username and address together, never
 * the address's: someone with an account of their own could otherwise reset their
 * address's count between guesses at other accounts.
 */
import net from "node:net";

export interface ThrottleVerdict {
  allowed: boolean;
  /** seconds until another attempt is accepted (when refused) */
  retryAfter: number;
  /** ms to wait before the password is checked (slows guessing before the hard limit) */
  delayMs: number;
}

export interface ThrottleSettings {
  maxFailures: number;
  windowMs: number;
  /** added wait per earlier counted attempt (LOGIN_DELAY_STEP_MS); 200 ms when not given */
  stepMs?: number;
}

/** The recent attempts (times in ms, pending ones included) under each key of one attempt. */
export interface AttemptTimes {
  /** this username from this address */
  pair: number[];
  /** this address, any username */
  address: number[];
  /** this username, any address */
  user: number[];
}

/** a client address may serve many people (NAT): it gets this many times the limit */
export const ADDRESS_FACTOR = 4;
export const DEFAULT_STEP_MS = 200;
/** the longest wait that an address's own attempts add */
export const ADDRESS_MAX_DELAY_MS = 2_000;
/** the longest wait that a username's attempts from every address add */
export const USER_MAX_DELAY_MS = 10_000;

/** The username's key: case does not make another user. */
export function userKey(username: string): string {
  return `user:${username.normalize("NFKC").toLowerCase()}`;
}

/**
 * The address's key. An IPv6 client usually holds a whole /64, so its key is the /64:
 * otherwise one host could try without limit by changing its address.
 */
export function addressKey(address: string): string {
  if (net.isIPv6(address)) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return `addr:${mapped[1]}`;
    return `addr:${ipv6Prefix64(address)}/64`;
  }
  return `addr:${address}`;
}

function ipv6Prefix64(address: string): string {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...new Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return groups
    .slice(0, 4)
    .map((g) => parseInt(g || "0", 16).toString(16))
    .join(":");
}

/**
 * Seconds until the oldest of the last `limit` attempts leaves the window (at least 1, at
 * most the window). An attempt stamped after `now` (another instance took its place between
 * this one's clock reading and its read of the counts, or its clock runs ahead) counts as
 * made now.
 */
function secondsUntilFree(times: number[], limit: number, windowMs: number, now: number): number {
  const oldestCounted = Math.min(times[times.length - limit], now);
  return Math.max(1, Math.ceil((oldestCounted + windowMs - now) / 1000));
}

/** The verdict for the next attempt, from the recent attempt times of its keys. */
export function throttleVerdict(attempts: AttemptTimes, settings: ThrottleSettings, now: number): ThrottleVerdict {
  const step = settings.stepMs ?? DEFAULT_STEP_MS;
  const recent = (times: number[]) => times.filter((t) => now - t < settings.windowMs).sort((a, b) => a - b);
  const pair = recent(attempts.pair);
  const address = recent(attempts.address);
  const user = recent(attempts.user);
  const limits: Array<[number[], number]> = [
    [pair, settings.maxFailures],
    [address, settings.maxFailures * ADDRESS_FACTOR],
  ];
  let retryAfter = 0;
  for (const [times, limit] of limits) {
    if (limit > 0 && times.length >= limit)
      retryAfter = Math.max(retryAfter, secondsUntilFree(times, limit, settings.windowMs, now));
  }
  if (retryAfter > 0) return { allowed: false, retryAfter, delayMs: 0 };
  const delayMs = Math.max(
    Math.min(USER_MAX_DELAY_MS, user.length * step),
    Math.min(ADDRESS_MAX_DELAY_MS, address.length * step),
  );
  return { allowed: true, retryAfter: 0, delayMs };
}

/** "15 minutes" / "1 minute" / "40 seconds", for the lockout answer. */
export function retryAfterText(seconds: number): string {
  if (seconds >= 120) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minutes`;
  }
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}
