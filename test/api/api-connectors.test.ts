/**
 * Switches on the API connectors through the service, between the admin and the drivers
 * (app/devices.ts): connectors 1 and 3 (HTTPS) against a real TLS server on 127.0.0.1 with
 * two lab certificates (lab/tls/self-signed.ts), connector 2 (NETCONF over SSH) against the
 * lab's real SSH server. What is checked is the service's part: the target built from the
 * credential profile (password decrypted, the profile's port, the pinned fingerprint or the
 * CA file's certificates), the certificate pinned at the first contact with an audit row
 * and a log line, a different certificate refused with 424 device_certificate_changed and
 * the contract's text until POST .../accept_certificate/, one device slot held per call.
 *
 * The service's device service is given a test-local opener (DeviceServiceParts.open)
 * whose minimal driver does what a real one does first: open the transport with the
 * target it was handed, report the certificate or host key, send one authenticated
 * request; so the targets the service built can be checked as handed over. The real
 * drivers run the same flows against the lab's faces in api-drivers-service.test.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addGroup, startLab } from "../support/lab-inventory";
import { DeviceService, type DriverOpener } from "../../app/devices";
import { DeviceGates } from "../../drivers/device-gate";
import { HttpsClient } from "../../drivers/https/client";
import { openSshConnection } from "../../drivers/ssh/connection";
import type { Driver } from "../../drivers/contract";
import type { Capabilities } from "../../model/capabilities";
import type { DeviceSnapshot, LearnScope } from "../../model/device";
import { NotSupported } from "../../model/failures";
import type { Connection } from "../../model/targets";
import { switchRow } from "../../db/inventory";
import { ApiError } from "../../app/errors";
import { selfSignedCertificate, type LabCertificate } from "../../lab/tls/self-signed";
import { startLabSshFace, type LabSshFace, type LabSwitch } from "../../lab";

const first = selfSignedCertificate("api-switch-one");
const second = selfSignedCertificate("api-switch-two");

const NOTHING: Capabilities = {
  change_admin_status: false,
  change_vlan: false,
  change_poe: false,
  change_description: false,
  edit_vlans: false,
  change_vlan_name: false,
  save_config: false,
  change_tags: false,
  client_data: false,
  max_description_length: 0,
  max_description_bytes: 0,
  max_vlan_name_length: 0,
  max_vlan_name_bytes: 0,
};

/** A driver that reaches its device once per learn (`reach` gives the hostname) and changes nothing. */
class ProbeDriver implements Driver {
  readonly info = { vendor: "test", driver: "probe" };
  readonly can = NOTHING;
  constructor(
    private readonly reach: () => Promise<string>,
    private readonly done: () => void = () => undefined,
  ) {}
  parseInterfaceId(): string | null {
    return null;
  }
  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    return {
      hostname: await this.reach(),
      driver_info: { model: "probe" },
      vlans: [],
      interfaces: [],
      poe: null,
      scope,
    };
  }
  learnInterface() {
    return Promise.resolve(null);
  }
  learnInterfaces(ids: string[]) {
    return Promise.resolve(new Map(ids.map((id) => [id, null])));
  }
  learnVlans() {
    return Promise.resolve([]);
  }
  private refuse(): Promise<void> {
    return Promise.reject(new NotSupported("the probe changes nothing"));
  }
  setAdminState = () => this.refuse();
  setUntaggedVlan = () => this.refuse();
  setTags = () => this.refuse();
  setPoe = () => this.refuse();
  setDescription = () => this.refuse();
  createVlan = () => this.refuse();
  renameVlan = () => this.refuse();
  deleteVlan = () => this.refuse();
  saveConfig = () => this.refuse();
  close(): Promise<void> {
    this.done();
    return Promise.resolve();
  }
}

/** What the test-local opener was handed, per call (to check the targets the service built). */
const handed: Connection[] = [];

/** The test-local opener: HTTPS for 1 and 3, SSH for 2, as the real drivers start. */
const probeOpener: DriverOpener = (spec) => {
  const c = spec.connection;
  handed.push(c);
  if (c.connector === 1 || c.connector === 3) {
    const client = new HttpsClient(c.https, { name: spec.name, onCertificate: spec.onCertificate });
    const basic = Buffer.from(`${c.https.username}:${c.https.password}`).toString("base64");
    const reach = async () => {
      const answer = await client.request({
        method: "GET",
        path: "/probe",
        headers: { authorization: `Basic ${basic}` },
      });
      return (JSON.parse(answer.text()) as { hostname: string }).hostname;
    };
    return Promise.resolve({ driver: new ProbeDriver(reach, () => client.close()) });
  }
  if (c.connector === 2) {
    const reach = async () => {
      const ssh = await openSshConnection(c.ssh, { name: spec.name });
      spec.onHostKey?.(ssh.hostKey);
      ssh.close();
      return "netconf-probe";
    };
    return Promise.resolve({ driver: new ProbeDriver(reach) });
  }
  return Promise.reject(new Error(`the probe opens the API connectors only, not ${c.connector}`));
};

