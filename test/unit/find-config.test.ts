/**
 * The FIND_* settings (app/find-config.ts, README configuration table): defaults, values
 * taken, and a value out of range stopping the start with a line naming the setting.
 */
import { FIND_DEFAULTS, loadFindConfig } from "../../app/find-config";
import { loadConfig } from "../../app/config";

describe("FIND_* settings", () => {
  it("has the documented defaults, also in the service's configuration", () => {
    expect(FIND_DEFAULTS).toEqual({ concurrency: 8, deadlineMs: 10_000, maxDevices: 256, uplinkMacs: 10 });
    expect(loadConfig({}).find).toEqual(FIND_DEFAULTS);
  });

  it("takes whole numbers in range", () => {
    expect(
      loadFindConfig({
        FIND_CONCURRENCY: "2",
        FIND_DEADLINE_MS: "2500",
        FIND_MAX_DEVICES: "40",
        FIND_UPLINK_MACS: " 4 ",
      }),
    ).toEqual({ concurrency: 2, deadlineMs: 2500, maxDevices: 40, uplinkMacs: 4 });
  });

  it.each([
    ["FIND_CONCURRENCY", "0", 'FIND_CONCURRENCY must be a whole number from 1 to 256 (got "0")'],
    ["FIND_DEADLINE_MS", "50", 'FIND_DEADLINE_MS must be a whole number from 100 to 600000 (got "50")'],
    ["FIND_MAX_DEVICES", "ten", 'FIND_MAX_DEVICES must be a whole number from 1 to 100000 (got "ten")'],
    ["FIND_UPLINK_MACS", "1.5", 'FIND_UPLINK_MACS must be a whole number from 1 to 100000 (got "1.5")'],
  ])("refuses %s=%s", (name, value, line) => {
    expect(() => loadConfig({ [name]: value })).toThrow(line);
  });
});
