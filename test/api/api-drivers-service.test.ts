/**
 * The three API drivers through the service, as an administrator sets them up: a credential
 * profile and a switch on connector 1 (AOS-CX REST), 2 (Junos NETCONF) or 3 (Arista eAPI)
 * made with the admin API, pointing at the lab face of a lab switch. Then, through the
 * REST API a script uses: the basic view, a description change seen over the lab's SNMP
 * face, the certificate or host key pinned at first contact and shown in the admin API, a
 * replaced certificate refused with 424 device_certificate_changed until an administrator
 * accepts it; and a burst of 200 reads against the AOS-CX face that ends with no error and
 * no session left open on the switch.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addGroup, startLab } from "../support/lab-inventory";
import { sameCertificate } from "../../drivers/https/client";
import { startLabAoscxFace, startLabEapiFace, startLabNetconfFace, type LabAoscxFace, type LabSwitch } from "../../lab";

const PROFILES = "/api/admin/switches/netmikoprofiles/";
const SWITCHES = "/api/admin/switches/";

interface Face {
  port: number;
  username: string;
  password: string;
  fingerprint: string;
  stop(): Promise<void>;
}

interface Subject {
  connector: 1 | 2 | 3;
  profile: "arubacx" | "juniper" | "arista";
  start(lab: LabSwitch, port?: number): Promise<Face>;
}

const SUBJECTS: Subject[] = [
  { connector: 1, profile: "arubacx", start: (lab, port) => startLabAoscxFace(lab, { port }) },
  { connector: 2, profile: "juniper", start: (lab, port) => startLabNetconfFace(lab, { port }) },
  { connector: 3, profile: "arista", start: (lab, port) => startLabEapiFace(lab, { port }) },
];

describeDb("API drivers through the service", () => {
  let app: TestApp;
  let root: string;
  let gid: number;
  const call = (method: string, path: string, json?: Record<string, unknown>) =>
    app.request(method, path, { token: root, ...(json ? { json } : {}) });

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    gid = await addGroup(app, { name: "API", allow_poe_toggle: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  describe.each(SUBJECTS)("connector $connector ($profile)", (subject) => {
    let lab: LabSwitch;
    let face: Face;
    let sid: number;
    beforeAll(async () => {
      lab = await startLab({ profile: subject.profile, ports: 12, seed: 5 });
      face = await subject.start(lab);
      const profile = await call("POST", PROFILES, {
        name: `api-${subject.connector}`,
        username: face.username,
        password: face.password,
        tcp_port: face.port,
      });
      expect(profile.status).toBe(201);
      const sw = await call("POST", SWITCHES, {
        name: `api-switch-${subject.connector}`,
        primary_ip4: "127.0.0.1",
        connector_type: subject.connector,
        netmiko_profile: profile.body.id,
        switchgroups: [gid],
      });
      expect(sw.status).toBe(201);
      sid = sw.body.id as number;
    }, 30000);
    afterAll(async () => {
      await face?.stop();
      await lab?.stop();
    });

    const pinned = async (): Promise<string | null> => {
      const row = (await call("GET", `${SWITCHES}${sid}/`)).body;
      return (subject.connector === 2 ? row.ssh_host_key : row.tls_certificate) as string | null;
    };

    it("reads the basic view, pins what the switch presented at first contact, and changes a description seen over SNMP", async () => {
      expect(await pinned()).toBeNull();
      const view = await call("GET", `/api/switches/${gid}/${sid}/`);
      expect(view.status).toBe(200);
      const port = lab.model.ethernetPorts[2];
      const row = (view.body.interfaces as { id: string; name: string }[]).find((i) => i.name === port.name);
      expect(row).toBeDefined();
      const fp = await pinned();
      expect(fp).not.toBeNull();
      if (subject.connector === 2) expect(fp).toBe(face.fingerprint);
      else expect(sameCertificate(fp!, face.fingerprint)).toBe(true);

      // a name with "/" (1/1/3, ge-0/0/2) goes into the URL with "_" for "/"
      const text = `desk ${subject.connector}-17`;
      const changed = await call(
        "POST",
        `/api/switches/${gid}/${sid}/interface/${row!.id.replace(/\//g, "_")}/description/`,
        {
          description: text,
        },
      );
      expect({ status: changed.status, body: changed.body }).toMatchObject({
        status: 200,
        body: { result: expect.any(String) as string },
      });
      // the lab model is what the SNMP face serves
      expect(lab.model.alias(port.ifIndex)).toBe(text);
    }, 30000);

    if (subject.connector !== 2)
      it("refuses a replaced certificate with 424 device_certificate_changed until an administrator accepts it", async () => {
        const old = await pinned();
        await face.stop();
        face = await subject.start(lab, face.port); // a new certificate on the same address
        const refused = await call("GET", `/api/switches/${gid}/${sid}/`);
        expect(refused.status).toBe(424);
        expect(refused.body.code).toBe("device_certificate_changed");
        expect(refused.body.reason).toMatch(
          new RegExp(`^Device 'api-switch-${subject.connector}' presented a different TLS certificate \\(`),
        );
        const row = (await call("GET", `${SWITCHES}${sid}/`)).body;
        expect(row.tls_certificate).toBe(old);
        expect(sameCertificate(String(row.tls_certificate_presented), face.fingerprint)).toBe(true);

        expect((await call("POST", `${SWITCHES}${sid}/accept_certificate/`)).status).toBe(204);
        expect((await call("GET", `/api/switches/${gid}/${sid}/`)).status).toBe(200);
        expect(sameCertificate(String(await pinned()), face.fingerprint)).toBe(true);
      }, 30000);
  });

  it("200 reads through the API against the AOS-CX face: no error, and no session left open on the switch", async () => {
    const lab = await startLab({ profile: "arubacx", ports: 48, seed: 9 });
    const face: LabAoscxFace = await startLabAoscxFace(lab);
    try {
      const profile = await call("POST", PROFILES, {
        name: "burst-cx",
        username: face.username,
        password: face.password,
        tcp_port: face.port,
      });
      const sw = await call("POST", SWITCHES, {
        name: "burst-cx",
        primary_ip4: "127.0.0.1",
        connector_type: 1,
        netmiko_profile: profile.body.id,
        switchgroups: [gid],
      });
      const url = `/api/switches/${gid}/${sw.body.id}/`;
      const statuses: Record<string, number> = {};
      // 200 reads, 20 callers at a time: the service's per-device bound decides how many
      // reach the switch together, and every call logs out
      for (let wave = 0; wave < 10; wave++) {
        const answers = await Promise.all(Array.from({ length: 20 }, () => call("GET", url)));
        for (const a of answers) {
          const key = a.status === 200 ? "200" : `${a.status} ${a.body.code}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        }
      }
      expect(statuses).toEqual({ "200": 200 });
      expect(face.openSessions()).toBe(0);
      expect(face.sessionsOpened()).toBeGreaterThan(0);
    } finally {
      await face.stop();
      await lab.stop();
    }
  }, 120000);
});
