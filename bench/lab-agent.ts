/**
 * Benchmark of the lab's SNMP agent, so lab time never hides the device round trips
 * other benchmarks measure:
 *  1. the agent's own processing of one SNMPv2c GetBulk that returns 1,000 values from
 *     a 384-port switch (decode, index lookups, value reads, encode), called directly,
 *     no UDP: median and p99 over many iterations;
 *  2. the baseline from the same run: net-snmp's own agent (createAgent, its MIB
 *     provider tables filled with the same interface data) walked over UDP by
 *     net-snmp's client for 1,000 values, against the lab agent walked the same way.
 * Run: node dist/bench/lab-agent.js (after npm run build).
 */
import dgram from "node:dgram";
import { performance } from "node:perf_hooks";
import { ifTable } from "../mib/oids";
import { VirtualSwitch } from "../lab/model";
import { SnmpAgent } from "../lab/snmp/agent";
import { BerReader, encodeInteger, encodeOctets, encodeOid, tlv } from "../mib/ber";
import { parseOid } from "../lab/snmp/oid";
import { decodePdu, encodePdu, PduType, VarBindListWriter } from "../mib/pdu";
import { switchProvider } from "../lab/snmp/switch-mib";
import { Tag } from "../mib/smi-values";
import { netSnmp, ObjectType } from "../drivers/snmp/net-snmp-api";
import { median, quantile } from "./stats";

/** The agent side of net-snmp the baseline uses (the package ships no declarations). */
interface NetSnmpAgentApi {
  createAgent(
    options: { port: number; address: string; disableAuthorization: boolean },
    onRequest: (error: Error | null) => void,
  ): NetSnmpAgent;
  /** SMIv2 MAX-ACCESS by name ("read-only") */
  MaxAccess: Record<string, number>;
  /** "Scalar", "Table" */
  MibProviderType: Record<string, number>;
}

interface NetSnmpAgent {
  getMib(): NetSnmpMib;
  close(done: () => void): void;
}

interface TableColumn {
  number: number;
  name: string;
  type: number;
  maxAccess: number;
}

