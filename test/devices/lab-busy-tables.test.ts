/**
 * The lab's busier tables on demand (the bench's details scenario): macEntries and
 * lldpNeighbours grow the MAC table and the neighbour list a driver learns over SNMP,
 * and leave the rest of the generated switch as it was.
 */
import { startLabSwitch, type LabSwitch } from "../../lab";
import { VirtualSwitch } from "../../lab/model";
import { SnmpDriver } from "../../drivers/snmp/driver";
import { genericFamily } from "../../drivers/families/generic";

describe("lab options macEntries and lldpNeighbours", () => {
  let busy: LabSwitch;
  beforeAll(async () => {
    busy = await startLabSwitch({
      profile: "generic",
      ports: 48,
      poePorts: "all",
      seed: 1,
      macEntries: 2000,
      lldpNeighbours: 48,
    });
  });
  afterAll(async () => {
    await busy?.stop();
  });

  test("a driver learns 2,000 MAC entries and a neighbour on each of the 48 ports", async () => {
    const d = new SnmpDriver(genericFamily, busy.snmpTarget());
    try {
      const snap = await d.learn("details");
      const macs = snap.interfaces.flatMap((i) => i.macs);
      const neighbours = snap.interfaces.flatMap((i) => i.neighbors);
      console.log(
        `busy 48-port lab: ${macs.length} MAC entries, ${neighbours.length} neighbours learned with ${d.counters.requests} requests`,
      );
      expect(macs).toHaveLength(2000);
      expect(new Set(macs.map((m) => `${m.vlan} ${m.address}`)).size).toBe(2000);
      const withNeighbour = snap.interfaces.filter((i) => i.neighbors.length > 0).map((i) => i.name);
      expect(withNeighbour).toHaveLength(48);
      expect(withNeighbour).toContain("GigabitEthernet1/0/1");
      expect(busy.options).toMatchObject({ macEntries: 2000, lldpNeighbours: 48 });
    } finally {
      await d.close();
    }
  });

  test("without the options, and with options below what is generated, the switch is the one generated", () => {
    const plain = new VirtualSwitch({ ports: 48, poePorts: "all", seed: 1 });
    const small = new VirtualSwitch({ ports: 48, poePorts: "all", seed: 1, macEntries: 1, lldpNeighbours: 1 });
    const big = new VirtualSwitch({ ports: 48, poePorts: "all", seed: 1, macEntries: 500 });
    expect(plain.fdb.length).toBeLessThan(500);
    expect(small.fdb).toEqual(plain.fdb);
    expect(small.lldp).toEqual(plain.lldp);
    expect(big.fdb.slice(0, plain.fdb.length)).toEqual(plain.fdb);
    expect(big.fdb).toHaveLength(500);
    expect(big.lldp).toEqual(plain.lldp);
    expect(big.system).toEqual(plain.system);
    expect(big.interfaces).toEqual(plain.interfaces);
  });
});
