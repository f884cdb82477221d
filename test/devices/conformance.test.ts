/**
 * The conformance suite (test/support/conformance.ts) on its subjects: every registered
 * driver against the lab (its SNMP face, v2c and v3, or its SSH face), the SNMP families
 * against recordings of real switches served by snmpsimd, and the Linux host driver
 * against a real OpenSSH server in a network namespace. A registered driver without a
 * subject fails the first test.
 */
import fs from "node:fs";
import { iosInterfaceName, startLabSshFace, type LabSwitch, type LabV3User } from "../../lab";
import type { LabInterface, VirtualSwitch } from "../../lab/model";
import type { Connection } from "../../model/targets";
import {
  everyDriverHasASubject,
  listSkips,
  runLabSubject,
  runRealSubject,
  runRecordingSubject,
  type LabFace,
  type Subject,
} from "../support/conformance";
import { expectedInterface } from "../support/lab-expectations";
import { netnsSshdUnavailable, startNetnsSshd } from "../support/netns-sshd";
import { SNMPSIMD, startSnmpsim } from "../support/snmpsim";
import { snmprecPath } from "../support/fixtures";

const v3Sha256: LabV3User = { username: "conformance", authProtocol: "SHA-256", authKey: "conformance-auth-1", privProtocol: "AES", privKey: "conformance-priv-1" };
const v3Sha512: LabV3User = { username: "conformance", authProtocol: "SHA-512", authKey: "conformance-auth-2", privProtocol: "AES-256", privKey: "conformance-priv-2" };

/** the lab switch's SNMP face (its agent is already running) */
function snmpFace(version: "2c" | "3") {
  return async (lab: LabSwitch): Promise<LabFace> => ({
    connection: { connector: 0, snmp: { ...lab.snmpTarget({ version, write: true }), timeout_ms: 300, retries: 1 } },
    faults: {
      silent: () => void (lab.faults.drop = true),
      silentAfter: (n) => lab.faults.dropAfter(n),
      refuseWrites: () => void (lab.faults.refuseSets = "notWritable"),
      lieOnWrites: () => void (lab.faults.lieOnSet = true),
      reset: () => lab.faults.reset(),
    },
    refusalText: /notWritable/,
    stop: async () => undefined,
  });
}

/** the lab switch's SSH face: the IOS command line over the same model */
async function sshFace(lab: LabSwitch): Promise<LabFace> {
  const face = await startLabSshFace(lab);
  return {
    connection: { connector: 7, ssh: { ...face.sshTarget(), command_timeout_ms: 1000, connect_timeout_ms: 1500 } },
    faults: {
      silent: () => void (face.faults.hang = true),
      silentAfter: (n) => face.faults.dropAfter(n),
      refuseWrites: () => face.faults.refuseCommands(/^(description|no description|shutdown|no shutdown)/, "Command rejected by the conformance suite"),
      lieOnWrites: () => void (face.faults.lieOnWrite = true),
      reset: () => face.faults.reset(),
    },
    refusalText: /rejected by the conformance suite/,
    stop: () => face.stop(),
  };
}

/** IOS names interfaces its own way, and prints a speed only for a port with a link ("auto" otherwise) */
function expectIos(model: VirtualSwitch, i: LabInterface, id: string) {
  const e = expectedInterface(model, i, id);
  return { ...e, name: id, speed: e.oper_up && i.portNumber !== null ? i.speedMbps : 0 };
}

const ifIndexId = (i: LabInterface) => String(i.ifIndex);
const poe8 = [1, 2, 3, 4, 5, 6, 7, 8];

const RECORDED = ["dlink_dgs-1510-28", "linksys-ss_lgs318p", "ciscosb_cbs350-4x"];
const replayable = RECORDED.every((name) => snmprecPath(name) !== null) && fs.existsSync(SNMPSIMD);
if (!replayable) {
  const why = fs.existsSync(SNMPSIMD) ? "the recordings (../shared/fixtures/snmprec) are absent" : `${SNMPSIMD} is missing`;
  if (process.env.CI && fs.existsSync(SNMPSIMD) === false) throw new Error(`conformance: ${why}; .ci/run must install snmpsim`);
  console.warn(`conformance: recording subjects skipped: ${why}`);
}

