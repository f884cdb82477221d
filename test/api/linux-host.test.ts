/**
 * A Linux host managed through the HTTP API: a real OpenSSH server in a network
 * namespace of the test's own, its veth links as ports, a credential profile with a
 * private key, connector 7 and the linux_host driver. The namespace's own `ip -j link`
 * (run directly, not over SSH) shows that the API changed the real links. Needs root and
 * working `ip netns`; elsewhere the tests are skipped with the reason printed.
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { addGroup } from "../support/lab-inventory";
import { netnsSshdUnavailable, settled, startNetnsSshd, type NetnsSshd } from "../support/netns-sshd";

// every SSH session opens a new connection into a network namespace; beside other such
// suites on a loaded 2-core machine a session took up to 15 s to start (alone: under 1 s)
jest.setTimeout(60_000);

const unavailable = netnsSshdUnavailable();
if (unavailable) console.warn(`linux-host API test: skipped: ${unavailable}`);

(unavailable ? describe.skip : describeDb)("a Linux host over SSH through the API", () => {
  let app: TestApp;
  let root: string;
  let sshd: NetnsSshd;
  let gid: number;
  let id: number;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    sshd = await startNetnsSshd(2);
    gid = await addGroup(app, { name: "Hosts" });
    const cred = await app.request("POST", "/api/admin/credentials/", {
      token: root,
      json: { name: "netns-root", username: "root", private_key: sshd.privateKey, port: sshd.port },
    });
    expect(cred.status).toBe(201);
    const sw = await app.request("POST", "/api/admin/switches/", {
      token: root,
      json: {
        name: "netns-host",
        primary_ipv4: sshd.host,
        connector_type: 7,
        driver: "linux_host",
        credentials_profile: cred.body.id,
        switchgroups: [gid],
      },
    });
    expect(sw.status).toBe(201);
    id = sw.body.id;
  }, 30000);
  afterAll(async () => {
    await sshd?.stop();
    await app?.close();
  });

  const link = (name: string) => sshd.links().find((l) => l.ifname === name)!;
  const url = (path: string) => `/api/switches/${gid}/${id}/${path}`;
  const post = (path: string, json: Record<string, unknown>) => app.request("POST", url(path), { token: root, json });

  it("lists the namespace's links and pins sshd's host key", async () => {
    const r = await app.request("GET", url(""), { token: root });
    expect(r.status).toBe(200);
    expect(r.body.switch).toMatchObject({
      driver: "linux_host",
      change_admin_status: true,
      change_description: true,
      change_vlan: false,
      change_poe: false,
    });
    const names = r.body.interfaces.map((i: { name: string }) => i.name);
    for (const p of sshd.ports) expect(names).toContain(p);
    expect(r.body.interfaces.find((i: { id: string }) => i.id === "port1")).toMatchObject({
      name: "port1",
      state: "Enabled",
      online: true,
    });
    const admin = await app.request("GET", `/api/admin/switches/${id}/`, { token: root });
    expect(admin.body.ssh_host_key).toBe(sshd.hostKeyFingerprint);
    // the key is write-only
    expect((await app.request("GET", `/api/admin/credentials/`, { token: root })).text).not.toContain("PRIVATE KEY");
  });

  it("takes a real link down and up, and sets its alias", async () => {
    expect((await post("interface/port1/state/", { state: "off" })).body).toEqual({
      result: "Interface port1 is now Disabled",
    });
    expect(link("port1").flags).not.toContain("UP");
    await settled(() => link("port1-peer").operstate !== "UP", 3000, "port1-peer loses its carrier");
    expect((await post("interface/port1/state/", { state: "on" })).status).toBe(200);
    expect(link("port1").flags).toContain("UP");

    const text = `desk 7 $(reboot) '; reboot; '`;
    expect((await post("interface/port2/description/", { description: text })).status).toBe(200);
    expect(link("port2").ifalias).toBe(text);
    const view = await app.request("GET", url(""), { token: root });
    expect(view.body.interfaces.find((i: { id: string }) => i.id === "port2").description).toBe(text);
  });

  it("refuses what a Linux host cannot do, and names that are no link", async () => {
    const vlan = await post("interface/port1/vlan/", { vlan: 10 });
    expect(vlan.status).toBe(400);
    expect(vlan.body.code).toBe("not_supported");
    const add = await post("vlan/add/", { vlan_id: 10, vlan_name: "ten" });
    expect(add.status).toBe(400);
    expect(add.body.code).toBe("not_supported");
    const odd = await post("interface/port1;reboot/state/", { state: "off" });
    expect(odd.status).toBe(404);
    expect(link("port1").flags).toContain("UP");
  });
});
