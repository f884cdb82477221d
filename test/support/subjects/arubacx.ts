/**
 * Conformance subjects of the Aruba AOS-CX driver: the lab's arubacx profile as one
 * switch and as a two-member VSF stack (ports 2/1/n, PoE rows of group 2), and both
 * recordings. The lab serves no VLAN names (as AOS-CX), so the driver reports the VLANs
 * its ports carry, unnamed.
 */
import type { VirtualSwitch } from "../../../lab/model";
import type { Subject } from "../conformance";
import { ifIndexId, recording, recordingsServable, snmpFace } from "./faces";

const RECORDED = ["arubaos-cx_10.16", "arubaos-cx_6300_vsf_stack"];

export const recordingsServed = recordingsServable(RECORDED);

/** the VLANs some port carries (PVID or member), unnamed: what AOS-CX lets a manager see */
export function carriedVlans(model: VirtualSwitch) {
  const ids = new Set<number>();
  for (const bp of model.bridgePorts) {
    const pvid = model.pvid(bp);
    if (pvid) ids.add(pvid);
  }
  for (const id of model.vlanIds()) if (model.vlan(id)!.egress.size > 0) ids.add(id);
  return [...ids].sort((a, b) => a - b).map((id) => ({ id, name: "", state: "Enabled" as const }));
}

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "arubacx",
    label: "lab profile arubacx, SNMP v2c",
    lab: { profile: "arubacx", ports: 24, poePorts: [1, 2, 3, 4, 5, 6, 7, 8], seed: 7 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    expectVlans: carriedVlans,
  },
  {
    kind: "lab",
    driver: "arubacx",
    label: "lab profile arubacx as a two-member VSF stack, SNMP v2c",
    // ports 53.. are member 2 (2/1/1 ...); PoE on both members
    lab: { profile: "arubacx", ports: 60, poePorts: [1, 2, 53, 54, 55, 56], seed: 11 },
    face: snmpFace("2c"),
    interfaceId: ifIndexId,
    unknownId: "999999",
    expectVlans: carriedVlans,
  },
  ...(recordingsServed
    ? RECORDED.map((name): Subject => ({
        kind: "recording",
        driver: "arubacx",
        recording: name,
        serve: recording(name),
      }))
    : []),
];
