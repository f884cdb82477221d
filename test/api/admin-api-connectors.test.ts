/**
 * The inventory for the API connectors (1 Aruba AOS-CX REST, 2 Junos NETCONF, 3 Arista
 * eAPI), docs/api-decisions.md section 17: a credential profile's CA file, checked when
 * saved; a switch on 1, 2 or 3 needs a credential profile with a username, a password and
 * the port (never SSH's 22 for HTTPS), and names its driver (the connector's only one when
 * left out); the YAML import applies the same rules.
 *
 * Each connector has its driver (drivers/families/aruba-aoscx, junos-netconf, arista-eapi);
 * a connector without one is refused at save (admin-switches.test.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { driverNamesFor } from "../../drivers/registry";
import { InventoryFileError, importInventory } from "../../app/inventory-import";
import { selfSignedCertificate } from "../../lab/tls/self-signed";

const PROFILES = "/api/admin/switches/netmikoprofiles/";
const SWITCHES = "/api/admin/switches/";
const CONNECTOR_NAMES: Record<number, string> = { 1: "Aruba AOS-CX", 2: "Junos NETCONF", 3: "Arista eAPI" };

describeDb("admin: the API connectors' inventory", () => {
  let app: TestApp;
  let root: string;
  let tmp: string;
  let caFile: string;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-admin-api-"));
    caFile = path.join(tmp, "ca.pem");
    fs.writeFileSync(caFile, selfSignedCertificate("corporate-ca").cert);
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    await app?.close();
  });

  const call = (method: string, p: string, opts: Parameters<TestApp["request"]>[2] = {}) =>
    app.request(method, p, { token: root, ...opts });
  const countOf = async (p: string) => ((await call("GET", p)).body as unknown[]).length;

  describe("a credential profile's CA file (ca_file)", () => {
    it("takes an absolute path to a readable PEM file of certificates, shows it, and clears it with null or ''", async () => {
      const r = await call("POST", PROFILES, {
        json: { name: "cx-api", username: "admin", password: "pw-cx-1", tcp_port: 443, ca_file: caFile },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ tcp_port: 443, ca_file: caFile, password: null, password_set: true });
      // the alias path and a form take it too
      const form = await call("PATCH", `/api/admin/credentials/${r.body.id}/`, { form: { ca_file: "" } });
      expect(form.body.ca_file).toBe("");
      expect((await call("PATCH", `${PROFILES}${r.body.id}/`, { json: { ca_file: caFile } })).body.ca_file).toBe(
        caFile,
      );
      expect((await call("PATCH", `${PROFILES}${r.body.id}/`, { json: { ca_file: null } })).body.ca_file).toBe("");
      const made = await call("POST", PROFILES, { json: { name: "no-ca" } });
      expect(made.body.ca_file).toBe("");
    });

    it("refuses a path that would fail every call with a 400 naming ca_file and why; nothing is stored", async () => {
      const before = await countOf(PROFILES);
      fs.writeFileSync(path.join(tmp, "key.pem"), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
      for (const [ca_file, why] of [
        ["ca.pem", "expected an absolute path to a PEM file"],
        [path.join(tmp, "missing.pem"), `${path.join(tmp, "missing.pem")} cannot be read: no such file`],
        [tmp, `${tmp} cannot be read: not a regular file`],
        [
          path.join(tmp, "key.pem"),
          `${path.join(tmp, "key.pem")} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
        ],
        [`${caFile}\nother`, "Invalid value for parameter 'ca_file'"],
      ]) {
        const r = await call("POST", PROFILES, { json: { name: "bad-ca", ca_file } });
        expect({ ca_file, status: r.status, code: r.body.code }).toEqual({
          ca_file,
          status: 400,
          code: "invalid_parameter",
        });
        expect(r.body.reason).toContain(
          why.startsWith("Invalid") ? why : `Invalid value for parameter 'ca_file': ${why}`,
        );
      }
      expect(await countOf(PROFILES)).toBe(before);
    });
  });

  describe.each([1, 2, 3])("a switch on connector %i", (connector) => {
    const https = connector !== 2;
    const name = (what: string) => `c${connector}-${what}`;
    let good: number;
    let sshDefault: number;
    let noPassword: number;
    beforeAll(async () => {
      const make = async (json: Record<string, unknown>) => (await call("POST", PROFILES, { json })).body.id as number;
      good = await make({ name: name("good"), username: "api", password: "pw-api-1", tcp_port: https ? 443 : 830 });
      sshDefault = await make({ name: name("ssh-default"), username: "api", password: "pw-api-1" });
      noPassword = await make({ name: name("no-password"), username: "api", tcp_port: 443 });
    });

    it("is created with a credential profile, its driver defaulting to the connector's only one", async () => {
      const drivers = driverNamesFor(connector);
      const r = await call("POST", SWITCHES, {
        json: { name: name("new"), connector_type: connector, netmiko_profile: good, primary_ip4: "192.0.2.30" },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        connector_type: connector,
        netmiko_profile: good,
        tls_certificate: null,
        tls_certificate_accepted: null,
        tls_certificate_presented: null,
      });
      expect(r.body.driver).toBe(drivers.length === 1 ? drivers[0] : expect.any(String));
      // moved from SNMP: the driver follows the connector
      const snmp = await call("POST", SWITCHES, { json: { name: name("snmp") } });
      const moved = await call("PATCH", `${SWITCHES}${snmp.body.id}/`, {
        json: { connector_type: connector, netmiko_profile: good },
      });
      expect(moved.status).toBe(drivers.length === 1 ? 200 : 400);
    });

    it("is refused without a fit credential profile: missing, no password, or SSH's port for HTTPS", async () => {
      const before = await countOf(SWITCHES);
      const what = `connector ${connector} (${CONNECTOR_NAMES[connector]})`;
      const missing = await call("POST", SWITCHES, { json: { name: name("x1"), connector_type: connector } });
      expect(missing.body).toEqual({
        code: "missing_parameter",
        reason: `Missing or invalid required parameter: 'netmiko_profile' (${what} logs in with a credential profile: its username, password and port)`,
      });
      const nopw = await call("POST", SWITCHES, {
        json: { name: name("x2"), connector_type: connector, netmiko_profile: noPassword },
      });
      expect(nopw.status).toBe(400);
      expect(nopw.body.reason).toContain(`credential profile '${name("no-password")}' has`);
      const port22 = await call("POST", SWITCHES, {
        json: { name: name("x3"), connector_type: connector, netmiko_profile: sshDefault },
      });
      // NETCONF may run on 22; HTTPS never does
      expect(port22.status).toBe(https ? 400 : 201);
      if (https)
        expect(port22.body.reason).toBe(
          `Invalid value for parameter 'netmiko_profile': credential profile '${name("ssh-default")}' has port 22 (SSH's); ${what} speaks HTTPS: set the profile's port (tcp_port) to the switch's HTTPS port, usually 443`,
        );
      expect(await countOf(SWITCHES)).toBe(before + (https ? 0 : 1));
    });
  });

  describe("the YAML import", () => {
    const file = () => ({
      credentials: [
        { name: "imp-eapi", username: "api", password: "pw-imp-1", port: 443, ca_file: caFile },
        { name: "imp-ssh-default", username: "api", password: "pw-imp-1" },
      ],
      switches: [
        { name: "imp-eos-1", primary_ipv4: "192.0.2.40", connector_type: 3, credentials_profile: "imp-eapi" },
        { name: "imp-eos-2", primary_ipv4: "192.0.2.41", connector_type: 3 },
        {
          name: "imp-cx-1",
          primary_ipv4: "192.0.2.42",
          connector_type: 1,
          credentials_profile: "imp-ssh-default",
        },
      ],
    });

    it("applies the admin API's rules: every problem listed with its place, nothing changed", async () => {
      const before = { p: await countOf(PROFILES), s: await countOf(SWITCHES) };
      const err = await importInventory(app.services, file()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InventoryFileError);
      const problems = (err as InventoryFileError).problems;
      const expected = [
        "switches[1].credentials_profile: connector 3 (Arista eAPI) logs in with a credential profile: its username, password and port",
        "switches[2].credentials_profile: credential profile 'imp-ssh-default' has port 22 (SSH's); connector 1 (Aruba AOS-CX) speaks HTTPS: set the profile's port (tcp_port) to the switch's HTTPS port, usually 443",
      ];
      expect(problems).toEqual(expected);
      expect({ p: await countOf(PROFILES), s: await countOf(SWITCHES) }).toEqual(before);
    });

    it("checks ca_file like the admin API", async () => {
      const err = await importInventory(app.services, {
        credentials: [{ name: "imp-bad-ca", ca_file: path.join(tmp, "gone.pem") }],
      }).catch((e: unknown) => e);
      expect((err as InventoryFileError).problems).toEqual([
        `credentials[0].ca_file: ${path.join(tmp, "gone.pem")} cannot be read: no such file`,
      ]);
    });

    it("imports a switch on an API connector with its profile and CA file idempotently", async () => {
      const doc = { credentials: [file().credentials[0]], switches: [file().switches[0]] };
      const report = await importInventory(app.services, doc);
      expect(report.credentials.created).toEqual(["imp-eapi"]);
      expect(report.switches.created).toEqual(["imp-eos-1"]);
      const profiles = (await call("GET", PROFILES)).body as Array<{ id: number; name: string; ca_file: string }>;
      const eapi = profiles.find((p) => p.name === "imp-eapi")!;
      expect(eapi.ca_file).toBe(caFile);
      const sw = ((await call("GET", SWITCHES)).body as Array<Record<string, unknown>>).find(
        (s) => s.name === "imp-eos-1",
      );
      expect(sw).toMatchObject({ connector_type: 3, netmiko_profile: eapi.id, driver: driverNamesFor(3)[0] });
      const again = await importInventory(app.services, doc);
      expect(again.switches.unchanged).toEqual(["imp-eos-1"]);
      expect(again.credentials.unchanged).toEqual(["imp-eapi"]);
    });
  });
});
