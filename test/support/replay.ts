/**
 * Replay tests: recordings of real switches (../shared/fixtures/snmprec, LibreNMS test
 * data) served by Debian's snmpsimd on 127.0.0.1 and read through the HTTP API, basic and
 * details, with the driver "auto" chooses. What each view must show is counted from the
 * file by test/support/snmprec-facts.ts, written apart from the drivers.
 *
 * A family's test file names its recordings and calls describeReplay(); the
 * `community@context` files beside a recording are served too (a Cisco switch answers
 * community@vlan for VLAN n), so a driver that reads per-VLAN contexts finds them.
 * expectRecorded() checks what every family must get right; a family adds its own.
 *
 * The tests run once, on SQLite (the "replay" Jest project): the device path is the
 * same on both stores, and the API suites cover the stores.
 */
import fs from "node:fs";
import { snmpProfileRow, switchRow } from "../../db/inventory";
import { startAppWithRoot, type ApiResponse, type TestApp } from "./harness";
import { SNMPSIMD, startSnmpsim, type Snmpsim } from "./snmpsim";
import { listContexts, recordingPath, snmprecDir, snmprecFacts, type RecordingFacts } from "./snmprec-facts";

export interface ReplayDevice {
  /** the recording's name (its community in snmpsimd, and the switch's name) */
  name: string;
  /** switch id in the inventory */
  id: number;
  facts: RecordingFacts;
  /** the basic view (GET api/switches/<group>/<id>/) */
  basic(): Promise<ApiResponse>;
  /** the details view */
  details(): Promise<ApiResponse>;
}

export interface ReplayContext {
  app: TestApp;
  token: string;
  group: number;
  device(name: string): ReplayDevice;
  /** SNMP requests snmpsimd answered (it logs nothing per request): taken from the app's counters where needed */
  sim: Snmpsim;
}

/** Why the recordings cannot be replayed here, or null. */
export function replayUnavailable(recordings: readonly string[]): string | null {
  if (!snmprecDir()) return "the recordings folder (../shared/fixtures/snmprec) is absent";
  const missing = recordings.filter((r) => recordingPath(r) === null);
  if (missing.length) return `recordings missing: ${missing.join(", ")}`;
  if (!fs.existsSync(SNMPSIMD)) return `${SNMPSIMD} is missing (Debian package snmpsim)`;
  return null;
}

/**
 * describe() for a family's replay tests: snmpsimd serving `recordings` (and their
 * @context files), an app on SQLite with one switch per recording (driver "auto", SNMP
 * v2c, the recording's name as community). Skipped with the reason printed when the
 * recordings or snmpsimd are absent; under CI a missing snmpsimd beside present recordings fails.
 */
export function describeReplay(title: string, recordings: readonly string[], fn: (ctx: ReplayContext) => void): void {
  const why = replayUnavailable(recordings);
  if (why) {
    if (process.env.CI && snmprecDir() && !fs.existsSync(SNMPSIMD)) {
      describe(title, () => {
        it("needs snmpsimd", () => {
          throw new Error(`${why}: .ci/run must install snmpsim`);
        });
      });
      return;
    }
    console.warn(`${title}: skipped: ${why}`);
    describe.skip(`${title} (${why})`, () => fn({} as ReplayContext));
    return;
  }
  describe(title, () => {
    const ctx = {} as ReplayContext;
    const devices = new Map<string, ReplayDevice>();
    ctx.device = (name) => {
      const d = devices.get(name);
      if (!d) throw new Error(`${name} is not a recording of this suite`);
      return d;
    };
    beforeAll(async () => {
      const served: Record<string, string> = {};
      for (const name of recordings) {
        served[name] = recordingPath(name)!;
        for (const c of listContexts(name)) served[`${name}@${c.context}`] = c.file;
      }
      ctx.sim = await startSnmpsim({ recordings: served });
      const { app, root } = await startAppWithRoot();
      ctx.app = app;
      ctx.token = root;
      const inv = app.services.repos.inventory;
      const group = await inv.create(
        "switch_groups",
        {
          name: "Recorded",
          description: "",
          display_name: "",
          comments: "",
          read_only: 0,
          allow_poe_toggle: 0,
          edit_if_descr: 1,
          allow_all_vlans: 1,
        },
        [],
      );
      ctx.group = group.id;
      for (const name of recordings) {
        const profile = await inv.create(
          "snmp_profiles",
          snmpProfileRow({
            name: `rec-${name}`,
            community_enc: app.services.secrets.encrypt(name),
            read_only: 1,
            timeout_ms: 2000,
            retries: 1,
          }),
        );
        const sw = await inv.create(
          "switches",
          switchRow({ name, primary_ipv4: "127.0.0.1", snmp_port: ctx.sim.port, snmp_profile_id: profile.id }),
          [{ relation: "groups", ids: [group.id] }],
        );
        const url = `/api/switches/${group.id}/${sw.id}/`;
        devices.set(name, {
          name,
          id: sw.id,
          facts: snmprecFacts(served[name]),
          basic: () => app.request("GET", url, { token: root }),
          details: () => app.request("GET", `${url}details/`, { token: root }),
        });
      }
    }, 60_000);
    afterAll(async () => {
      await ctx.app?.close();
      await ctx.sim?.stop();
    });
    fn(ctx);
  });
}

type ApiInterface = {
  id: string;
  name: string;
  state: "Enabled" | "Disabled";
  online: boolean;
  speed?: number;
  mtu?: number;
  vlan?: number;
  mode: string;
  poe?: { admin_status: string };
  neighbors: unknown[];
};

