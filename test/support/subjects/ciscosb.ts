/** Conformance subjects of the Cisco small business driver. */
import type { LabV3User } from "../../../lab";
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA-512",
  authKey: "conformance-auth-2",
  privProtocol: "AES-256",
  privKey: "conformance-priv-2",
};
const RECORDED = ["ciscosb_cbs350-4x"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "ciscosb",
    label: "lab profile ciscosb, SNMP v2c",
    lab: { profile: "ciscosb", ports: 24, routedPorts: [20], poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    qbridgeWrites: true,
  },
  {
    kind: "lab",
    driver: "ciscosb",
    label: "lab profile ciscosb, SNMP v3 authPriv (SHA-512, AES-256)",
    lab: { profile: "ciscosb", ports: 12, v3, poePorts: [1, 2, 3, 4], seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "ciscosb",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
