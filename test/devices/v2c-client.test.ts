/**
 * The drivers' SNMPv2c client (drivers/snmp/v2c-client.ts) over real UDP: against a lab
 * switch it gives what net-snmp gives for the same GET, GETBULK and SET (OIDs, types and
 * values), refusals carry net-snmp's error name, status and OID, a silent device costs
 * exactly the configured tries, and answers that do not belong to a request are not taken
 * for its answer.
 */
import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import { ifTable, ifXTable, qbridge, system } from "../../mib/oids";
import { startLabSwitch, type LabSwitch } from "../../lab";
import { V2cSession } from "../../drivers/snmp/v2c-client";
import { netSnmp, ObjectType, type PduSession, type Varbind } from "../../drivers/snmp/net-snmp-api";

const SYS_DESCR = `${system.sysDescr}.0`;

const call = <T>(send: (cb: (error: Error | null, result: T) => void) => void) =>
  new Promise<T>((resolve, reject) => send((error, result) => (error ? reject(error) : resolve(result))));

async function failure(p: Promise<unknown>): Promise<Error & { status?: number }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { status?: number };
  }
  throw new Error("expected the request to fail");
}

/** what a varbind says, comparable across the two clients (Buffers as hex) */
const plain = (vbs: Varbind[]) =>
  vbs.map((vb) => ({
    oid: vb.oid,
    type: vb.type,
    value: Buffer.isBuffer(vb.value) ? vb.value.toString("hex") : vb.value,
  }));

describe("the drivers' v2c client against a lab switch", () => {
  let lab: LabSwitch;
  const sessions: PduSession[] = [];
  const ours = (community = lab.options.community ?? "public") => {
    const s = new V2cSession("127.0.0.1", community, { port: lab.port, timeout: 2000, retries: 0 });
    sessions.push(s);
    return s;
  };
  const theirs = (community = lab.options.community ?? "public") => {
    const s = netSnmp.createSession("127.0.0.1", community, {
      port: lab.port,
      version: netSnmp.Version2c,
      timeout: 2000,
      retries: 0,
    });
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "generic", ports: 24, poePorts: "all", seed: 5 });
  });
  afterAll(async () => {
    for (const s of sessions) s.close();
    await lab.stop();
  });

  it("answers a GET as net-snmp does, scalars and missing objects alike", async () => {
    const oids = [
      SYS_DESCR,
      `${system.sysObjectID}.0`,
      `${system.sysUpTime}.0`,
      `${ifTable.ifSpeed}.1`,
      "1.3.6.1.2.1.1.99.0",
    ];
    const [a, b] = await Promise.all([
      call<Varbind[]>((cb) => ours().get(oids, cb)),
      call<Varbind[]>((cb) => theirs().get(oids, cb)),
    ]);
    expect(a.map((vb) => vb.oid)).toEqual(oids);
    // sysUpTime moves between the two reads: compare its type only
    const upTime = (vbs: Varbind[]) => plain(vbs).map((vb, i) => (i === 2 ? { ...vb, value: typeof vb.value } : vb));
    expect(upTime(a)).toEqual(upTime(b));
    expect(a[1].type).toBe(ObjectType.OID);
    expect(a[4].type).toBe(ObjectType.NoSuchObject);
    expect(a[4].value).toBeNull();
  });

  it("answers a GETBULK of several columns as net-snmp does, column by column", async () => {
    const columns = [ifTable.ifDescr, ifTable.ifType, ifXTable.ifAlias, ifXTable.ifHighSpeed, qbridge.dot1qPvid];
    const [a, b] = await Promise.all([
      call<Varbind[][]>((cb) => ours().getBulk(columns, 0, 40, cb)),
      call<Varbind[][]>((cb) => theirs().getBulk(columns, 0, 40, cb)),
    ]);
    expect(a).toHaveLength(columns.length);
    a.forEach((column, i) => {
      expect(column).toHaveLength(40);
      expect(column[0].oid.startsWith(`${columns[i]}.`)).toBe(true);
      expect(plain(column)).toEqual(plain(b[i]));
    });
  });

  it("sets with the write community and reads the value back", async () => {
    const ifIndex = lab.model.port(4).ifIndex;
    const oid = `${ifXTable.ifAlias}.${ifIndex}`;
    const rw = ours(lab.options.writeCommunity ?? "private");
    const answer = await call<Varbind[]>((cb) =>
      rw.set([{ oid, type: ObjectType.OctetString, value: "lobby phone" }], cb),
    );
    expect(plain(answer)).toEqual([
      { oid, type: ObjectType.OctetString, value: Buffer.from("lobby phone").toString("hex") },
    ]);
    expect(lab.model.alias(ifIndex)).toBe("lobby phone");
    const [got] = await call<Varbind[]>((cb) => ours().get([oid], cb));
    expect(got.value).toEqual(Buffer.from("lobby phone"));
  });

  it("turns an error-status into net-snmp's RequestFailedError, naming the object", async () => {
    const ifIndex = lab.model.port(5).ifIndex;
    const oids = [`${ifXTable.ifAlias}.${ifIndex}`, `${ifTable.ifDescr}.${ifIndex}`];
    const rw = ours(lab.options.writeCommunity ?? "private");
    const set = (s: PduSession) =>
      call<Varbind[]>((cb) =>
        s.set(
          oids.map((oid) => ({ oid, type: ObjectType.OctetString, value: "x" })),
          cb,
        ),
      );
    const a = await failure(set(rw));
    const b = await failure(set(theirs(lab.options.writeCommunity ?? "private")));
    expect(a.name).toBe("RequestFailedError");
    expect({ message: a.message, status: a.status }).toEqual({ message: b.message, status: b.status });
    expect(a.message).toContain(oids[1]);
    // nothing of the refused PDU was applied
    expect(lab.model.alias(ifIndex)).not.toBe("x");
  });
});

