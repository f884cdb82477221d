/**
 * No secret ever reaches the log. The service runs as `switchdesk serve` runs it
 * (startService, JSON log on stdout at debug level) while everything the process writes
 * (stdout, stderr, console) is captured; a whole scenario then uses every kind of secret
 * the service handles: the secret key, a password login (API and web form), a failed
 * login, token creation, use and revocation, a user created and changed with passwords,
 * SNMP v2c and v3 profiles with community and auth/priv keys, an SSH credential profile
 * with password, enable password and private key, device writes on the lab through
 * both SNMP profiles, and the three API drivers (AOS-CX REST, eAPI, NETCONF) logging in
 * with credential profiles, once refused. The whole captured log is then searched for each
 * secret, and for the HTTP Basic header the eAPI login sends.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startService, type RunningService } from "../../server/start-service";
import { loadConfig } from "../../app/config";
import { createTestDatabase, describeDb, type TestDatabase } from "../support/db";
import { captureLogs, type LogCapture } from "../support/log-capture";
import { startLab } from "../support/lab-inventory";
import {
  startLabAoscxFace,
  startLabEapiFace,
  startLabNetconfFace,
  type LabAoscxFace,
  type LabEapiFace,
  type LabNetconfFace,
  type LabSwitch,
} from "../../lab";
import type { Schemas } from "../support/harness";

const rnd = (label: string) => `${label}-${crypto.randomBytes(9).toString("hex")}`;

describeDb("secrets and the log", () => {
  let db: TestDatabase;
  let keyDir: string;
  let lab: LabSwitch;
  let svc: RunningService | undefined;
  let capture: LogCapture | undefined;

  const secrets = {
    secretKey: rnd("secret-key"),
    adminPassword: rnd("admin-pw"),
    wrongPassword: rnd("wrong-pw"),
    userPassword: rnd("user-pw"),
    userPassword2: rnd("user-pw2"),
    community: rnd("community"),
    authKey: rnd("auth-key"),
    privKey: rnd("priv-key"),
    sshPassword: rnd("ssh-pw"),
    enablePassword: rnd("enable-pw"),
    aoscxPassword: rnd("aoscx-pw"),
    eapiPassword: rnd("eapi-pw"),
    netconfPassword: rnd("netconf-pw"),
  };
  /** the API switches: a lab switch of the vendor's profile with its face */
  let apiLabs: LabSwitch[] = [];
  let aoscx: LabAoscxFace;
  let eapi: LabEapiFace;
  let netconf: LabNetconfFace;
  const { privateKey } = crypto.generateKeyPairSync("ed25519");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  /** the key's base64 body (the PEM armour lines are no secret) */
  const pemBody = pem
    .split("\n")
    .filter((l) => l && !l.startsWith("-----"))
    .join("");

  beforeAll(async () => {
    db = await createTestDatabase();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-logsecrets-"));
    lab = await startLab({
      profile: "generic",
      ports: 8,
      name: "lab-secrets-8",
      writeCommunity: secrets.community,
      v3: {
        username: "sd-ops",
        authProtocol: "SHA-256",
        authKey: secrets.authKey,
        privProtocol: "AES",
        privKey: secrets.privKey,
      },
    });
    apiLabs = await Promise.all(
      (["arubacx", "arista", "juniper"] as const).map((profile) => startLab({ profile, ports: 8, seed: 4 })),
    );
    aoscx = await startLabAoscxFace(apiLabs[0], { password: secrets.aoscxPassword });
    eapi = await startLabEapiFace(apiLabs[1], { password: secrets.eapiPassword });
    netconf = await startLabNetconfFace(apiLabs[2], { password: secrets.netconfPassword });
  }, 60000);
  afterAll(async () => {
    capture?.restore();
    await svc?.stop();
    await Promise.all([aoscx, eapi, netconf].map((f) => f?.stop()));
    await Promise.all(apiLabs.map((l) => l.stop()));
    await lab?.stop();
    await db?.drop();
    if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it("finds none of the secrets a whole scenario used anywhere in what the process wrote", async () => {
    capture = captureLogs({ quiet: true });
    const config = {
      ...loadConfig({}),
      databaseUrl: db.url,
      port: 0,
      demo: "off" as const,
      logLevel: "debug" as const,
      secretKey: secrets.secretKey,
      secretKeyFile: path.join(keyDir, "secret.key"),
      adminPassword: secrets.adminPassword,
    };
    svc = await startService(config);
    const url = svc.url;
    const call = async (
      method: string,
      p: string,
      opts: { token?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
    ) => {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      if (opts.token) headers.authorization = `Token ${opts.token}`;
      let body: string | undefined;
      if (opts.json !== undefined) {
        body = JSON.stringify(opts.json);
        headers["content-type"] = "application/json";
      } else if (opts.form) {
        body = new URLSearchParams(opts.form).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      }
      const r = await fetch(url + p, { method, headers, body, redirect: "manual" });
      const text = await r.text();
      return {
        status: r.status,
        body: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text,
        headers: r.headers,
      };
    };

    // logins: a wrong password, the right one (API, form body), a second token, the web form
    expect(
      (await call("POST", "/api/users/token/", { json: { username: "admin", password: secrets.wrongPassword } }))
        .status,
    ).toBe(400);
    const login = await call("POST", "/api/users/token/", {
      json: { username: "admin", password: secrets.adminPassword },
    });
    expect(login.status).toBe(200);
    const token: string = login.body.token;
    const second = await call("POST", "/api/users/token/", {
      form: { username: "admin", password: secrets.adminPassword },
    });
    expect(second.status).toBe(200);
    const page = await fetch(`${url}/login/`);
    const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
    const web = await fetch(`${url}/login/`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
      body: new URLSearchParams({
        username: "admin",
        password: secrets.adminPassword,
        csrfmiddlewaretoken: csrf,
      }).toString(),
    });
    expect(web.status).toBe(302);
    const session = /sessionid=([^;]+)/.exec(web.headers.getSetCookie().join("; "))![1];
    expect((await call("GET", "/api/", { headers: { cookie: `sessionid=${session}` } })).status).toBe(200);

    // token use (Token and Bearer), listing and revocation
    expect((await call("GET", "/api/", { token })).status).toBe(200);
    expect(
      (await call("GET", "/api/switches/", { headers: { authorization: `Bearer ${second.body.token}` } })).status,
    ).toBe(200);
    const tokens = await call("GET", "/api/users/tokens/", { token });
    const secondId = Math.max(...tokens.body.map((t: Schemas["TokenInfo"]) => t.id)); // the newer of the two
    expect((await call("DELETE", `/api/users/tokens/${secondId}/`, { token })).status).toBe(204);

    // a user with a password, then a new one
    const user = await call("POST", "/api/admin/users/", {
      token,
      json: { username: "operator", password: secrets.userPassword },
    });
    expect(user.status).toBe(201);
    expect(
      (await call("PATCH", `/api/admin/users/${user.body.id}/`, { token, json: { password: secrets.userPassword2 } }))
        .status,
    ).toBe(200);
    expect(
      (await call("POST", "/api/users/token/", { json: { username: "operator", password: secrets.userPassword2 } }))
        .status,
    ).toBe(200);

    // inventory with every kind of device secret
    const v2 = await call("POST", "/api/admin/snmpprofiles/", {
      token,
      json: { name: "lab-v2", version: "2c", community: secrets.community, timeout_ms: 1000 },
    });
    expect(v2.status).toBe(201);
    const v3 = await call("POST", "/api/admin/snmpprofiles/", {
      token,
      json: {
        name: "lab-v3",
        version: "3",
        username: "sd-ops",
        auth_protocol: "SHA-256",
        auth_key: secrets.authKey,
        priv_protocol: "AES",
        priv_key: secrets.privKey,
        timeout_ms: 1000,
      },
    });
    expect(v3.status).toBe(201);
    const ssh = await call("POST", "/api/admin/credentials/", {
      token,
      json: {
        name: "ssh-ops",
        username: "netops",
        password: secrets.sshPassword,
        enable_password: secrets.enablePassword,
        private_key: pem,
      },
    });
    expect(ssh.status).toBe(201);
    const group = await call("POST", "/api/admin/switchgroups/", { token, json: { name: "Secrets" } });
    expect(group.status).toBe(201);
    const sw2 = await call("POST", "/api/admin/switches/", {
      token,
      json: {
        name: "lab-v2",
        primary_ipv4: "127.0.0.1",
        snmp_port: lab.port,
        snmp_profile: v2.body.id,
        switchgroups: [group.body.id],
      },
    });
    const sw3 = await call("POST", "/api/admin/switches/", {
      token,
      json: {
        name: "lab-v3",
        primary_ipv4: "127.0.0.1",
        snmp_port: lab.port,
        snmp_profile: v3.body.id,
        switchgroups: [group.body.id],
      },
    });
    expect([sw2.status, sw3.status]).toEqual([201, 201]);

    // device reads and writes through both profiles
    const gid = group.body.id;
    for (const [sw, text] of [
      [sw2.body.id, "written over v2c"],
      [sw3.body.id, "written over v3"],
    ] as const) {
      expect((await call("GET", `/api/switches/${gid}/${sw}/details/`, { token })).status).toBe(200);
      const port = lab.model.port(sw === sw2.body.id ? 2 : 3);
      const w = await call("POST", `/api/switches/${gid}/${sw}/interface/${port.ifIndex}/description/`, {
        token,
        json: { description: text },
      });
      expect(w.status).toBe(200);
      expect(lab.model.alias(port.ifIndex)).toBe(text);
    }
    // and one that fails on the device: the v2c community no longer works
    lab.faults.drop = true;
    expect(
      (
        await call("POST", `/api/switches/${gid}/${sw2.body.id}/interface/${lab.model.port(4).ifIndex}/state/`, {
          token,
          json: { state: "off" },
        })
      ).status,
    ).toBe(424);
    lab.faults.reset();

    // the API drivers: a credential profile each, a read, a write, and a refused login
    const api = [
      { connector: 1, face: aoscx, lab: apiLabs[0], password: secrets.aoscxPassword },
      { connector: 3, face: eapi, lab: apiLabs[1], password: secrets.eapiPassword },
      { connector: 2, face: netconf, lab: apiLabs[2], password: secrets.netconfPassword },
    ];
    for (const a of api) {
      const profile = await call("POST", "/api/admin/switches/netmikoprofiles/", {
        token,
        json: { name: `api-${a.connector}`, username: a.face.username, password: a.password, tcp_port: a.face.port },
      });
      expect(profile.status).toBe(201);
      const sw = await call("POST", "/api/admin/switches/", {
        token,
        json: {
          name: `api-${a.connector}`,
          primary_ip4: "127.0.0.1",
          connector_type: a.connector,
          netmiko_profile: profile.body.id,
          switchgroups: [group.body.id],
        },
      });
      expect(sw.status).toBe(201);
      const base = `/api/switches/${gid}/${sw.body.id}/`;
      expect((await call("GET", base, { token })).status).toBe(200);
      const port = a.lab.model.ethernetPorts[1];
      const w = await call("POST", `${base}interface/${port.name.replace(/\//g, "_")}/description/`, {
        token,
        json: { description: `written over connector ${a.connector}` },
      });
      expect(w.status).toBe(200);
      a.face.faults.refuseLogins = true;
      expect((await call("GET", base, { token })).status).toBe(424);
      a.face.faults.reset();
    }

    await svc.stop();
    svc = undefined;
    capture.restore();
    const log = capture.text();
    capture = undefined;

    // the capture holds the log: request lines at debug level and beyond, device round trips included
    const lines = log
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const ops = new Set(lines.map((l) => l.operationId).filter(Boolean));
    for (const op of [
      "createToken",
      "revokeToken",
      "createUser",
      "patchUser",
      "createSnmpProfile",
      "createCredential",
      "createAdminSwitch",
      "getSwitchDetails",
      "setInterfaceDescription",
      "setInterfaceState",
    ]) {
      expect({ op, logged: ops.has(op) }).toEqual({ op, logged: true });
    }
    expect(lines.filter((l) => l.operationId === "setInterfaceDescription").every((l) => l.deviceRequests > 0)).toBe(
      true,
    );
    expect(lines.some((l) => /shutdown complete/.test(l.msg))).toBe(true);

    const all = {
      ...secrets,
      token,
      secondToken: second.body.token,
      session,
      privateKey: pemBody,
      eapiBasic: Buffer.from(`${eapi.username}:${secrets.eapiPassword}`).toString("base64"),
    };
    const found = Object.entries(all).filter(([, value]) => log.includes(value));
    console.log(
      `log of the scenario: ${log.length} characters, ${lines.length} JSON lines; searched for ${Object.keys(all).length} secrets: ${found.length} found`,
    );
    expect(found.map(([name]) => name)).toEqual([]);
  });
});
