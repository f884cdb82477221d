/**
 * Cisco IOS / IOS-XE switches as recorded, read through the API with the driver "auto"
 * chooses (cisco, by the sysObjectID prefix 1.3.6.1.4.1.9): a 2960-X stack in VTP client
 * mode with PoE only in CISCO-POWER-ETHERNET-EXT-MIB, a 2960-S whose VLAN 98 has its own
 * community@98 recording, a Catalyst 9300 on IOS-XE without VLAN tables, and a 4506-E
 * chassis with 581 interfaces and nothing but IF-MIB (its speed is measured and printed:
 * SNMP requests on the wire and time of a first and a second basic view).
 */
import { resetRequestSizes } from "../../drivers/snmp/request-size";
import { snmpProfileRow, switchRow } from "../../db/inventory";
import { describeReplay, expectRecorded, expectRecordedNeighbours, type ReplayDevice } from "../support/replay";
import { listContexts, Snmprec } from "../support/snmprec-facts";
import { startUdpRelay } from "../support/udp-relay";

const RECORDINGS = ["ios_2960x", "ios_stp-vlans", "iosxe_c9300", "ios_4506e"];
const VM_VLAN = "1.3.6.1.4.1.9.9.68.1.2.2.1.2";
const TRUNK_NATIVE_VLAN = "1.3.6.1.4.1.9.9.46.1.6.1.1.5";

/** ifIndex -> native VLAN of the ports the recording has in vlanTrunkPortTable but not in vmMembershipTable (trunks) */
function recordedTrunks(d: ReplayDevice): Map<number, number> {
  const rec = new Snmprec(d.facts.file);
  const access = rec.column(VM_VLAN);
  return new Map(
    [...rec.column(TRUNK_NATIVE_VLAN)]
      .filter(([index]) => !access.has(index))
      .map(([index, v]): [number, number] => [Number(index), Number(v.text)])
      .sort((a, b) => a[0] - b[0]),
  );
}

type ApiInterface = {
  id: string;
  name: string;
  mode: string;
  vlan?: number;
  tagged_vlans?: string;
  ethernet_addresses: Array<{ address: string; vlan: number }>;
};

/** ifIndex -> MACs of the default context's (VLAN 1's) forwarding table, mapped through its bridge port table */
function recordedVlan1Macs(d: ReplayDevice): Map<number, number> {
  const rec = new Snmprec(d.facts.file);
  const ifOfPort = new Map([...rec.column("1.3.6.1.2.1.17.1.4.1.2")].map(([port, v]) => [port, Number(v.text)]));
  const out = new Map<number, number>();
  for (const v of rec.column("1.3.6.1.2.1.17.4.3.1.2").values()) {
    const ifIndex = ifOfPort.get(v.text);
    if (ifIndex !== undefined && d.facts.interfaces.has(ifIndex)) out.set(ifIndex, (out.get(ifIndex) ?? 0) + 1);
  }
  return out;
}

