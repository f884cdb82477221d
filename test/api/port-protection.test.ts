/**
 * Ports that must not be changed, as OpenL2M protects them (docs/api-decisions.md, "Ports
 * that must not be changed"), through real HTTP against a lab switch over real SNMP: a LAG
 * member refuses VLAN changes, an 802.1X port and a routed port refuse every change
 * (superusers included), and for staff and users the administrator's name, description and speed rules make a
 * port shown but not manageable; HIDE_NONE_ETHERNET_INTERFACES leaves the rest out; the
 * description guards refuse a forbidden text and keep a circuit id. Each rule is shown
 * next to an app without the settings, where the same port is an ordinary one. Every
 * refused write is checked against the lab's running configuration (nothing changed).
 */
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { execFile } from "node:child_process";
import { startTestApp, type ApiResponse, type TestApp } from "../support/harness";
import { describeDb, createTestDatabase } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";
import { cloneConfig, configsEqual, moveAccessVlan, type SwitchConfig } from "../../lab/config";
import { loadPortProtection } from "../../app/protection-config";

const CANNOT_MANAGE = "You can not manage this interface!";
const DOT1X_MODE = "Access denied: interface in 802.1x authentication mode!";
const ROUTED_MODE = "Access denied: interface in routed mode!";
const NAME_DENIED = "Interface access denied: name matches admin deny setting!";
const DESCRIPTION_DENIED = "Interface access denied: description matches admin deny setting!";
const SPEED_DENIED = "Interface access denied: speed is denied by admin setting!";
const LAG_REASON = "Vlan changes denied: interface is a member of link aggregation Port-channel1!";

/** the lab: 12 ports; 3 and 4 in Port-channel1, 5 in 802.1X mode, 6 routed, 12 the 10 Gbit/s uplink */
const LAG = [3, 4];
const DOT1X = 5;
const ROUTED = 6;
const NAMED = 7;
const BLUE = 8;
const CIRCUIT = 9;
const UPLINK = 12;

/** OpenL2M's settings, as the README shows them, through the service's own parsing */
const SETTINGS = {
  IFACE_HIDE_REGEX_IFNAME: `GigabitEthernet1/0/${NAMED}$`,
  IFACE_HIDE_REGEX_IFDESCR: "BLUE",
  IFACE_HIDE_SPEED_ABOVE: "9500",
  HIDE_NONE_ETHERNET_INTERFACES: "True",
  IFACE_ALIAS_NOT_ALLOW_REGEX: "^Po|NOT ALLOWED",
  IFACE_ALIAS_KEEP_BEGINNING_REGEX: "D\\.\\d+",
};

interface Caller {
  token: string;
  group: number;
  device: number;
}

