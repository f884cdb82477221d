/**
 * The facts behind the port protections, read over real SNMP and SSH from lab switches
 * that have them configured: LAG members (IEEE8023-LAG-MIB and ifStackTable; IOS
 * `channel-group` and "member of bundle"), 802.1X ports (IEEE8021-PAE-MIB port control
 * auto; IOS `authentication port-control auto`), both in a whole learn and in the one
 * interface a write reads. The pure source rules (one source alone, the 802.1X system
 * switch) are checked on hand-made tables.
 */
import { startLabSshFace, startLabSwitch, iosInterfaceName, type LabSshFace, type LabSwitch } from "../../lab";
import { SnmpDriver } from "../../drivers/snmp/driver";
import { genericFamily } from "../../drivers/families/generic";
import { ciscoSbFamily } from "../../drivers/families/ciscosb";
import { CiscoIosCliDriver } from "../../drivers/families/cisco-ios-cli/driver";
import { lagMembers } from "../../drivers/snmp/parts/lag";
import { dot1xPorts } from "../../drivers/snmp/parts/dot1x";
import { portGuards } from "../../drivers/families/cisco-ios-cli/port-guards";
import { parseSwitchport } from "../../drivers/families/cisco-ios-cli/parse-switchport";
import { parseRunningInterfaces } from "../../drivers/families/cisco-ios-cli/parse-running-interface";
import type { InterfaceInfo } from "../../model/device";
import type { Varbind } from "../../drivers/snmp/net-snmp-api";
import { Tables } from "../../drivers/snmp/session";
import { lag as lagMib, ifExtra } from "../../mib/standard-extra";
import { pae } from "../../mib/pae";

const LAG_PORTS = [3, 4];
const DOT1X_PORTS = [5];

/** what a driver says of the guarded facts, per interface id */
const guardsOf = (interfaces: InterfaceInfo[]) =>
  Object.fromEntries(
    interfaces
      .filter((i) => i.lag_member_of !== undefined || i.dot1x_auth !== undefined)
      .map((i) => [i.id, { lag: i.lag_member_of, dot1x: i.dot1x_auth }]),
  );

describe("LAG members and 802.1X ports over SNMP", () => {
  let generic: LabSwitch;
  let cbs: LabSwitch;
  beforeAll(async () => {
    generic = await startLabSwitch({
      profile: "generic",
      ports: 12,
      seed: 4,
      lagPorts: LAG_PORTS,
      dot1xPorts: DOT1X_PORTS,
    });
    cbs = await startLabSwitch({ profile: "ciscosb", ports: 12, seed: 4, lagPorts: [7, 8] });
    // member 4 goes down: attached to no aggregator any more, it still selects it
    generic.model.update((cfg) => (cfg.ports.get(generic.model.port(4).ifIndex)!.adminUp = false));
  });
  afterAll(async () => Promise.all([generic?.stop(), cbs?.stop()]));

  const snmp = (lab: LabSwitch, family = genericFamily) => new SnmpDriver(family, lab.snmpTarget({ write: true }));

  it("the lab serves what it models: the aggregate, its members (one down), the port in 802.1X mode", () => {
    const m = generic.model;
    const aggregate = m.interfaces.find((i) => i.name === "Port-channel1")!;
    expect(aggregate.ifType).toBe(161);
    expect(LAG_PORTS.map((n) => m.port(n).lagMemberOf)).toEqual([aggregate.ifIndex, aggregate.ifIndex]);
    expect(m.operUp(m.port(4).ifIndex)).toBe(false);
    expect(generic.options.lagPorts).toEqual(LAG_PORTS);
    expect(generic.options.dot1xPorts).toEqual(DOT1X_PORTS);
  });

  it("a learn marks the members with the aggregate's name and the 802.1X port, and nothing else", async () => {
    const d = snmp(generic);
    try {
      const snap = await d.learn("basic");
      const id = (n: number) => String(generic.model.port(n).ifIndex);
      expect(guardsOf(snap.interfaces)).toEqual({
        [id(3)]: { lag: "Port-channel1", dot1x: undefined },
        [id(4)]: { lag: "Port-channel1", dot1x: undefined },
        [id(5)]: { lag: undefined, dot1x: true },
      });
    } finally {
      await d.close();
    }
  });

  it("a write's view of one interface has the same facts", async () => {
    const d = snmp(generic);
    try {
      for (const [n, expected] of [
        [3, { lag: "Port-channel1", dot1x: undefined }],
        [4, { lag: "Port-channel1", dot1x: undefined }],
        [5, { lag: undefined, dot1x: true }],
        [6, { lag: undefined, dot1x: undefined }],
      ] as const) {
        const view = await d.learnInterface(String(generic.model.port(n).ifIndex));
        expect({ n, lag: view!.interface.lag_member_of, dot1x: view!.interface.dot1x_auth }).toEqual({
          n,
          ...expected,
        });
      }
    } finally {
      await d.close();
    }
  });

  it("a family with a LAG interface of its own (Cisco SB Po1) names its members' aggregate so", async () => {
    const d = snmp(cbs, ciscoSbFamily);
    try {
      const snap = await d.learn("basic");
      const id = (n: number) => String(cbs.model.port(n).ifIndex);
      expect(guardsOf(snap.interfaces)).toEqual({
        [id(7)]: { lag: "Po1", dot1x: undefined },
        [id(8)]: { lag: "Po1", dot1x: undefined },
      });
      expect((await d.learnInterface(id(8)))!.interface.lag_member_of).toBe("Po1");
    } finally {
      await d.close();
    }
  });
});

