/**
 * The basic view through the API for switches no one here simulated: Debian's snmpsimd
 * serving recordings of a D-Link and a Linksys switch. The view must list the ports,
 * VLANs and PoE data each recording holds (read from the file in the test).
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { snmpProfileRow, switchRow } from "../../db/inventory";
import { describeDb } from "../support/db";
import { describeRecordings, factsOf, RECORDINGS, recordingFiles, startSnmpsim, type Snmpsim } from "../support/snmpsim";

describeRecordings("basic view of recorded real switches", () => {
  describeDb("through the API", () => {
    let app: TestApp;
    let sim: Snmpsim;
    let token: string;
    let gid: number;
    const ids: Record<string, number> = {};

    beforeAll(async () => {
      sim = await startSnmpsim();
      ({ app, root: token } = await startAppWithRoot());
      const inv = app.services.repos.inventory;
      const group = await inv.create("switch_groups", { name: "Recorded", description: "", display_name: "", comments: "" } as any);
      gid = group.id;
      for (const name of RECORDINGS) {
        const profile = await inv.create(
          "snmp_profiles",
          snmpProfileRow({ name: `rec-${name}`, community_enc: app.services.secrets.encrypt(name), read_only: 1, timeout_ms: 1500 }),
        );
        const sw = await inv.create(
          "switches",
          switchRow({ name, primary_ipv4: "127.0.0.1", snmp_port: sim.port, snmp_profile_id: profile.id }),
          [{ relation: "groups", ids: [gid] }],
        );
        ids[name] = sw.id;
      }
    }, 60000);
    afterAll(async () => {
      await app?.close();
      await sim?.stop();
    });

    it.each(RECORDINGS)("%s: ports, VLANs and PoE as recorded", async (name) => {
      const facts = factsOf(recordingFiles[RECORDINGS.indexOf(name)]!);
      const r = await app.request("GET", `/api/switches/${gid}/${ids[name]}/`, { token });
      expect(r.status).toBe(200);
      expect(r.body.switch.hostname).toBe(facts.sysName);
      expect(r.body.switch.driver_info.sysObjectID).toBe(facts.sysObjectID);
      // ports: every recorded interface with its name, in natural order
      const expectedIds = [...facts.interfaces.keys()].sort((a, b) => a - b).map(String);
      expect(r.body.interfaces.map((i: any) => i.id)).toEqual(expectedIds);
      for (const i of r.body.interfaces) {
        expect(i.name).toBe(facts.interfaces.get(Number(i.id)));
        const pvid = facts.pvids.get(Number(i.id));
        if (pvid !== undefined && !facts.routed.has(Number(i.id))) expect({ id: i.id, vlan: i.vlan }).toEqual({ id: i.id, vlan: pvid });
        const poe = facts.poe.get(Number(i.id));
        expect({ id: i.id, poe: i.poe?.admin_status ?? null }).toEqual({ id: i.id, poe: poe === undefined ? null : poe ? "Enabled" : "Disabled" });
      }
      // VLANs: the recorded ids and names, keyed by id
      expect(Object.keys(r.body.vlans).map(Number)).toEqual([...facts.vlans.keys()].sort((a, b) => a - b));
      for (const [id, vname] of facts.vlans) expect(r.body.vlans[String(id)].name).toBe(vname);
      // device PoE only where the recording has PoE ports
      expect(r.body.switch.poe === false).toBe(facts.poe.size === 0);
    });
  });
});
