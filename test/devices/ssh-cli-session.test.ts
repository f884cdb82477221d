/**
 * The SSH command line session against the lab's SSH face over real TCP: host keys
 * reported and pinned, user mode and enable, paging answered, output without echo and
 * prompt, and every way a device can fail (refused port, silence, wrong login, hanging
 * command, dropped session) as the project's typed errors, none of them quoting a secret.
 */
import net, { type AddressInfo } from "node:net";
import { iosDialect } from "../../drivers/families/cisco-ios-cli/dialect";
import { CliSession } from "../../drivers/ssh/cli-session";
import { HostKeyChanged } from "../../drivers/ssh/host-key";
import type { SshTarget } from "../../model/targets";
import { DeviceRefused, DeviceUnreachable } from "../../model/failures";
import { startLabSshFace, type LabSshFace } from "../../lab";
import { VirtualSwitch } from "../../lab/model";

const model = new VirtualSwitch({ profile: "generic", ports: 24, poePorts: "all", seed: 3, name: "session-lab" });
let face: LabSshFace;
const sessions: CliSession[] = [];

beforeAll(async () => {
  face = await startLabSshFace(model);
});
afterEach(() => {
  face.faults.reset();
  sessions.splice(0).forEach((s) => s.close());
});
afterAll(() => face.stop());

function target(overrides: Partial<SshTarget> = {}): SshTarget {
  return { ...face.sshTarget(), connect_timeout_ms: 1500, command_timeout_ms: 800, ...overrides };
}

async function open(t: SshTarget = target(), dialect = iosDialect): Promise<CliSession> {
  const s = await CliSession.open(t, dialect, { name: "session-lab" });
  sessions.push(s);
  return s;
}

/** the error a promise fails with; no secret of the face may be in its message */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    const message = (e as Error).message;
    for (const secret of [face.password, face.enableSecret]) expect(message).not.toContain(secret);
    return e as Error;
  }
  throw new Error("expected a failure");
}

describe("host keys", () => {
  test("without a pinned key the presented one is accepted and reported (trust on first use)", async () => {
    const s = await open();
    expect(s.hostKey).toBe(face.hostKeyFingerprint);
    expect(s.hostKey).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });

  test("the pinned key lets the session in", async () => {
    const s = await open(target({ host_key_fingerprint: face.hostKeyFingerprint }));
    expect(await s.run("show version")).toContain("session-lab uptime is");
  });

  test("another key than the pinned one fails with HostKeyChanged before any login", async () => {
    const logins = face.counters.logins;
    const pinned = "SHA256:" + "A".repeat(43);
    const e = await failure(open(target({ host_key_fingerprint: pinned })));
    expect(e).toBeInstanceOf(HostKeyChanged);
    expect(e).toMatchObject({ code: "device_hostkey_changed", presented: face.hostKeyFingerprint, pinned });
    expect(e.message).toContain(face.hostKeyFingerprint);
    expect(face.counters.logins).toBe(logins);
  });
});

