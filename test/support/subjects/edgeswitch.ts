/** Conformance subjects of the Ubiquiti UniFi / EdgeSwitch driver. */
import type { LabV3User } from "../../../lab";
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA",
  authKey: "conformance-auth-5",
  privProtocol: "AES",
  privKey: "conformance-priv-5",
};
const RECORDED = ["edgeswitch_us-8-v2"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "edgeswitch",
    label: "lab profile edgeswitch, SNMP v2c",
    lab: { profile: "edgeswitch", ports: 16, poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    qbridgeWrites: true,
  },
  {
    kind: "lab",
    driver: "edgeswitch",
    label: "lab profile edgeswitch, SNMP v3 authPriv (SHA, AES-128)",
    lab: { profile: "edgeswitch", ports: 10, v3, poePorts: [1, 2], seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "edgeswitch",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
