/**
 * Conformance subjects of the HPE Comware driver. No Q-BRIDGE untagged-VLAN tests: a
 * Comware switch takes no Q-BRIDGE membership writes (its port VLANs change through the
 * HH3C tables, which the suite's setUntaggedVlan test covers with the lab's rules).
 */
import type { LabV3User } from "../../../lab";
import type { Subject } from "../conformance";
import { ifIndexId, poe8, recording, recordingsServable, snmpFace } from "./faces";

const v3: LabV3User = {
  username: "conformance",
  authProtocol: "SHA",
  authKey: "conformance-auth-cw",
  privProtocol: "AES",
  privKey: "conformance-priv-cw",
};
const RECORDED = ["comware_a5500"];

export const recordingsServed = recordingsServable(RECORDED);

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "comware",
    label: "lab profile comware, SNMP v2c",
    lab: { profile: "comware", ports: 24, routedPorts: [20], poePorts: poe8, seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  {
    kind: "lab",
    driver: "comware",
    label: "lab profile comware, SNMP v3 authPriv (SHA-1, AES-128)",
    lab: { profile: "comware", ports: 12, v3, poePorts: [1, 2, 3, 4], seed: 7 },
    face: snmpFace("3"),
    interfaceId: ifIndexId,
    unknownId: "999999",
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "comware",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