describe("prompt, enable and paging", () => {
  test("a user-mode login is enabled with the secret and paging is turned off", async () => {
    const s = await open();
    expect(s).toMatchObject({ hostname: "session-lab", privileged: true, mode: "" });
    expect(face.counters.log.slice(-3)).toEqual(["enable", "terminal length 0", "terminal width 511"]);
  });

  test("a login that lands in privileged mode sends no enable", async () => {
    const priv = await startLabSshFace(model, { privileged: true });
    try {
      const s = await open({ ...priv.sshTarget(), enable_secret: undefined });
      expect(s.privileged).toBe(true);
      expect(priv.counters.log).not.toContain("enable");
    } finally {
      await priv.stop();
    }
  });

  test("without an enable secret, or with a wrong one, the session says so", async () => {
    expect((await failure(open(target({ enable_secret: undefined })))).message).toMatch(
      /asks for an enable secret and none is configured/,
    );
    const wrong = await failure(open(target({ enable_secret: "not-the-secret" })));
    expect(wrong).toBeInstanceOf(DeviceUnreachable);
    expect(wrong.message).toMatch(/refused the enable secret/);
    expect(wrong.message).not.toContain("not-the-secret");
  });

  test("output comes without the echoed command and the prompt", async () => {
    const s = await open();
    const out = await s.run("show version");
    expect(out.split("\n")[0]).toMatch(/^Cisco IOS Software/);
    expect(out).not.toMatch(/session-lab#/);
    expect(out).not.toContain("show version");
  });

  test("when paging stays on, the pager is answered and the output is the same as without it", async () => {
    const paged = await open(target(), { ...iosDialect, setupCommands: [] });
    const plain = await open();
    const withPager = await paged.run("show interfaces switchport");
    expect(withPager).not.toContain("--More--");
    expect(withPager).toBe(await plain.run("show interfaces switchport"));
    expect(withPager.match(/^Name: /gm)).toHaveLength(24);
  });

  test("configuration lines run in configuration mode and the session returns to privileged mode", async () => {
    const s = await open();
    await s.configure(["interface GigabitEthernet1/0/2", "description from the session"]);
    expect(s.mode).toBe("");
    expect(model.alias(model.port(2).ifIndex)).toBe("from the session");
  });
});

describe("failures", () => {
  test("a command the device does not understand is DeviceRefused, and the session goes on", async () => {
    const s = await open();
    const e = await failure(s.run("show bogus"));
    expect(e).toBeInstanceOf(DeviceRefused);
    expect(e.message).toContain("% Invalid input detected");
    expect(await s.run("show version")).toContain("uptime is");
  });

  test("a refused configuration line is DeviceRefused and configuration mode is left", async () => {
    const s = await open();
    face.faults.refuseCommands("description", "Command rejected: port locked");
    const e = await failure(s.configure(["interface Gi1/0/4", "description nope"]));
    expect(e).toBeInstanceOf(DeviceRefused);
    expect(e.message).toContain("port locked");
    expect(s.mode).toBe("");
  });

  test("a command without an answer times out as DeviceUnreachable and the session is not used again", async () => {
    const s = await open();
    face.faults.hang = true;
    const started = Date.now();
    const e = await failure(s.run("show version"));
    expect(e).toBeInstanceOf(DeviceUnreachable);
    expect(e.message).toMatch(/No answer from session-lab \(127\.0\.0\.1:\d+\) to "show version" within 800 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    face.faults.hang = false;
    expect((await failure(s.run("show version"))).message).toMatch(/was not sent/);
  });

  test("a session the device drops is DeviceUnreachable for the command in flight and those after", async () => {
    const s = await open();
    face.faults.dropAfter(0);
    const e = await failure(s.run("show vlan brief"));
    expect(e).toBeInstanceOf(DeviceUnreachable);
    expect(e.message).toMatch(/closed/);
    expect(await failure(s.run("show version"))).toBeInstanceOf(DeviceUnreachable);
  });

  test("a closed port is DeviceUnreachable naming the device", async () => {
    const closed = await startLabSshFace(model);
    const port = closed.port;
    await closed.stop();
    const e = await failure(open(target({ port })));
    expect(e).toBeInstanceOf(DeviceUnreachable);
    expect(e.message).toContain(`session-lab (127.0.0.1:${port}) refused the SSH connection`);
  });

  test("a port that accepts but never speaks SSH is DeviceUnreachable after the connect timeout", async () => {
    const accepted: net.Socket[] = [];
    const silent = net.createServer((socket) => accepted.push(socket));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const e = await failure(open(target({ port, connect_timeout_ms: 500 })));
      expect(e).toBeInstanceOf(DeviceUnreachable);
      expect(e.message).toMatch(/No SSH answer from .* within 500 ms/);
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      accepted.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  test("a refused login is DeviceUnreachable naming the user, never the password", async () => {
    const e = await failure(open(target({ password: "wrong-password-123" })));
    expect(e).toBeInstanceOf(DeviceUnreachable);
    expect(e.message).toContain(`refused the SSH login of user '${face.username}'`);
    expect(e.message).not.toContain("wrong-password-123");
  });
});
