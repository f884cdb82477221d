/**
 * Cisco small business (CBS350, 4 units with 10G uplinks) as recorded: "auto" picks the
 * ciscosb family by its sysObjectID under 1.3.6.1.4.1.9.6.1.
 */
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";

describeReplay("replay: Cisco small business", ["ciscosb_cbs350-4x"], (ctx) => {
  it("ciscosb_cbs350-4x: basic view shows the recorded ports, VLANs and untagged VLANs", async () => {
    const d = ctx.device("ciscosb_cbs350-4x");
    console.log(expectRecorded(d, await d.basic(), { driver: "ciscosb" }));
  });

  it("ciscosb_cbs350-4x: details attach the recorded LLDP neighbours to their ports", async () => {
    const d = ctx.device("ciscosb_cbs350-4x");
    console.log(expectRecordedNeighbours(d, await d.details()));
  });
});