describeReplay("replay: Cisco IOS / IOS-XE", RECORDINGS, (ctx) => {
  it.each(RECORDINGS)(
    "%s: basic view shows the recorded ports, VTP VLANs, access and native VLANs and PoE",
    async (name) => {
      const d = ctx.device(name);
      console.log(expectRecorded(d, await d.basic(), { driver: "cisco" }));
    },
  );

  it.each(RECORDINGS)(
    "%s: details keep the basic facts and add the recorded neighbours (none are recorded)",
    async (name) => {
      const d = ctx.device(name);
      const r = await d.details();
      expectRecorded(d, r, { driver: "cisco" });
      console.log(expectRecordedNeighbours(d, r));
    },
  );

  it.each(["ios_2960x", "ios_stp-vlans"])(
    "%s: the ports recorded as trunks (a trunk table row, no vmVlan row) show their recorded native VLAN",
    async (name) => {
      const d = ctx.device(name);
      const trunks = recordedTrunks(d);
      expect(trunks.size).toBeGreaterThan(0);
      const body = (await d.basic()).body as { interfaces: ApiInterface[] };
      const byId = new Map(body.interfaces.map((i) => [Number(i.id), i]));
      const shown = [...trunks].filter(([ifIndex]) => byId.has(ifIndex));
      expect(shown.length).toBeGreaterThan(0);
      for (const [ifIndex, native] of shown)
        expect({ ifIndex, vlan: byId.get(ifIndex)!.vlan }).toEqual({ ifIndex, vlan: native });
      if (name === "ios_2960x") {
        // as recorded: five stack ports trunk with native VLAN 534, the others with VLAN 1
        expect([...trunks].filter(([, v]) => v === 534).map(([i]) => i)).toEqual([10103, 10104, 10105, 11103, 11104]);
        expect(byId.get(10103)!.vlan).toBe(534);
      }
      console.log(
        `${name}: recording holds ${trunks.size} trunk ports (${[...trunks].map(([i, v]) => `${i}: native ${v}`).join("; ")}); API shows ${shown.length} of them, each with its native VLAN`,
      );
    },
  );

  it("ios_2960x: the 2960-X's PoE ports come from cpeExtPsePortTable through the entity links, access VLANs outside VTP are shown", async () => {
    const d = ctx.device("ios_2960x");
    const r = await d.basic();
    const body = r.body as {
      vlans: Record<string, unknown>;
      interfaces: Array<ApiInterface & { poe?: { power_consumed: number } }>;
    };
    const poe = body.interfaces.filter((i) => i.poe);
    // every recorded PoE port is reached (the recording has no pethPsePortTable rows)
    expect(d.facts.poeUnmapped).toBe(0);
    expect(poe.length).toBe(d.facts.poeAdmin.size);
    expect(poe.length).toBeGreaterThan(0);
    const outside = [...d.facts.untagged].filter(([, vlan]) => !d.facts.vlans.has(vlan));
    expect(outside.length).toBeGreaterThan(0);
    const byId = new Map(body.interfaces.map((i) => [Number(i.id), i]));
    for (const [ifIndex, vlan] of outside)
      expect({ ifIndex, vlan: byId.get(ifIndex)?.vlan }).toEqual({ ifIndex, vlan });
    console.log(
      `ios_2960x: ${poe.length} PoE ports (${poe.filter((i) => i.poe!.power_consumed > 0).length} drawing power), ` +
        `${outside.length} ports in access VLANs VTP does not list (${[...new Set(outside.map(([, v]) => v))].length} such VLANs), shown with their VLAN`,
    );
  });

  it("ios_2960x: details attach VLAN 1's recorded MAC table (the default context) to the ports it names", async () => {
    const d = ctx.device("ios_2960x");
    const body = (await d.details()).body as { interfaces: ApiInterface[] };
    const want = recordedVlan1Macs(d);
    const got = new Map(
      body.interfaces
        .filter((i) => i.ethernet_addresses.length)
        .map((i) => [Number(i.id), i.ethernet_addresses.length]),
    );
    expect(got).toEqual(want);
    for (const i of body.interfaces) for (const m of i.ethernet_addresses) expect(m.vlan).toBe(1);
    console.log(
      `ios_2960x details: recording holds ${[...want.values()].reduce((a, b) => a + b, 0)} MACs of VLAN 1 on ${want.size} ports; API showed ${[...got.values()].reduce((a, b) => a + b, 0)} on ${got.size}`,
    );
  });

  it("ios_stp-vlans: details read VLAN 98's context (community@98): the trunk it lists carries VLAN 98", async () => {
    const d = ctx.device("ios_stp-vlans");
    const [context] = listContexts("ios_stp-vlans");
    expect(context.context).toBe("98");
    // the context recording's bridge port table: the ports VLAN 98's bridge instance has
    const members = [...new Snmprec(context.file).column("1.3.6.1.2.1.17.1.4.1.2").values()].map((v) => Number(v.text));
    expect(members.length).toBeGreaterThan(0);
    const basic = (await d.basic()).body as { interfaces: ApiInterface[] };
    const details = (await d.details()).body as { interfaces: ApiInterface[] };
    for (const ifIndex of members) {
      const b = basic.interfaces.find((i) => Number(i.id) === ifIndex)!;
      const x = details.interfaces.find((i) => Number(i.id) === ifIndex)!;
      // the recording has no vlanTrunkPortVlansEnabled: only the context tells what the trunk carries
      expect({ name: b.name, tagged: b.tagged_vlans ?? "" }).toEqual({ name: b.name, tagged: "" });
      expect({ name: x.name, mode: x.mode, tagged: x.tagged_vlans }).toEqual({
        name: b.name,
        mode: "Tagged",
        tagged: "98",
      });
      console.log(
        `ios_stp-vlans@98: context lists ${x.name} (ifIndex ${ifIndex}); basic view: ${b.mode}, tagged VLANs '${b.tagged_vlans ?? ""}'; details: ${x.mode}, tagged VLANs '${x.tagged_vlans}'`,
      );
    }
  });

  it("ios_4506e: a first and a second basic view of the 581-interface chassis, SNMP requests counted on the wire", async () => {
    const d = ctx.device("ios_4506e");
    const relay = await startUdpRelay(ctx.sim.port);
    try {
      const inv = ctx.app.services.repos.inventory;
      const profile = await inv.create(
        "snmp_profiles",
        snmpProfileRow({
          name: "rec-4506e-relay",
          community_enc: ctx.app.services.secrets.encrypt(d.name),
          read_only: 1,
          timeout_ms: 2000,
          retries: 1,
        }),
      );
      const sw = await inv.create(
        "switches",
        switchRow({
          name: "ios_4506e-relay",
          primary_ipv4: "127.0.0.1",
          snmp_port: relay.port,
          snmp_profile_id: profile.id,
        }),
        [{ relation: "groups", ids: [ctx.group] }],
      );
      resetRequestSizes();
      const lines: string[] = [];
      for (const label of [
        "first (cold: driver chosen now, nothing remembered)",
        "second (warm: stored driver, sizes remembered)",
      ]) {
        relay.reset();
        const started = process.hrtime.bigint();
        const r = await ctx.app.request("GET", `/api/switches/${ctx.group}/${sw.id}/`, { token: ctx.token });
        const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
        expect(r.status).toBe(200);
        expect((r.body as { interfaces: unknown[] }).interfaces.length).toBe(d.facts.interfaces.size);
        lines.push(
          `${label}: ${ms} ms, ${relay.traffic.requests} SNMP requests, ${relay.traffic.requests - relay.traffic.answers} unanswered, largest answer ${relay.traffic.largestAnswer} bytes`,
        );
      }
      console.log(`ios_4506e basic view (${d.facts.interfaces.size} interfaces) on snmpsimd:\n  ${lines.join("\n  ")}`);
    } finally {
      await relay.stop();
    }
  });
});
