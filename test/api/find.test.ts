/**
 * "Where is it plugged in?" (GET api/switches/find/, docs/api-decisions.md section 18)
 * through real HTTP against several lab switches on 127.0.0.1, the lab's MAC tables, ARP
 * and LLDP neighbours being the truth the answers are held to: a MAC in every notation, an
 * IP through ARP, edge ports before uplinks (an LLDP network neighbour, many MACs), a
 * group or a device list narrowing the search, a caller who cannot see a device (it is
 * neither listed nor read), bad input as 400 with a reason, a failing device and a silent
 * one (the deadline) listed under not_answered, the cap on devices, and the bound on
 * devices read at once.
 */
import { startTestApp, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch, LabSwitchOptions } from "../../lab";
import { VirtualSwitch } from "../../lab/model";
import { formatMac } from "../../lab/hardware";
import { FIND_DEFAULTS } from "../../app/find-config";

type FindResult = Schemas["FindResult"];

/** the busy host the lab adds first (lab/generate.ts addBusyHosts): on Ethernet port 1 */
const BUSY_MAC = "00:0c:29:00:00:00";

/** a lab switch whose port 1 carries the busy host MAC, with `perPort` more busy hosts on each port */
async function labWithBusyHost(seed: number, name: string, perPort = 0, more: LabSwitchOptions = {}) {
  const opts = { profile: "generic" as const, ports: 8, seed, name };
  const base = new VirtualSwitch(opts).fdb.length;
  return startLab({ ...opts, macEntries: base + 1 + perPort * 8, ...more });
}

/** where the lab says a MAC is: [ifIndex as text, vlan] per entry */
function labPorts(lab: LabSwitch, mac: string): { interface: string; vlan: number }[] {
  return lab.model.fdb
    .filter((e) => formatMac(e.mac) === mac)
    .map((e) => ({ interface: String(lab.model.interfaceOfBridgePort(e.bridgePort)!.ifIndex), vlan: e.vlan }));
}

