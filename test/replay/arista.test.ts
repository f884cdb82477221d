/**
 * Arista EOS as recorded: a DCS-7050TX (EOS 4.15) with Q-BRIDGE VLANs, PVIDs and LLDP
 * neighbours. "auto" picks the arista family by enterprise 30065. The agent serves
 * configured VLAN names wrapped in backslashes ("\LAN_COR\"); the view shows them as
 * configured ("LAN_COR").
 */
import type { RecordingFacts } from "../support/snmprec-facts";
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";

/** the recorded names without EOS's backslashes (written here apart from the driver) */
const configuredNames = (facts: RecordingFacts) =>
  new Map(
    [...facts.vlans].map(([id, name]) => [
      id,
      name.startsWith("\\") && name.endsWith("\\") && name.length >= 2 ? name.slice(1, -1) : name,
    ]),
  );

describeReplay("replay: Arista EOS", ["arista_eos"], (ctx) => {
  it("arista_eos: basic view shows the recorded ports, VLANs with their names and untagged VLANs", async () => {
    const d = ctx.device("arista_eos");
    const started = Date.now();
    const r = await d.basic();
    console.log(`${expectRecorded(d, r, { driver: "arista", vlans: configuredNames })} (${Date.now() - started} ms)`);
    const body = r.body as { switch: Record<string, unknown>; vlans: Record<string, { name: string }> };
    const wrapped = [...d.facts.vlans.values()].filter((n) => /^\\.*\\$/.test(n)).length;
    console.log(
      `arista_eos: ${wrapped} recorded VLAN names wrapped in backslashes; API names: ${Object.values(body.vlans)
        .map((v) => v.name)
        .join(", ")}`,
    );
    expect(wrapped).toBeGreaterThan(0);
    expect(Object.values(body.vlans).filter((v) => v.name.includes("\\"))).toEqual([]);
    const s = body.switch;
    expect([s.change_vlan, s.edit_vlans, s.change_vlan_name, s.save_config, s.change_poe]).toEqual([
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it("arista_eos: details attach the recorded LLDP neighbours to their ports", async () => {
    const d = ctx.device("arista_eos");
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
