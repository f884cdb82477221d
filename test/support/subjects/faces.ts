/**
 * How conformance subjects reach their device: the lab switch's SNMP face, its SSH face
 * (the IOS command line over the same model), snmpsimd serving a recording. Families'
 * subject lists (beside this file) use them.
 */
import fs from "node:fs";
import { startLabEapiFace, startLabSshFace, type LabSwitch } from "../../../lab";
import type { LabInterface, VirtualSwitch } from "../../../lab/model";
import type { Connection } from "../../../model/targets";
import type { LabFace } from "../conformance";
import { expectedInterface } from "../lab-expectations";
import { SNMPSIMD, startSnmpsim } from "../snmpsim";
import { snmprecPath } from "../fixtures";

/** the lab switch's SNMP face (its agent is already running) */
export function snmpFace(version: "2c" | "3") {
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
export async function sshFace(lab: LabSwitch): Promise<LabFace> {
  const face = await startLabSshFace(lab);
  return {
    connection: { connector: 7, ssh: { ...face.sshTarget(), command_timeout_ms: 1000, connect_timeout_ms: 1500 } },
    faults: {
      silent: () => void (face.faults.hang = true),
      silentAfter: (n) => face.faults.dropAfter(n),
      refuseWrites: () =>
        face.faults.refuseCommands(
          /^(description|no description|shutdown|no shutdown|switchport)/,
          "Command rejected by the conformance suite",
        ),
      lieOnWrites: () => void (face.faults.lieOnWrite = true),
      reset: () => face.faults.reset(),
    },
    refusalText: /rejected by the conformance suite/,
    requests: () => face.counters.commands,
    stop: () => face.stop(),
  };
}

/** the lab switch's eAPI face: EOS's JSON-RPC over HTTPS, over the same model; the certificate pinned */
export async function eapiFace(lab: LabSwitch): Promise<LabFace> {
  const face = await startLabEapiFace(lab);
  return {
    connection: {
      connector: 3,
      https: { ...face.httpsTarget({ pin: true }), request_timeout_ms: 1000, connect_timeout_ms: 1500 },
    },
    faults: {
      silent: () => void (face.faults.hang = true),
      silentAfter: (n) => face.faults.silentAfter(n),
      refuseWrites: () =>
        face.faults.refuseCommands(
          /^(description|no description|shutdown|no shutdown|switchport|no switchport|vlan|no vlan|name)/,
          "Command rejected by the conformance suite",
        ),
      lieOnWrites: () => void (face.faults.lieOnWrite = true),
      reset: () => face.faults.reset(),
    },
    refusalText: /rejected by the conformance suite/,
    requests: () => face.counters.requests,
    stop: () => face.stop(),
  };
}

/** IOS names interfaces its own way, and prints a speed only for a port with a link ("auto" otherwise) */
export function expectIos(model: VirtualSwitch, i: LabInterface, id: string) {
  const e = expectedInterface(model, i, id);
  return { ...e, name: id, speed: e.oper_up && i.portNumber !== null ? i.speedMbps : 0 };
}

export const ifIndexId = (i: LabInterface) => String(i.ifIndex);
export const poe8 = [1, 2, 3, 4, 5, 6, 7, 8];

/**
 * Whether recordings can be served here (the fixtures folder and snmpsimd). Under CI a
 * missing snmpsimd is an error (.ci/run installs it); elsewhere the recording subjects
 * are left out with the reason printed.
 */
export function recordingsServable(names: readonly string[]): boolean {
  const ok = names.every((name) => snmprecPath(name) !== null) && fs.existsSync(SNMPSIMD);
  if (!ok) {
    const why = fs.existsSync(SNMPSIMD)
      ? "the recordings (../shared/fixtures/snmprec) are absent"
      : `${SNMPSIMD} is missing`;
    if (process.env.CI && !fs.existsSync(SNMPSIMD))
      throw new Error(`conformance: ${why}; .ci/run must install snmpsim`);
    console.warn(`conformance: recording subjects skipped: ${why}`);
  }
  return ok;
}

/** snmpsimd serving one recording (the community is its name) */
export function recording(name: string) {
  return async () => {
    const sim = await startSnmpsim({ recordings: { [name]: snmprecPath(name)! } });
    const connection: Connection = {
      connector: 0,
      snmp: { host: "127.0.0.1", port: sim.port, version: "2c", community: name, timeout_ms: 3000, retries: 1 },
    };
    return { connection, stop: () => sim.stop() };
  };
}
