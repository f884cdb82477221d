/**
 * LAG members as the recordings hold them, through the API (docs/api-decisions.md, "Ports
 * that must not be changed"): the recordings carry no IEEE8023-LAG-MIB, but their
 * ifStackTable puts Ethernet ports under an aggregate (Arista Port-Channel1 and Dell OS9
 * Port-channel N, ifType ieee8023adLag; Cisco IOS Po1, propVirtual). Each such port must show the aggregate's
 * reason while staying manageable, and a VLAN change on it is refused before the device
 * is asked; no other port may be marked. None of the recordings holds IEEE8021-PAE-MIB,
 * so no port may show the 802.1X reason. The members are counted from the files here,
 * apart from the drivers.
 */
import { Snmprec } from "../support/snmprec-facts";
import { describeReplay, type ReplayDevice } from "../support/replay";

const RECORDINGS = ["arista_eos", "ios_2960x", "dnos"];
const IF_TYPE = "1.3.6.1.2.1.2.2.1.3";
const IF_NAME = "1.3.6.1.2.1.31.1.1.1.1";
const IF_DESCR = "1.3.6.1.2.1.2.2.1.2";
const IF_STACK_STATUS = "1.3.6.1.2.1.31.1.2.1.3";
const ETHERNET = 6;
const LAG_TYPE = 161;
const PROP_VIRTUAL = 53;

/** Ethernet ifIndex -> the name of the aggregate above it in the recorded ifStackTable */
function recordedMembers(d: ReplayDevice): Map<number, string> {
  const rec = new Snmprec(d.facts.file);
  const type = (i: number) => Number(rec.get(`${IF_TYPE}.${i}`)?.text ?? 0);
  const name = (i: number) => rec.get(`${IF_NAME}.${i}`)?.text || rec.get(`${IF_DESCR}.${i}`)?.text || "";
  const out = new Map<number, string>();
  for (const index of rec.column(IF_STACK_STATUS).keys()) {
    const [higher, lower] = index.split(".").map(Number);
    if (!higher || !lower || type(lower) !== ETHERNET) continue;
    const aggregate =
      type(higher) === LAG_TYPE || (type(higher) === PROP_VIRTUAL && /^(po|port-channel)\s*\d/i.test(name(higher)));
    if (aggregate) out.set(lower, name(higher));
  }
  return out;
}

type Entry = { id: string; manageable: boolean; unmanage_reason?: string };

describeReplay("replay: LAG members and 802.1X ports", RECORDINGS, (ctx) => {
  it.each(RECORDINGS)(
    "%s: every recorded member, and only those, says it is a member of its aggregate",
    async (name) => {
      const d = ctx.device(name);
      const members = recordedMembers(d);
      expect(members.size).toBeGreaterThan(0);
      const r = await d.basic();
      expect(r.status).toBe(200);
      const interfaces = r.body.interfaces as Entry[];
      const marked = new Map(
        interfaces
          .filter((i) => i.unmanage_reason?.includes("member of link aggregation"))
          .map((i) => [Number(i.id), i.unmanage_reason]),
      );
      expect(marked).toEqual(
        new Map(
          [...members].map(([ifIndex, aggregate]) => [
            ifIndex,
            `Vlan changes denied: interface is a member of link aggregation ${aggregate}!`,
          ]),
        ),
      );
      // the superuser's view: a member stays manageable (state, description, PoE)
      for (const ifIndex of members.keys())
        expect({ ifIndex, manageable: interfaces.find((i) => i.id === String(ifIndex))?.manageable }).toEqual({
          ifIndex,
          manageable: true,
        });
      expect(interfaces.filter((i) => i.unmanage_reason?.includes("802.1x"))).toEqual([]);
      console.log(`${name}: ${members.size} LAG members (${[...new Set(members.values())].join(", ")})`);
    },
  );

  it.each(["arista_eos", "ios_2960x"])(
    "%s: a VLAN change on a member is refused before the device is asked",
    async (name) => {
      const d = ctx.device(name);
      const [member] = recordedMembers(d).keys();
      const r = await ctx.app.request("POST", `/api/switches/${ctx.group}/${d.id}/interface/${member}/vlan/`, {
        token: ctx.token,
        json: { vlan: 1 },
      });
      expect({ status: r.status, reason: r.body.reason }).toEqual({
        status: 403,
        reason: "You can not manage this interface!",
      });
    },
  );
});