describe("LAG members and 802.1X ports over the IOS command line", () => {
  let lab: LabSwitch;
  let face: LabSshFace;
  const open: CiscoIosCliDriver[] = [];
  beforeAll(async () => {
    lab = await startLabSwitch({
      profile: "generic",
      ports: 12,
      seed: 4,
      lagPorts: LAG_PORTS,
      dot1xPorts: DOT1X_PORTS,
    });
    face = await startLabSshFace(lab);
  });
  afterEach(async () => Promise.all(open.splice(0).map((d) => d.close())));
  afterAll(async () => {
    await face?.stop();
    await lab?.stop();
  });
  const driver = () => {
    const d = new CiscoIosCliDriver({ ...face.sshTarget(), command_timeout_ms: 2000, connect_timeout_ms: 2000 });
    open.push(d);
    return d;
  };
  const name = (n: number) => iosInterfaceName(lab.model.port(n));

  it("a learn finds the channel-group members and the port-control auto port", async () => {
    const snap = await driver().learn("basic");
    expect(guardsOf(snap.interfaces)).toEqual({
      [name(3)]: { lag: "Port-channel1", dot1x: undefined },
      [name(4)]: { lag: "Port-channel1", dot1x: undefined },
      [name(5)]: { lag: undefined, dot1x: true },
    });
  });

  it("one interface (a write's view) has the same facts", async () => {
    const d = driver();
    expect((await d.learnInterface(name(4)))!.interface.lag_member_of).toBe("Port-channel1");
    expect((await d.learnInterface(name(5)))!.interface.dot1x_auth).toBe(true);
    expect((await d.learnInterface(name(6)))!.interface).not.toHaveProperty("lag_member_of");
  });
});

describe("the source rules on hand-made tables", () => {
  const vb = (value: number): Varbind => ({ oid: "", type: 2, value });
  const column = (entries: Record<string, number>) => new Map(Object.entries(entries).map(([k, v]) => [k, vb(v)]));

  it("either LAG source alone makes a member; 0 and the port itself make none", () => {
    const identities = new Map([
      [100, { type: 161, name: "Port-Channel1" }],
      [200, { type: 53, name: "Po2" }],
      [300, { type: 53, name: "StackPort1" }],
    ]);
    const tables = Tables.of({
      columns: {
        "lag.ports": new Map([
          [lagMib.dot3adAggPortAttachedAggID, column({ "1": 100, "2": 0, "3": 3, "4": 0 })],
          [lagMib.dot3adAggPortSelectedAggID, column({ "1": 100, "2": 100, "3": 3, "4": 0 })],
        ]),
        "lag.stack": new Map([
          [ifExtra.ifStackStatus, column({ "0.1": 1, "200.5": 1, "300.6": 1, "100.7": 1, "7.0": 1 })],
        ]),
      },
    });
    expect(lagMembers(tables, identities)).toEqual(
      new Map([
        [1, 100],
        [2, 100],
        [5, 200],
        [7, 100],
      ]),
    );
  });

  it("port control auto is 802.1X mode only while the system switch says enabled (an agent without it has no 802.1X)", () => {
    const ports = new Map([[pae.dot1xAuthAuthControlledPortControl, column({ "1": 2, "2": 3, "3": 1 })]]);
    const system = (v: number | null) => new Map([[`${pae.dot1xPaeSystemAuthControl}.0`, v === null ? null : vb(v)]]);
    expect(
      dot1xPorts(Tables.of({ columns: { "dot1x.ports": ports }, scalars: { "dot1x.system": system(1) } })),
    ).toEqual(new Set([1]));
    expect(
      dot1xPorts(Tables.of({ columns: { "dot1x.ports": ports }, scalars: { "dot1x.system": system(null) } })),
    ).toEqual(new Set());
    expect(
      dot1xPorts(Tables.of({ columns: { "dot1x.ports": ports }, scalars: { "dot1x.system": system(2) } })),
    ).toEqual(new Set());
  });

  it("IOS: the older dot1x form, a suspended member and a routed port are read too; force-authorized is not 802.1X", () => {
    const [config] = parseRunningInterfaces(
      "interface GigabitEthernet1/0/9\n dot1x port-control auto\n no switchport\n ip address 10.0.0.1 255.255.255.0\n",
    );
    expect(portGuards(config, undefined)).toEqual({ dot1x: true, routed: true });
    const [forced] = parseRunningInterfaces(
      "interface GigabitEthernet1/0/9\n authentication port-control force-authorized\n",
    );
    expect(portGuards(forced, undefined)).toEqual({ dot1x: false, routed: false });
    const [row] = parseSwitchport(
      "Name: Gi1/0/9\nSwitchport: Enabled\nAdministrative Mode: static access\nOperational Mode: down (suspended member of bundle Po12)\n",
    );
    expect(portGuards(undefined, row)).toEqual({ lag: "Port-channel12", dot1x: false, routed: false });
  });
});
