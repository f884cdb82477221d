/**
 * The lab's eAPI face and the arista_eapi driver over it, beyond the conformance suite:
 * how many requests a read and a change take (counted on the face), EOS's JSON-RPC
 * errors (code 1002 with the per-command data, the rest of the request not run) and the
 * driver's DeviceRefused carrying EOS's words, refused logins, certificate pinning, a
 * change whose answer is lost, values refused before anything is sent, and a change made
 * through eAPI read back over SNMP from the same lab switch.
 */
import { AristaEapiDriver } from "../../drivers/families/arista-eapi/driver";
import { EapiClient } from "../../drivers/families/arista-eapi/eapi";
import { HttpsClient } from "../../drivers/https/client";
import { FAMILIES } from "../../drivers/families";
import { startLabEapiFace, startLabSwitch, type LabEapiFace, type LabSwitch } from "../../lab";
import { ifTable, ifXTable } from "../../mib/oids";
import type { InterfaceView } from "../../model/device";
import { CertificateChanged, DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable } from "../../model/failures";
import type { HttpsTarget } from "../../model/targets";
import { sessionTo, type ClientSession } from "../support/snmp-client";

describe("the lab's eAPI face and the arista_eapi driver", () => {
  let lab: LabSwitch;
  let face: LabEapiFace;
  let snmp: ClientSession;
  const open: Array<{ close(): Promise<void> }> = [];
  const target = (over: Partial<HttpsTarget> = {}): HttpsTarget => ({
    ...face.httpsTarget({ pin: true }),
    request_timeout_ms: 800,
    ...over,
  });
  const driver = (over: Partial<HttpsTarget> = {}, onCertificate?: (f: string) => void) => {
    const d = new AristaEapiDriver(target(over), { name: "eapi-lab", onCertificate });
    open.push(d);
    return d;
  };
  const client = (over: Partial<HttpsTarget> = {}) => {
    const c = new EapiClient(target(over), { name: "eapi-lab" });
    open.push({ close: async () => c.close() });
    return c;
  };
  const viewOf = async (d: AristaEapiDriver, name: string): Promise<InterfaceView> => {
    const v = await d.learnInterface(name);
    if (!v) throw new Error(`no interface ${name}`);
    return v;
  };
  /** requests the face received while `fn` ran */
  const requestsOf = async (fn: () => Promise<unknown>) => {
    const before = face.counters.requests;
    await fn();
    return face.counters.requests - before;
  };

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "arista", ports: 12, seed: 5, name: "eapi-lab" });
    face = await startLabEapiFace(lab);
    snmp = sessionTo(lab);
  });
  afterEach(async () => {
    face.faults.reset();
    await Promise.all(open.splice(0).map((x) => x.close()));
  });
  afterAll(async () => {
    snmp?.close();
    await face?.stop();
    await lab?.stop();
  });

  test("the driver is registered for connector 3 and the face hands out its target", () => {
    const entry = FAMILIES.find((f) => f.name === "arista_eapi");
    expect(entry).toMatchObject({ connector: 3, provenAgainst: { lab: ["arista"] } });
    expect(face.httpsTarget({ pin: true })).toMatchObject({
      host: "127.0.0.1",
      port: face.port,
      certificate_fingerprint: face.fingerprint,
    });
    expect(face.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  test("a read is one request of several commands: learn (basic and details), learnInterface, learnVlans", async () => {
    const d = driver();
    expect(await requestsOf(() => d.learn("basic"))).toBe(1);
    expect(face.counters.log.at(-1)!.length).toBeGreaterThanOrEqual(5);
    expect(await requestsOf(() => d.learn("details"))).toBe(1);
    expect(face.counters.log.at(-1)).toEqual(expect.arrayContaining(["show lldp neighbors detail"]));
    expect(await requestsOf(() => d.learnInterface("Ethernet2"))).toBe(1);
    expect(await requestsOf(() => d.learnVlans())).toBe(1);
    expect(await requestsOf(async () => expect(await d.learnInterface("Ethernet99")).toBeNull())).toBe(1);
  });

  test("a change is at most two requests, its read-back included", async () => {
    const d = driver();
    const port = lab.model.port(4);
    const view = await viewOf(d, port.name);
    expect(await requestsOf(() => d.setDescription(view, "counted"))).toBe(1);
    // the configuration commands and the read-back went in that one request
    expect(face.counters.log.at(-1)).toEqual([
      "enable",
      "configure terminal",
      `interface ${port.name}`,
      "description counted",
      "end",
      `show interfaces ${port.name}`,
      `show interfaces ${port.name} switchport`,
      "show vlan",
    ]);
    expect(await requestsOf(() => d.setAdminState(view, false))).toBe(1);
    expect(await requestsOf(() => d.setAdminState(view, true))).toBe(1);
    const home = view.interface.untagged_vlan;
    const other = lab.model.activeVlanIds().find((v) => v !== home && v !== 1)!;
    expect(await requestsOf(() => d.setUntaggedVlan(view, other))).toBe(1);
    expect(await requestsOf(() => d.setTags(view, { untagged: other, tagged: [1], allowAll: false }))).toBe(1);
    expect(
      await requestsOf(async () =>
        d.setTags(await viewOf(d, port.name), { untagged: home, tagged: [], allowAll: false }),
      ),
    ).toBe(2);
    expect(await requestsOf(() => d.createVlan(3100, "made"))).toBe(1);
    expect(await requestsOf(() => d.renameVlan(3100, "renamed"))).toBe(2);
    expect(await requestsOf(() => d.deleteVlan(3100))).toBe(1);
    expect(await requestsOf(() => d.saveConfig())).toBe(1);
    expect(face.counters.log.at(-1)).toEqual(["enable", "copy running-config startup-config"]);
    expect(lab.model.isSaved()).toBe(true);
  });

  test("an invalid command: error 1002 with the results so far and the command's errors, the rest not run", async () => {
    const port = lab.model.port(6);
    const before = lab.model.alias(port.ifIndex);
    const http = new HttpsClient(target());
    open.push({ close: async () => http.close() });
    const auth = `Basic ${Buffer.from(`${face.username}:${face.password}`).toString("base64")}`;
    const answer = await http.request({
      method: "POST",
      path: "/command-api",
      headers: { "content-type": "application/json-rpc", authorization: auth },
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "runCmds",
        id: "t1",
        params: {
          version: 1,
          format: "json",
          cmds: ["show hostname", "configure terminal", "bogus command", `interface ${port.name}`, "description never"],
        },
      }),
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text())).toEqual({
      jsonrpc: "2.0",
      id: "t1",
      error: {
        code: 1002,
        message: "CLI command 3 of 5 'bogus command' failed: invalid command",
        data: [{ hostname: "eapi-lab", fqdn: "eapi-lab" }, {}, { errors: ["Invalid input (at token 0: 'bogus')"] }],
      },
    });
    expect(lab.model.alias(port.ifIndex)).toBe(before);
  });

  test("eAPI is strict about keywords unless the request asks for autoComplete", async () => {
    const c = client();
    await expect(c.run(["sh ver"])).rejects.toMatchObject({ eapiCode: 1002, index: 0 });
    const http = new HttpsClient(target());
    open.push({ close: async () => http.close() });
    const answer = await http.request({
      method: "POST",
      path: "/command-api",
      headers: { authorization: `Basic ${Buffer.from(`${face.username}:${face.password}`).toString("base64")}` },
      body: JSON.stringify({
        jsonrpc: "2.0",
        method: "runCmds",
        id: 7,
        params: { version: "latest", format: "text", autoComplete: true, cmds: ["sh ver"] },
      }),
    });
    const decoded = JSON.parse(answer.text()) as { id: number; result: Array<{ output: string }> };
    expect(decoded.id).toBe(7);
    expect(decoded.result[0].output).toContain(lab.model.system.model);
  });

  test("a refused command is DeviceRefused carrying EOS's own error text, and changes nothing", async () => {
    const d = driver();
    // EOS's own refusal: VLAN 1 cannot go
    const failure = d.deleteVlan(1);
    await expect(failure).rejects.toBeInstanceOf(DeviceRefused);
    await expect(failure).rejects.toThrow(
      /refused 'no vlan 1': Error \[1000\]: CLI command 3 of 5 'no vlan 1' failed: could not run command \[Default VLAN 1 may not be deleted\]/,
    );
    expect(lab.model.vlan(1)).toBeDefined();
    // a refusal of the face's fault rule, with its words
    const port = lab.model.port(7);
    const view = await viewOf(d, port.name);
    face.faults.refuseCommands("description", "% Description change not permitted by the lab");
    await expect(d.setDescription(view, "not taken")).rejects.toThrow(/Description change not permitted by the lab/);
    expect(lab.model.alias(port.ifIndex)).not.toBe("not taken");
  });

  test("bad credentials are a clear error naming the user, answered 401 by the face", async () => {
    const unauthorized = face.counters.unauthorized;
    const failure = driver({ password: "wrong" }).learn("basic");
    await expect(failure).rejects.toBeInstanceOf(DeviceUnreachable);
    await expect(failure).rejects.toThrow(/refused the eAPI login of user 'admin' \(HTTP 401/);
    await expect(driver({ username: "nobody" }).learnVlans()).rejects.toThrow(/HTTP 401/);
    expect(face.counters.unauthorized).toBe(unauthorized + 2);
    // the fault: even the right credentials are refused
    face.faults.refuseLogins = true;
    await expect(driver().learnVlans()).rejects.toThrow(/refused the eAPI login/);
  });

  test("the certificate is reported when nothing is pinned, and another one is refused before any request", async () => {
    const seen: string[] = [];
    await driver({ certificate_fingerprint: undefined }, (f) => seen.push(f)).learnVlans();
    expect(seen).toEqual([face.fingerprint]);
    const before = face.counters.requests;
    const wrong = face.fingerprint.replace(/^../, face.fingerprint.startsWith("00") ? "11" : "00");
    await expect(driver({ certificate_fingerprint: wrong }).learn("basic")).rejects.toBeInstanceOf(CertificateChanged);
    expect(face.counters.requests).toBe(before);
  });

  test("no answer to a read is DeviceUnreachable; a change whose answer is lost is DeviceOutcomeUnknown", async () => {
    const d = driver();
    const view = await viewOf(d, lab.model.port(8).name);
    face.faults.hang = true;
    await expect(d.learnVlans()).rejects.toBeInstanceOf(DeviceUnreachable);
    const lost = driver().setDescription(view, "lost answer");
    await expect(lost).rejects.toBeInstanceOf(DeviceOutcomeUnknown);
    await expect(lost).rejects.toThrow(/may or may not have been applied/);
  });

  test("descriptions and VLAN names that would not stay one EOS command line are refused before anything is sent", async () => {
    const d = driver();
    const view = await viewOf(d, lab.model.port(9).name);
    const before = face.counters.requests;
    for (const bad of ["two\nlines", "tab\there", "ctl\u0007", "bell?", " padded", "é"])
      await expect(d.setDescription(view, bad)).rejects.toMatchObject({ code: "not_supported" });
    await expect(d.createVlan(3200, "two words")).rejects.toMatchObject({ code: "not_supported" });
    await expect(d.renameVlan(1, "x".repeat(33))).rejects.toMatchObject({ code: "not_supported" });
    expect(face.counters.requests).toBe(before);
    expect(d.parseInterfaceId("Ethernet1;reload")).toBeNull();
    expect(d.parseInterfaceId("Ethernet3_1")).toBe("Ethernet3/1");
  });

  test("pyeapi's running-config text: EOS blocks that show the model", async () => {
    const port = lab.model.port(10);
    const [config] = await client().run(["show running-config all"], { format: "text" });
    const text = (config as { output: string }).output;
    expect(text).toContain(`interface ${port.name}\n   `);
    expect(text).toMatch(/\nvlan 1\n {3}name default\n {3}state active\n/);
    expect(text.trimEnd().endsWith("end")).toBe(true);
  });

  test("a change made through eAPI is read back over SNMP from the same lab switch", async () => {
    const d = driver();
    const port = lab.model.port(11);
    await d.setDescription(await viewOf(d, port.name), "set over eapi");
    await d.setAdminState(await viewOf(d, port.name), false);
    await d.createVlan(3300, "from-eapi");
    const got = await snmp.get([`${ifXTable.ifAlias}.${port.ifIndex}`, `${ifTable.ifAdminStatus}.${port.ifIndex}`]);
    expect(got.map((v) => v.value)).toEqual([Buffer.from("set over eapi"), 2]);
    // and through the project's SNMP driver of the same switch
    const overSnmp = FAMILIES.find((f) => f.name === "arista")!.open(
      { connector: 0, snmp: { ...lab.snmpTarget(), timeout_ms: 1000, retries: 1 } },
      { name: "eapi-lab" },
    );
    open.push(overSnmp);
    expect(await overSnmp.learnVlans()).toContainEqual(expect.objectContaining({ id: 3300, name: "from-eapi" }));
    expect((await overSnmp.learnInterface(String(port.ifIndex)))!.interface).toMatchObject({
      description: "set over eapi",
      admin_up: false,
    });
  });
});
