/**
 * `switchdesk lab --profile P [--json]` starts every face the profile has, and what it
 * prints is enough to reach each one: a driver opened with nothing but the printed JSON
 * (host, port, user, password, the pinned fingerprint) reads the switch. (That a change
 * through one face is seen through the others is each face's own test.)
 */
import { runLabCli, type LabCliHandle } from "../../lab/cli";
import { openDriver } from "../../drivers/registry";
import type { Connection } from "../../model/targets";
import { sameCertificate } from "../../drivers/https/client";

interface FaceJson {
  host: string;
  port: number;
  username: string;
  password: string;
  fingerprint: string;
}

interface SwitchJson {
  name: string;
  profile: string;
  faces: { snmp: { host: string; port: number; community: string; write_community: string } } & Record<
    string,
    FaceJson
  >;
}

async function labJson(profile: string): Promise<{ lab: LabCliHandle; lines: string[]; parsed: SwitchJson[] }> {
  const lines: string[] = [];
  const lab = await runLabCli(["--profile", profile, "--ports", "12", "--json"], {
    out: (l) => lines.push(l),
    handleSignals: false,
  });
  return { lab, lines, parsed: lines.map((l) => JSON.parse(l) as SwitchJson) };
}

const https = (f: FaceJson) => ({
  host: f.host,
  port: f.port,
  username: f.username,
  password: f.password,
  certificate_fingerprint: f.fingerprint,
  connect_timeout_ms: 3000,
  request_timeout_ms: 5000,
});

const ssh = (f: FaceJson) => ({
  host: f.host,
  port: f.port,
  username: f.username,
  password: f.password,
  enable_secret: "lab-enable-secret",
  host_key_fingerprint: f.fingerprint,
  connect_timeout_ms: 3000,
  command_timeout_ms: 5000,
});

/** the connection a user would configure from a printed face */
const CONNECTIONS: Record<string, { driver: string; connection: (f: FaceJson) => Connection }> = {
  eapi: { driver: "arista_eapi", connection: (f) => ({ connector: 3, https: https(f) }) },
  aoscx: { driver: "aruba_aoscx", connection: (f) => ({ connector: 1, https: https(f) }) },
  ssh: { driver: "cisco_ios_cli", connection: (f) => ({ connector: 7, ssh: ssh(f) }) },
  netconf: { driver: "junos_netconf", connection: (f) => ({ connector: 2, ssh: ssh(f) }) },
};

describe.each([
  ["arista", "eapi"],
  ["arubacx", "aoscx"],
  ["cisco", "ssh"],
  ["juniper", "netconf"],
])("switchdesk lab --profile %s --json", (profile, kind) => {
  test(`prints one JSON line with the SNMP and ${kind} faces, and a driver reaches the switch with it alone`, async () => {
    const { lab, lines, parsed } = await labJson(profile);
    try {
      expect(lines).toHaveLength(1); // JSON lines only: no "lab running" text
      const [sw] = parsed;
      expect(sw.profile).toBe(profile);
      expect(sw.name).toBe(lab.switches[0].options.name);
      expect(Object.keys(sw.faces).sort()).toEqual([kind, "snmp"].sort());
      expect(sw.faces.snmp).toEqual({
        host: "127.0.0.1",
        port: lab.switches[0].port,
        community: lab.switches[0].options.community,
        write_community: lab.switches[0].options.writeCommunity,
      });
      const face = sw.faces[kind];
      expect(face).toEqual({
        host: "127.0.0.1",
        port: expect.any(Number) as number,
        username: expect.any(String) as string,
        password: expect.any(String) as string,
        fingerprint: expect.any(String) as string,
      });
      const use = CONNECTIONS[kind];
      const presented: string[] = [];
      const { driver } = await openDriver({
        driver: use.driver,
        connection: use.connection(face),
        onCertificate: (fp) => presented.push(fp),
        onHostKey: (fp) => presented.push(fp),
      });
      try {
        const snapshot = await driver.learn("basic");
        const model = lab.switches[0].model;
        expect(snapshot.interfaces.length).toBeGreaterThanOrEqual(model.ethernetPorts.length);
        // pinned from the printed fingerprint: nothing new to pin, and the same certificate
        if (kind === "eapi" || kind === "aoscx")
          expect(presented.every((fp) => sameCertificate(fp, face.fingerprint))).toBe(true);
      } finally {
        await driver.close();
      }
    } finally {
      await lab.stop();
    }
  });
});

test("the human output names each face with its address, login and fingerprint", async () => {
  const lines: string[] = [];
  const lab = await runLabCli(["--profile", "arista", "--ports", "8"], {
    out: (l) => lines.push(l),
    handleSignals: false,
  });
  try {
    const [face] = lab.faces[0];
    expect(lines[0]).toContain(`udp 127.0.0.1:${lab.switches[0].port}`);
    expect(lines[1]).toContain(`eAPI: https://127.0.0.1:${face.access.port}/command-api`);
    expect(lines[1]).toContain(face.access.username);
    expect(lines[1]).toContain(face.access.fingerprint);
  } finally {
    await lab.stop();
  }
});

test("a profile without API faces prints the SNMP face alone", async () => {
  const { lab, parsed } = await labJson("generic");
  try {
    expect(Object.keys(parsed[0].faces)).toEqual(["snmp"]);
    expect(lab.faces).toEqual([[]]);
  } finally {
    await lab.stop();
  }
});