describeDb("where is it plugged in (GET api/switches/find/)", () => {
  let app: TestApp;
  let edgeLab: LabSwitch; // the busy host alone on port 1: an edge port
  let distLab: LabSwitch; // port 1 carries 13 busy hosts: an uplink by its MACs
  let hiddenLab: LabSwitch; // the busy host on port 1 too, in a group the helpdesk cannot see
  let helpdesk: string;
  let root: string;
  const ids: Record<string, number> = {};
  const groups: Record<string, number> = {};

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser("finder-root", "pw-finder-root-1", { is_superuser: true });
    root = await app.login("finder-root", "pw-finder-root-1");
    const helpId = await app.createUser("finder", "pw-finder-1");
    helpdesk = await app.login("finder", "pw-finder-1");
    [edgeLab, distLab, hiddenLab] = await Promise.all([
      labWithBusyHost(21, "lab-access-2"),
      labWithBusyHost(22, "lab-dist-1", 12),
      labWithBusyHost(23, "lab-lab-9"),
    ]);
    groups.floor = await addGroup(app, { name: "Floor 2", users: [helpId] });
    groups.lab = await addGroup(app, { name: "Lab room" });
    // named so that the uplink's device sorts before the edge port's: edge first must win
    ids.access = await addDevice(app, { name: "b-access-2", lab: edgeLab, groups: [groups.floor] });
    ids.dist = await addDevice(app, { name: "a-dist-1", lab: distLab, groups: [groups.floor] });
    ids.hidden = await addDevice(app, { name: "c-lab-9", lab: hiddenLab, groups: [groups.lab] });
  }, 30000);
  afterAll(async () => {
    await Promise.all([edgeLab, distLab, hiddenLab].map((l) => l?.stop()));
    await app?.close();
  });

  const find = (token: string, query: Record<string, string>) =>
    app.request<FindResult>("GET", `/api/switches/find/?${new URLSearchParams(query).toString()}`, { token });
  /** an answer that is not a FindResult: its status and error body */
  const refusedFind = (token: string, query: Record<string, string>) =>
    app.request("GET", `/api/switches/find/?${new URLSearchParams(query).toString()}`, { token });

  it("finds a MAC on every device the caller may see, the edge port first, with group, device, interface and VLAN", async () => {
    const r = await find(root, { address: BUSY_MAC });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ address: BUSY_MAC, kind: "mac", macs: [BUSY_MAC], searched: 3, answered: 3 });
    expect(r.body.not_answered).toEqual([]);
    const [edgeAt] = labPorts(edgeLab, BUSY_MAC);
    const [distAt] = labPorts(distLab, BUSY_MAC);
    const [hiddenAt] = labPorts(hiddenLab, BUSY_MAC);
    expect(
      r.body.matches.map((m) => [m.switch, m.group, m.interface, m.vlan, m.port, m.uplink_reason, m.switch_id]),
    ).toEqual([
      ["b-access-2", "Floor 2", edgeAt.interface, edgeAt.vlan, "edge", null, ids.access],
      ["c-lab-9", "Lab room", hiddenAt.interface, hiddenAt.vlan, "edge", null, ids.hidden],
      ["a-dist-1", "Floor 2", distAt.interface, distAt.vlan, "uplink", "many_macs", ids.dist],
    ]);
    const uplink = r.body.matches[2];
    expect(uplink.macs_on_port).toBeGreaterThan(FIND_DEFAULTS.uplinkMacs);
    expect(uplink.url).toBe(`${app.url}/api/switches/${groups.floor}/${ids.dist}/`);
    expect(r.body.matches[0].interface_name).toBe(edgeLab.model.port(1).name);
  });

  it("takes the MAC in every common notation, either case", async () => {
    const spellings = ["00-0C-29-00-00-00", "000c.2900.0000", "000c29-000000", "000C29000000", "0:c:29:0:0:0"];
    for (const address of spellings) {
      const r = await find(helpdesk, { address, switches: String(ids.access) });
      expect({ address, status: r.status, mac: r.body.address, found: r.body.matches.length }).toEqual({
        address,
        status: 200,
        mac: BUSY_MAC,
        found: 1,
      });
    }
  });

  it("calls a port with a network device's LLDP neighbour an uplink, and finds an IP through ARP", async () => {
    // the lab's uplink (its last port) has core-1 as LLDP neighbour and the core's ARP entry
    const core = edgeLab.model.arp.find((a) => a.ip.endsWith(".254"))!;
    const mac = formatMac(core.mac);
    const r = await find(helpdesk, { address: core.ip, switches: String(ids.access) });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: "ipv4", address: core.ip, macs: [mac] });
    const where = labPorts(edgeLab, mac);
    expect(r.body.matches.map((m) => [m.interface, m.vlan])).toEqual(where.map((w) => [w.interface, w.vlan]));
    expect(r.body.matches[0]).toMatchObject({
      port: "uplink",
      uplink_reason: "lldp_neighbor",
      neighbors: ["core-1"],
      ipv4: [core.ip],
      interface_name: edgeLab.model.port(8).name,
    });
  });

  it("answers an IP no device has in its ARP table with no MACs and no matches", async () => {
    const r = await find(helpdesk, { address: "192.0.2.77" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ kind: "ipv4", macs: [], matches: [], searched: 2, answered: 2 });
  });

  it("neither lists nor reads a device the caller cannot see", async () => {
    hiddenLab.counters.reset();
    const r = await find(helpdesk, { address: BUSY_MAC });
    expect(r.status).toBe(200);
    expect(r.body.searched).toBe(2);
    expect(r.body.matches.map((m) => m.switch)).toEqual(["b-access-2", "a-dist-1"]);
    expect(hiddenLab.counters.requests).toBe(0);
    // naming it, or its group, is refused like every device path outside the menu
    const narrowed: Record<string, string>[] = [{ switches: String(ids.hidden) }, { group: String(groups.lab) }];
    for (const q of narrowed) {
      const refused = await refusedFind(helpdesk, { address: BUSY_MAC, ...q });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ reason: "Access denied!", code: "access_denied" });
    }
    expect(hiddenLab.counters.requests).toBe(0);
  });

  it("narrows the search to a group or to a list of devices", async () => {
    edgeLab.counters.reset();
    const byGroup = await find(root, { address: BUSY_MAC, group: String(groups.lab) });
    expect(byGroup.body.matches.map((m) => m.switch)).toEqual(["c-lab-9"]);
    expect(byGroup.body.searched).toBe(1);
    expect(edgeLab.counters.requests).toBe(0);
    const byList = await find(root, { address: BUSY_MAC, switches: `${ids.dist}, ${ids.access}` });
    expect(byList.body.matches.map((m) => m.switch)).toEqual(["b-access-2", "a-dist-1"]);
    expect(byList.body.searched).toBe(2);
  });

  it.each([
    ["an OUI", "00:0c:29", /is not a whole MAC address: give all 12 hex digits .*prefixes are not searched/],
    ["eleven digits", "000c2900000", /is not a whole MAC address/],
    ["mixed separators", "00:0c-29:00:00:00", /is not a MAC address \(.*\) or an IPv4 or IPv6 address/],
    ["a name", "printer-4", /is not a MAC address/],
    ["an IPv4 address with leading zeros", "010.001.002.003", /is not a MAC address/],
    ["a partial IPv4 address", "10.1.2", /is not a MAC address/],
  ])("refuses %s with a reason (400)", async (_what, address, reason) => {
    const r = await refusedFind(helpdesk, { address });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_parameter");
    expect(r.body.reason).toMatch(reason);
    expect(r.body.reason).toContain(address);
  });

  it("refuses a switches list that is not ids, and a missing address", async () => {
    const bad = await refusedFind(helpdesk, { address: BUSY_MAC, switches: "7,x" });
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe("'switches' must list device ids separated by commas: 'x' is not one");
    const none = await app.request("GET", "/api/switches/find/", { token: helpdesk });
    expect(none.status).toBe(400);
    expect(none.body.reason).toMatch(/address/);
  });
});

