import { addressKey, throttleVerdict, userKey, retryAfterText, type AttemptTimes } from "../../domain/throttle";
import { loadConfig } from "../../app/config";

describe("login throttle rules", () => {
  const settings = { maxFailures: 3, windowMs: 60_000, stepMs: 200 };
  const now = 1_000_000;
  const none = (): AttemptTimes => ({ pair: [], address: [], user: [] });
  /** the same attempts under all three keys: one username from one address */
  const fromOneAddress = (times: number[]): AttemptTimes => ({ pair: times, address: times, user: times });

  it("slows each failed attempt of a username from one address, then refuses with Retry-After until the window passes", () => {
    expect(throttleVerdict(none(), settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 0 });
    expect(throttleVerdict(fromOneAddress([now - 1000]), settings, now).delayMs).toBe(200);
    const three = fromOneAddress([now - 3000, now - 2000, now - 1000]);
    const refused = throttleVerdict(three, settings, now);
    expect(refused).toEqual({ allowed: false, retryAfter: 57, delayMs: 0 });
    expect(throttleVerdict(three, settings, now + 30_000).retryAfter).toBe(27);
    expect(throttleVerdict(three, settings, now + 57_001).allowed).toBe(true);
  });

  it("never asks for a wait longer than the window, when attempts are stamped after its clock reading", () => {
    // another instance took its places between this one's reading of the clock and its read
    const later = fromOneAddress([now + 5, now + 20, now + 700]);
    expect(throttleVerdict(later, settings, now)).toEqual({ allowed: false, retryAfter: 60, delayMs: 0 });
  });

  it("never refuses a username for failures from other addresses: it waits a step per failure, at most 10 s", () => {
    const elsewhere = (n: number): AttemptTimes => ({
      pair: [],
      address: [],
      user: Array.from({ length: n }, (_, i) => now - 10 * (i + 1)),
    });
    expect(throttleVerdict(elsewhere(3), settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 600 });
    expect(throttleVerdict(elsewhere(20), settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 4000 });
    expect(throttleVerdict(elsewhere(1000), settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 10_000 });
    // the step is the setting's: 0 turns the waits off
    expect(throttleVerdict(elsewhere(1000), { ...settings, stepMs: 0 }, now).delayMs).toBe(0);
    // attempts older than the window do not count
    expect(throttleVerdict(elsewhere(20), settings, now + 60_000).delayMs).toBe(0);
  });

  it("gives a client address four times the limit over all usernames, and its own wait of at most 2 s", () => {
    const address = Array.from({ length: 11 }, (_, i) => now - 100 * (i + 1));
    const eleven: AttemptTimes = { pair: [], address, user: [] };
    expect(throttleVerdict(eleven, settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 2000 });
    address.push(now - 10);
    expect(throttleVerdict(eleven, settings, now).allowed).toBe(false);
    expect(throttleVerdict({ ...eleven, address: [] }, settings, now).allowed).toBe(true);
  });

  it("keys are bounded in kind: usernames without regard to case, IPv6 clients by their /64", () => {
    expect(userKey("Alice")).toBe(userKey("alice"));
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    expect(addressKey("2001:db8:1:2::1")).not.toBe(addressKey("2001:db8:1:3::1"));
    expect(addressKey("::ffff:192.0.2.7")).toBe(addressKey("192.0.2.7"));
  });

  it("says when to retry in words", () => {
    expect(retryAfterText(1)).toBe("1 second");
    expect(retryAfterText(45)).toBe("45 seconds");
    expect(retryAfterText(900)).toBe("15 minutes");
  });
});

describe("login settings", () => {
  it("LOGIN_DELAY_STEP_MS: 200 ms unless set, 0 allowed, nonsense refused at start", () => {
    expect(loadConfig({}).loginDelayStepMs).toBe(200);
    expect(loadConfig({ LOGIN_DELAY_STEP_MS: "0" }).loginDelayStepMs).toBe(0);
    expect(loadConfig({ LOGIN_DELAY_STEP_MS: "50" }).loginDelayStepMs).toBe(50);
    expect(() => loadConfig({ LOGIN_DELAY_STEP_MS: "-1" })).toThrow(
      /^LOGIN_DELAY_STEP_MS must be a non-negative integer/,
    );
  });

  it("PASSWORD_MIN_LENGTH: 10 unless set, at least 1", () => {
    expect(loadConfig({}).passwordMinLength).toBe(10);
    expect(loadConfig({ PASSWORD_MIN_LENGTH: "16" }).passwordMinLength).toBe(16);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: "0" })).toThrow(/^PASSWORD_MIN_LENGTH must be at least 1/);
    expect(() => loadConfig({ PASSWORD_MIN_LENGTH: "ten" })).toThrow(
      /^PASSWORD_MIN_LENGTH must be a non-negative integer/,
    );
  });
});
