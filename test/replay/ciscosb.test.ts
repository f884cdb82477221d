/**
 * Cisco small business (CBS350, 4 units with 10G uplinks) as recorded: "auto" picks the
 * ciscosb family by its sysObjectID under 1.3.6.1.4.1.9.6.1. The recording holds PoE only
 * in the vendor table CISCOSB-POE-MIB rlPethPsePortTable (index group.ifIndex), not in
 * POWER-ETHERNET-MIB; the family shows it per port.
 */
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";
import { Snmprec } from "../support/snmprec-facts";
import { expectRecordedTagged } from "./qbridge-family";

const NAME = "ciscosb_cbs350-4x";
// CISCOSB-POE-MIB rlPethPsePortEntry columns
const RL_OUTPUT_POWER = "1.3.6.1.4.1.9.6.1.101.108.1.1.5";
const RL_OPER_STATUS = "1.3.6.1.4.1.9.6.1.101.108.1.1.11";

/** ifIndex -> {on: rlPethPsePortOperStatus true(1), mW: rlPethPsePortOutputPower}, for ports that are recorded interfaces */
function recordedVendorPoe(file: string, interfaces: ReadonlySet<number>): Map<number, { on: boolean; mW: number }> {
  const rec = new Snmprec(file);
  const power = rec.column(RL_OUTPUT_POWER);
  const out = new Map<number, { on: boolean; mW: number }>();
  for (const [index, v] of rec.column(RL_OPER_STATUS)) {
    const port = Number(index.split(".")[1]);
    if (interfaces.has(port)) out.set(port, { on: v.text === "1", mW: Number(power.get(index)?.text ?? 0) });
  }
  return out;
}

describeReplay("replay: Cisco small business", [NAME], (ctx) => {
  it(`${NAME}: basic view shows the recorded ports, VLANs and untagged VLANs`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecorded(d, await d.basic(), { driver: "ciscosb" }));
  });

  it(`${NAME}: ports carrying VLANs tagged show exactly the recorded ones`, async () => {
    const d = ctx.device(NAME);
    console.log(await expectRecordedTagged(NAME, d.facts.file, d.basic()));
  });

  it(`${NAME}: basic view shows the vendor table's PoE per port (state and power)`, async () => {
    const d = ctx.device(NAME);
    const want = recordedVendorPoe(d.facts.file, new Set(d.facts.interfaces.keys()));
    expect(want.size).toBeGreaterThan(0);
    const r = await d.basic();
    expect(r.status).toBe(200);
    const body = r.body as {
      interfaces: { id: string; poe?: { admin_status: string; detect_status: string; power_consumed: number } }[];
    };
    const got = new Map(body.interfaces.filter((i) => i.poe).map((i) => [Number(i.id), i.poe!]));
    expect([...got.keys()].sort((a, b) => a - b)).toEqual([...want.keys()].sort((a, b) => a - b));
    for (const [ifIndex, w] of want) {
      const g = got.get(ifIndex)!;
      expect({
        ifIndex,
        admin: g.admin_status,
        power: g.power_consumed,
        delivering: g.detect_status === "Delivering",
      }).toEqual({
        ifIndex,
        admin: w.on ? "Enabled" : "Disabled",
        power: w.mW,
        delivering: w.on && w.mW > 0,
      });
    }
    const on = [...want.values()].filter((w) => w.on).length;
    console.log(
      `${NAME}: recording holds ${want.size} vendor PoE ports (${on} powered, ${[...want.values()].filter((w) => w.mW > 0).length} drawing power); ` +
        `API returned ${got.size} PoE ports (${[...got.values()].filter((p) => p.admin_status === "Enabled").length} enabled, ${[...got.values()].filter((p) => p.detect_status === "Delivering").length} delivering)`,
    );
  });

  it(`${NAME}: details attach the recorded LLDP neighbours to their ports`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
