import { LoginThrottle } from "../../domain/throttle";

describe("LoginThrottle", () => {
  let now = 1_000_000;
  const clock = () => now;

  it("slows each failed attempt, then refuses with Retry-After until the window passes", () => {
    const t = new LoginThrottle(3, 60_000, clock);
    const keys = ["user:bob", "ip:10.0.0.1"];
    expect(t.check(keys)).toEqual({ allowed: true, retryAfter: 0, delayMs: 0 });
    t.fail(keys);
    expect(t.check(keys).delayMs).toBe(200);
    t.fail(keys);
    t.fail(keys);
    const v = t.check(keys);
    expect(v.allowed).toBe(false);
    expect(v.retryAfter).toBe(60);
    now += 30_000;
    expect(t.check(keys).retryAfter).toBe(30);
    now += 30_001;
    expect(t.check(keys).allowed).toBe(true);
  });

  it("gives a client address four times the username limit", () => {
    const t = new LoginThrottle(2, 60_000, clock);
    for (let i = 0; i < 7; i++) t.fail([`user:u${i}`, "ip:10.0.0.2"]);
    expect(t.check(["user:fresh", "ip:10.0.0.2"]).allowed).toBe(true);
    t.fail(["user:u8", "ip:10.0.0.2"]);
    expect(t.check(["user:fresh", "ip:10.0.0.2"]).allowed).toBe(false);
    expect(t.check(["user:fresh", "ip:10.0.0.3"]).allowed).toBe(true);
  });

  it("forgets a username's failures after a successful login", () => {
    const t = new LoginThrottle(2, 60_000, clock);
    t.fail(["user:amy"]);
    t.succeed(["user:amy"]);
    t.fail(["user:amy"]);
    expect(t.check(["user:amy"]).allowed).toBe(true);
  });
});
