import { addressKey, throttleKeys, throttleVerdict, userKey, retryAfterText } from "../../domain/throttle";

describe("login throttle rules", () => {
  const settings = { maxFailures: 3, windowMs: 60_000 };
  const now = 1_000_000;

  it("slows each failed attempt, then refuses with Retry-After until the window passes", () => {
    const keys = throttleKeys("bob", "10.0.0.1", 3);
    const failures = new Map<string, number[]>();
    expect(throttleVerdict(keys, failures, settings, now)).toEqual({ allowed: true, retryAfter: 0, delayMs: 0 });
    failures.set(keys[0].key, [now - 1000]);
    expect(throttleVerdict(keys, failures, settings, now).delayMs).toBe(200);
    failures.set(keys[0].key, [now - 3000, now - 2000, now - 1000]);
    const refused = throttleVerdict(keys, failures, settings, now);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(57);
    expect(throttleVerdict(keys, failures, settings, now + 30_000).retryAfter).toBe(27);
    expect(throttleVerdict(keys, failures, settings, now + 57_001).allowed).toBe(true);
  });

  it("gives a client address four times the username limit", () => {
    const keys = throttleKeys("fresh", "10.0.0.2", 2);
    expect(keys[1].limit).toBe(8);
    const failures = new Map([[keys[1].key, Array.from({ length: 7 }, (_, i) => now - 100 * (i + 1))]]);
    expect(throttleVerdict(keys, failures, settings, now).allowed).toBe(true);
    failures.get(keys[1].key)!.push(now - 10);
    expect(throttleVerdict(keys, failures, settings, now).allowed).toBe(false);
    expect(throttleVerdict(throttleKeys("fresh", "10.0.0.3", 2), failures, settings, now).allowed).toBe(true);
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
