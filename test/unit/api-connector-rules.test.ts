/**
 * The inventory's rules for the API connectors (1 AOS-CX REST, 2 Junos NETCONF, 3 Arista
 * eAPI), which the admin API and the YAML import share (app/admin/switches.ts): which
 * driver a switch gets when it names none, and what its credential profile must hold.
 * Pure functions, checked with driver lists of their own, so they hold whether or not the
 * API drivers are registered yet; the CA file check of credential profiles (app/ca-file.ts)
 * on real files.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Issues } from "../../app/admin/fields";
import { checkConnectorProfile, driverFor, type ProfileFacts } from "../../app/admin/switches";
import { readCaFile, readCaFileSync } from "../../app/ca-file";
import { connectorType, connectorTypeName, connectorWords } from "../../domain/records";
import { selfSignedCertificate } from "../../lab/tls/self-signed";

describe("the driver a switch gets", () => {
  test("the one it names, whatever the connector offers (the check refuses a wrong one)", () => {
    expect(driverFor("eapi", "auto", ["eapi"])).toBe("eapi");
    expect(driverFor("generic", "auto", ["eapi"])).toBe("generic");
  });
  test("the one it has when that still speaks over the connector", () => {
    expect(driverFor(undefined, "auto", ["auto", "generic", "cisco"])).toBe("auto");
    expect(driverFor(undefined, "linux_host", ["cisco_ios_cli", "linux_host"])).toBe("linux_host");
  });
  test("else the connector's only driver (an SNMP switch moved to an API connector)", () => {
    expect(driverFor(undefined, "auto", ["aoscx_rest"])).toBe("aoscx_rest");
    expect(driverFor(undefined, "generic", ["junos_netconf"])).toBe("junos_netconf");
  });
  test("none when the connector has several or none: the switch must name one", () => {
    expect(driverFor(undefined, "auto", ["cisco_ios_cli", "linux_host"])).toBeNull();
    expect(driverFor(undefined, "auto", [])).toBeNull();
  });
});

describe("an API switch's credential profile", () => {
  const good: ProfileFacts = { name: "api", username: "admin", port: 443, password: true, privateKey: false };
  const problems = (connector: number, profile: ProfileFacts | null) => {
    const issues = new Issues();
    checkConnectorProfile(connector, profile, issues);
    return issues.list.map((i) => `${i.kind} ${i.field}: ${i.message}`);
  };

  test("SNMP and the SSH command line are not concerned", () => {
    expect(problems(0, null)).toEqual([]);
    expect(problems(7, null)).toEqual([]);
  });

  test("is required on 1, 2 and 3", () => {
    expect(problems(1, null)).toEqual([
      "missing credentials_profile: connector 1 (Aruba AOS-CX) logs in with a credential profile: its username, password and port",
    ]);
    expect(problems(2, null)).toHaveLength(1);
    expect(problems(3, null)).toHaveLength(1);
  });

  test("HTTPS connectors need a username and a password, and a port that is not SSH's", () => {
    expect(problems(1, good)).toEqual([]);
    expect(problems(3, { ...good, port: 8443 })).toEqual([]);
    expect(problems(3, { ...good, username: "", password: false, privateKey: true, port: 22 })).toEqual([
      "invalid credentials_profile: credential profile 'api' has no username; connector 3 (Arista eAPI) logs in with one",
      "invalid credentials_profile: credential profile 'api' has no password; connector 3 (Arista eAPI) logs in with a username and password",
      "invalid credentials_profile: credential profile 'api' has port 22 (SSH's); connector 3 (Arista eAPI) speaks HTTPS: set the profile's port (tcp_port) to the switch's HTTPS port, usually 443",
    ]);
  });

  test("NETCONF logs in over SSH: a password or a private key, on 830 or 22", () => {
    expect(problems(2, { ...good, port: 830 })).toEqual([]);
    expect(problems(2, { ...good, port: 22, password: false, privateKey: true })).toEqual([]);
    expect(problems(2, { ...good, port: 830, password: false })).toEqual([
      "invalid credentials_profile: credential profile 'api' has neither a password nor a private key; connector 2 (Junos NETCONF) logs in with one",
    ]);
  });
});

describe("connector numbers in the views", () => {
  test("OpenL2M's numbers 1, 2 and 3 show as themselves; an unknown number as SNMP", () => {
    expect([0, 1, 2, 3, 7, 98].map(connectorType)).toEqual([0, 1, 2, 3, 7, 0]);
    expect([1, 2, 3].map(connectorTypeName)).toEqual(["Aruba AOS-CX", "Junos NETCONF", "Arista eAPI"]);
    expect(connectorWords(98)).toBe("connector 98");
  });
});

describe("a credential profile's CA file", () => {
  let dir: string;
  const ca = selfSignedCertificate("lab-ca-file");
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-ca-"))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("a PEM file's certificates are read, now and at a call alike", async () => {
    const p = file("ca.pem", `a comment line\n${ca.cert}\n${selfSignedCertificate("second").cert}`);
    const now = readCaFileSync(p);
    expect("pem" in now && now.pem.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(await readCaFile(p)).toEqual(now);
  });

  test.each([
    ["relative", () => "ca.pem", "expected an absolute path to a PEM file"],
    ["missing", () => path.join(dir, "nope.pem"), "cannot be read: no such file"],
    ["a folder", () => dir, "cannot be read: not a regular file"],
    [
      "no PEM",
      () => file("key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
      "holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
    ],
    [
      "a broken certificate",
      () => file("broken.pem", ca.cert.replace(/\n[A-Za-z0-9+/]{20}/, "\nAAAAAAAAAAAAAAAAAAAA")),
      "its certificate number 1 is not a valid X.509 certificate",
    ],
    ["too large", () => file("big.pem", "x".repeat(1024 * 1024 + 1)), "is larger than 1048576 bytes"],
  ])("%s: a problem in words, never an exception", async (_what, make, problem) => {
    const p = make();
    expect(readCaFileSync(p)).toEqual({ problem });
    expect(await readCaFile(p)).toEqual({ problem });
  });
});
