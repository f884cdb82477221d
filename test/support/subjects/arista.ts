/** Conformance subjects of the Arista EOS driver: the lab's arista profile and the recording. */
import type { Subject } from "../conformance";
import { ifIndexId, recording, recordingsServable, snmpFace } from "./faces";

const RECORDED = ["arista_eos"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "arista",
    label: "lab profile arista, SNMP v2c",
    lab: { profile: "arista", ports: 24, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "arista",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
