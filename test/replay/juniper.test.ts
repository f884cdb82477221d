/**
 * Junos as recorded: a QFX5100 (PVIDs without Q-BRIDGE VLAN rows) and a large EX4600
 * virtual chassis (854 interfaces). "auto" picks the juniper family; VLANs come from
 * jnxL2aldVlanTable (tags and names), untagged VLANs from dot1qPvid through the bridge
 * port map, memberships from Junos' comma-separated port lists. The big chassis' basic
 * view is timed and its SNMP requests counted, first (cold) and second (warm) call.
 */
import { SnmpDriver } from "../../drivers/snmp/driver";
import type { SessionCounters } from "../../drivers/snmp/session";
import { Snmprec } from "../support/snmprec-facts";
import { describeReplay, expectRecorded, expectRecordedNeighbours, type ReplayDevice } from "../support/replay";

const RECORDINGS = ["junos_qfx5100", "junos_ex4600mp"];
const STATIC_EGRESS = "1.3.6.1.2.1.17.7.1.4.3.1.2";
const STATIC_UNTAGGED = "1.3.6.1.2.1.17.7.1.4.3.1.4";

/** ifIndex -> tagged VLANs: egress lists (text "p,p,p" of bridge ports, by tag) without the port's untagged lists and PVID */
function recordedTagged(d: ReplayDevice): Map<number, string> {
  const rec = new Snmprec(d.facts.file);
  const ports = (text: string) => new Set(text === "" ? [] : text.split(",").map(Number));
  const untaggedOf = new Map<number, Set<number>>();
  for (const [vlan, v] of rec.column(STATIC_UNTAGGED))
    for (const p of ports(v.text)) untaggedOf.set(p, new Set([...(untaggedOf.get(p) ?? []), Number(vlan)]));
  const tagged = new Map<number, number[]>();
  for (const [vlan, v] of rec.column(STATIC_EGRESS)) {
    for (const p of ports(v.text)) {
      const ifIndex = d.facts.bridgePorts.get(p);
      if (
        ifIndex === undefined ||
        untaggedOf.get(p)?.has(Number(vlan)) ||
        d.facts.untagged.get(ifIndex) === Number(vlan)
      )
        continue;
      tagged.set(ifIndex, [...(tagged.get(ifIndex) ?? []), Number(vlan)]);
    }
  }
  return new Map([...tagged].map(([i, vlans]) => [i, vlans.sort((a, b) => a - b).join(", ")]));
}

describeReplay("replay: Juniper", RECORDINGS, (ctx) => {
  // the counters of every SNMP driver the API closed, in order
  const closed: SessionCounters[] = [];
  beforeAll(() => {
    // the original, called below on the driver it belongs to
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(this) on its own driver
    const close = SnmpDriver.prototype.close;
    jest.spyOn(SnmpDriver.prototype, "close").mockImplementation(async function (this: SnmpDriver) {
      closed.push({ ...this.counters });
      return close.call(this);
    });
  });
  const learnMs: number[] = [];
  beforeAll(() => {
    // the original, called below on the driver it belongs to
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(this) on its own driver
    const learn = SnmpDriver.prototype.learn;
    jest.spyOn(SnmpDriver.prototype, "learn").mockImplementation(async function (this: SnmpDriver, scope) {
      const t = Date.now();
      try {
        return await learn.call(this, scope);
      } finally {
        learnMs.push(Date.now() - t);
      }
    });
  });
  afterAll(() => jest.restoreAllMocks());

  it("junos_ex4600mp: the basic view of 854 interfaces, cold and warm, timed with its SNMP requests", async () => {
    const d = ctx.device("junos_ex4600mp");
    const figures: string[] = [];
    for (const call of ["first (cold)", "second (warm)"]) {
      const before = closed.length;
      const started = process.hrtime.bigint();
      const r = await d.basic();
      const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
      expect(r.status).toBe(200);
      expect((r.body as { interfaces: unknown[] }).interfaces).toHaveLength(854);
      const c = closed.slice(before).reduce(
        (a, b) => ({
          requests: a.requests + b.requests,
          timeouts: a.timeouts + b.timeouts,
          tooBig: a.tooBig + b.tooBig,
        }),
        { requests: 0, timeouts: 0, tooBig: 0 },
      );
      expect(c.requests).toBeGreaterThan(0);
      figures.push(
        `${call} call ${ms} ms (learn ${learnMs[learnMs.length - 1]} ms), ${c.requests} SNMP requests (${c.tooBig} tooBig, ${c.timeouts} unanswered)`,
      );
    }
    console.log(`junos_ex4600mp basic view on snmpsimd: ${figures.join("; ")}`);
  });

  it.each(RECORDINGS)(
    "%s: basic view shows the recorded ports, VLANs (L2ALD tags and names), PVIDs and tagged VLANs",
    async (name) => {
      const d = ctx.device(name);
      const r = await d.basic();
      const line = expectRecorded(d, r, { driver: "juniper" });
      expect(d.facts.untagged.size).toBeGreaterThan(0);
      const tagged = recordedTagged(d);
      expect(tagged.size).toBeGreaterThan(0);
      const byId = new Map(
        (r.body as { interfaces: { id: string; tagged_vlans?: string }[] }).interfaces.map((i) => [Number(i.id), i]),
      );
      for (const [ifIndex, vlans] of tagged)
        expect({ ifIndex, tagged: byId.get(ifIndex)?.tagged_vlans }).toEqual({ ifIndex, tagged: vlans });
      console.log(`${line}; ${tagged.size} ports with tagged VLANs from the port lists, shown alike`);
    },
  );

  it.each(RECORDINGS)("%s: details attach the recorded LLDP neighbours to their ports", async (name) => {
    const d = ctx.device(name);
    console.log(expectRecordedNeighbours(d, await d.details()));
  });

  it("a write on a Junos switch answers not_supported before touching it", async () => {
    const d = ctx.device("junos_qfx5100");
    const r = await ctx.app.request("POST", `/api/switches/${ctx.group}/${d.id}/interface/520/state/`, {
      token: ctx.token,
      json: { state: "off" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: "not_supported" });
    expect(JSON.stringify(r.body)).toMatch(/cannot change the interface status/);
  });
});
