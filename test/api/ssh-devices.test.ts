/**
 * A switch managed over SSH, through the HTTP API: a credential profile and a switch
 * with connector 7 and the Cisco IOS command-line driver, against the lab's SSH face
 * (real ssh2 over TCP on 127.0.0.1). The same lab switch is also in the inventory over
 * SNMP, so a change made through one face is read back through the other. Host keys are
 * pinned on first use; a changed key is refused until an admin accepts it; values that
 * would break a command line never reach the device.
 */
import { startAppWithRoles, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import { iosInterfaceName, startLabSshFace, type LabSshFace, type LabSwitch } from "../../lab";

describeDb("a switch over SSH (Cisco IOS command line)", () => {
  let app: TestApp;
  let root: string;
  let staff: string;
  let lab: LabSwitch;
  let face: LabSshFace;
  let gid: number;
  let sshId: number;
  let snmpId: number;
  let credId: number;

  beforeAll(async () => {
    ({ app, root, staff } = await startAppWithRoles());
    lab = await startLab({ profile: "generic", ports: 12, poePorts: [1, 2, 3, 4], seed: 11, name: "lab-ios-12" });
    face = await startLabSshFace(lab);
    gid = await addGroup(app, { name: "Both faces" });
    const cred = await app.request("POST", "/api/admin/credentials/", {
      token: root,
      json: {
        name: "lab-face",
        username: face.username,
        password: face.password,
        enable_password: face.enableSecret,
        port: face.port,
      },
    });
    expect(cred.status).toBe(201);
    credId = cred.body.id;
    const sw = await app.request("POST", "/api/admin/switches/", {
      token: root,
      json: {
        name: "ios-ssh",
        primary_ipv4: "127.0.0.1",
        connector_type: 7,
        driver: "cisco_ios_cli",
        credentials_profile: credId,
        allow_poe_toggle: true,
        switchgroups: [gid],
      },
    });
    expect(sw.status).toBe(201);
    sshId = sw.body.id;
    snmpId = await addDevice(app, { name: "ios-snmp", lab, groups: [gid], driver: "generic", allow_poe_toggle: true });
  }, 30000);
  afterAll(async () => {
    await face?.stop();
    await lab?.stop();
    await app?.close();
  });
  afterEach(() => face?.faults.reset());

  const admin = async () => (await app.request("GET", `/api/admin/switches/${sshId}/`, { token: root })).body;
  const view = (id: number) => app.request("GET", `/api/switches/${gid}/${id}/`, { token: root });
  /** the URL id of port n on the SSH switch: its IOS name, "/" written as "_" */
  const sshPort = (n: number) => iosInterfaceName(lab.model.port(n)).replace(/\//g, "_");
  const post = (id: number, path: string, json: Record<string, unknown>) =>
    app.request("POST", `/api/switches/${gid}/${id}/${path}`, { token: root, json });
  const interfaceOf = (body: { interfaces: Array<{ name: string }> }, name: string) =>
    body.interfaces.find((i) => i.name === name);

  it("reads the switch over SSH and pins its host key on first contact", async () => {
    expect(await admin()).toMatchObject({
      ssh_host_key: null,
      ssh_host_key_accepted: null,
      ssh_host_key_presented: null,
    });
    const r = await view(sshId);
    expect(r.status).toBe(200);
    expect(r.body.switch).toMatchObject({
      name: "ios-ssh",
      driver: "cisco_ios_cli",
      hostname: lab.model.system.sysName,
    });
    const p3 = interfaceOf(r.body, iosInterfaceName(lab.model.port(3)));
    // the id is the name; URLs write its "/" as "_"
    expect(p3).toMatchObject({
      id: iosInterfaceName(lab.model.port(3)),
      vlan: lab.model.pvid(lab.model.port(3).bridgePort!),
    });
    expect(Object.keys(r.body.vlans).map(Number)).toEqual(lab.model.vlanIds());

    const a = await admin();
    expect(a.ssh_host_key).toBe(face.hostKeyFingerprint);
    expect(new Date(a.ssh_host_key_accepted).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(a.ssh_host_key_presented).toBeNull();
    // the credential profile never shows its secrets
    const c = await app.request("GET", `/api/admin/credentials/${credId}/`, { token: root });
    expect(c.text).not.toContain(face.password);
    expect(c.text).not.toContain(face.enableSecret);
    expect(c.body).toMatchObject({ password_set: true, enable_password_set: true, tcp_port: face.port });
  });

  it("changes made over SSH are seen over SNMP and the other way round", async () => {
    const p = lab.model.port(5);
    const current = lab.model.pvid(p.bridgePort!)!;
    const target = lab.model.vlanIds().find((v) => v !== current && v !== 1)!;
    const name = iosInterfaceName(p);

    const vlan = await post(sshId, `interface/${sshPort(5)}/vlan/`, { vlan: target });
    expect(vlan.status).toBe(200);
    expect(vlan.body.result).toBe(`Interface ${name} changed to vlan ${target}`);
    expect(face.counters.log).toEqual(
      expect.arrayContaining([`interface ${name}`, `switchport access vlan ${target}`]),
    );
    const overSnmp = await view(snmpId);
    expect(overSnmp.body.interfaces.find((i: { id: string }) => i.id === String(p.ifIndex)).vlan).toBe(target);

    // description and state over SNMP, read over SSH
    expect((await post(snmpId, `interface/${p.ifIndex}/description/`, { description: "set over snmp" })).status).toBe(
      200,
    );
    expect((await post(snmpId, `interface/${p.ifIndex}/state/`, { state: "off" })).status).toBe(200);
    const overSsh = interfaceOf((await view(sshId)).body, name);
    expect(overSsh).toMatchObject({ description: "set over snmp", state: "Disabled", vlan: target });

    // state, PoE and description over SSH, each read back on the model
    expect((await post(sshId, `interface/${sshPort(5)}/state/`, { state: "on" })).body.result).toBe(
      `Interface ${name} is now Enabled`,
    );
    expect(lab.model.adminUp(p.ifIndex)).toBe(true);
    expect((await post(sshId, `interface/${sshPort(2)}/poe_state/`, { poe_state: 0 })).status).toBe(200);
    expect(lab.model.poeState(lab.model.port(2).ifIndex)!.enabled).toBe(false);
    expect(
      (await post(sshId, `interface/${sshPort(5)}/description/`, { description: "desk 5 (over ssh)" })).status,
    ).toBe(200);
    expect(lab.model.alias(p.ifIndex)).toBe("desk 5 (over ssh)");

    // VLANs and save over SSH
    expect((await post(sshId, "vlan/add/", { vlan_id: 812, vlan_name: "ssh-made" })).body).toEqual({
      result: "Vlan 812 (ssh-made) created.",
    });
    expect(lab.model.vlan(812)?.name).toBe("ssh-made");
    expect((await view(snmpId)).body.vlans["812"]).toMatchObject({ name: "ssh-made" });
    expect((await post(sshId, "vlan/edit/", { vlan_id: 812, vlan_name: "ssh-renamed" })).status).toBe(200);
    expect(lab.model.vlan(812)?.name).toBe("ssh-renamed");
    expect((await post(sshId, "vlan/delete/", { vlan_id: 812 })).status).toBe(200);
    expect(lab.model.vlan(812)).toBeUndefined();
    face.counters.reset();
    expect((await post(sshId, "save/", { save: "yes" })).body).toEqual({ result: "Configuration saved!" });
    expect(face.counters.log).toContain("write memory");
    expect(lab.model.isSaved()).toBe(true);
  });

  it("refuses values that would break the command line before connecting; the face sees no command", async () => {
    face.counters.reset();
    const attempts: Array<[string, Record<string, unknown>]> = [
      [`interface/${sshPort(6)}/description/`, { description: "desk\nshutdown" }],
      [`interface/${sshPort(6)}/description/`, { description: "desk\r\nend\r\nwrite erase" }],
      [`interface/${sshPort(6)}/description/`, { description: "esc\u001b[2J" }],
      ["vlan/add/", { vlan_id: 813, vlan_name: "x\nno vlan 1" }],
      ["vlan/edit/", { vlan_id: 1, vlan_name: "y\rexit" }],
    ];
    for (const [path, json] of attempts) {
      const r = await post(sshId, path, json);
      expect({ path, status: r.status, code: r.body.code }).toEqual({ path, status: 400, code: "invalid_parameter" });
    }
    expect(face.counters.logins).toBe(0);
    expect(face.counters.log).toEqual([]);
    expect(lab.model.vlan(813)).toBeUndefined();
    expect(lab.model.adminUp(lab.model.port(6).ifIndex)).toBe(true);
  });

  it("refuses a changed host key with 424 until an admin accepts it", async () => {
    const pinned = (await admin()).ssh_host_key;
    expect(pinned).toBe(face.hostKeyFingerprint);
    // the switch is replaced: the same address and port, a new host key
    const port = face.port;
    await face.stop();
    face = await startLabSshFace(lab, { port });
    expect(face.hostKeyFingerprint).not.toBe(pinned);

    for (const r of [
      await view(sshId),
      await post(sshId, `interface/${sshPort(7)}/description/`, { description: "must not land" }),
    ]) {
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_hostkey_changed");
      expect(r.body.reason).toBe(
        `Device 'ios-ssh' presented a different SSH host key (${face.hostKeyFingerprint}) than the one accepted on ${(await admin()).ssh_host_key_accepted}; an administrator must accept the new key`,
      );
    }
    expect(face.counters.logins).toBe(0);
    expect(lab.model.alias(lab.model.port(7).ifIndex)).not.toBe("must not land");
    expect(await admin()).toMatchObject({ ssh_host_key: pinned, ssh_host_key_presented: face.hostKeyFingerprint });

    expect((await app.request("POST", `/api/admin/switches/${sshId}/accept_hostkey/`, { token: staff })).status).toBe(
      403,
    );
    const ok = await app.request("POST", `/api/admin/switches/${sshId}/accept_hostkey/`, { token: root });
    expect(ok.status).toBe(204);
    expect(await admin()).toMatchObject({ ssh_host_key: face.hostKeyFingerprint, ssh_host_key_presented: null });
    const log = await app.request("GET", `/api/admin/log/?switch=${sshId}&page_size=1`, { token: root });
    expect(log.body.results[0]).toMatchObject({
      action: "admin:switches:accept_hostkey",
      username: "root",
      new_value: `ios-ssh (id ${sshId}); fields: ssh_host_key=${face.hostKeyFingerprint}`,
    });

    expect((await view(sshId)).status).toBe(200);
    expect(face.counters.logins).toBe(1);
  });

  it("a face that does not answer is a clear 424, never a 200", async () => {
    face.faults.hang = true;
    const r = await post(sshId, `interface/${sshPort(8)}/description/`, { description: "into the void" });
    expect(r.status).toBe(424);
    expect(r.body.code).toBe("device_unreachable");
    expect(r.body.reason).toMatch(/^Device 'ios-ssh' could not be reached: /);
    face.faults.reset();
    expect(lab.model.alias(lab.model.port(8).ifIndex)).not.toBe("into the void");
  }, 20000);
});