describe("the drivers' v2c client and a device that does not answer well", () => {
  let quiet: dgram.Socket;
  let port: number;
  const received: Buffer[] = [];
  let reply: ((msg: Buffer, to: AddressInfo) => void) | null = null;

  beforeAll(async () => {
    quiet = dgram.createSocket("udp4");
    quiet.on("message", (msg, rinfo) => {
      received.push(msg);
      reply?.(msg, rinfo);
    });
    await new Promise<void>((resolve) => quiet.bind(0, "127.0.0.1", resolve));
    port = quiet.address().port;
  });
  afterAll(() => quiet.close());
  beforeEach(() => {
    received.length = 0;
    reply = null;
  });

  it("gives up after exactly the configured tries, each one a datagram", async () => {
    const s = new V2cSession("127.0.0.1", "public", { port, timeout: 100, retries: 2 });
    const started = Date.now();
    const error = await failure(call<Varbind[]>((cb) => s.get([SYS_DESCR], cb)));
    s.close();
    expect(error.name).toBe("RequestTimedOutError");
    expect(received).toHaveLength(3);
    // the same request each time
    expect(received[1].equals(received[0])).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it("takes no garbage and no other community's answer for its answer", async () => {
    // the request echoed back with a Response PDU type, as a device would answer with
    // the community changed (same length) or as bytes that are not SNMP at all
    reply = (msg, to) => {
      quiet.send(Buffer.from("not snmp at all"), to.port, to.address);
      const answer = Buffer.from(msg);
      const at = answer.indexOf(Buffer.from("public"));
      answer.write("PUBLIC", at);
      answer[answer.indexOf(0xa0, at)] = 0xa2;
      quiet.send(answer, to.port, to.address);
    };
    const s = new V2cSession("127.0.0.1", "public", { port, timeout: 1000, retries: 0 });
    const error = await failure(call<Varbind[]>((cb) => s.get([SYS_DESCR], cb)));
    s.close();
    expect(error.name).toBe("ResponseInvalidError");
    expect(error.message).toContain("Community 'public' in request does not match community 'PUBLIC'");
  });

  it("ends a request still out when the session is closed", async () => {
    const s = new V2cSession("127.0.0.1", "public", { port, timeout: 5000, retries: 0 });
    const pending = failure(call<Varbind[]>((cb) => s.get([SYS_DESCR], cb)));
    await new Promise((r) => setTimeout(r, 50));
    s.close();
    const error = await pending;
    expect(error.message).toBe("Socket forcibly closed");
    expect(() => s.get([SYS_DESCR], () => undefined)).toThrow("session closed");
  });
});
