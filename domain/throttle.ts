/**
 * Failed-login throttling rules, per username and per client address: each failure adds a
 * short delay to the next attempt; after `maxFailures` inside the window (four times that
 * for an address, which may serve many people behind NAT) the key is refused until its
 * oldest counted failure leaves the window. Pure: the failure times come from the store
 * and the clock is a parameter, so the rules are unit tested without timers.
 *
 * A successful login forgets only its username's failures, never the address's: someone
 * with an account of their own could otherwise reset their address's count between
 * guesses at other accounts.
 */
import net from "node:net";

export interface ThrottleVerdict {
  allowed: boolean;
  /** seconds until another attempt is accepted (when refused) */
  retryAfter: number;
  /** ms to wait before answering (slows guessing before the hard limit) */
  delayMs: number;
}

export interface ThrottleKey {
  key: string;
  limit: number;
}

export interface ThrottleSettings {
  maxFailures: number;
  windowMs: number;
  /** added delay per earlier failure, capped at 2 s */
  stepMs?: number;
}

/** a client address may serve many people (NAT): it gets this many times the limit */
export const ADDRESS_FACTOR = 4;
const MAX_DELAY_MS = 2000;

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
  const groups = address.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return groups
    .slice(0, 4)
    .map((g) => parseInt(g || "0", 16).toString(16))
    .join(":");
}

export function throttleKeys(username: string, address: string, maxFailures: number): ThrottleKey[] {
  return [
    { key: userKey(username), limit: maxFailures },
    { key: addressKey(address), limit: maxFailures * ADDRESS_FACTOR },
  ];
}

/** The verdict for the next attempt, from the recent failure times (ms) of each key. */
export function throttleVerdict(keys: ThrottleKey[], failures: Map<string, number[]>, settings: ThrottleSettings, now: number): ThrottleVerdict {
  const step = settings.stepMs ?? 200;
  let verdict: ThrottleVerdict = { allowed: true, retryAfter: 0, delayMs: 0 };
  for (const { key, limit } of keys) {
    const times = (failures.get(key) ?? []).filter((t) => now - t < settings.windowMs).sort((a, b) => a - b);
    if (limit > 0 && times.length >= limit) {
      const oldestCounted = times[times.length - limit];
      const retryAfter = Math.max(1, Math.ceil((oldestCounted + settings.windowMs - now) / 1000));
      verdict = verdict.allowed ? { allowed: false, retryAfter, delayMs: 0 } : { ...verdict, retryAfter: Math.max(verdict.retryAfter, retryAfter) };
    } else if (verdict.allowed) {
      verdict.delayMs = Math.max(verdict.delayMs, Math.min(MAX_DELAY_MS, times.length * step));
    }
  }
  return verdict;
}

/** "15 minutes" / "1 minute" / "40 seconds", for the lockout answer. */
export function retryAfterText(seconds: number): string {
  if (seconds >= 120) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minutes`;
  }
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}
