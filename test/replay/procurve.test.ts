/**
 * HP ProCurve / Aruba AOS-S as recorded (a stack, sysObjectID 1.3.6.1.4.1.11.2.3.7.8.5.2,
 * KA firmware): "auto" picks the procurve family by HP's netElement prefixes. The
 * recording has no ifIndex and no ifSpeed column (ifHighSpeed gives the speed), no PoE
 * and no LLDP; its VLANs are Q-BRIDGE names with the current table's bitmaps and no
 * dot1qVlanStatus, its sysName is "<private>".
 */
import { procurve } from "../../drivers/families/procurve";
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";
import { learnCounts } from "../support/replay-counts";
import { expectRecordedTagged } from "./qbridge-family";

const NAME = "procurve_2520";

type Iface = { id: string; mode: string; vlan?: number; tagged_vlans?: string };

describeReplay("replay: HP ProCurve / Aruba AOS-S", [NAME], (ctx) => {
  it(`${NAME}: basic view shows the recorded ports, VLANs and untagged VLANs`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecorded(d, await d.basic(), { driver: "procurve" }));
  });

  it(`${NAME}: a port's untagged VLAN, though in its egress list, is not listed as tagged`, async () => {
    const d = ctx.device(NAME);
    const r = await d.basic();
    expect(r.status).toBe(200);
    const interfaces = (r.body as { interfaces: Iface[] }).interfaces;
    let tagged = 0;
    for (const [ifIndex, vlan] of d.facts.untagged) {
      const i = interfaces.find((x) => Number(x.id) === ifIndex)!;
      const list = (i.tagged_vlans ?? "")
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean)
        .map(Number);
      expect({ ifIndex, vlan: i.vlan, taggedHasUntagged: list.includes(vlan) }).toEqual({
        ifIndex,
        vlan,
        taggedHasUntagged: false,
      });
      if (list.length) tagged++;
    }
    // the recording has trunks (ports carrying VLANs besides their PVID): the check above saw them
    expect(tagged).toBeGreaterThan(0);
    console.log(
      `${NAME}: ${d.facts.untagged.size} ports with a PVID, ${tagged} of them also tagged elsewhere; none lists its PVID as tagged`,
    );
  });

  it(`${NAME}: ports carrying VLANs tagged show exactly the recorded ones`, async () => {
    const d = ctx.device(NAME);
    console.log(await expectRecordedTagged(NAME, d.facts.file, d.basic()));
  });

  it(`${NAME}: details complete with the recording's (absent) LLDP neighbours, and the save answers not_supported with the contract's reason`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecordedNeighbours(d, await d.details()));
    const basic = (await d.basic()).body as { switch: { save_config: boolean } };
    expect(basic.switch.save_config).toBe(false);
    const save = await ctx.app.request("POST", `/api/switches/${ctx.group}/${d.id}/save/`, {
      token: ctx.token,
      json: { save: "yes" },
    });
    expect([save.status, save.body]).toEqual([
      400,
      { reason: "This switch model cannot save or does not need to save the config", code: "not_supported" },
    ]);
  });

  it(`${NAME}: the driver reads each view without an unanswered request (counts printed)`, async () => {
    console.log(await learnCounts(ctx, procurve, NAME));
  });
});
