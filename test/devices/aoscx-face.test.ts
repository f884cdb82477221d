/**
 * The AOS-CX REST face of the lab (lab/aoscx/) and the aruba_aoscx driver's protocol
 * details, over real HTTPS on 127.0.0.1: the face speaks as the AOS-CX guides document
 * (versions, login cookie and CSRF token, depth, attributes, selector, session limits);
 * the driver chooses the newest version both know, logs out of every session it opened
 * (after success, a refusal, a timeout, a hanging logout), reports a refused login and a
 * full session table clearly, reads a switch in a fixed number of requests whatever its
 * port count, survives a 200-read burst with no session left open, and a change it makes
 * is seen over SNMP on the same lab switch.
 */
import { startLabAoscxFace, startLabSwitch, type LabAoscxFace, type LabSwitch } from "../../lab";
import type { Driver } from "../../drivers/contract";
import { openDriver } from "../../drivers/registry";
import { HttpsClient, type HttpsAnswer } from "../../drivers/https/client";
import { DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable, NotSupported } from "../../model/failures";
import type { InterfaceView } from "../../model/device";
import { HTTPS_CONNECT_TIMEOUT_MS, HTTPS_REQUEST_TIMEOUT_MS, type HttpsTarget } from "../../model/targets";

let lab: LabSwitch;
let face: LabAoscxFace;
const opened: Driver[] = [];

beforeAll(async () => {
  lab = await startLabSwitch({ profile: "arubacx", ports: 48, poePorts: [1, 2, 3, 4, 5, 6, 7, 8], seed: 3 });
  face = await startLabAoscxFace(lab);
}, 20_000);

afterEach(async () => {
  face.faults.reset();
  await Promise.all(opened.splice(0).map((d) => d.close()));
  face.closeAllSessions();
});

afterAll(async () => {
  await face?.stop();
  await lab?.stop();
});

/**
 * The face's target with the timeouts the service gives a switch (app/devices.ts: 10 s to
 * connect, 30 s per request): the tests that are not about time do not fail because a busy
 * machine kept an answer past a short bound (a CI run's login once waited more than 800 ms).
 */
function target(f: LabAoscxFace = face, extra: Partial<HttpsTarget> = {}): HttpsTarget {
  return {
    ...f.httpsTarget({ pin: true }),
    request_timeout_ms: HTTPS_REQUEST_TIMEOUT_MS,
    connect_timeout_ms: HTTPS_CONNECT_TIMEOUT_MS,
    ...extra,
  };
}

/** short bounds, for the tests of a face that hangs or goes silent, which wait for them */
const SHORT: Partial<HttpsTarget> = { request_timeout_ms: 800, connect_timeout_ms: 1000 };

/** the driver as the service opens it (registry), not closed by the test unless it says so */
async function driver(f: LabAoscxFace = face, extra: Partial<HttpsTarget> = {}): Promise<Driver> {
  const { driver: d } = await openDriver({
    driver: "aruba_aoscx",
    connection: { connector: 1, https: target(f, extra) },
    name: "lab-cx",
  });
  opened.push(d);
  return d;
}

async function closeNow(d: Driver): Promise<void> {
  opened.splice(opened.indexOf(d), 1);
  await d.close();
}

async function view(d: Driver, name: string): Promise<InterfaceView> {
  const v = await d.learnInterface(name);
  if (!v) throw new Error(`no interface ${name}`);
  return v;
}

