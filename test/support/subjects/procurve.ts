/** Conformance subjects of the HP ProCurve / Aruba AOS-S driver. */
import type { LabV3User } from "../../../lab";
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA-256",
  authKey: "conformance-auth-hp",
  privProtocol: "AES",
  privKey: "conformance-priv-hp",
};
const RECORDED = ["procurve_2520"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "procurve",
    label: "lab profile procurve, SNMP v2c",
    lab: { profile: "procurve", ports: 24, routedPorts: [20], poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    qbridgeWrites: true,
  },
  {
    kind: "lab",
    driver: "procurve",
    label: "lab profile procurve, SNMP v3 authPriv (SHA-256, AES-128)",
    lab: { profile: "procurve", ports: 12, v3, poePorts: [1, 2, 3, 4], seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "procurve",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
