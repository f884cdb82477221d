/**
 * HPE Comware as recorded (an HP A5500-24G EI, sysObjectID 1.3.6.1.4.1.25506.11.1.24,
 * sysDescr stored hex-encoded): "auto" picks the comware family. The recording has the
 * Q-BRIDGE static table (names, egress and untagged lists whose octets after the 16th are
 * a text dump, not bits) and PVIDs, but no current table, no HH3C VLAN tables, no PoE and
 * no LLDP; Vlan-interface10 carries the management address.
 */
import { comware } from "../../drivers/families/comware";
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";
import { learnCounts } from "../support/replay-counts";
import { apiTagged, recordedTagged } from "./qbridge-family";

const NAME = "comware_a5500";

describeReplay("replay: HPE Comware", [NAME], (ctx) => {
  it(`${NAME}: basic view shows the recorded ports, VLANs and untagged VLANs`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecorded(d, await d.basic(), { driver: "comware" }));
  });

  it(`${NAME}: trunk ports show the VLANs they carry tagged (static egress without untagged, PVID excluded)`, async () => {
    const d = ctx.device(NAME);
    const want = recordedTagged(d.facts.file);
    expect(want.size).toBeGreaterThan(0);
    const got = apiTagged(await d.basic());
    expect(got).toEqual(want);
    // as recorded: an access port with one VLAN tagged beside its PVID, and the uplink
    expect([got.get(15), got.get(26)]).toEqual([[10], [10, 20, 25, 30, 41, 42, 55]]);
    const count = (m: Map<number, number[]>) => [...m.values()].reduce((a, v) => a + v.length, 0);
    console.log(
      `${NAME}: recording holds ${count(want)} tagged memberships on ${want.size} ports (${[...want].map(([i, v]) => `${i}: ${v.join(",")}`).join("; ")}); API returned ${count(got)} on ${got.size} ports`,
    );
  });

  it(`${NAME}: the model comes from the hex-encoded sysDescr, and the save is offered`, async () => {
    const d = ctx.device(NAME);
    const r = await d.basic();
    const sw = (r.body as { switch: { driver_info: { model: string; sysObjectID: string }; save_config: boolean } })
      .switch;
    expect(sw.driver_info.model).toMatch(/^HP Comware Platform Software, Software Version 5\.20\.99/);
    expect(sw.driver_info.sysObjectID).toBe("1.3.6.1.4.1.25506.11.1.24");
    expect(sw.save_config).toBe(true);
  });

  it(`${NAME}: details complete with the recording's (absent) LLDP neighbours`, async () => {
    const d = ctx.device(NAME);
    console.log(expectRecordedNeighbours(d, await d.details()));
  });

  it(`${NAME}: the driver reads each view without an unanswered request (counts printed)`, async () => {
    console.log(await learnCounts(ctx, comware, NAME));
  });
});
