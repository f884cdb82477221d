/**
 * A view's independent requests behind latency: with 5 ms added to every answer by the
 * lab, the basic view of a 384-port switch, once the engine has learned the device (its
 * tables' rows), sends its column groups and tables concurrently, up to the per-device
 * bound of four, and needs at most 3 round trips on its critical path (5 the first time,
 * when nothing is known). The lab's in-flight counter shows the bound is kept, the view
 * is complete, and agents that answer tooBig or drop oversized answers are still read
 * completely with the columns in concurrent groups. Counts, not times.
 */
import { startLabSwitch, type LabSwitch, type LabSwitchOptions } from "../../lab";
import { SnmpDriver } from "../../drivers/snmp/driver";
import { genericFamily } from "../../drivers/families/generic";
import { resetRequestSizes } from "../../drivers/snmp/request-size";
import type { DeviceSnapshot } from "../../model/device";
import type { SnmpTarget } from "../../model/targets";
import { actualInterface, expectedInterface, expectedVlans, vlanView } from "../support/lab-expectations";

const BOUND = 4;
const big: LabSwitchOptions = { profile: "generic", ports: 384, poePorts: "all", seed: 3, latencyMs: 5 };

function expectWholeSwitch(snap: DeviceSnapshot, lab: LabSwitch): void {
  const model = lab.model;
  expect(snap.hostname).toBe(model.system.sysName);
  expect(vlanView(snap.vlans)).toEqual(expectedVlans(model));
  expect(snap.interfaces.map(actualInterface)).toEqual(
    model.interfaces.map((i) => expectedInterface(model, i, String(i.ifIndex))),
  );
  expect(snap.interfaces.filter((i) => i.poe)).toHaveLength(model.interfaces.filter((i) => i.poe).length);
}

async function learnCounted(lab: LabSwitch, target: SnmpTarget, what: string) {
  lab.counters.reset();
  const d = new SnmpDriver(genericFamily, target, { concurrency: BOUND });
  try {
    const snap = await d.learn("basic");
    const c = { ...d.counters, labRequests: lab.counters.requests, maxInFlight: lab.counters.maxInFlight };
    console.log(
      `${what}: ${c.requests} requests, ${c.roundTrips} round trips, ${c.maxInFlight} in flight at most, ` +
        `${c.tooBig} tooBig, ${c.timeouts} unanswered`,
    );
    return { snap, c };
  } finally {
    await d.close();
  }
}

beforeEach(() => resetRequestSizes());

describe("a view's requests go out concurrently up to the per-device bound", () => {
  test("basic-384 at 5 ms latency: at most 3 round trips once the device is known, never more than 4 in flight, complete", async () => {
    const lab = await startLabSwitch(big);
    // a timeout no busy test machine reaches: a request given up and sent again would be
    // counted twice in flight at the switch, and an extra round trip
    const patient: SnmpTarget = { ...lab.snmpTarget(), timeout_ms: 5000, retries: 1 };
    try {
      const cold = await learnCounted(lab, patient, "basic-384, first");
      expectWholeSwitch(cold.snap, lab);
      expect(cold.c.roundTrips).toBeLessThanOrEqual(5);
      expect(cold.c.maxInFlight).toBeLessThanOrEqual(BOUND);

      const warm = await learnCounted(lab, patient, "basic-384, learned");
      expectWholeSwitch(warm.snap, lab);
      expect(warm.c.roundTrips).toBeLessThanOrEqual(3);
      // the bound was used, and kept
      expect(warm.c.maxInFlight).toBe(BOUND);
      expect(warm.c.labRequests).toBe(warm.c.requests);
      expect(warm.c.requests).toBeLessThanOrEqual(cold.c.requests);
    } finally {
      await lab.stop();
    }
  });

  test.each([
    ["tooBig", 8000],
    ["silent", 8000],
  ] as const)(
    "an agent that answers %s above %i bytes is read completely, its column groups concurrent and within the bound",
    async (oversize, bytes) => {
      const lab = await startLabSwitch({ ...big, maxResponseBytes: bytes, oversize });
      const target: SnmpTarget = { ...lab.snmpTarget(), timeout_ms: 300, retries: 1 };
      try {
        const cold = await learnCounted(lab, target, `basic-384 ${oversize} > ${bytes} B, first`);
        expectWholeSwitch(cold.snap, lab);
        expect(cold.c.tooBig + cold.c.timeouts).toBeGreaterThan(0);
        expect(cold.c.maxInFlight).toBeLessThanOrEqual(BOUND);

        const warm = await learnCounted(lab, target, `basic-384 ${oversize} > ${bytes} B, learned`);
        expectWholeSwitch(warm.snap, lab);
        expect(warm.c.maxInFlight).toBeLessThanOrEqual(BOUND);
        expect(warm.c.maxInFlight).toBeGreaterThan(1);
        expect(warm.c.requests).toBeLessThan(cold.c.requests);
        expect(warm.c.roundTrips).toBeLessThan(cold.c.roundTrips);
      } finally {
        await lab.stop();
      }
    },
  );
});
