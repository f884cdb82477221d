/**
 * SNMPv3 with USM authPriv against the lab agent: engine discovery works for net-snmp's
 * createV3Session and Debian's tools, SHA-2 authentication with AES-128 and AES-256
 * privacy reads and writes, and wrong keys get no answer at all (a timeout).
 */
import { ifXTable } from "../../mib/oids";
import { startLabSwitch, type LabSwitch, type LabV3User } from "../../lab";
import { hasTool, ObjectType, openSession, runTool, type ClientError } from "../support/snmp-client";

const users: LabV3User[] = [
  {
    username: "ops256",
    authProtocol: "SHA-256",
    authKey: "auth-secret-256",
    privProtocol: "AES",
    privKey: "priv-secret-128",
  },
  {
    username: "ops512",
    authProtocol: "SHA-512",
    authKey: "auth-secret-512",
    privProtocol: "AES-256",
    privKey: "priv-secret-256",
  },
  // SHA-1 keys are too short for AES-256: exercises the key extension
  {
    username: "ops1",
    authProtocol: "SHA",
    authKey: "auth-secret-sha1",
    privProtocol: "AES-256",
    privKey: "priv-secret-sha1",
  },
];

async function rejection(p: Promise<unknown>): Promise<ClientError> {
  try {
    await p;
  } catch (e) {
    return e as ClientError;
  }
  throw new Error("expected the request to fail");
}

describe.each(users)("SNMPv3 authPriv $authProtocol + $privProtocol", (user) => {
  let lab: LabSwitch;

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "ciscosb", ports: 24, v3: user, seed: 9 });
  });
  afterAll(() => lab.stop());

  it("discovers the engine, reads and writes", async () => {
    const s = openSession(lab.port, { v3: user });
    try {
      const [name] = await s.get(["1.3.6.1.2.1.1.5.0"]);
      expect(name.value).toEqual(Buffer.from(lab.model.system.sysName));
      const names = await s.walk(ifXTable.ifName);
      expect(names.map((v) => (v.value as Buffer).toString())).toEqual(lab.model.interfaces.map((i) => i.name));
      const ifIndex = lab.model.port(2).ifIndex;
      await s.set([{ oid: `${ifXTable.ifAlias}.${ifIndex}`, type: ObjectType.OctetString, value: "over v3" }]);
      expect(lab.model.alias(ifIndex)).toBe("over v3");
    } finally {
      s.close();
    }
  });

  it("gives no answer to a wrong authentication or privacy key", async () => {
    for (const wrong of [
      { ...user, authKey: "not-the-auth-key" },
      { ...user, privKey: "not-the-priv-key" },
    ]) {
      const before = lab.counters.responses;
      const s = openSession(lab.port, { v3: wrong, timeoutMs: 400 });
      try {
        const err = await rejection(s.get(["1.3.6.1.2.1.1.5.0"]));
        expect(err.name).toBe("RequestTimedOutError");
        // only the discovery report was answered
        expect(lab.counters.responses - before).toBe(1);
      } finally {
        s.close();
      }
    }
  });

  const cli = hasTool("snmpget") ? it : it.skip;
  cli("works with Debian's snmpget", async () => {
    const res = await runTool("snmpget", [
      "-v3",
      "-l",
      "authPriv",
      "-u",
      user.username,
      "-a",
      user.authProtocol,
      "-A",
      user.authKey,
      "-x",
      user.privProtocol,
      "-X",
      user.privKey,
      "-t",
      "2",
      "-r",
      "0",
      `127.0.0.1:${lab.port}`,
      "1.3.6.1.2.1.1.5.0",
    ]);
    expect(res.stdout).toContain(`STRING: "${lab.model.system.sysName}"`);
  });
});

describe("SNMPv3 engine reports", () => {
  const user = users[0];
  let lab: LabSwitch;

  beforeAll(async () => {
    lab = await startLabSwitch({ v3: user });
  });
  afterAll(() => lab.stop());

  it("reports an unknown user name instead of timing out", async () => {
    const s = openSession(lab.port, { v3: { ...user, username: "nobody" } });
    try {
      const err = await rejection(s.get(["1.3.6.1.2.1.1.5.0"]));
      expect(err.name).toBe("ResponseInvalidError");
      expect(err.message).toMatch(/unknown user/i);
    } finally {
      s.close();
    }
  });

  it("comes back after a restart with more engine boots; a fresh session reads again", async () => {
    const boots = lab.agent.usm.boots;
    lab.faults.restart();
    expect(lab.agent.usm.boots).toBe(boots + 1);
    const s = openSession(lab.port, { v3: user });
    try {
      const [up] = await s.get(["1.3.6.1.2.1.1.3.0"]);
      expect(up.value as number).toBeLessThan(500);
    } finally {
      s.close();
    }
  });

  it("does not serve SNMPv3 when the switch has no user", async () => {
    const plain = await startLabSwitch({});
    const s = openSession(plain.port, { v3: user });
    try {
      const err = await rejection(s.get(["1.3.6.1.2.1.1.5.0"]));
      expect(err.message).toMatch(/unknown user/i);
    } finally {
      s.close();
      await plain.stop();
    }
  });
});
