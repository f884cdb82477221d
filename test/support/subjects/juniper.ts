/** Conformance subjects of the Juniper driver (read only): the Junos lab profile and the QFX and EX recordings. */
import type { Subject } from "../conformance";
import { ifIndexId, recording, recordingsServable, snmpFace } from "./faces";

const RECORDED = ["junos_qfx5100", "junos_ex4600mp"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "juniper",
    label: "lab profile juniper, SNMP v2c",
    lab: { profile: "juniper", ports: 24, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "juniper",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
