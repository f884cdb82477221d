/** When a learn's driver_info is written over the stored copy the menu shows (domain/driver-info.ts). */
import { driverInfoWorthWriting, UPTIME_REFRESH_SECONDS } from "../../domain/driver-info";

const stored = (info: Record<string, string | number>) => JSON.stringify(info);
const base = { model: "WS-C2960X", version: "15.2(7)E", uptime: "1 day, 00:00:00", uptime_seconds: 86400 };

describe("driver_info worth writing", () => {
  it("not for a newer uptime alone, within the hour", () => {
    const later = { ...base, uptime: "1 day, 00:10:00", uptime_seconds: 86400 + 600 };
    expect(driverInfoWorthWriting(stored(base), later)).toBe(false);
    expect(driverInfoWorthWriting(stored(base), { ...base })).toBe(false);
  });

  it("when the stored uptime is an hour or more behind, or the device restarted", () => {
    const hour = { ...base, uptime: "1 day, 01:00:00", uptime_seconds: 86400 + UPTIME_REFRESH_SECONDS };
    expect(driverInfoWorthWriting(stored(base), hour)).toBe(true);
    const restarted = { ...base, uptime: "0 days, 00:05:00", uptime_seconds: 300 };
    expect(driverInfoWorthWriting(stored(base), restarted)).toBe(true);
  });

  it("when anything else changed, appeared or went", () => {
    expect(driverInfoWorthWriting(stored(base), { ...base, version: "15.2(7)E9" })).toBe(true);
    expect(driverInfoWorthWriting(stored(base), { ...base, serial: "FOC123" })).toBe(true);
    const { model: _model, ...noModel } = base;
    expect(driverInfoWorthWriting(stored(base), noModel)).toBe(true);
  });

  it("when nothing usable is stored", () => {
    expect(driverInfoWorthWriting(null, base)).toBe(true);
    expect(driverInfoWorthWriting("", base)).toBe(true);
    expect(driverInfoWorthWriting("not json", base)).toBe(true);
    expect(driverInfoWorthWriting("[1,2]", base)).toBe(true);
  });

  it("a text-only uptime (a command line's) is written when the text changes", () => {
    const cli = { model: "C9300", uptime: "2 weeks, 1 day, 3 hours, 4 minutes" };
    expect(driverInfoWorthWriting(stored(cli), { ...cli })).toBe(false);
    expect(driverInfoWorthWriting(stored(cli), { ...cli, uptime: "2 weeks, 1 day, 3 hours, 5 minutes" })).toBe(true);
  });
});
