/** Conformance subjects of the Cisco IOS / IOS-XE SNMP driver. */
import type { LabV3User } from "../../../lab";
import type { Connection } from "../../../model/targets";
import type { Subject } from "../conformance";
import { startSnmpsim } from "../snmpsim";
import { listContexts, recordingPath } from "../snmprec-facts";
import { ifIndexId, poe8, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA-256",
  authKey: "conformance-auth-3",
  privProtocol: "AES",
  privKey: "conformance-priv-3",
};
const RECORDED = ["ios_2960x", "ios_4506e", "ios_stp-vlans", "iosxe_c9300"];

export const recordingsServed = recordingsServable(RECORDED);

/** snmpsimd serving one recording and its community@vlan files (IOS answers per-VLAN MAC tables there) */
function recordingWithContexts(name: string) {
  return async () => {
    const recordings: Record<string, string> = { [name]: recordingPath(name)! };
    for (const c of listContexts(name)) recordings[`${name}@${c.context}`] = c.file;
    const sim = await startSnmpsim({ recordings });
    const connection: Connection = {
      connector: 0,
      snmp: { host: "127.0.0.1", port: sim.port, version: "2c", community: name, timeout_ms: 3000, retries: 1 },
    };
    return { connection, stop: () => sim.stop() };
  };
}

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "cisco",
    label: "lab profile cisco, SNMP v2c",
    lab: { profile: "cisco", ports: 24, poePorts: poe8, routedPorts: [20], seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  {
    kind: "lab",
    driver: "cisco",
    label: "lab profile cisco, SNMP v3 authPriv (SHA-256, AES-128), VLAN contexts vlan-N",
    lab: { profile: "cisco", ports: 12, v3, poePorts: [1, 2, 3, 4], seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "cisco",
        recording: name,
        serve: recordingWithContexts(name),
      }))
    : []),
];
