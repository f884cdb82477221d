/**
 * The replay tests of a Q-BRIDGE family's recording (edgeswitch, fs): what every family
 * must show (expectRecorded), tagged memberships, and LLDP neighbours in the details.
 *
 * Tagged VLAN memberships a Q-BRIDGE recording holds, counted from the file apart from
 * the drivers, for the replay tests of FASTPATH-style families (edgeswitch, fs): a bridge
 * port carries VLAN v tagged when v's egress bitmap (static, else current with any
 * timeMark) has the port, its untagged bitmap does not, and v is not the port's PVID.
 * Bridge ports map to interfaces through dot1dBasePortIfIndex (port = ifIndex without it).
 */
import type { ApiResponse } from "../support/harness";
import { describeReplay, expectRecorded, expectRecordedNeighbours } from "../support/replay";
import { Snmprec } from "../support/snmprec-facts";

const STATIC_EGRESS = "1.3.6.1.2.1.17.7.1.4.3.1.2";
const STATIC_UNTAGGED = "1.3.6.1.2.1.17.7.1.4.3.1.4";
const CURRENT_EGRESS = "1.3.6.1.2.1.17.7.1.4.2.1.4";
const CURRENT_UNTAGGED = "1.3.6.1.2.1.17.7.1.4.2.1.5";
const PVID = "1.3.6.1.2.1.17.7.1.4.5.1.1";
const BASE_PORT_IFINDEX = "1.3.6.1.2.1.17.1.4.1.2";

/** PortList bit of a bridge port: the first octet's high bit is port 1 (RFC 4363). */
function hasPort(list: Buffer, port: number): boolean {
  const byte = Math.floor((port - 1) / 8);
  return port >= 1 && byte < list.length && (list[byte] & (0x80 >> ((port - 1) % 8))) !== 0;
}

/** ifIndex -> tagged VLANs (ascending), for the interfaces that carry any */
export function recordedTagged(file: string): Map<number, number[]> {
  const rec = new Snmprec(file);
  const vlanOf = (index: string) => Number(index.slice(index.lastIndexOf(".") + 1));
  let egress = rec.column(STATIC_EGRESS);
  let untagged = rec.column(STATIC_UNTAGGED);
  if (egress.size === 0) [egress, untagged] = [rec.column(CURRENT_EGRESS), rec.column(CURRENT_UNTAGGED)];
  const untaggedByVlan = new Map([...untagged].map(([index, v]) => [vlanOf(index), v.bytes]));
  const pvids = new Map([...rec.column(PVID)].map(([port, v]) => [Number(port), Number(v.text)]));
  const bridge = new Map([...rec.column(BASE_PORT_IFINDEX)].map(([port, v]) => [Number(port), Number(v.text)]));
  const out = new Map<number, number[]>();
  for (const [index, v] of egress) {
    const vlan = vlanOf(index);
    for (const port of bridge.size ? bridge.keys() : pvids.keys()) {
      if (!hasPort(v.bytes, port) || pvids.get(port) === vlan) continue;
      const u = untaggedByVlan.get(vlan);
      if (u && hasPort(u, port)) continue;
      const ifIndex = bridge.size ? bridge.get(port)! : port;
      out.set(
        ifIndex,
        [...(out.get(ifIndex) ?? []), vlan].sort((a, b) => a - b),
      );
    }
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/** The API's tagged VLANs per interface (those in mode Tagged), to compare with recordedTagged. */
export function apiTagged(r: ApiResponse): Map<number, number[]> {
  const body = r.body as { interfaces: { id: string; mode: string; tagged_vlans?: string }[] };
  const out = new Map<number, number[]>();
  for (const i of body.interfaces) {
    if (i.mode === "Tagged") out.set(Number(i.id), (i.tagged_vlans ?? "").split(", ").map(Number));
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/**
 * The tagged memberships a Q-BRIDGE recording holds, as the basic view shows them: each
 * port in mode Tagged with exactly the recorded VLANs, no other port Tagged. Returns the
 * line to print.
 */
export async function expectRecordedTagged(name: string, file: string, basic: Promise<ApiResponse>): Promise<string> {
  const want = recordedTagged(file);
  const got = apiTagged(await basic);
  expect(got).toEqual(want);
  const count = (m: Map<number, number[]>) => [...m.values()].reduce((a, v) => a + v.length, 0);
  return `${name}: recording holds ${count(want)} tagged memberships on ${want.size} ports; API returned ${count(got)} on ${got.size} ports`;
}

/** describeReplay of one recording that "auto" must give to `driver`, with the three checks. */
export function replayQBridgeFamily(title: string, name: string, driver: string): void {
  describeReplay(title, [name], (ctx) => {
    it(`${name}: basic view shows the recorded ports, VLANs and untagged VLANs`, async () => {
      const d = ctx.device(name);
      console.log(expectRecorded(d, await d.basic(), { driver }));
    });

    it(`${name}: ports carrying VLANs tagged show them (egress without untagged, PVID excluded)`, async () => {
      const d = ctx.device(name);
      console.log(await expectRecordedTagged(name, d.facts.file, d.basic()));
    });

    it(`${name}: details attach the recorded LLDP neighbours to their ports`, async () => {
      const d = ctx.device(name);
      console.log(expectRecordedNeighbours(d, await d.details()));
    });
  });
}
