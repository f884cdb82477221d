/** Conformance subjects of the FS.com driver. */
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const RECORDED = ["fs-switch_s3900"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "fs",
    label: "lab profile fs, SNMP v2c",
    lab: { profile: "fs", ports: 28, poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    qbridgeWrites: true,
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({ kind: "recording", driver: "fs", recording: name, serve: recording(name) }))
    : []),
];