describe("the face speaks AOS-CX REST", () => {
  let client: HttpsClient;
  beforeEach(() => (client = new HttpsClient(target())));
  afterEach(() => client.close());

  const json = (a: HttpsAnswer): Record<string, unknown> => JSON.parse(a.text()) as Record<string, unknown>;
  const login = async (how: "form" | "query", csrf = false) => {
    const creds = new URLSearchParams({ username: face.username, password: face.password }).toString();
    return client.request({
      method: "POST",
      path: how === "query" ? `/rest/v10.16/login?${creds}` : "/rest/v10.16/login",
      headers: csrf ? { "x-use-csrf-token": "true" } : {},
      ...(how === "form" ? { body: creds } : {}),
    });
  };
  const cookieOf = (a: HttpsAnswer) => (a.headers["set-cookie"] ?? [])[0].split(";")[0];

  test("GET /rest lists the versions without a login, latest among them", async () => {
    const a = await client.request({ method: "GET", path: "/rest" });
    expect(a.status).toBe(200);
    const body = json(a);
    expect(body.latest).toEqual({ version: "v10.16", prefix: "/rest/v10.16", doc: "/api/v10.16" });
    expect(body["v10.09"]).toEqual({ version: "v10.09", prefix: "/rest/v10.09", doc: "/api/v10.09" });
  });

  test("a login (form body or query string) answers 200 with one host-only cookie, and a CSRF token when asked", async () => {
    const a = await login("form", true);
    expect(a.status).toBe(200);
    const cookies = a.headers["set-cookie"] ?? [];
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/; Path=\/;/);
    expect(cookies[0]).not.toMatch(/Domain=/i);
    expect(a.headers["x-csrf-token"]).toMatch(/^[0-9a-f]{32}$/);
    expect((await login("query")).status).toBe(200);
    expect(face.openSessions()).toBe(2);
  });

  test("depth, attributes and selector shape the answers; names are %2F-encoded; URIs carry the client's prefix", async () => {
    const cookie = cookieOf(await login("form"));
    const get = async (path: string) => {
      const a = await client.request({ method: "GET", path: `/rest/v10.09/${path}`, headers: { cookie } });
      return { status: a.status, body: a.status === 200 ? json(a) : a.text() };
    };
    const shallow = await get("system/interfaces");
    expect(shallow.body).toMatchObject({ "1/1/1": "/rest/v10.09/system/interfaces/1%2F1%2F1" });
    const deep = await get("system/interfaces?depth=2&attributes=name,vlan_tag");
    const row = (deep.body as Record<string, Record<string, unknown>>)["1/1/1"];
    expect(Object.keys(row).sort()).toEqual(["name", "vlan_tag"]);
    expect(Object.values(row.vlan_tag as object)[0]).toMatch(/^\/rest\/v10\.09\/system\/vlans\/\d+$/);
    const writable = (await get("system/interfaces/1%2F1%2F1?selector=writable")).body as Record<string, unknown>;
    expect(Object.keys(writable)).toContain("description");
    expect(Object.keys(writable)).not.toContain("link_state");
    expect((await get("system/interfaces/1%2F1%2F1?attributes=no_such_thing")).status).toBe(400);
    expect((await get("system/interfaces/9%2F1%2F99")).status).toBe(404);
    // the vendor's wildcard form: every port's neighbours in one answer
    const lldp = (await get("system/interfaces/*/lldp_neighbors?depth=2")).body as Record<string, object>;
    expect(Object.keys(lldp)).toContain("1/1/48");
  });

  test("without a session every resource answers 401; a wrong password 401; logout frees the slot", async () => {
    expect((await client.request({ method: "GET", path: "/rest/v10.16/system" })).status).toBe(401);
    const wrong = await client.request({
      method: "POST",
      path: "/rest/v10.16/login",
      body: new URLSearchParams({ username: face.username, password: "wrong" }).toString(),
    });
    expect(wrong.status).toBe(401);
    const cookie = cookieOf(await login("form"));
    expect(face.openSessions()).toBe(1);
    expect((await client.request({ method: "POST", path: "/rest/v10.16/logout", headers: { cookie } })).status).toBe(
      200,
    );
    expect(face.openSessions()).toBe(0);
  });

  test("over the per-user session limit a login is answered 401", async () => {
    for (let n = 0; n < 6; n++) expect((await login("form")).status).toBe(200);
    const seventh = await login("form");
    expect(seventh.status).toBe(401);
    expect(seventh.text()).toMatch(/session limit/);
  });
});

