/**
 * The lab's SSH face seen from a plain ssh2 terminal, as a person would use it: login
 * by password or key, the user prompt, `enable` with its secret, paging, IOS's error
 * markers, configuration mode prompts, `write memory` copying running to startup, and
 * the faults tests inject (latency, dropped session, refused commands).
 */
import { utils } from "ssh2";
import { startLabSshFace, type LabSshFace, type VirtualSwitch } from "../../lab";
import { VirtualSwitch as Switch } from "../../lab/model";
import { generateEd25519 } from "../../lab/ssh/keys";
import { openTerminal, type Terminal } from "../support/ssh-terminal";

describe("lab SSH face", () => {
  let model: VirtualSwitch;
  let face: LabSshFace;
  const open: Terminal[] = [];
  const name = "lab-face-24";

  beforeAll(async () => {
    model = new Switch({ profile: "generic", ports: 24, poePorts: [1, 2, 3, 4], seed: 11, name });
    face = await startLabSshFace(model);
  });
  afterEach(() => {
    face.faults.reset();
    open.splice(0).forEach((t) => t.close());
  });
  afterAll(() => face.stop());

  async function login(): Promise<Terminal> {
    const t = await openTerminal({ port: face.port, username: face.username, password: face.password });
    open.push(t);
    await t.until(new RegExp(`${name}>$`));
    return t;
  }

  async function privileged(): Promise<Terminal> {
    const t = await login();
    t.send("enable\n");
    await t.until(/Password: $/);
    t.send(`${face.enableSecret}\n`);
    await t.until(new RegExp(`${name}#$`));
    return t;
  }

  test("a password login lands in user mode; enable asks for the secret without echoing it", async () => {
    const t = await login();
    expect(t.screen).toContain("authorised use only");
    t.send("enable\n");
    await t.until(/Password: $/);
    t.send(`${face.enableSecret}\n`);
    const after = await t.until(new RegExp(`${name}#$`));
    expect(after).not.toContain(face.enableSecret);
    expect(face.counters.log).not.toContain(face.enableSecret);
  });

  test("a wrong enable secret is asked again, and after three tries the session stays in user mode", async () => {
    const t = await login();
    t.send("enable\n");
    await t.until(/Password: $/);
    t.send("wrong-1\n");
    await t.until(/Password: $/);
    t.send("wrong-2\nwrong-3\n");
    await t.until(new RegExp(`% Bad secrets\\r\\n\\r\\n${name}>$`));
  });

  test("a wrong password and an unknown user are refused", async () => {
    await expect(openTerminal({ port: face.port, username: face.username, password: "not-it" })).rejects.toThrow(
      /authentication methods failed/,
    );
    await expect(openTerminal({ port: face.port, username: "someone", password: face.password })).rejects.toThrow(
      /authentication methods failed/,
    );
  });

  test("an authorised public key logs in; another key does not", async () => {
    const allowed = generateEd25519();
    const other = generateEd25519();
    const keyed = await startLabSshFace(model, { authorizedKeys: [allowed.public], password: "" });
    try {
      const t = await openTerminal({ port: keyed.port, username: keyed.username, privateKey: allowed.private });
      open.push(t);
      await t.until(new RegExp(`${name}>$`));
      await expect(
        openTerminal({ port: keyed.port, username: keyed.username, privateKey: other.private }),
      ).rejects.toThrow(/authentication methods failed/);
      await expect(
        openTerminal({ port: keyed.port, username: keyed.username, password: "lab-ssh-password" }),
      ).rejects.toThrow(/authentication methods failed/);
      // each face has a key of its own, and it is the one the client saw
      expect(t.hostKey).toBe(keyed.hostKeyFingerprint);
      expect(keyed.hostKeyFingerprint).not.toBe(face.hostKeyFingerprint);
    } finally {
      await keyed.stop();
    }
  });

  test("generated key pairs are well-formed (ssh2's generator spoils about 1 in 250)", () => {
    for (let i = 0; i < 1500; i++) {
      const pair = generateEd25519();
      expect(utils.parseKey(pair.public)).not.toBeInstanceOf(Error);
      expect(utils.parseKey(pair.private)).not.toBeInstanceOf(Error);
    }
  });

  test("long output stops at --More--: space shows a page, Enter one line, q ends it", async () => {
    const t = await privileged();
    t.send("show interfaces switchport\n");
    const first = await t.until(/ --More-- $/);
    // 23 lines of a 24-line terminal, then the pager
    expect(first.split("\r\n").length).toBe(1 + 23 + 1);
    t.send(" ");
    await t.until(/ --More-- $/);
    t.send("\r");
    const one = await t.until(/ --More-- $/);
    // the pager erased, exactly one more line, the pager again
    expect(one.match(/\r\n/g)).toHaveLength(1);
    t.send("q");
    await t.until(new RegExp(`${name}#$`));
  });

  test("terminal length 0 turns paging off", async () => {
    const t = await privileged();
    t.send("terminal length 0\n");
    await t.until(new RegExp(`${name}#$`));
    t.send("show interfaces switchport\n");
    const all = await t.until(new RegExp(`${name}#$`));
    expect(all).not.toContain("--More--");
    expect(all.match(/^Name: /gm)).toHaveLength(24);
  });

  test("IOS's answers to wrong commands: the ^ marker under the bad word, incomplete, ambiguous", async () => {
    const t = await privileged();
    t.send("show vlan bogus\n");
    const invalid = await t.until(new RegExp(`${name}#$`));
    const lines = invalid.split("\r\n");
    const marker = lines.find((l) => l.trim() === "^")!;
    // the prompt and "show vlan " come before the bad word
    expect(marker.indexOf("^")).toBe(`${name}#show vlan `.length);
    expect(invalid).toContain("% Invalid input detected at '^' marker.");
    t.send("show interfaces\n");
    expect(await t.until(new RegExp(`${name}#$`))).toContain("% Incomplete command.");
    t.send("sh i\n");
    expect(await t.until(new RegExp(`${name}#$`))).toContain("% Ambiguous command");
  });

  test("configuration modes have their prompts; abbreviations work as on IOS", async () => {
    const t = await privileged();
    t.send("conf t\n");
    await t.until(new RegExp(`${name}\\(config\\)#$`));
    t.send("int gi1/0/3\n");
    await t.until(new RegExp(`${name}\\(config-if\\)#$`));
    t.send("description printer room 2\n");
    await t.until(new RegExp(`${name}\\(config-if\\)#$`));
    t.send("vlan 300\n");
    await t.until(new RegExp(`${name}\\(config-vlan\\)#$`));
    t.send("name lab300\n");
    await t.until(new RegExp(`${name}\\(config-vlan\\)#$`));
    t.send("end\n");
    await t.until(new RegExp(`${name}#$`));
    expect(model.alias(model.port(3).ifIndex)).toBe("printer room 2");
    expect(model.vlan(300)).toMatchObject({ name: "lab300", active: true });
  });

  test("'?' shows help at once and the line goes on without it", async () => {
    const t = await privileged();
    t.send("show ver?");
    const help = await t.until(new RegExp(`${name}#show ver$`));
    expect(help).toContain("  show");
    t.send("sion\n");
    expect(await t.until(new RegExp(`${name}#$`))).toContain(`${name} uptime is`);
  });

  test("write memory copies running to startup", async () => {
    const t = await privileged();
    model.update((cfg) => (cfg.ports.get(model.port(5).ifIndex)!.alias = "unsaved"));
    expect(model.isSaved()).toBe(false);
    t.send("write memory\n");
    expect(await t.until(new RegExp(`${name}#$`))).toContain("[OK]");
    expect(model.isSaved()).toBe(true);
  });

  test("faults: latency per command, a refused command, a dropped session", async () => {
    const t = await privileged();
    face.faults.latencyMs = 300;
    const started = Date.now();
    t.send("show version\n");
    await t.until(new RegExp(`${name}#$`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    face.faults.latencyMs = 0;

    face.faults.refuseCommands("description", "Command rejected: locked by the lab");
    t.send("conf t\ninterface Gi1/0/6\n");
    await t.until(new RegExp(`${name}\\(config-if\\)#$`));
    const before = model.alias(model.port(6).ifIndex);
    t.send("description nope\n");
    expect(await t.until(/\(config-if\)#$/)).toContain("% Command rejected: locked by the lab");
    expect(model.alias(model.port(6).ifIndex)).toBe(before);

    face.faults.dropAfter(1);
    t.send("end\n");
    await t.until(new RegExp(`${name}#$`));
    t.send("show version\n");
    await t.closed();
  });
});
