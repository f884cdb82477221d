/** Conformance subjects of the generic SNMP driver. */
import type { LabV3User } from "../../../lab";
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA-256",
  authKey: "conformance-auth-1",
  privProtocol: "AES",
  privKey: "conformance-priv-1",
};
const RECORDED = ["dlink_dgs-1510-28", "linksys-ss_lgs318p"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "generic",
    label: "lab profile generic, SNMP v2c",
    lab: { profile: "generic", ports: 24, poePorts: poe8, routedPorts: [20], seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    qbridgeWrites: true,
  },
  {
    kind: "lab",
    driver: "generic",
    label: "lab profile generic, SNMP v3 authPriv (SHA-256, AES-128)",
    lab: { profile: "generic", ports: 12, poePorts: [2, 3], v3, seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "generic",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
