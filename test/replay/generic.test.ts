/**
 * Switches of no family of their own, read by the generic driver (standard MIBs only):
 * a D-Link DGS-1510 and a Linksys LGS318P (a small-business OEM with PoE), as recorded.
 */
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";
import { expectRecordedTagged } from "./qbridge-family";

const RECORDINGS = ["dlink_dgs-1510-28", "linksys-ss_lgs318p"];

describeReplay("replay: generic driver", RECORDINGS, (ctx) => {
  it.each(RECORDINGS)("%s: basic view shows the recorded ports, VLANs, untagged VLANs and PoE", async (name) => {
    const d = ctx.device(name);
    console.log(expectRecorded(d, await d.basic(), { driver: "generic" }));
  });

  it.each(RECORDINGS)(
    "%s: ports carrying VLANs tagged show them (egress without untagged, PVID excluded)",
    async (name) => {
      const d = ctx.device(name);
      console.log(await expectRecordedTagged(name, d.facts.file, d.basic()));
    },
  );

  it.each(RECORDINGS)("%s: details attach the recorded LLDP neighbours to their ports", async (name) => {
    const d = ctx.device(name);
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
