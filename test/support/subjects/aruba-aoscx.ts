/**
 * Conformance subjects of the AOS-CX REST driver (aruba_aoscx): the lab's arubacx profile
 * served by its AOS-CX REST face (lab/aoscx/), over HTTPS with the face's certificate
 * pinned. REST shows VLAN names, so the model's VLANs are expected as they are.
 */
import { startLabAoscxFace, type LabSwitch } from "../../../lab";
import type { LabFace, Subject } from "../conformance";

/** the lab switch's AOS-CX REST face, short timeouts */
export async function aoscxFace(lab: LabSwitch): Promise<LabFace> {
  const face = await startLabAoscxFace(lab);
  return {
    connection: {
      connector: 1,
      https: { ...face.httpsTarget({ pin: true }), request_timeout_ms: 1000, connect_timeout_ms: 1500 },
    },
    faults: {
      silent: () => void (face.faults.silent = true),
      silentAfter: (n) => face.faults.silentAfter(n),
      refuseWrites: () => face.faults.refuseWrites("Write refused by the conformance suite"),
      lieOnWrites: () => void (face.faults.lieOnWrites = true),
      reset: () => face.faults.reset(),
    },
    refusalText: /Write refused by the conformance suite/,
    requests: () => face.counters.requests,
    stop: () => face.stop(),
  };
}

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "aruba_aoscx",
    label: "lab profile arubacx, AOS-CX REST face",
    lab: { profile: "arubacx", ports: 24, poePorts: [1, 2, 3, 4, 5, 6, 7, 8], seed: 7 },
    face: aoscxFace,
    interfaceId: (i) => i.name,
    unknownId: "9/1/99",
    // system/interfaces, system/vlans, system/interfaces/*/poe_interface
    learnInterfacesRequests: 3,
  },
];
