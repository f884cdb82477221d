/**
 * docs/api-decisions.md section 14 (issue 18 item 5): the inventory at OpenL2M's paths and
 * with its field names. The earlier paths are aliases of the same operations; switchdesk's
 * earlier field names are still taken on input; OpenL2M fields switchdesk has no use for
 * are taken only empty; secrets are answered as null with <key>_set; bad input is 400 with
 * a reason naming the field, and nothing is stored.
 */
import { secretCheckingClient, startAppWithRoles, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

const SNMP = "/api/admin/switches/snmpprofiles/";
const NETMIKO = "/api/admin/switches/netmikoprofiles/";
const GROUPS = "/api/admin/switches/switchgroups/";
const SWITCHES = "/api/admin/switches/";
const ALIASES: [string, string][] = [
  [SNMP, "/api/admin/snmpprofiles/"],
  [NETMIKO, "/api/admin/credentials/"],
  [GROUPS, "/api/admin/switchgroups/"],
];
const FORBIDDEN = "You do not have permission to perform this action.";

type Json = Record<string, unknown>;
/** an inventory object as the API answers it */
interface Obj {
  id: number;
  name: string;
  [key: string]: unknown;
}

describeDb("admin: OpenL2M's paths and names", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  beforeAll(async () => {
    ({ app, root, staff } = await startAppWithRoles());
  });
  afterAll(async () => app?.close());

  /** every answer is checked for every secret given so far (they are write-only) */
  const { secretsSeen, call } = secretCheckingClient(
    () => app,
    () => root,
    SNMP,
  );
  function secret(s: string): string {
    secretsSeen.push(s);
    return s;
  }
  const countAt = async (base: string) => ((await call("GET", base)).body as Obj[]).length;

  it("the admin root links to OpenL2M's paths", async () => {
    const r = await call("GET", "/api/admin/");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      snmpprofiles: `${app.url}${SNMP}`,
      credentials: `${app.url}${NETMIKO}`,
      switchgroups: `${app.url}${GROUPS}`,
      switches: `${app.url}${SWITCHES}`,
    });
  });

  it("the earlier paths are aliases: one object, the same answers, created, changed and deleted through either", async () => {
    const bodies: Record<string, Json> = {
      [SNMP]: { name: "alias-snmp", community: secret("alias-community-1") },
      [NETMIKO]: { name: "alias-ssh", username: "ops", password: secret("alias-password-1") },
      [GROUPS]: { name: "alias-group", vlans: "10,20" },
    };
    for (const [canonical, alias] of ALIASES) {
      const made = await call("POST", alias, { json: bodies[canonical] });
      expect({ alias, status: made.status }).toEqual({ alias, status: 201 });
      const id = made.body.id as number;
      expect((await call("GET", `${canonical}${id}/`)).body).toEqual(made.body);
      expect((await call("GET", canonical)).body).toEqual((await call("GET", alias)).body);
      const patched = await call("PATCH", `${canonical}${id}/`, { form: { description: "seen at both" } });
      expect(patched.status).toBe(200);
      expect((await call("GET", `${alias}${id}/`)).body).toEqual(patched.body);
      const allow = async (p: string) => (await call("OPTIONS", p)).headers.get("allow");
      expect(await allow(`${alias}${id}/`)).toBe(await allow(`${canonical}${id}/`));
      expect((await call("DELETE", `${alias}${id}/`)).status).toBe(204);
      expect((await call("GET", `${canonical}${id}/`)).status).toBe(404);
    }
  });

  it("answers with OpenL2M's keys; secrets are null with <key>_set, and never the stored value", async () => {
    const v3 = await call("POST", SNMP, {
      form: {
        name: "campus-v3",
        version: "3",
        username: "sd",
        auth_protocol: "4",
        passphrase: secret("campus-auth-key"),
        priv_protocol: "5",
        priv_passphrase: secret("campus-priv-key"),
        context_name: "ctx",
      },
    });
    expect(v3.status).toBe(201);
    expect(v3.body).toMatchObject({
      version: 3,
      sec_level: 2,
      auth_protocol: 4,
      priv_protocol: 5,
      community: null,
      community_set: false,
      passphrase: null,
      passphrase_set: true,
      priv_passphrase: null,
      priv_passphrase_set: true,
      context_name: "ctx",
      context_engine_id: null,
      udp_port: 161,
    });
    const ssh = await call("POST", NETMIKO, {
      form: {
        name: "dept-ssh",
        username: "user",
        password: secret("dept-ssh-password"),
        enable_password: secret("dept-enable"),
        device_type: "hp_comware",
        tcp_port: "2022",
        verify_hostkey: "true",
      },
    });
    expect(ssh.status).toBe(201);
    expect(ssh.body).toEqual({
      id: expect.any(Number),
      name: "dept-ssh",
      description: "",
      username: "user",
      password: null,
      password_set: true,
      enable_password: null,
      enable_password_set: true,
      private_key: null,
      private_key_set: false,
      device_type: "hp_comware",
      tcp_port: 2022,
      verify_hostkey: true,
      ca_file: "",
    });
    // null clears a secret (OpenL2M's nullable columns)
    const cleared = await call("PATCH", `${NETMIKO}${ssh.body.id}/`, { json: { enable_password: null } });
    expect(cleared.body).toMatchObject({ enable_password: null, enable_password_set: false, password_set: true });
    const g = await call("POST", GROUPS, { json: { name: "dept-x", vlan_groups: [], bulk_edit: false } });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ vlan_groups: [], bulk_edit: false, vlans: [], users: [], switches: [] });
    const sw = await call("POST", SWITCHES, {
      form: {
        name: "dept-sw",
        primary_ip4: "192.0.2.40",
        netmiko_profile: String(ssh.body.id),
        connector_type: "7",
        driver: "cisco_ios_cli",
        status: "0",
        bulk_edit: "false",
        switchgroups: String(g.body.id),
        napalm_device_type: "",
        command_templates: "",
      },
    });
    expect(sw.status).toBe(201);
    expect(sw.body).toMatchObject({
      primary_ip4: "192.0.2.40",
      primary_ip6: null,
      netmiko_profile: ssh.body.id,
      snmp_profile: null,
      status: 0,
      bulk_edit: false,
      napalm_device_type: "",
      command_list: null,
      command_templates: [],
      switchgroups: [g.body.id],
    });
    // the stored rows: bulk_edit and device_type are columns of their own (migration 0009)
    const row = await app.services.repos.inventory.get("switches", sw.body.id);
    expect(row).toMatchObject({ bulk_edit: 0, status: "inactive", primary_ipv4: "192.0.2.40" });
    expect((await app.services.repos.inventory.get("credentials", ssh.body.id))?.device_type).toBe("hp_comware");
  });

  it("PATCH and POST change only what they are given", async () => {
    const sw = ((await call("GET", SWITCHES)).body as Obj[]).find((s) => s.name === "dept-sw")!;
    const a = await call("PATCH", `${SWITCHES}${sw.id}/`, { json: { bulk_edit: true, status: 1 } });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ...sw, bulk_edit: true, status: 1 });
    const b = await call("POST", `${SWITCHES}${sw.id}/`, { form: { primary_ip6: "2001:db8::40", nms_id: "nms-40" } });
    expect(b.body).toEqual({ ...a.body, primary_ip6: "2001:db8::40", nms_id: "nms-40" });
    const p = ((await call("GET", SNMP)).body as Obj[]).find((x) => x.name === "campus-v3")!;
    const c = await call("PATCH", `${SNMP}${p.id}/`, { json: { description: "campus" } });
    expect(c.body).toEqual({ ...p, description: "campus" });
    const n = ((await call("GET", NETMIKO)).body as Obj[]).find((x) => x.name === "dept-ssh")!;
    const d = await call("POST", `${NETMIKO}${n.id}/`, { form: { tcp_port: "22" } });
    expect(d.body).toEqual({ ...n, tcp_port: 22 });
  });

  it("sec_level decides the v3 protocols as OpenL2M's defaults do", async () => {
    const v2 = await call("POST", SNMP, { form: { name: "dept-v2", community: secret("dept-v2-c"), version: "2" } });
    expect(v2.body).toMatchObject({ version: 2, sec_level: 0, auth_protocol: 0, priv_protocol: 0 });
    const id = v2.body.id as number;
    // authNoPriv without a protocol: SHA (2), as OpenL2M's default
    const a = await call("POST", `${SNMP}${id}/`, {
      json: { version: 3, sec_level: 1, username: "u1", passphrase: secret("dept-auth-1") },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ version: 3, sec_level: 1, auth_protocol: 2, priv_protocol: 0 });
    // authPriv: AES (3) unless given; a privacy passphrase is then needed
    const noKey = await call("PATCH", `${SNMP}${id}/`, { json: { sec_level: 2 } });
    expect(noKey.status).toBe(400);
    expect(noKey.body.reason).toBe(
      "Missing or invalid required parameter: 'priv_passphrase' (a privacy protocol needs a privacy key)",
    );
    const b = await call("PATCH", `${SNMP}${id}/`, { json: { sec_level: 2, priv_passphrase: secret("dept-priv-1") } });
    expect(b.body).toMatchObject({ sec_level: 2, priv_protocol: 3, priv_passphrase_set: true });
    // back to authNoPriv: the privacy protocol goes
    const c = await call("PATCH", `${SNMP}${id}/`, { form: { sec_level: "1" } });
    expect(c.body).toMatchObject({ sec_level: 1, priv_protocol: 0 });
  });

  it("takes switchdesk's earlier names, and answers with OpenL2M's", async () => {
    const p = await call("POST", "/api/admin/snmpprofiles/", {
      json: {
        name: "earlier-v3",
        version: "3",
        username: "old",
        auth_protocol: "SHA-256",
        auth_key: secret("earlier-auth-key"),
        priv_protocol: "AES",
        priv_key: secret("earlier-priv-key"),
        context: "old-ctx",
      },
    });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({
      version: 3,
      auth_protocol: 4,
      priv_protocol: 3,
      sec_level: 2,
      context_name: "old-ctx",
      passphrase_set: true,
      priv_passphrase_set: true,
    });
    const c = await call("POST", "/api/admin/credentials/", {
      form: { name: "earlier-ssh", username: "old", password: secret("earlier-password"), port: "2200" },
    });
    expect(c.body).toMatchObject({ tcp_port: 2200, password_set: true });
    const sw = await call("POST", SWITCHES, {
      json: {
        name: "earlier-sw",
        primary_ipv4: "192.0.2.41",
        primary_ipv6: "2001:db8::41",
        connector_type: 7,
        driver: "cisco_ios_cli",
        credentials_profile: c.body.id,
        status: "inactive",
      },
    });
    expect(sw.status).toBe(201);
    expect(sw.body).toMatchObject({
      primary_ip4: "192.0.2.41",
      primary_ip6: "2001:db8::41",
      netmiko_profile: c.body.id,
      status: 0,
    });
    expect(sw.body).not.toHaveProperty("primary_ipv4");
    expect(sw.body).not.toHaveProperty("credentials_profile");
  });

  it("refuses bad input with a reason naming the field, and stores nothing", async () => {
    const cases: [string, Json, string][] = [
      [
        SWITCHES,
        { name: "x1", primary_ip4: "192.0.2.1", primary_ipv4: "192.0.2.2" },
        "Invalid value for parameter 'primary_ip4': give either 'primary_ip4' or 'primary_ipv4', not both",
      ],
      [
        SWITCHES,
        { name: "x2", status: 2 },
        "Invalid value for parameter 'status': expected 1 (active) or 0 (inactive)",
      ],
      [
        SWITCHES,
        { name: "x3", primary_ip4: "switch1.local" },
        "Invalid value for parameter 'primary_ip4': not a valid IPv4 address",
      ],
      [
        SWITCHES,
        { name: "x4", napalm_device_type: "ios" },
        "Invalid value for parameter 'napalm_device_type': switchdesk has no Napalm connector: leave it empty",
      ],
      [
        SWITCHES,
        { name: "x5", command_list: 2 },
        "Invalid value for parameter 'command_list': switchdesk has no command lists: leave it empty",
      ],
      [
        SWITCHES,
        { name: "x6", command_templates: [1] },
        "Invalid value for parameter 'command_templates': switchdesk has no command templates: leave it empty",
      ],
      [
        SWITCHES,
        { name: "x7", netmiko_profile: 999999 },
        "Invalid value for parameter 'netmiko_profile': no credential profile with id 999999",
      ],
      [
        GROUPS,
        { name: "x8", vlan_groups: [3] },
        "Invalid value for parameter 'vlan_groups': switchdesk has no VLAN groups: list the group's VLAN ids in vlans",
      ],
      [
        NETMIKO,
        { name: "x9", verify_hostkey: false },
        "Invalid value for parameter 'verify_hostkey': switchdesk always verifies SSH host keys (pinned at the first contact, a changed key refused until an administrator accepts it)",
      ],
      [
        NETMIKO,
        { name: "x10", tcp_port: 70000 },
        "Invalid value for parameter 'tcp_port': expected an integer from 1 to 65535",
      ],
      [
        NETMIKO,
        { name: "x11", device_type: "Cisco IOS" },
        "Invalid value for parameter 'device_type': expected a Netmiko device type (lower case letters, digits and _)",
      ],
      [
        NETMIKO,
        { name: "x12", tcp_port: 22, port: 22 },
        "Invalid value for parameter 'tcp_port': give either 'tcp_port' or 'port', not both",
      ],
      [
        SNMP,
        { name: "x13", community: "c", udp_port: 1161 },
        "Invalid value for parameter 'udp_port': only 161: switchdesk takes the SNMP port from the device (set snmp_port on the switch)",
      ],
      [
        SNMP,
        { name: "x14", community: "c", context_engine_id: "80001f88" },
        "Invalid value for parameter 'context_engine_id': switchdesk does not use an SNMPv3 context engine id: leave it empty",
      ],
      [
        SNMP,
        { name: "x15", version: 3, username: "u", sec_level: 0 },
        "Invalid value for parameter 'sec_level': switchdesk uses SNMPv3 with authentication: sec_level 1 or 2",
      ],
      [
        SNMP,
        {
          name: "x16",
          version: 3,
          username: "u",
          sec_level: 1,
          auth_protocol: 2,
          passphrase: "12345678",
          priv_protocol: 3,
        },
        "Invalid value for parameter 'priv_protocol': a privacy protocol needs sec_level 2",
      ],
      [
        SNMP,
        { name: "x17", version: 3, username: "u", auth_protocol: 2, passphrase: "12345678", priv_protocol: 7 },
        "Invalid value for parameter 'priv_protocol': OpenL2M's Cisco variants (6, 7) are not supported: use 4 (AES-192) or 5 (AES-256)",
      ],
      [
        SNMP,
        { name: "x18", version: 3, username: "u", auth_protocol: 2, auth_key: "12345678", passphrase: "12345678" },
        "Invalid value for parameter 'passphrase': give either 'passphrase' or 'auth_key', not both",
      ],
      [SNMP, { name: "x19", community: "c", community_set: true }, "Unknown parameter: 'community_set'"],
      [
        SNMP,
        { name: "x20", community: "c", sec_level: 5 },
        "Invalid value for parameter 'sec_level': expected 0 (noAuthNoPriv), 1 (authNoPriv) or 2 (authPriv)",
      ],
    ];
    const before = Object.fromEntries(
      await Promise.all([SNMP, NETMIKO, GROUPS, SWITCHES].map(async (b) => [b, await countAt(b)] as const)),
    );
    for (const [base, json, reason] of cases) {
      const r = await call("POST", base, { json });
      expect({ base, json, status: r.status, reason: r.body.reason }).toEqual({ base, json, status: 400, reason });
    }
    for (const base of [SNMP, NETMIKO, GROUPS, SWITCHES]) expect(await countAt(base)).toBe(before[base]);
    // an update refused leaves the object as it was
    const sw = ((await call("GET", SWITCHES)).body as Obj[]).find((s) => s.name === "dept-sw")!;
    const r = await call("PATCH", `${SWITCHES}${sw.id}/`, { form: { description: "half", status: "7" } });
    expect(r.status).toBe(400);
    expect((await call("GET", `${SWITCHES}${sw.id}/`)).body).toEqual(sw);
  });

  it("is for superusers only at OpenL2M's paths too", async () => {
    for (const base of [SNMP, NETMIKO, GROUPS]) {
      for (const [method, opts] of [
        ["GET", {}],
        ["POST", { json: { name: "sneaky" } }],
      ] as const) {
        const r = await app.request(method, base, { ...opts, token: staff });
        expect({ base, method, status: r.status, reason: r.body.reason }).toEqual({
          base,
          method,
          status: 403,
          reason: FORBIDDEN,
        });
      }
    }
  });
});
