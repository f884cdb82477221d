/**
 * Dell as recorded: an OS10 switch (674.11000) and an OS9 S4048-ON (Force10, 6027), both
 * without dot1qPvid. "auto" picks the dell family; the untagged VLANs come from the VLAN
 * untagged PortLists (OS10 current bitmaps; OS9 long lists recorded as 16 raw octets and a
 * hex dump), and OS10's LLDP local ports map through their names.
 */
import { Snmprec } from "../support/snmprec-facts";
import { describeReplay, expectRecorded, expectRecordedNeighbours, type ReplayDevice } from "../support/replay";

const RECORDINGS = ["dell-os10", "dnos"];
const CURRENT_EGRESS = "1.3.6.1.2.1.17.7.1.4.2.1.4";
const CURRENT_UNTAGGED = "1.3.6.1.2.1.17.7.1.4.2.1.5";

/** the octets a recorded list spells: its raw head, then every hex pair of a dump after a line break */
function listOctets(bytes: Buffer): number[] {
  const cut = bytes.indexOf(10);
  if (cut < 0) return [...bytes];
  const pairs = bytes.subarray(cut).toString("latin1").trim().split(/\s+/);
  return [...bytes.subarray(0, cut), ...pairs.map((p) => parseInt(p, 16))];
}

/** bridge ports of a list: bit 7 of octet 0 is port 1 */
function listPorts(bytes: Buffer): Set<number> {
  const ports = new Set<number>();
  listOctets(bytes).forEach((octet, i) => {
    for (let bit = 0; bit < 8; bit++) if (octet & (128 >> bit)) ports.add(i * 8 + bit + 1);
  });
  return ports;
}

/** ifIndex -> untagged VLAN and tagged VLANs, from the recording's current lists through its bridge port map */
function recordedMemberships(d: ReplayDevice) {
  const rec = new Snmprec(d.facts.file);
  const untagged = new Map<number, number>();
  const tagged = new Map<number, number[]>();
  const vlanOf = (index: string) => Number(index.split(".")[1]);
  const untaggedLists = rec.column(CURRENT_UNTAGGED);
  for (const [index, value] of [...untaggedLists].sort((a, b) => vlanOf(a[0]) - vlanOf(b[0]))) {
    for (const port of listPorts(value.bytes)) {
      const ifIndex = d.facts.bridgePorts.get(port);
      if (ifIndex !== undefined && !untagged.has(ifIndex)) untagged.set(ifIndex, vlanOf(index));
    }
  }
  for (const [index, value] of rec.column(CURRENT_EGRESS)) {
    const u = untaggedLists.get(index);
    const untaggedPorts = u ? listPorts(u.bytes) : new Set<number>();
    for (const port of listPorts(value.bytes)) {
      const ifIndex = d.facts.bridgePorts.get(port);
      if (ifIndex === undefined || untaggedPorts.has(port)) continue;
      tagged.set(
        ifIndex,
        [...(tagged.get(ifIndex) ?? []), vlanOf(index)].sort((a, b) => a - b),
      );
    }
  }
  return { untagged, tagged };
}

describeReplay("replay: Dell", RECORDINGS, (ctx) => {
  it.each(RECORDINGS)(
    "%s: basic view shows the recorded ports and VLANs, and untagged and tagged VLANs from the PortLists",
    async (name) => {
      const d = ctx.device(name);
      const r = await d.basic();
      const line = expectRecorded(d, r, { driver: "dell" });
      const { untagged, tagged } = recordedMemberships(d);
      expect(untagged.size).toBeGreaterThan(0);
      const body = r.body as { interfaces: { id: string; vlan?: number; tagged_vlans?: string }[] };
      const byId = new Map(body.interfaces.map((i) => [Number(i.id), i]));
      for (const [ifIndex, vlan] of untagged)
        expect({ ifIndex, vlan: byId.get(ifIndex)?.vlan }).toEqual({ ifIndex, vlan });
      for (const [ifIndex, vlans] of tagged)
        expect({ ifIndex, tagged: byId.get(ifIndex)?.tagged_vlans }).toEqual({ ifIndex, tagged: vlans.join(", ") });
      console.log(
        `${line}; from the untagged PortLists: ${untagged.size} untagged and ${tagged.size} tagged ports, shown alike`,
      );
    },
  );

  it.each(RECORDINGS)("%s: details attach the recorded LLDP neighbours to their ports", async (name) => {
    const d = ctx.device(name);
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