/** snmpsimd serving one recording (the community is its name) */
function recording(name: string) {
  return async () => {
    const sim = await startSnmpsim({ recordings: { [name]: snmprecPath(name)! } });
    const connection: Connection = { connector: 0, snmp: { host: "127.0.0.1", port: sim.port, version: "2c", community: name, timeout_ms: 3000, retries: 1 } };
    return { connection, stop: () => sim.stop() };
  };
}

const subjects: Subject[] = [
  { kind: "lab", driver: "generic", label: "lab profile generic, SNMP v2c", lab: { profile: "generic", ports: 24, poePorts: poe8, routedPorts: [20], seed: 7 }, face: snmpFace("2c"), interfaceId: ifIndexId, unknownId: "999999", qbridgeWrites: true },
  { kind: "lab", driver: "generic", label: "lab profile generic, SNMP v3 authPriv (SHA-256, AES-128)", lab: { profile: "generic", ports: 12, poePorts: [2, 3], v3: v3Sha256, seed: 7 }, face: snmpFace("3"), interfaceId: ifIndexId, unknownId: "999999" },
  { kind: "lab", driver: "ciscosb", label: "lab profile ciscosb, SNMP v2c", lab: { profile: "ciscosb", ports: 24, routedPorts: [20], poePorts: poe8, seed: 7 }, face: snmpFace("2c"), interfaceId: ifIndexId, unknownId: "999999", qbridgeWrites: true },
  { kind: "lab", driver: "ciscosb", label: "lab profile ciscosb, SNMP v3 authPriv (SHA-512, AES-256)", lab: { profile: "ciscosb", ports: 12, v3: v3Sha512, poePorts: [1, 2, 3, 4], seed: 7 }, face: snmpFace("3"), interfaceId: ifIndexId, unknownId: "999999" },
  {
    kind: "lab",
    driver: "cisco_ios_cli",
    label: "lab SSH face (IOS dialect), generic profile",
    lab: { profile: "generic", ports: 24, poePorts: poe8, seed: 7 },
    face: sshFace,
    interfaceId: iosInterfaceName,
    unknownId: "GigabitEthernet9/0/99",
    expectInterface: expectIos,
  },
  ...(replayable
    ? ([
        { kind: "recording", driver: "generic", recording: "dlink_dgs-1510-28", serve: recording("dlink_dgs-1510-28") },
        { kind: "recording", driver: "generic", recording: "linksys-ss_lgs318p", serve: recording("linksys-ss_lgs318p") },
        { kind: "recording", driver: "ciscosb", recording: "ciscosb_cbs350-4x", serve: recording("ciscosb_cbs350-4x") },
      ] satisfies Subject[])
    : []),
  {
    kind: "real",
    driver: "linux_host",
    label: "OpenSSH in a network namespace with veth ports",
    unavailable: netnsSshdUnavailable(),
    async start() {
      const sshd = await startNetnsSshd(2);
      const link = (name: string) => sshd.links().find((l) => l.ifname === name)!;
      return {
        connection: {
          connector: 7,
          ssh: { host: sshd.host, port: sshd.port, username: "root", private_key: sshd.privateKey, host_key_fingerprint: sshd.hostKeyFingerprint, connect_timeout_ms: 5000, command_timeout_ms: 5000 },
        },
        port: sshd.ports[0],
        adminUp: (port) => link(port).flags.includes("UP"),
        description: (port) => link(port).ifalias ?? "",
        portNames: () => sshd.links().map((l) => l.ifname),
        stop: () => sshd.stop(),
      };
    },
  },
];

everyDriverHasASubject(subjects, { recordingsServed: replayable });
listSkips();

for (const subject of subjects) {
  if (subject.kind === "lab") runLabSubject(subject);
  else if (subject.kind === "recording") runRecordingSubject(subject);
  else runRealSubject(subject);
}
