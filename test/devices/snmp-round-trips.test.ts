/**
 * Round trips on the critical path (SnmpSession counters.roundTrips) of what the API does
 * with a device whose driver choice is stored (no probe), at the default bound of four
 * requests in flight: the basic view of a 48-port switch in at most 2, of a 384-port
 * switch in at most 5; each interface write, its checks and read-back included, in at
 * most 4. Counts, not times. Every figure is printed.
 */
import { startLabSwitch, type LabSwitch } from "../../lab";
import { openDriver } from "../../drivers/registry";
import type { Driver } from "../../drivers/contract";
import type { SnmpDriver } from "../../drivers/snmp/driver";
import type { InterfaceView } from "../../model/device";
import { expectedInterface } from "../support/lab-expectations";

const GENERIC_SYS_OBJECT_ID = "1.3.6.1.4.1.8072.3.2.10";

/** as DeviceService.use opens a device whose "auto" choice is stored */
async function stored(lab: LabSwitch): Promise<SnmpDriver> {
  const opened = await openDriver({
    driver: "auto",
    connection: { connector: 0, snmp: lab.snmpTarget({ version: "2c", write: true }) },
    detected: { driver: "generic", sysObjectId: GENERIC_SYS_OBJECT_ID },
  });
  expect(opened.detected).toBeUndefined(); // no probe
  return opened.driver as SnmpDriver;
}

async function counted<T>(
  lab: LabSwitch,
  fn: (d: SnmpDriver) => Promise<T>,
): Promise<{ value: T; roundTrips: number; requests: number; labRequests: number }> {
  lab.counters.reset();
  const d = await stored(lab);
  try {
    const value = await fn(d);
    return {
      value,
      roundTrips: d.counters.roundTrips,
      requests: d.counters.requests,
      labRequests: lab.counters.requests,
    };
  } finally {
    await d.close();
  }
}

describe("round trips on the critical path", () => {
  const labs: Record<number, LabSwitch> = {};

  beforeAll(async () => {
    for (const ports of [48, 384])
      labs[ports] = await startLabSwitch({ profile: "generic", ports, poePorts: "all", seed: 3 });
  });
  afterAll(async () => {
    await Promise.all(Object.values(labs).map((l) => l.stop()));
  });

  test.each([
    [48, 2],
    [384, 5],
  ])("GET basic of a %i-port switch: at most %i round trips, every port learned", async (ports, most) => {
    const lab = labs[ports];
    const r = await counted(lab, (d) => d.learn("basic"));
    console.log(`basic-${ports}: ${r.requests} requests, ${r.roundTrips} round trips`);
    expect(r.roundTrips).toBeLessThanOrEqual(most);
    expect(r.labRequests).toBe(r.requests);
    // fewer requests, same facts: every interface with its name, VLANs and description
    expect(r.value.interfaces.map((i) => [i.id, i.name, i.untagged_vlan, i.tagged_vlans, i.description])).toEqual(
      lab.model.interfaces.map((li) => {
        const e = expectedInterface(lab.model, li, String(li.ifIndex));
        return [e.id, e.name, e.untagged_vlan, e.tagged_vlans, lab.model.alias(li.ifIndex)];
      }),
    );
    expect(r.value.interfaces.filter((i) => i.poe)).toHaveLength(ports);
  });

  const writes: Array<
    [
      string,
      (d: Driver, view: InterfaceView, lab: LabSwitch) => Promise<void>,
      (lab: LabSwitch, ifIndex: number, before: InterfaceView) => void,
    ]
  > = [
    [
      "vlan",
      (d, view, lab) =>
        d.setUntaggedVlan(
          view,
          lab.model.activeVlanIds().find((v) => v !== view.interface.untagged_vlan)!,
        ),
      (lab, ifIndex, before) =>
        expect(lab.model.pvid(lab.model.interfaces.find((i) => i.ifIndex === ifIndex)!.bridgePort!)).not.toBe(
          before.interface.untagged_vlan,
        ),
    ],
    [
      "state",
      (d, view) => d.setAdminState(view, !view.interface.admin_up),
      (lab, ifIndex, before) => expect(lab.model.adminUp(ifIndex)).toBe(!before.interface.admin_up),
    ],
    [
      "poe_state",
      (d, view) => d.setPoe(view, view.interface.poe?.admin_status !== "Enabled"),
      (lab, ifIndex, before) =>
        expect(lab.model.poeState(ifIndex)!.enabled).toBe(before.interface.poe?.admin_status !== "Enabled"),
    ],
    [
      "description",
      (d, view) => d.setDescription(view, "round trips"),
      (lab, ifIndex) => expect(lab.model.alias(ifIndex)).toBe("round trips"),
    ],
  ];

  test.each(writes)(
    "a %s write of a 48-port switch: checks, change and read-back in at most 4 round trips",
    async (what, write, applied) => {
      const lab = labs[48];
      const ifIndex = lab.model.port(7).ifIndex;
      let before: InterfaceView | null = null;
      const r = await counted(lab, async (d) => {
        before = await d.learnInterface(String(ifIndex));
        await write(d, before!, lab);
      });
      console.log(`write-${what}-48: ${r.requests} requests, ${r.roundTrips} round trips (check, change, read-back)`);
      expect(r.roundTrips).toBeLessThanOrEqual(4);
      applied(lab, ifIndex, before!);
    },
  );
});