describeDb("where is it plugged in: devices that fail, are silent, or are too many", () => {
  let app: TestApp;
  let labs: LabSwitch[];
  let token: string;
  const ids: number[] = [];
  const DEADLINE_MS = 1500;

  beforeAll(async () => {
    app = await startTestApp({ find: { ...FIND_DEFAULTS, deadlineMs: DEADLINE_MS, maxDevices: 4, concurrency: 2 } });
    await app.createUser("finder-root", "pw-finder-root-1", { is_superuser: true });
    token = await app.login("finder-root", "pw-finder-root-1");
    labs = await Promise.all(
      [31, 32, 33, 34].map((seed) => labWithBusyHost(seed, `lab-${seed}`, 0, { latencyMs: 20 })),
    );
    const gid = await addGroup(app, { name: "Building" });
    // the third, silent, gives up after two tries of 1.2 s: after the deadline; the fourth, after 0.6 s: before it
    for (const [i, lab] of labs.entries())
      ids.push(await addDevice(app, { name: `sw-${i + 1}`, lab, groups: [gid], timeoutMs: i === 2 ? 1200 : 300 }));
  }, 30000);
  afterAll(async () => {
    await Promise.all((labs ?? []).map((l) => l.stop()));
    await app?.close();
  });

  const find = (query: Record<string, string>) =>
    app.request<FindResult>("GET", `/api/switches/find/?${new URLSearchParams(query).toString()}`, { token });
  const refusedFind = (query: Record<string, string>) =>
    app.request("GET", `/api/switches/find/?${new URLSearchParams(query).toString()}`, { token });

  it("lists a silent device as not answered by the deadline, a failing one with its code, and answers the rest", async () => {
    labs[2].faults.drop = true;
    labs[3].faults.drop = true;
    try {
      // in this order, two at a time: the failing one's 0.6 s of tries start at once, beside the
      // first answering one, and the silent one starts when a slot is free. Searched by name,
      // sw-4 would start only when sw-1 or sw-2 is done, and on a loaded machine its tries
      // could end after the deadline (deadline_passed, not its own code)
      const started = Date.now();
      const r = await find({ address: BUSY_MAC, switches: [ids[3], ids[0], ids[1], ids[2]].join(",") });
      const took = Date.now() - started;
      expect(r.status).toBe(200);
      expect(r.body.matches.map((m) => m.switch)).toEqual(["sw-1", "sw-2"]);
      // listed in the order asked
      expect(r.body.not_answered.map((n) => [n.switch, n.code])).toEqual([
        ["sw-4", "device_unreachable"],
        ["sw-3", "deadline_passed"],
      ]);
      expect(r.body.not_answered[1].reason).toBe(`Device 'sw-3' did not answer within ${DEADLINE_MS} ms`);
      expect(r.body).toMatchObject({ searched: 4, answered: 2 });
      // the answer came at the deadline, not after the silent device's 2.4 s of tries
      expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(took).toBeLessThan(DEADLINE_MS + 1000);
    } finally {
      labs[2].faults.drop = false;
      labs[3].faults.drop = false;
      // the silent device's learn goes on in the background until its tries end
      await new Promise((r) => setTimeout(r, 1200));
    }
  });

  it("reads at most FIND_CONCURRENCY devices at once", async () => {
    let most = 0;
    const sample = setInterval(() => {
      most = Math.max(most, labs.filter((l) => l.counters.inFlight > 0).length);
    }, 2);
    try {
      const r = await find({ address: BUSY_MAC, switches: [ids[0], ids[1], ids[3]].join(",") });
      expect(r.body.answered).toBe(3);
    } finally {
      clearInterval(sample);
    }
    expect(most).toBeGreaterThanOrEqual(1);
    expect(most).toBeLessThanOrEqual(2);
  });

  it("refuses a search wider than FIND_MAX_DEVICES, asking to narrow it", async () => {
    const lab = labs[0];
    const gid = await addGroup(app, { name: "Annex" });
    const extra = await addDevice(app, { name: "sw-5", lab, groups: [gid] });
    try {
      const r = await refusedFind({ address: BUSY_MAC });
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe(
        "This search would read 5 devices; at most 4 are searched in one call (FIND_MAX_DEVICES): narrow it with 'group' or 'switches'",
      );
      expect((await find({ address: BUSY_MAC, group: String(gid) })).body.searched).toBe(1);
    } finally {
      await app.services.repos.inventory.remove("switches", extra);
    }
  });
});
