/**
 * Aruba AOS-CX as recorded: a 6300M (FL.10.16) and a 6300 VSF stack whose 300 PVIDs are
 * spread over its members. "auto" picks the arubacx family by enterprise 47196. Neither
 * recording has a Q-BRIDGE VLAN table, PoE rows or LLDP neighbours: the VLANs are the
 * PVIDs' ids, unnamed, and the view says why in driver_info.vlan_names.
 */
import { VLAN_NAMES_MISSING } from "../../drivers/families/arubacx";
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";

const RECORDINGS = ["arubaos-cx_10.16", "arubaos-cx_6300_vsf_stack"];

type Body = {
  switch: { driver_info: Record<string, unknown>; change_vlan: boolean; save_config: boolean; edit_vlans: boolean };
  vlans: Record<string, { name: string }>;
  interfaces: Array<{ id: string; name: string }>;
};

describeReplay("replay: Aruba AOS-CX", RECORDINGS, (ctx) => {
  it.each(RECORDINGS)(
    "%s: basic view shows the recorded ports, PVIDs and the VLAN ids, and says VLAN names are missing",
    async (name) => {
      const d = ctx.device(name);
      const started = Date.now();
      const r = await d.basic();
      const ms = Date.now() - started;
      console.log(`${expectRecorded(d, r, { driver: "arubacx" })} (${ms} ms)`);
      const body = r.body as Body;
      expect(d.facts.vlanSource).toBe("pvid-values");
      expect(Object.values(body.vlans).every((v) => v.name === "")).toBe(true);
      expect(body.switch.driver_info.vlan_names).toBe(VLAN_NAMES_MISSING);
      expect([body.switch.change_vlan, body.switch.edit_vlans, body.switch.save_config]).toEqual([false, false, true]);
    },
  );

  it("arubaos-cx_6300_vsf_stack: ports of every stack member are listed by their member/1/port names", async () => {
    const d = ctx.device("arubaos-cx_6300_vsf_stack");
    const body = (await d.basic()).body as Body;
    const members = new Set(
      body.interfaces.map((i) => /^(\d+)\/1\/\d+$/.exec(i.name)?.[1]).filter((m) => m !== undefined),
    );
    const recorded = new Set(
      [...d.facts.interfaces.values()].map((f) => /^(\d+)\/1\/\d+$/.exec(f.name)?.[1]).filter((m) => m !== undefined),
    );
    console.log(
      `arubaos-cx_6300_vsf_stack: recording names ports on members ${[...recorded].join(", ")}; API lists members ${[...members].join(", ")}`,
    );
    expect(recorded.size).toBeGreaterThan(1);
    expect(members).toEqual(recorded);
  });

  it.each(RECORDINGS)(
    "%s: details complete; the recording holds no LLDP neighbours and the API shows none",
    async (name) => {
      const d = ctx.device(name);
      console.log(expectRecordedNeighbours(d, await d.details()));
    },
  );
});