describe("the driver's sessions", () => {
  test("chooses the newest version both know, and logs out after a learn", async () => {
    const wider = await startLabAoscxFace(lab, { versions: ["v10.04", "v10.13", "v10.99"] });
    try {
      const d = await driver(wider);
      const snap = await d.learn("basic");
      expect(snap.driver_info.rest_api).toBe("v10.13");
      expect(wider.openSessions()).toBe(1);
      await closeNow(d);
      expect(wider.openSessions()).toBe(0);
      expect(wider.counters.log).toContain("POST /rest/v10.13/logout");
    } finally {
      await wider.stop();
    }
  });

  test("a switch offering only versions the driver does not know is NotSupported, naming them", async () => {
    const odd = await startLabAoscxFace(lab, { versions: ["v1", "v99.1"] });
    try {
      const d = await driver(odd);
      await expect(d.learn("basic")).rejects.toThrow(NotSupported);
      await expect(d.learnVlans()).rejects.toThrow(/offers REST API versions v1, v99.1/);
      expect(odd.counters.logins).toBe(0);
    } finally {
      await odd.stop();
    }
  });

  test("before v10.09 a write reads the writable set and PUTs it (no PATCH), and it takes effect", async () => {
    const old = await startLabAoscxFace(lab, { versions: ["v10.04", "v10.08"] });
    try {
      const li = lab.model.port(10);
      const d = await driver(old);
      await d.setDescription(await view(d, li.name), "put by v10.08");
      expect(lab.model.alias(li.ifIndex)).toBe("put by v10.08");
      const writes = old.counters.log.filter((l) => /^(PUT|PATCH)/.test(l));
      expect(writes).toEqual(["PUT /rest/v10.08/system/interfaces/1%2F1%2F10"]);
      await d.setDescription(await view(d, li.name), "");
      await closeNow(d);
      expect(old.openSessions()).toBe(0);
    } finally {
      await old.stop();
    }
  });

  test("one login per call: a learnInterface and a write of one driver share a session, close logs it out", async () => {
    const before = face.counters.logins;
    const li = lab.model.port(11);
    const d = await driver();
    await d.setAdminState(await view(d, li.name), false);
    await d.setAdminState(await view(d, li.name), true);
    expect(face.counters.logins - before).toBe(1);
    await closeNow(d);
    expect(face.openSessions()).toBe(0);
  });

  test("a refused write is DeviceRefused with the switch's words, and the session is still logged out", async () => {
    const li = lab.model.port(12);
    const d = await driver();
    const v = await view(d, li.name);
    face.faults.refuseWrites("Write not permitted: REST access mode is read-only", 404);
    await expect(d.setDescription(v, "nope")).rejects.toThrow(/read-only/);
    await expect(d.setDescription(v, "nope")).rejects.toBeInstanceOf(DeviceRefused);
    await closeNow(d);
    expect(face.openSessions()).toBe(0);
  });

  test("a request that times out is DeviceUnreachable, and close() still logs out", async () => {
    const d = await driver(face, SHORT);
    face.faults.hangRequests(/^GET \/rest\/v[\d.]+\/system\/interfaces$/);
    const started = Date.now();
    await expect(d.learn("basic")).rejects.toBeInstanceOf(DeviceUnreachable);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(face.openSessions()).toBe(1);
    await closeNow(d);
    expect(face.openSessions()).toBe(0);
  });

  test("a write that gets no answer is DeviceOutcomeUnknown (it may have been made), and close() still logs out", async () => {
    const li = lab.model.port(13);
    const d = await driver(face, SHORT);
    const v = await view(d, li.name);
    face.faults.hangRequests(/^PATCH /);
    await expect(d.setDescription(v, "lost answer")).rejects.toBeInstanceOf(DeviceOutcomeUnknown);
    await closeNow(d);
    expect(face.openSessions()).toBe(0);
  });

  test("the face's login faults: refused logins and a full session table, each a DeviceRefused in its words", async () => {
    face.faults.refuseLogins = true;
    await expect((await driver()).learnVlans()).rejects.toThrow(/invalid username or password/);
    face.faults.reset();
    face.faults.sessionTableFull = true;
    await expect((await driver()).learnVlans()).rejects.toThrow(/session limit reached/);
    expect(face.openSessions()).toBe(0);
  });

  test("a switch gone silent: the call fails in bounded time and close() does not hang", async () => {
    const d = await driver(face, SHORT);
    await d.learnVlans();
    face.faults.silent = true;
    const started = Date.now();
    await expect(d.learn("basic")).rejects.toBeInstanceOf(DeviceUnreachable);
    await closeNow(d);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  test("a logout that hangs does not hang close()", async () => {
    const d = await driver(face, SHORT);
    await d.learnVlans();
    face.faults.hangRequests(/logout$/);
    const started = Date.now();
    await closeNow(d);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  test("a refused login is DeviceRefused naming the login, and opens nothing", async () => {
    const d = await driver(face, { password: "not-the-password" });
    const failure = d.learn("basic");
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/refused the REST login of user "admin" \(HTTP 401/);
    await closeNow(d);
    expect(face.openSessions()).toBe(0);
  });

  test("a full session table is a clear refusal naming the session limit, not a hang; closing the others frees it", async () => {
    const holders = await Promise.all(Array.from({ length: 6 }, () => driver()));
    for (const h of holders) await h.learnVlans();
    expect(face.openSessions()).toBe(6);
    const late = await driver(face, SHORT);
    const started = Date.now();
    const failure = late.learnVlans();
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(/session limit reached.*as many REST sessions as the switch allows/);
    expect(Date.now() - started).toBeLessThan(1000);
    for (const h of holders) await closeNow(h);
    expect(face.openSessions()).toBe(0);
    const next = await driver();
    expect((await next.learnVlans()).length).toBeGreaterThan(0);
  });
});

describe("reads", () => {
  async function requestsOf(f: LabAoscxFace, read: (d: Driver) => Promise<unknown>): Promise<string[]> {
    const start = f.counters.log.length;
    const d = await driver(f);
    await read(d);
    await closeNow(d);
    return f.counters.log.slice(start);
  }

  test("learn takes a fixed number of requests: the same on 48 ports as on 96 (not one per port)", async () => {
    const big = await startLabSwitch({ profile: "arubacx", ports: 96, poePorts: "all", seed: 3 });
    const bigFace = await startLabAoscxFace(big);
    try {
      const basic48 = await requestsOf(face, (d) => d.learn("basic"));
      const details48 = await requestsOf(face, (d) => d.learn("details"));
      const basic96 = await requestsOf(bigFace, (d) => d.learn("basic"));
      const details96 = await requestsOf(bigFace, (d) => d.learn("details"));
      // /rest, login, system, subsystems, vlans, interfaces, PoE; LLDP, MACs, ARP; logout
      expect(basic48).toHaveLength(8);
      expect(details48).toHaveLength(11);
      expect(basic96).toEqual(basic48);
      expect(details96).toEqual(details48);
    } finally {
      await bigFace.stop();
      await big.stop();
    }
  });

  // about 5 s: 200 calls are 200 TLS handshakes, logins and logouts (the burst), on a shared 2-core machine
  test("a 200-read burst (4 calls at a time, each its own driver) ends with 0 errors and no session open", async () => {
    const names = lab.model.ethernetPorts.map((p) => p.name);
    const openedBefore = face.sessionsOpened();
    let errors = 0;
    let next = 0;
    const worker = async () => {
      while (next < 200) {
        const n = next++;
        const d = await driver();
        try {
          if (n % 2 === 0) expect(await d.learnInterface(names[n % names.length])).not.toBeNull();
          else expect((await d.learnVlans()).length).toBeGreaterThan(0);
        } catch {
          errors++;
        } finally {
          await closeNow(d);
        }
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(errors).toBe(0);
    expect(face.sessionsOpened() - openedBefore).toBe(200);
    expect(face.openSessions()).toBe(0);
  });
});

describe("one switch, two faces", () => {
  test("a change through REST is read back over SNMP, and one over SNMP through REST", async () => {
    const li = lab.model.port(20);
    const rest = await driver();
    const { driver: snmp } = await openDriver({
      driver: "arubacx",
      connection: { connector: 0, snmp: { ...lab.snmpTarget({ write: true }), timeout_ms: 500, retries: 1 } },
    });
    opened.push(snmp);
    await rest.setAdminState(await view(rest, li.name), false);
    const seen = await snmp.learnInterface(String(li.ifIndex));
    expect(seen!.interface).toMatchObject({ name: li.name, admin_up: false });

    await snmp.setAdminState(seen!, true);
    expect((await view(rest, li.name)).interface.admin_up).toBe(true);
  });
});