interface NetSnmpMib {
  registerProvider(provider: {
    name: string;
    type: number;
    oid: string;
    maxAccess: number;
    tableColumns: TableColumn[];
    tableIndex: { columnName: string }[];
  }): void;
  addTableRow(table: string, row: Array<number | string | Buffer>): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports -- net-snmp ships no declarations; NetSnmpAgentApi is its agent side
const agentApi = require("net-snmp") as NetSnmpAgentApi;

const VALUES = 1000;
const ITERATIONS = 400;
const WARMUP = 50;
const WALK_RUNS = 5;

export interface LabAgentBenchResult {
  direct: { medianMs: number; p99Ms: number; values: number };
  udpWalk: { labMs: number; netSnmpMs: number; ratio: number; values: number };
}

/** An SNMPv2c GetBulk request for these columns. */
function getBulkRequest(columns: string[], maxRepetitions: number): Buffer {
  const vbs = new VarBindListWriter();
  for (const c of columns) vbs.add(encodeOid(parseOid(c)), Buffer.from([Tag.Null, 0]));
  const pdu = encodePdu(PduType.GetBulkRequest, 4242, 0, maxRepetitions, vbs.toBuffer());
  return tlv(Tag.Sequence, encodeInteger(1), encodeOctets("public"), pdu);
}

function countValues(response: Buffer): number {
  const r = new BerReader(response).enter(Tag.Sequence);
  r.readInteger();
  r.readOctets();
  return decodePdu(r).varbinds.length;
}

function benchDirect(sw: VirtualSwitch): LabAgentBenchResult["direct"] {
  const agent = new SnmpAgent(switchProvider(sw), { readCommunity: "public", writeCommunity: "private" });
  const columns = [ifTable.ifDescr, ifTable.ifType, ifTable.ifAdminStatus, ifTable.ifOperStatus];
  const request = getBulkRequest(columns, VALUES / columns.length);
  const first = agent.handleMessage(request);
  const values = first ? countValues(first) : 0;
  if (values !== VALUES) throw new Error(`expected ${VALUES} values, the agent answered ${values}`);
  for (let i = 0; i < WARMUP; i++) agent.handleMessage(request);
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    agent.handleMessage(request);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { medianMs: quantile(times, 0.5), p99Ms: quantile(times, 0.99), values };
}

function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket("udp4");
    s.once("error", reject);
    s.bind(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** net-snmp's agent with an ifTable provider holding the switch's interfaces. */
async function startNetSnmpAgent(sw: VirtualSwitch): Promise<{ port: number; close(): Promise<void> }> {
  const port = await freeUdpPort();
  const agent = agentApi.createAgent({ port, address: "127.0.0.1", disableAuthorization: true }, () => undefined);
  const ro = agentApi.MaxAccess["read-only"];
  const column = (number: number, name: string, type: number): TableColumn => ({ number, name, type, maxAccess: ro });
  agent.getMib().registerProvider({
    name: "ifEntry",
    type: agentApi.MibProviderType.Table,
    oid: "1.3.6.1.2.1.2.2.1",
    maxAccess: agentApi.MaxAccess["not-accessible"],
    tableColumns: [
      column(1, "ifIndex", ObjectType.Integer),
      column(2, "ifDescr", ObjectType.OctetString),
      column(3, "ifType", ObjectType.Integer),
      column(4, "ifMtu", ObjectType.Integer),
      column(5, "ifSpeed", ObjectType.Gauge),
      column(6, "ifPhysAddress", ObjectType.OctetString),
      column(7, "ifAdminStatus", ObjectType.Integer),
      column(8, "ifOperStatus", ObjectType.Integer),
    ],
    tableIndex: [{ columnName: "ifIndex" }],
  });
  for (const i of sw.interfaces) {
    agent
      .getMib()
      .addTableRow("ifEntry", [
        i.ifIndex,
        i.descr,
        i.ifType,
        i.mtu,
        Math.min(i.speedMbps * 1e6, 4294967295),
        i.mac,
        sw.adminUp(i.ifIndex) ? 1 : 2,
        sw.operUp(i.ifIndex) ? 1 : 2,
      ]);
  }
  return { port, close: () => new Promise((resolve) => agent.close(() => resolve())) };
}

/** Time to walk the first `values` values of ifTable with net-snmp's client (GetBulk, 50 a request). */
function walkValues(port: number, values: number): Promise<{ ms: number; got: number }> {
  return new Promise((resolve, reject) => {
    const session = netSnmp.createSession("127.0.0.1", "public", {
      port,
      version: netSnmp.Version2c,
      timeout: 5000,
      retries: 0,
    });
    let got = 0;
    const t0 = performance.now();
    session.subtree(
      "1.3.6.1.2.1.2.2.1",
      50,
      (vbs) => {
        got += vbs.length;
        return got >= values; // true stops the walk
      },
      (err) => {
        const ms = performance.now() - t0;
        session.close();
        if (err) reject(err);
        else resolve({ ms, got });
      },
    );
  });
}

async function benchUdpWalk(sw: VirtualSwitch): Promise<LabAgentBenchResult["udpWalk"]> {
  const lab = new SnmpAgent(switchProvider(sw), { readCommunity: "public", writeCommunity: "private" });
  const labPort = await lab.start(0);
  const baseline = await startNetSnmpAgent(sw);
  try {
    const labTimes: number[] = [];
    const netTimes: number[] = [];
    let values = 0;
    await walkValues(labPort, VALUES);
    await walkValues(baseline.port, VALUES);
    for (let i = 0; i < WALK_RUNS; i++) {
      const a = await walkValues(labPort, VALUES);
      const b = await walkValues(baseline.port, VALUES);
      labTimes.push(a.ms);
      netTimes.push(b.ms);
      values = Math.min(a.got, b.got);
    }
    const labMs = median(labTimes);
    const netSnmpMs = median(netTimes);
    return { labMs, netSnmpMs, ratio: netSnmpMs / labMs, values };
  } finally {
    await lab.stop();
    await baseline.close();
  }
}

export async function main(): Promise<LabAgentBenchResult> {
  const sw = new VirtualSwitch({ profile: "generic", ports: 384, poePorts: "all", seed: 1 });
  const direct = benchDirect(sw);
  console.log(
    `lab agent, GetBulk of ${direct.values} values from a 384-port switch, processing only: ` +
      `median ${direct.medianMs.toFixed(3)} ms, p99 ${direct.p99Ms.toFixed(3)} ms (${ITERATIONS} runs)`,
  );
  const udpWalk = await benchUdpWalk(sw);
  console.log(
    `walk of ${udpWalk.values} ifTable values over UDP (net-snmp client, 50 per GetBulk), median of ${WALK_RUNS}: ` +
      `lab agent ${udpWalk.labMs.toFixed(1)} ms, net-snmp agent ${udpWalk.netSnmpMs.toFixed(1)} ms, ` +
      `ratio ${udpWalk.ratio.toFixed(1)}x`,
  );
  return { direct, udpWalk };
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
