/** Conformance subjects of the Dell driver: the OS10 lab profile and the OS10 and OS9 recordings. */
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const RECORDED = ["dell-os10", "dnos"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "dell",
    label: "lab profile dell (OS10), SNMP v2c",
    lab: { profile: "dell", ports: 24, poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({ kind: "recording", driver: "dell", recording: name, serve: recording(name) }))
    : []),
];