export interface RecordedExpectations {
  /** the driver "auto" must choose */
  driver: string;
  /** the interfaces the view lists, when the family hides some of the recorded ones (default: all) */
  listed?(facts: RecordingFacts): number[];
  /** ifIndexes whose untagged VLAN the family reports otherwise (with the reason in the test) */
  untaggedExceptions?: ReadonlySet<number>;
  /** VLANs as the family shows them, when they differ from the recording's table (default: facts.vlans) */
  vlans?(facts: RecordingFacts): Map<number, string>;
}

/** IF-MIB ifAdminStatus / ifOperStatus as the view shows them */
const stateOf = (admin: number | undefined) => (admin === 1 ? "Enabled" : "Disabled");

/**
 * What every family must show for a recording, basic view: the chosen driver, the
 * recorded interfaces with name, admin and oper state and speed, untagged VLANs, VLAN ids
 * and names, PoE admin state. Returns a line of what the recording holds and what the API
 * returned, for the test to print.
 */
export function expectRecorded(device: ReplayDevice, r: ApiResponse, e: RecordedExpectations): string {
  const facts = device.facts;
  expect(r.status).toBe(200);
  const body = r.body as {
    switch: { driver: string; hostname: string };
    vlans: Record<string, { name: string }>;
    interfaces: ApiInterface[];
  };
  expect(body.switch.driver).toBe(e.driver);
  // a recording without sysName: the view shows the stored hostname (the recording's name here)
  expect(body.switch.hostname).toBe(facts.sysName || device.name);

  const listed = e.listed ? e.listed(facts) : [...facts.interfaces.keys()];
  const byId = new Map(body.interfaces.map((i) => [Number(i.id), i]));
  expect([...byId.keys()].sort((a, b) => a - b)).toEqual([...listed].sort((a, b) => a - b));
  for (const ifIndex of listed) {
    const fact = facts.interfaces.get(ifIndex)!;
    const got = byId.get(ifIndex)!;
    const want: Record<string, unknown> = { ifIndex, name: fact.name || got.name };
    const have: Record<string, unknown> = { ifIndex, name: got.name };
    // a recording's gap (no ifAdminStatus, no speed) costs the field, never the call
    if (fact.admin !== undefined) [want.state, have.state] = [stateOf(fact.admin), got.state];
    if (fact.oper !== undefined) [want.online, have.online] = [fact.oper === 1, got.online];
    if (fact.speedMbps !== undefined) [want.speed, have.speed] = [Math.round(fact.speedMbps) || undefined, got.speed];
    // the view's mtu is the recorded ifMtu, left out when it is 0 or absent
    [want.mtu, have.mtu] = [fact.mtu !== undefined && fact.mtu > 0 ? fact.mtu : undefined, got.mtu];
    expect(have).toEqual(want);
  }

  let untaggedShown = 0;
  for (const [ifIndex, vlan] of facts.untagged) {
    if (!byId.has(ifIndex) || e.untaggedExceptions?.has(ifIndex) || facts.ipInterfaces.has(ifIndex)) continue;
    expect({ ifIndex, vlan: byId.get(ifIndex)!.vlan }).toEqual({ ifIndex, vlan });
    untaggedShown++;
  }

  const vlans = e.vlans ? e.vlans(facts) : facts.vlans;
  expect(Object.keys(body.vlans).map(Number)).toEqual([...vlans.keys()].sort((a, b) => a - b));
  for (const [id, name] of vlans)
    if (name !== "") expect({ id, name: body.vlans[String(id)].name }).toEqual({ id, name });

  for (const [ifIndex, on] of facts.poeAdmin) {
    if (!byId.has(ifIndex)) continue;
    expect({ ifIndex, poe: byId.get(ifIndex)!.poe?.admin_status }).toEqual({
      ifIndex,
      poe: on ? "Enabled" : "Disabled",
    });
  }

  const named = [...vlans.values()].filter((n) => n !== "").length;
  return (
    `${device.name}: recording holds ${facts.interfaces.size} interfaces, ${facts.vlans.size} VLANs (${facts.vlanSource}), ` +
    `${facts.untagged.size} untagged VLANs (${facts.untaggedSource}, ${facts.untaggedUnmapped} unmapped), ${facts.poeAdmin.size} PoE ports, ` +
    `${[...facts.lldpNeighbors.values()].reduce((a, b) => a + b, 0)} LLDP neighbours; ` +
    `API returned ${body.interfaces.length} interfaces, ${Object.keys(body.vlans).length} VLANs (${named} named), ` +
    `${untaggedShown} untagged VLANs checked, ${body.interfaces.filter((i) => i.poe).length} PoE ports, driver ${body.switch.driver}`
  );
}

/** Details view: the LLDP neighbours the recording holds, on the interfaces they belong to. */
export function expectRecordedNeighbours(device: ReplayDevice, r: ApiResponse): string {
  expect(r.status).toBe(200);
  const body = r.body as { interfaces: ApiInterface[] };
  const got = new Map(
    body.interfaces.filter((i) => i.neighbors.length > 0).map((i) => [Number(i.id), i.neighbors.length]),
  );
  expect(got).toEqual(device.facts.lldpNeighbors);
  const total = [...got.values()].reduce((a, b) => a + b, 0);
  return `${device.name} details: ${total} LLDP neighbours on ${got.size} interfaces`;
}