describeDb("ports that must not be changed (OpenL2M's protections)", () => {
  let lab: LabSwitch;
  let baseline: SwitchConfig;
  /** the app with OpenL2M's settings, and one without */
  let guarded: TestApp;
  let plain: TestApp;
  const nobody: Caller = { token: "", group: 0, device: 0 };
  const who: Record<"root" | "staff" | "user", Caller> = { root: nobody, staff: nobody, user: nobody };
  const plainWho: Record<"root" | "staff" | "user", Caller> = { root: nobody, staff: nobody, user: nobody };

  const ifIndex = (n: number) => lab.model.port(n).ifIndex;
  const unchanged = () => configsEqual(lab.model.running, baseline);

  async function setUp(app: TestApp, into: Record<string, Caller>) {
    await app.createUser("root", "pw-root-1", { is_superuser: true });
    await app.createUser("staffer", "pw-staff-1", { is_staff: true });
    const userId = await app.createUser("helpdesk", "pw-help-1");
    const group = await addGroup(app, { name: "Access", allow_all_vlans: true, users: [userId] });
    const device = await addDevice(app, { name: "protected-lab", lab, groups: [group] });
    into.root = { token: await app.login("root", "pw-root-1"), group, device };
    into.staff = { token: await app.login("staffer", "pw-staff-1"), group, device };
    into.user = { token: await app.login("helpdesk", "pw-help-1"), group, device };
  }

  const view = async (app: TestApp, c: Caller) => {
    const r = await app.request("GET", `/api/switches/${c.group}/${c.device}/`, { token: c.token });
    expect(r.status).toBe(200);
    return r.body.interfaces as Array<Record<string, unknown>>;
  };
  const entry = (interfaces: Array<Record<string, unknown>>, n: number) =>
    interfaces.find((i) => i.id === String(ifIndex(n)));
  const post = (app: TestApp, c: Caller, n: number, what: string, body: Record<string, unknown>) =>
    app.request("POST", `/api/switches/${c.group}/${c.device}/interface/${ifIndex(n)}/${what}/`, {
      token: c.token,
      json: body,
    });
  const refused = (r: ApiResponse, reason = CANNOT_MANAGE, status = 403) => {
    expect({ status: r.status, reason: r.body.reason }).toEqual({ status, reason });
    expect(unchanged()).toBe(true);
  };

  beforeAll(async () => {
    lab = await startLab({
      ports: 12,
      seed: 3,
      name: "protect-lab",
      poePorts: [1, 2, 3, 4, 5, 6],
      lagPorts: LAG,
      dot1xPorts: [DOT1X],
      routedPorts: [ROUTED],
    });
    // a known layout: every port but the uplink an access port of VLAN 10, enabled, PoE on
    lab.model.update((cfg) => {
      for (let n = 1; n < UPLINK; n++) {
        moveAccessVlan(cfg, lab.model.port(n).bridgePort!, 10);
        cfg.ports.set(ifIndex(n), { adminUp: true, alias: "", poeEnabled: true });
      }
      cfg.ports.get(ifIndex(BLUE))!.alias = "BLUE storage";
      cfg.ports.get(ifIndex(CIRCUIT))!.alias = "D.123 desk";
    });
    expect(lab.model.port(UPLINK).speedMbps).toBe(10000);
    baseline = cloneConfig(lab.model.running);
    guarded = await startTestApp({ portProtection: loadPortProtection(SETTINGS) });
    plain = await startTestApp();
    await setUp(guarded, who);
    await setUp(plain, plainWho);
  }, 60000);

  afterAll(async () => {
    await guarded?.close();
    await plain?.close();
    await lab?.stop();
  });

  beforeEach(() => lab.model.commit(cloneConfig(baseline)));

  describe("the interface view says which ports are protected and why", () => {
    it.each(["root", "staff", "user"] as const)("%s: LAG members, the 802.1X port, the routed port", async (k) => {
      const interfaces = await view(guarded, who[k]);
      for (const n of LAG)
        expect(entry(interfaces, n)).toMatchObject({ manageable: true, unmanage_reason: LAG_REASON });
      expect(entry(interfaces, DOT1X)).toMatchObject({
        manageable: false,
        unmanage_reason: DOT1X_MODE,
        allow_poe_toggle: false,
        can_edit_description: false,
      });
      expect(entry(interfaces, ROUTED)).toMatchObject({ manageable: false, unmanage_reason: ROUTED_MODE });
      expect(entry(interfaces, 1)).toMatchObject({ manageable: true });
      expect(entry(interfaces, 1)).not.toHaveProperty("unmanage_reason");
    });

    it("staff and users: the name, description and speed rules; the superuser is exempt", async () => {
      for (const k of ["staff", "user"] as const) {
        const interfaces = await view(guarded, who[k]);
        expect([NAMED, BLUE, UPLINK].map((n) => entry(interfaces, n))).toMatchObject([
          { manageable: false, unmanage_reason: NAME_DENIED },
          { manageable: false, unmanage_reason: DESCRIPTION_DENIED },
          { manageable: false, unmanage_reason: SPEED_DENIED },
        ]);
      }
      const root = await view(guarded, who.root);
      for (const n of [NAMED, BLUE, UPLINK]) expect(entry(root, n)).toMatchObject({ manageable: true });
    });

    it("HIDE_NONE_ETHERNET_INTERFACES: only Ethernet ports are listed, for everyone", async () => {
      const all = lab.model.interfaces.map((i) => String(i.ifIndex));
      const ethernet = lab.model.ethernetPorts.map((i) => String(i.ifIndex));
      expect(all.length).toBeGreaterThan(ethernet.length);
      for (const k of ["root", "staff", "user"] as const)
        expect((await view(guarded, who[k])).map((i) => i.id).sort()).toEqual([...ethernet].sort());
      expect((await view(plain, plainWho.user)).map((i) => i.id).sort()).toEqual([...all].sort());
    });

    it("without the settings the same ports are ordinary ones (802.1X, LAG and routed stay protected)", async () => {
      const interfaces = await view(plain, plainWho.staff);
      for (const n of [NAMED, BLUE, UPLINK]) {
        expect(entry(interfaces, n)).toMatchObject({ manageable: true });
        expect(entry(interfaces, n)).not.toHaveProperty("unmanage_reason");
      }
      expect(entry(interfaces, DOT1X)).toMatchObject({ unmanage_reason: DOT1X_MODE });
      expect(entry(interfaces, LAG[0])).toMatchObject({ unmanage_reason: LAG_REASON });
    });
  });

  describe("writes", () => {
    it("a LAG member refuses its VLAN to everyone, but takes state and description changes", async () => {
      for (const k of ["root", "staff", "user"] as const)
        refused(await post(guarded, who[k], LAG[0], "vlan", { vlan: 20 }));
      refused(await post(plain, plainWho.root, LAG[1], "vlan", { vlan: 20 }));
      const state = await post(guarded, who.user, LAG[0], "state", { state: "off" });
      expect(state.status).toBe(200);
      expect(lab.model.adminUp(ifIndex(LAG[0]))).toBe(false);
      const description = await post(guarded, who.user, LAG[1], "description", { description: "lag to core" });
      expect(description.status).toBe(200);
      expect(lab.model.alias(ifIndex(LAG[1]))).toBe("lag to core");
    });

    it("the 802.1X port refuses every change, the superuser's too", async () => {
      for (const [what, body] of [
        ["state", { state: "off" }],
        ["vlan", { vlan: 20 }],
        ["description", { description: "x" }],
        ["poe_state", { poe_state: "off" }],
      ] as const) {
        refused(await post(guarded, who.root, DOT1X, what, body));
        refused(await post(plain, plainWho.root, DOT1X, what, body));
      }
      refused(await post(guarded, who.root, ROUTED, "vlan", { vlan: 20 }));
    });

    it("staff and users may not change the ports the administrator's rules catch; the superuser may", async () => {
      for (const n of [NAMED, BLUE, UPLINK])
        for (const k of ["staff", "user"] as const) refused(await post(guarded, who[k], n, "state", { state: "off" }));
      const r = await post(guarded, who.root, UPLINK, "state", { state: "off" });
      expect(r.status).toBe(200);
      expect(lab.model.adminUp(ifIndex(UPLINK))).toBe(false);
      // the same staff write without the settings
      lab.model.commit(cloneConfig(baseline));
      expect((await post(plain, plainWho.staff, NAMED, "state", { state: "off" })).status).toBe(200);
    });

    it("a hidden interface is not written either", async () => {
      const svi = lab.model.interfaces.find((i) => i.ifType === 136)!;
      const r = await guarded.request(
        "POST",
        `/api/switches/${who.root.group}/${who.root.device}/interface/${svi.ifIndex}/state/`,
        {
          token: who.root.token,
          json: { state: "off" },
        },
      );
      refused(r);
    });
  });

  describe("descriptions", () => {
    it("IFACE_ALIAS_NOT_ALLOW_REGEX refuses a matching text, for everyone, with OpenL2M's words", async () => {
      for (const k of ["root", "user"] as const)
        refused(
          await post(guarded, who[k], 1, "description", { description: "NOT ALLOWED here" }),
          "The description 'NOT ALLOWED here' is not allowed!",
        );
      refused(
        await post(guarded, who.user, 1, "description", { description: "Po7 member" }),
        "The description 'Po7 member' is not allowed!",
      );
      // a match later in the text is none (re.match)
      expect((await post(guarded, who.user, 1, "description", { description: "this is NOT ALLOWED" })).status).toBe(
        200,
      );
      expect((await post(plain, plainWho.user, 2, "description", { description: "NOT ALLOWED here" })).status).toBe(
        200,
      );
    });

    it("IFACE_ALIAS_KEEP_BEGINNING_REGEX keeps the circuit id when a user or staff changes the text", async () => {
      const r = await post(guarded, who.user, CIRCUIT, "description", { description: "printer" });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 200,
        body: { result: `Interface ${lab.model.port(CIRCUIT).name} description was changed!` },
      });
      expect(lab.model.alias(ifIndex(CIRCUIT))).toBe("D.123 printer");
      const log = await guarded.request("GET", "/api/admin/log/?page_size=1", { token: who.root.token });
      expect(log.body.results[0]).toMatchObject({
        action: "description",
        old_value: "D.123 desk",
        new_value: "D.123 printer",
        outcome: "success",
      });
      // the same text again, kept beginning included: the same value
      const same = await post(guarded, who.staff, CIRCUIT, "description", { description: "printer" });
      expect({ status: same.status, code: same.body.code }).toEqual({ status: 404, code: "same_value" });
    });

    it("another circuit id in its place is refused for non-superusers; the superuser may change it", async () => {
      refused(
        await post(guarded, who.staff, CIRCUIT, "description", { description: "D.999 lab" }),
        "The description must keep its beginning 'D.123'!",
      );
      const r = await post(guarded, who.root, CIRCUIT, "description", { description: "D.999 lab" });
      expect(r.status).toBe(200);
      expect(lab.model.alias(ifIndex(CIRCUIT))).toBe("D.999 lab");
    });
  });

  describe("the settings at start", () => {
    const root = path.resolve(__dirname, "../..");
    it("a pattern that does not compile stops `switchdesk serve` with one line naming the setting", async () => {
      const db = await createTestDatabase();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-protect-"));
      try {
        const exit = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
          execFile(
            process.execPath,
            [path.join(root, "bin", "switchdesk.js"), "serve"],
            {
              env: {
                ...process.env,
                DATABASE_URL: db.url,
                PORT: "0",
                HOST: "127.0.0.1",
                SWITCHDESK_DEMO: "0",
                SWITCHDESK_SECRET_KEY_FILE: path.join(dir, "secret.key"),
                IFACE_HIDE_REGEX_IFNAME: "GigabitEthernet1/0/[",
              },
              timeout: 20000,
            },
            (error, _stdout, stderr) =>
              resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
          ),
        );
        expect(exit.code).toBe(1);
        expect(exit.stderr.trim()).toMatch(
          /^switchdesk: IFACE_HIDE_REGEX_IFNAME is not a regular expression switchdesk can use: .*Unterminated character class.* \(got "GigabitEthernet1\/0\/\["\)$/,
        );
      } finally {
        await db.drop();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
