/**
 * docs/api-decisions.md sections 7 and 14: api/admin/switches/ (the device inventory, OpenL2M's names),
 * form and JSON.
 */
import { startAppWithRoles, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import { connectorsWithDrivers, driverNamesFor } from "../../drivers/registry";

/** "auto" and every registered driver, by connector, as the refusal of an unknown one lists them */
const DRIVER_CHOICES = [...new Set(connectorsWithDrivers().flatMap((c) => driverNamesFor(c)))]
  .map((n) => JSON.stringify(n))
  .join(", ");

const FORBIDDEN = "You do not have permission to perform this action.";
const BASE = "/api/admin/switches/";

describeDb("admin: switches", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let regular: string;
  let v2: number;
  let ssh: number;
  let groupA: number;
  let groupB: number;

  beforeAll(async () => {
    ({ app, root, staff, regular } = await startAppWithRoles());
    v2 = (await call("POST", "/api/admin/switches/snmpprofiles/", { json: { name: "v2", community: "c-v2" } })).body.id;
    ssh = (
      await call("POST", "/api/admin/switches/netmikoprofiles/", {
        json: { name: "ssh", username: "netops", password: "pw-ssh" },
      })
    ).body.id;
    groupA = (await call("POST", "/api/admin/switches/switchgroups/", { json: { name: "A" } })).body.id;
    groupB = (await call("POST", "/api/admin/switches/switchgroups/", { json: { name: "B" } })).body.id;
  });
  afterAll(async () => app?.close());

  function call(method: string, path: string, opts: Parameters<TestApp["request"]>[2] = {}) {
    return app.request(method, path, { token: root, ...opts });
  }
  async function count() {
    return (await call("GET", BASE)).body.length as number;
  }

  it("creates a device from JSON with defaults for what was left out", async () => {
    const r = await call("POST", BASE, {
      json: {
        name: "sw-1",
        hostname: "sw-1.example.org",
        primary_ip4: "192.0.2.10",
        snmp_profile: v2,
        switchgroups: [groupA],
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(Number),
      name: "sw-1",
      description: "",
      comments: "",
      hostname: "sw-1.example.org",
      nms_id: "",
      primary_ip4: "192.0.2.10",
      primary_ip6: null,
      connector_type: 0,
      napalm_device_type: "",
      snmp_profile: v2,
      netmiko_profile: null,
      command_list: null,
      command_templates: [],
      read_only: false,
      bulk_edit: true,
      allow_poe_toggle: false,
      edit_if_descr: true,
      status: 1,
      default_view: 0,
      switchgroups: [groupA],
      snmp_port: 161,
      driver: "auto",
      detected_driver: null,
      detected_sysobjectid: null,
      ssh_host_key: null,
      ssh_host_key_accepted: null,
      ssh_host_key_presented: null,
      tls_certificate: null,
      tls_certificate_accepted: null,
      tls_certificate_presented: null,
    });
    // the group sees its new member
    expect((await call("GET", `/api/admin/switches/switchgroups/${groupA}/`)).body.switches).toEqual([r.body.id]);
    // internal columns are not part of the answer
    expect(r.body).not.toHaveProperty("driver_info");
    expect(r.body).not.toHaveProperty("lab");
  });

  it("creates from a form: integers, booleans, id lists, an empty address", async () => {
    const r = await call("POST", BASE, {
      form: {
        name: "sw-ssh",
        hostname: "sw-ssh",
        primary_ip4: "",
        primary_ip6: "2001:db8::7",
        snmp_port: "1161",
        connector_type: "7",
        driver: "cisco_ios_cli",
        netmiko_profile: String(ssh),
        read_only: "true",
        status: "0",
        default_view: "1",
        comments: "rack 4\nshelf 2",
        switchgroups: `${groupA},${groupB}`,
      },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      primary_ip4: null,
      primary_ip6: "2001:db8::7",
      snmp_port: 1161,
      connector_type: 7,
      driver: "cisco_ios_cli",
      snmp_profile: null,
      netmiko_profile: ssh,
      read_only: true,
      status: 0,
      default_view: 1,
      comments: "rack 4\nshelf 2",
      switchgroups: [groupA, groupB],
    });
  });

  it("takes an empty profile reference from a form as none", async () => {
    // needs server/body.ts to turn "" into null for nullable integers (reported to the lead)
    const r = await call("POST", BASE, { form: { name: "sw-empty-refs", snmp_profile: "", netmiko_profile: "" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ snmp_profile: null, netmiko_profile: null });
    const p = await call("PATCH", `${BASE}${r.body.id}/`, { json: { snmp_profile: v2 } });
    expect(p.body.snmp_profile).toBe(v2);
    const q = await call("PATCH", `${BASE}${r.body.id}/`, { form: { snmp_profile: "" } });
    expect(q.status).toBe(200);
    expect(q.body.snmp_profile).toBeNull();
    expect((await call("DELETE", `${BASE}${r.body.id}/`)).status).toBe(204);
  });

  it("refuses invalid devices, naming the field, and stores nothing", async () => {
    const before = await count();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ hostname: "x" }, 400, "Missing or invalid required parameter: 'name'"],
      [
        { name: "b1", primary_ip4: "192.0.2.300" },
        400,
        "Invalid value for parameter 'primary_ip4': not a valid IPv4 address",
      ],
      [
        { name: "b2", primary_ip4: "2001:db8::1" },
        400,
        "Invalid value for parameter 'primary_ip4': not a valid IPv4 address",
      ],
      [
        { name: "b3", primary_ip6: "2001:db8::g" },
        400,
        "Invalid value for parameter 'primary_ip6': not a valid IPv6 address",
      ],
      [
        { name: "b4", hostname: "bad host;rm" },
        400,
        "Invalid value for parameter 'hostname': not a valid host name or address",
      ],
      [
        { name: "b5", driver: "nosuchdriver" },
        400,
        `Invalid value for parameter 'driver': expected one of ${DRIVER_CHOICES}`,
      ],
      [
        { name: "b6", snmp_profile: 999999 },
        400,
        "Invalid value for parameter 'snmp_profile': no SNMP profile with id 999999",
      ],
      [
        { name: "b7", netmiko_profile: 999999 },
        400,
        "Invalid value for parameter 'netmiko_profile': no credential profile with id 999999",
      ],
      [
        { name: "b8", switchgroups: [groupA, 999999] },
        400,
        "Invalid value for parameter 'switchgroups': no switch group with id 999999",
      ],
      [
        { name: "b9", description: "tab\there" },
        400,
        "Invalid value for parameter 'description': control characters are not allowed",
      ],
    ];
    for (const [json, status, reason] of cases) {
      const r = await call("POST", BASE, { json });
      expect({ json, status: r.status, reason: r.body.reason }).toEqual({ json, status, reason });
    }
    // bounds and enums of the spec
    for (const json of [
      { name: "c1", snmp_port: 0 },
      { name: "c2", snmp_port: 65536 },
      { name: "c4", status: "broken" },
      { name: "c4b", status: 2 },
      { name: "c5", default_view: 2 },
    ]) {
      const r = await call("POST", BASE, { json });
      expect({ json, status: r.status }).toEqual({ json, status: 400 });
    }
    // a connector without a driver is refused, never stored and ignored (the API
    // connectors 1, 2 and 3 until their drivers are registered)
    for (const connector of [1, 2, 3, 98, 100].filter((c) => !connectorsWithDrivers().includes(c))) {
      const r = await call("POST", BASE, { json: { name: `c-${connector}`, connector_type: connector } });
      expect({ status: r.status, reason: r.body.reason }).toEqual({
        status: 400,
        reason: `No driver for connector ${connector}`,
      });
    }
    // a driver must speak over the switch's connector; SSH has no probe, so no "auto"
    const wrongDriver = await call("POST", BASE, { json: { name: "c6", connector_type: 7 } });
    expect(wrongDriver.status).toBe(400);
    expect(wrongDriver.body.reason).toBe(
      "Invalid value for parameter 'driver': driver 'auto' does not speak over connector 7; one of cisco_ios_cli, linux_host",
    );
    const snmpDriverOnSsh = await call("POST", BASE, { json: { name: "c7", connector_type: 7, driver: "generic" } });
    expect(snmpDriverOnSsh.body.reason).toBe(
      "Invalid value for parameter 'driver': driver 'generic' does not speak over connector 7; one of cisco_ios_cli, linux_host",
    );
    const form = await call("POST", BASE, { form: { name: "f1", switchgroups: "1,x" } });
    expect(form.status).toBe(400);
    expect(form.body.reason).toContain("'switchgroups'");
    expect(await count()).toBe(before);
    // a group list that fails leaves no row and no membership behind
    expect((await call("GET", `/api/admin/switches/switchgroups/${groupB}/`)).body.switches).toHaveLength(1);
  });

  it("refuses a duplicate name, also differing in case", async () => {
    const r = await call("POST", BASE, { form: { name: "SW-1" } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ reason: "Switch with name 'SW-1' already exists.", code: "already_exists" });
  });

  it("lists every device, active or not, and reads one; unknown id is 404 Invalid switch id!", async () => {
    const list = await call("GET", BASE);
    expect(list.status).toBe(200);
    expect(list.body.map((s: Schemas["AdminSwitch"]) => s.name)).toEqual(["sw-1", "sw-ssh"]);
    const one = await call("GET", `${BASE}${list.body[1].id}/`);
    expect(one.body).toEqual(list.body[1]);
    for (const [method, opts] of [
      ["GET", {}],
      ["POST", { json: { status: 0 } }],
      ["PATCH", { form: { status: "0" } }],
      ["DELETE", {}],
    ] as const) {
      const r = await call(method, `${BASE}999999/`, opts);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ reason: "Invalid switch id!", code: "not_found" });
    }
  });

  it("updates by POST and PATCH, only the given fields; switchgroups replaces the memberships", async () => {
    const sw = (await call("GET", BASE)).body.find((s: Schemas["AdminSwitch"]) => s.name === "sw-ssh");
    const a = await call("POST", `${BASE}${sw.id}/`, {
      form: { status: "1", switchgroups: String(groupB), snmp_profile: String(v2) },
    });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ ...sw, status: 1, switchgroups: [groupB], snmp_profile: v2 });
    expect((await call("GET", `/api/admin/switches/switchgroups/${groupA}/`)).body.switches).not.toContain(sw.id);
    const b = await call("PATCH", `${BASE}${sw.id}/`, {
      json: { netmiko_profile: null, primary_ip6: "", name: "sw-2", switchgroups: [] },
    });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({
      name: "sw-2",
      netmiko_profile: null,
      primary_ip6: null,
      switchgroups: [],
      snmp_profile: v2,
      status: 1,
    });
    // a failing update changes nothing, not even the valid fields sent with it
    const c = await call("PATCH", `${BASE}${sw.id}/`, { json: { description: "half", primary_ip4: "not-an-ip" } });
    expect(c.status).toBe(400);
    expect((await call("GET", `${BASE}${sw.id}/`)).body).toEqual(b.body);
    const dup = await call("PATCH", `${BASE}${sw.id}/`, { json: { name: "sw-1" } });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe("already_exists");
  });

  it("deletes a device (204) and its memberships", async () => {
    const sw = (await call("GET", BASE)).body.find((s: Schemas["AdminSwitch"]) => s.name === "sw-1");
    expect((await call("DELETE", `${BASE}${sw.id}/`)).status).toBe(204);
    expect((await call("GET", `${BASE}${sw.id}/`)).status).toBe(404);
    expect((await call("GET", `/api/admin/switches/switchgroups/${groupA}/`)).body.switches).toEqual([]);
    const rows = await app.services.store.db
      .selectFrom("group_switches")
      .selectAll()
      .where("switch_id", "=", sw.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("is for superusers only: staff and regular users get 403", async () => {
    const sw = (await call("GET", BASE)).body[0];
    for (const token of [staff, regular]) {
      const tries: [string, string, Parameters<TestApp["request"]>[2]][] = [
        ["GET", BASE, {}],
        ["POST", BASE, { json: { name: "sneaky" } }],
        ["GET", `${BASE}${sw.id}/`, {}],
        ["POST", `${BASE}${sw.id}/`, { json: { read_only: true } }],
        ["PATCH", `${BASE}${sw.id}/`, { form: { read_only: "true" } }],
        ["DELETE", `${BASE}${sw.id}/`, {}],
      ];
      for (const [method, path, opts] of tries) {
        const r = await app.request(method, path, { ...opts, token });
        expect({ method, path, status: r.status, reason: r.body.reason }).toEqual({
          method,
          path,
          status: 403,
          reason: FORBIDDEN,
        });
      }
    }
    expect((await call("GET", `${BASE}${sw.id}/`)).body).toEqual(sw);
  });
});
