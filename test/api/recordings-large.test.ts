/**
 * The failure this guards against: a switch with many VLANs and long PortLists makes a
 * multi-column GETBULK of dot1qVlanStaticTable larger than one UDP datagram, the agent
 * sends nothing, and a healthy switch was reported unreachable after the full timeout.
 *
 * The lab writes a recording of a chassis with 4,000 possible ports (4 slots numbered
 * s*1000+m: 512-octet PortLists) and 253 VLANs, and Debian's snmpsimd serves it. With its
 * default --max-varbinds of 64, snmpsimd's answers stay near 18 kB and nothing fails;
 * with --max-varbinds=500 (the engine's own ceiling of values per request, so the agent
 * is limited by the datagram alone, as real agents are) a 32-row read of the table's four
 * columns is answered (about 36 kB) and a 64-row read, which the engine asks for next
 * when every column came back full, is not (about 72 kB > 65,507). A UDP relay in front
 * of snmpsimd counts requests and answers on the wire.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startLabSwitch } from "../../lab";
import type { VirtualSwitch } from "../../lab/model";
import { qbridge } from "../../mib/oids";
import { resetRequestSizes } from "../../drivers/snmp/request-size";
import { snmpProfileRow, switchRow } from "../../db/inventory";
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { openSession } from "../support/snmp-client";
import { describeSnmpsimd, startSnmpsim, type Snmpsim } from "../support/snmpsim";
import { startUdpRelay, type UdpRelay } from "../support/udp-relay";

const COMMUNITY = "chassis";
const TIMEOUT_MS = 1500;
const UDP_MAX = 65507;

describeSnmpsimd("basic view of a large chassis recording on snmpsimd", () => {
  describeDb("through the API", () => {
    let dir = "";
    let model: VirtualSwitch;
    let sim: Snmpsim;
    let relay: UdpRelay;
    let app: TestApp;
    let token: string;
    let gid: number;
    let sid: number;

    beforeAll(async () => {
      const lab = await startLabSwitch({ profile: "generic", ports: 384, portsPerSlot: 96, extraVlans: 240, seed: 11 });
      model = lab.model;
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-chassis-"));
      // snmpsimd drops to an unprivileged user when started as root: it must read the file
      fs.chmodSync(dir, 0o755);
      const file = path.join(dir, `${COMMUNITY}.snmprec`);
      lab.writeRecording(file);
      fs.chmodSync(file, 0o644);
      await lab.stop();

      sim = await startSnmpsim({ recordings: { [COMMUNITY]: file }, maxVarBinds: 500 });
      relay = await startUdpRelay(sim.port);
      resetRequestSizes();
      ({ app, root: token } = await startAppWithRoot());
      const inv = app.services.repos.inventory;
      const group = await inv.create("switch_groups", {
        name: "Chassis",
        description: "",
        display_name: "",
        comments: "",
        // the columns' defaults
        read_only: 0,
        allow_poe_toggle: 0,
        edit_if_descr: 1,
        allow_all_vlans: 0,
      });
      gid = group.id;
      const profile = await inv.create(
        "snmp_profiles",
        snmpProfileRow({
          name: "chassis-rec",
          community_enc: app.services.secrets.encrypt(COMMUNITY),
          read_only: 1,
          timeout_ms: TIMEOUT_MS,
          retries: 1,
        }),
      );
      const sw = await inv.create(
        "switches",
        switchRow({ name: "chassis-1", primary_ipv4: "127.0.0.1", snmp_port: relay.port, snmp_profile_id: profile.id }),
        [{ relation: "groups", ids: [gid] }],
      );
      sid = sw.id;
    }, 60000);

    afterAll(async () => {
      await app?.close();
      await relay?.stop();
      await sim?.stop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    test("snmpsimd answers 32 rows of the VLAN table's four columns, and nothing at all for 64", async () => {
      const s = openSession(relay.port, { community: COMMUNITY, timeoutMs: TIMEOUT_MS });
      const columns = [
        qbridge.dot1qVlanStaticName,
        qbridge.dot1qVlanStaticEgressPorts,
        qbridge.dot1qVlanStaticUntaggedPorts,
        qbridge.dot1qVlanStaticRowStatus,
      ];
      try {
        relay.reset();
        expect(await s.getBulk(columns, 0, 32)).toHaveLength(128);
        const answered = relay.traffic.largestAnswer;
        relay.reset();
        await expect(s.getBulk(columns, 0, 64)).rejects.toMatchObject({ name: "RequestTimedOutError" });
        console.log(
          `snmpsimd --max-varbinds=500: 4 columns x 32 rows answered with ${answered} bytes; x 64 rows: no answer`,
        );
        expect(relay.traffic).toMatchObject({ requests: 1, answers: 0 });
        expect(answered).toBeGreaterThan(UDP_MAX / 2);
        expect(answered).toBeLessThan(UDP_MAX);
      } finally {
        s.close();
      }
    });

    test("the basic view lists every VLAN and every port with its untagged VLAN; a second view starts at the size that worked", async () => {
      const view = async (label: string) => {
        relay.reset();
        const started = Date.now();
        const r = await app.request("GET", `/api/switches/${gid}/${sid}/`, { token });
        const ms = Date.now() - started;
        const t = relay.traffic;
        console.log(
          `${label}: HTTP ${r.status} in ${ms} ms, ${t.requests} SNMP requests (${t.distinct} without retries), ${t.requests - t.answers} unanswered, largest answer ${t.largestAnswer} bytes`,
        );
        expect(r.status).toBe(200);
        return { body: r.body, ms, traffic: { ...t } };
      };
      const expectSwitch = (body: Schemas["SwitchInfo"]) => {
        expect(Object.keys(body.vlans).map(Number)).toEqual(model.vlanIds());
        for (const id of model.vlanIds()) expect(body.vlans[String(id)].name).toBe(model.vlan(id)!.name);
        expect(body.interfaces.map((i) => i.id)).toEqual(model.interfaces.map((i) => String(i.ifIndex)));
        const byId = new Map(body.interfaces.map((i) => [i.id, i]));
        const ports = model.ethernetPorts.map((p) => ({ id: String(p.ifIndex), vlan: model.pvid(p.bridgePort!) }));
        expect(ports.map(({ id }) => ({ id, vlan: byId.get(id)?.vlan }))).toEqual(ports);
      };

      const cold = await view("first basic view (nothing remembered)");
      expectSwitch(cold.body);
      // each too-big answer was withheld once and cost one try of one request, not the
      // device. At most two reads outgrow a datagram: the static table when its rows double
      // to 64, and the current table's status and FDB id columns, whose request at 250 rows
      // runs past dot1qVlanFdbId into the 512-octet current egress PortLists (walked
      // together with other VLAN columns since the round-trip work, only one of them does)
      const unanswered = cold.traffic.requests - cold.traffic.answers;
      expect(unanswered).toBeGreaterThanOrEqual(1);
      expect(unanswered).toBeLessThanOrEqual(2);
      // a sample: a port of slot 4 (bridge port 4001 and up, the end of each PortList)
      // whose untagged VLAN is one of the extra ones
      const sample = model.ethernetPorts.find((p) => p.bridgePort! > 4000 && model.pvid(p.bridgePort!)! >= 1000)!;
      const got = cold.body.interfaces.find((i: Schemas["Interface"]) => i.id === String(sample.ifIndex));
      console.log(
        `sample: ${got.name} (ifIndex ${sample.ifIndex}, bridge port ${sample.bridgePort}): untagged VLAN ${got.vlan}, model ${model.pvid(sample.bridgePort!)}`,
      );
      expect([got.name, got.vlan]).toEqual([sample.name, model.pvid(sample.bridgePort!)]);

      // snmpsimd's own speed decides the time (its answers take tens of ms each), so the
      // second view is compared by what went over the wire: every read starts at the size
      // that worked, and the current table's read, which knows its rows now, asks at the
      // end only for the rows left and one more, so it no longer runs into the PortLists:
      // no request goes unanswered. Requests are counted without their retries: on a busy
      // machine snmpsimd can take longer than the timeout to answer, the driver asks again
      // and both are answered (a whole run once saw 48 datagrams for the usual 24 requests)
      const warm = await view("second basic view (size remembered)");
      expectSwitch(warm.body);
      expect(warm.traffic.requests - warm.traffic.answers).toBe(0);
      expect(warm.traffic.distinct).toBeLessThan(cold.traffic.distinct);
    }, 60000);
  });
});