describeDb("API connectors: the service's side (targets, certificate pinning, accept_certificate)", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let gid: number;
  let server: Server;
  let port = 0;
  let tmp: string;
  /** requests the HTTPS switch received: "GET /probe Basic ..." */
  let seen: string[] = [];
  let hold: Promise<void> | null = null;
  const logLines: string[] = [];

  function serve(c: LabCertificate): void {
    server.setSecureContext({ key: c.key, cert: c.cert });
  }

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({}, { logDestination: { write: (l) => void logLines.push(l) } }));
    await app.createUser("staffer", "pw-staff-1", { is_staff: true });
    staff = await app.login("staffer", "pw-staff-1");
    // the service's own device service, with an opener that can open API connectors today
    const s = app.services;
    s.devices = new DeviceService({ ...s, observer: s.telemetry, open: probeOpener });
    gid = await addGroup(app, { name: "API switches" });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-api-connectors-"));
    server = createServer({ key: first.key, cert: first.cert }, (req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      const answer = () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ hostname: "eos-lab" }));
      };
      if (hold) void hold.then(answer);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    fs.rmSync(tmp, { recursive: true, force: true });
    await app?.close();
  });
  beforeEach(() => {
    seen = [];
    handed.length = 0;
    serve(first);
  });

  const admin = (id: number) => app.request("GET", `/api/admin/switches/${id}/`, { token: root });
  const view = (id: number) => app.request("GET", `/api/switches/${gid}/${id}/`, { token: root });
  const accept = (id: number, token = root) =>
    app.request("POST", `/api/admin/switches/${id}/accept_certificate/`, { token });
  const lastLog = async (id: number) =>
    (await app.request("GET", `/api/admin/log/?switch=${id}&page_size=1`, { token: root })).body.results[0];

  async function profile(json: Record<string, unknown>): Promise<number> {
    const r = await app.request("POST", "/api/admin/switches/netmikoprofiles/", { token: root, json });
    expect(r.status).toBe(201);
    return r.body.id as number;
  }
  /** a switch on an API connector, stored as the admin API will store it once its driver is registered */
  async function apiSwitch(name: string, connector: 1 | 2 | 3, credentialsProfile: number | null): Promise<number> {
    const row = await app.services.repos.inventory.create(
      "switches",
      switchRow({
        name,
        primary_ipv4: "127.0.0.1",
        connector_type: connector,
        driver: "probe",
        credentials_profile_id: credentialsProfile,
      }),
      [{ relation: "groups", ids: [gid] }],
    );
    return row.id;
  }

  describe("HTTPS (Arista eAPI, connector 3): trust on first use", () => {
    let id: number;
    beforeAll(async () => {
      const cred = await profile({ name: "eapi", username: "api-admin", password: "eapi-secret-1", tcp_port: port });
      id = await apiSwitch("eos-1", 3, cred);
    });

    it("first contact: the profile's login and port reach the switch, the certificate is pinned, audited and logged", async () => {
      expect((await admin(id)).body).toMatchObject({
        connector_type: 3,
        tls_certificate: null,
        tls_certificate_accepted: null,
        tls_certificate_presented: null,
      });
      const r = await view(id);
      expect(r.status).toBe(200);
      expect(r.body.switch).toMatchObject({ name: "eos-1", hostname: "eos-lab" });
      const menu = await app.request("GET", "/api/switches/", { token: root });
      expect(menu.body.groups[String(gid)].members[String(id)]).toMatchObject({
        connector_type: 3,
        connector_type_name: "Arista eAPI",
      });
      // the password was decrypted for the login, the profile's port used
      expect(seen).toEqual([`GET /probe Basic ${Buffer.from("api-admin:eapi-secret-1").toString("base64")}`]);
      expect(handed[0]).toMatchObject({ connector: 3, https: { host: "127.0.0.1", port, username: "api-admin" } });
      expect(handed[0].connector === 3 && handed[0].https.certificate_fingerprint).toBeUndefined();

      const a = (await admin(id)).body;
      expect(a.tls_certificate).toBe(first.fingerprint);
      expect(Date.now() - new Date(a.tls_certificate_accepted).getTime()).toBeLessThan(60_000);
      expect(a.tls_certificate_presented).toBeNull();
      // never silent: an audit row and a log line say what was pinned
      expect(await lastLog(id)).toMatchObject({
        action: "pin_certificate",
        user_id: null,
        switch_name: "eos-1",
        new_value: `tls_certificate=${first.fingerprint}`,
        outcome: "success",
        message: `Device 'eos-1' was reached for the first time: its TLS certificate ${first.fingerprint} is now pinned (trust on first use); a different one will be refused until an administrator accepts it`,
      });
      expect(logLines.filter((l) => l.includes(first.fingerprint) && l.includes("now pinned"))).toHaveLength(1);
    });

    it("later calls carry the pin and pin nothing again", async () => {
      expect((await view(id)).status).toBe(200);
      expect(handed[0].connector === 3 && handed[0].https.certificate_fingerprint).toBe(first.fingerprint);
      expect(
        (await app.request("GET", `/api/admin/log/?switch=${id}&action=pin_certificate`, { token: root })).body.count,
      ).toBe(1);
    });

    it("a different certificate is 424 device_certificate_changed with the contract's text, and nothing is sent", async () => {
      serve(second);
      const accepted = (await admin(id)).body.tls_certificate_accepted as string;
      for (let i = 0; i < 2; i++) {
        const r = await view(id);
        expect(r.status).toBe(424);
        expect(r.body).toEqual({
          code: "device_certificate_changed",
          reason: `Device 'eos-1' presented a different TLS certificate (${second.fingerprint}) than the one accepted on ${accepted}; an administrator must accept the new certificate`,
        });
      }
      expect(seen).toEqual([]);
      expect((await admin(id)).body).toMatchObject({
        tls_certificate: first.fingerprint,
        tls_certificate_accepted: accepted,
        tls_certificate_presented: second.fingerprint,
      });
    });

    it("accept_certificate: superusers only, 404 for an unknown switch, 204 pins the presented one and audits it", async () => {
      serve(second);
      expect((await accept(id, staff)).status).toBe(403);
      expect((await admin(id)).body.tls_certificate).toBe(first.fingerprint);
      const unknown = await accept(999_999);
      expect(unknown.status).toBe(404);
      expect(unknown.body.reason).toBe("Invalid switch id!");

      const r = await accept(id);
      expect(r.status).toBe(204);
      const a = (await admin(id)).body;
      expect(a).toMatchObject({ tls_certificate: second.fingerprint, tls_certificate_presented: null });
      expect(Date.now() - new Date(a.tls_certificate_accepted).getTime()).toBeLessThan(60_000);
      expect(await lastLog(id)).toMatchObject({
        action: "admin:switches:accept_certificate",
        username: "root",
        outcome: "success",
        new_value: `eos-1 (id ${id}); fields: tls_certificate=${second.fingerprint}`,
      });
      expect((await view(id)).status).toBe(200);
      expect(seen).toHaveLength(1);
      // the first certificate is now the different one
      serve(first);
      expect((await view(id)).body.code).toBe("device_certificate_changed");
    });

    it("accept_certificate with nothing presented forgets the pin: the next contact pins anew, audited again", async () => {
      await accept(id); // accepts `first`, presented by the last call
      expect((await admin(id)).body.tls_certificate).toBe(first.fingerprint);
      const cleared = await accept(id);
      expect(cleared.status).toBe(204);
      expect((await admin(id)).body).toMatchObject({ tls_certificate: null, tls_certificate_accepted: null });
      expect((await lastLog(id)).new_value).toBe(`eos-1 (id ${id}); fields: tls_certificate cleared`);
      serve(second);
      expect((await view(id)).status).toBe(200);
      expect((await admin(id)).body.tls_certificate).toBe(second.fingerprint);
      expect(await lastLog(id)).toMatchObject({
        action: "pin_certificate",
        new_value: `tls_certificate=${second.fingerprint}`,
      });
    });
  });

  describe("HTTPS (AOS-CX REST, connector 1): a CA file instead of a pin", () => {
    let id: number;
    let cred: number;
    let caFile: string;
    beforeAll(async () => {
      caFile = path.join(tmp, "switches-ca.pem");
      fs.writeFileSync(caFile, second.cert);
      cred = await profile({
        name: "aoscx",
        username: "cx-admin",
        password: "cx-secret-1",
        tcp_port: port,
        ca_file: caFile,
      });
      id = await apiSwitch("cx-1", 1, cred);
    });

    it("a certificate the CA vouches for is taken and nothing is pinned; another one is refused before anything is sent", async () => {
      serve(second);
      expect((await view(id)).status).toBe(200);
      expect(handed[0].connector === 1 && handed[0].https.ca).toBe(`${second.cert.trim()}\n`);
      expect((await admin(id)).body).toMatchObject({ tls_certificate: null, tls_certificate_presented: null });
      expect(seen).toHaveLength(1);

      serve(first);
      const r = await view(id);
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_unreachable");
      expect(r.body.reason).toContain("is not trusted by the configured CA");
      expect(seen).toHaveLength(1);
    });

    it("the file is read at each call: one that is gone or holds no certificate is a 400 naming the profile and ca_file", async () => {
      serve(second);
      fs.writeFileSync(caFile, "not a certificate\n");
      const bad = await view(id);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        code: "not_supported",
        reason:
          "Device 'cx-1' was not contacted: the CA file (ca_file) of credential profile 'aoscx' holds no PEM certificate (-----BEGIN CERTIFICATE-----); an administrator must correct the profile",
      });
      fs.rmSync(caFile);
      const gone = await view(id);
      expect(gone.status).toBe(400);
      expect(gone.body.reason).toBe(
        "Device 'cx-1' was not contacted: the CA file (ca_file) of credential profile 'aoscx' cannot be read: no such file; an administrator must correct the profile",
      );
      expect(seen).toEqual([]);
      // the same file again: calls work at once, without a restart
      fs.writeFileSync(caFile, second.cert);
      expect((await view(id)).status).toBe(200);
    });

    it("a switch without a profile, or whose profile has no password, is a 400 and the switch sees nothing", async () => {
      const bare = await apiSwitch("cx-bare", 1, null);
      const r = await view(bare);
      expect(r.status).toBe(400);
      expect(r.body.reason).toBe(
        "Device 'cx-bare' has no credential profile configured; connector 1 (Aruba AOS-CX) logs in with one",
      );
      const nopw = await apiSwitch("cx-nopw", 1, await profile({ name: "no-password", username: "x", tcp_port: port }));
      expect((await view(nopw)).body.reason).toBe(
        "Device 'cx-nopw': credential profile 'no-password' has no password; connector 1 (Aruba AOS-CX) logs in with a username and password",
      );
      expect(seen).toEqual([]);
    });
  });

  it("an API call holds one of the device's slots for the whole call: a second call meanwhile is 503 device_busy", async () => {
    const cred = await profile({ name: "eapi-busy", username: "a", password: "b", tcp_port: port });
    const id = await apiSwitch("eos-busy", 3, cred);
    // this service's gates allow one session per device and no queue
    const s = app.services;
    const devices = new DeviceService({
      ...s,
      gates: new DeviceGates({ concurrency: 1, queueLimit: 0 }),
      open: probeOpener,
    });
    const device = (await devices.byId(id))!;
    let release: () => void = () => undefined;
    hold = new Promise<void>((r) => (release = r));
    try {
      const firstCall = devices.use(device, (d) => d.learn("basic"));
      // the first call is at the switch (its request waits there)
      for (let i = 0; i < 200 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(seen).toHaveLength(1);
      const refused = await devices.use(device, (d) => d.learn("basic")).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 503, code: "device_busy" });
      release();
      expect((await firstCall).hostname).toBe("eos-lab");
      expect(seen).toHaveLength(1);
    } finally {
      hold = null;
      release();
    }
  });

  describe("NETCONF (Junos, connector 2): the SSH target and its host key pinning", () => {
    let lab: LabSwitch;
    let face: LabSshFace;
    let id: number;
    beforeAll(async () => {
      lab = await startLab({ profile: "generic", ports: 8, seed: 19, name: "lab-netconf-8" });
      face = await startLabSshFace(lab);
      const cred = await profile({
        name: "junos",
        username: face.username,
        password: face.password,
        tcp_port: face.port,
      });
      id = await apiSwitch("junos-1", 2, cred);
    }, 30000);
    afterAll(async () => {
      await face?.stop();
      await lab?.stop();
    });

    it("pins the host key on first contact (audited), and refuses a changed key with 424 until it is accepted", async () => {
      expect((await view(id)).status).toBe(200);
      expect(handed[0]).toMatchObject({
        connector: 2,
        ssh: { host: "127.0.0.1", port: face.port, username: face.username },
      });
      expect((await admin(id)).body).toMatchObject({ ssh_host_key: face.hostKeyFingerprint, tls_certificate: null });
      expect(await lastLog(id)).toMatchObject({
        action: "pin_hostkey",
        new_value: `ssh_host_key=${face.hostKeyFingerprint}`,
      });

      const port = face.port;
      await face.stop();
      face = await startLabSshFace(lab, { port });
      const r = await view(id);
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_hostkey_changed");
      expect((await admin(id)).body.ssh_host_key_presented).toBe(face.hostKeyFingerprint);
      expect((await app.request("POST", `/api/admin/switches/${id}/accept_hostkey/`, { token: root })).status).toBe(
        204,
      );
      expect((await view(id)).status).toBe(200);
    }, 20000);
  });
});
