/**
 * Arista EOS as recorded: a DCS-7050TX (EOS 4.15) with Q-BRIDGE VLANs (names wrapped in
 * backslashes by the agent, shown as served), PVIDs and LLDP neighbours. "auto" picks the
 * arista family by enterprise 30065.
 */
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";

describeReplay("replay: Arista EOS", ["arista_eos"], (ctx) => {
  it("arista_eos: basic view shows the recorded ports, VLANs with their names and untagged VLANs", async () => {
    const d = ctx.device("arista_eos");
    const started = Date.now();
    const r = await d.basic();
    console.log(`${expectRecorded(d, r, { driver: "arista" })} (${Date.now() - started} ms)`);
    const s = (r.body as { switch: Record<string, unknown> }).switch;
    expect([s.change_vlan, s.edit_vlans, s.change_vlan_name, s.save_config, s.change_poe]).toEqual([true, false, false, false, false]);
  });

  it("arista_eos: details attach the recorded LLDP neighbours to their ports", async () => {
    const d = ctx.device("arista_eos");
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
