/**
 * The lab's two other faces: the command line that starts switches for manual use
 * (`npm run lab`) and the agent that serves a recording of a real switch.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startDemoLab, startRecordingAgent } from "../../lab";
import { runLabCli } from "../../lab/cli";
import { openSession, ObjectType, ErrorStatus, type ClientError } from "../support/snmp-client";
import { snmprecPath } from "../support/fixtures";

describe("lab command line", () => {
  it("starts the demo lab and prints name, profile, port and communities of each switch", async () => {
    const lines: string[] = [];
    const lab = await runLabCli([], { out: (l) => lines.push(l), handleSignals: false });
    try {
      expect(lab.switches.map((s) => [s.options.profile, s.options.ports, s.model.needsSave])).toEqual([
        ["generic", 8, false],
        ["generic", 24, false],
        ["ciscosb", 48, true],
      ]);
      expect(lines).toHaveLength(3);
      for (const [i, s] of lab.switches.entries()) {
        expect(lines[i]).toContain(s.options.name);
        expect(lines[i]).toContain(`127.0.0.1:${s.port}`);
        expect(lines[i]).toContain('"public"');
        expect(lines[i]).toContain('"private"');
      }
      // they answer SNMP
      const s = openSession(lab.switches[2].port);
      try {
        const [name] = await s.get(["1.3.6.1.2.1.1.5.0"]);
        expect(name.value).toEqual(Buffer.from("lab-cbs-48"));
      } finally {
        s.close();
      }
    } finally {
      await lab.stop();
    }
  });

  it("starts N switches of one kind from flags", async () => {
    const lines: string[] = [];
    const lab = await runLabCli(
      ["--count", "2", "--profile", "ciscosb", "--ports", "16", "--poe", "1-4,9", "--community", "ro"],
      {
        out: (l) => lines.push(l),
        handleSignals: false,
      },
    );
    try {
      expect(lab.switches).toHaveLength(2);
      const m = lab.switches[0].model;
      expect(m.ethernetPorts.filter((p) => p.poe).map((p) => p.portNumber)).toEqual([1, 2, 3, 4, 9]);
      expect(lines[1]).toMatch(/ciscosb, 16 ports, needs save/);
      expect(lab.switches[1].options.community).toBe("ro");
    } finally {
      await lab.stop();
    }
  });

  it("rejects unknown flags and bad values with a usage error (exit code 2), starting nothing", async () => {
    await expect(runLabCli(["--colour", "blue"], { handleSignals: false })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^Unknown option '--colour'/),
    });
    await expect(runLabCli(["--profile", "nokia"], { handleSignals: false })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^unknown profile: nokia \(generic, ciscosb, cisco, .*juniper/),
    });
    await expect(runLabCli(["--poe", "5-x"], { handleSignals: false })).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe("demo lab", () => {
  it("gives 8 ports generic with PoE on 1-4, 24 generic with PoE everywhere, 48 ciscosb needing a save", async () => {
    const lab = await startDemoLab();
    try {
      const [a, b, c] = lab;
      expect(a.model.ethernetPorts.filter((p) => p.poe).map((p) => p.portNumber)).toEqual([1, 2, 3, 4]);
      expect(b.model.ethernetPorts.every((p) => p.poe)).toBe(true);
      expect(c.model.needsSave).toBe(true);
      expect(new Set(lab.map((s) => s.port)).size).toBe(3);
      expect(c.snmpTarget({ write: true })).toEqual({
        host: "127.0.0.1",
        port: c.port,
        version: "2c",
        community: "private",
        timeout_ms: 1000,
        retries: 1,
      });
      expect(c.snmpTarget({ version: "3" })).toMatchObject({
        version: "3",
        auth_protocol: "SHA-256",
        priv_protocol: "AES",
      });
    } finally {
      await Promise.all(lab.map((s) => s.stop()));
    }
  });
});

describe("recording agent", () => {
  it("serves a .snmprec file in OID order, hex values decoded, read-only", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-rec-"));
    const file = path.join(dir, "tiny.snmprec");
    fs.writeFileSync(
      file,
      [
        "1.3.6.1.2.1.2.2.1.2.2|4|port two",
        "1.3.6.1.2.1.1.5.0|4|recorded-switch",
        "1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.9.6.1.1006.24.5",
        "1.3.6.1.2.1.2.2.1.2.1|4x|706f7274206f6e65",
        "1.3.6.1.2.1.2.2.1.5.1|66|1000000000",
        "1.3.6.1.2.1.31.1.1.1.6.1|70|12345678901234",
        "1.3.6.1.2.1.4.20.1.3.10.0.0.1|64|255.255.255.0",
        "1.3.6.1.2.1.1.3.0|67|not a number",
        "",
      ].join("\n"),
    );
    const rec = await startRecordingAgent(file, { community: "tiny" });
    const s = openSession(rec.port, { community: "tiny" });
    try {
      expect(rec.size).toBe(7); // the bad TimeTicks line is skipped
      const all = await s.walk("1", 50);
      expect(all.map((v) => v.oid)).toEqual([
        "1.3.6.1.2.1.1.2.0",
        "1.3.6.1.2.1.1.5.0",
        "1.3.6.1.2.1.2.2.1.2.1",
        "1.3.6.1.2.1.2.2.1.2.2",
        "1.3.6.1.2.1.2.2.1.5.1",
        "1.3.6.1.2.1.4.20.1.3.10.0.0.1",
        "1.3.6.1.2.1.31.1.1.1.6.1",
      ]);
      expect(all[2].value).toEqual(Buffer.from("port one"));
      expect(all[4]).toMatchObject({ type: ObjectType.Gauge, value: 1000000000 });
      expect(all[5]).toMatchObject({ type: ObjectType.IpAddress, value: "255.255.255.0" });
      expect(all[6].type).toBe(ObjectType.Counter64);
      let err: ClientError | null = null;
      await s.set([{ oid: "1.3.6.1.2.1.1.5.0", type: ObjectType.OctetString, value: "x" }]).catch((e) => (err = e));
      expect(err!.status).toBe(ErrorStatus.NoAccess);
    } finally {
      s.close();
      await rec.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const file = snmprecPath("ciscosb_cbs350-4x");
  (file ? it : it.skip)("serves a real CBS350 recording: its interface names walk back in order", async () => {
    const rec = await startRecordingAgent(file!);
    const s = openSession(rec.port);
    try {
      const expected = fs
        .readFileSync(file!, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("1.3.6.1.2.1.31.1.1.1.1."))
        .map((l) => l.split("|"))
        .sort((a, b) => Number(a[0].split(".").pop()) - Number(b[0].split(".").pop()));
      const got = await s.walk("1.3.6.1.2.1.31.1.1.1.1", 50);
      expect(got.map((v) => [v.oid, (v.value as Buffer).toString()])).toEqual(expected.map((e) => [e[0], e[2]]));
      const [oid] = await s.get(["1.3.6.1.2.1.1.2.0"]);
      expect(oid.value).toBe("1.3.6.1.4.1.9.6.1.1006.24.5");
    } finally {
      s.close();
      await rec.stop();
    }
  });
});
