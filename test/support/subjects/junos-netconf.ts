/** Conformance subjects of the Junos NETCONF driver: the lab's NETCONF face on the juniper profile. */
import { startLabNetconfFace, type LabSwitch } from "../../../lab";
import type { LabFace, Subject } from "../conformance";
import { poe8 } from "./faces";

/** the lab switch's NETCONF face (Junos NETCONF over SSH, ELS unless told) */
export function netconfFace(options: { style?: "els" | "legacy" } = {}) {
  return async (lab: LabSwitch): Promise<LabFace> => {
    const face = await startLabNetconfFace(lab, { style: options.style });
    // the face keeps the last 1000 RPC names: they are counted as they come
    let rpcs = 0;
    return {
      connection: {
        connector: 2,
        ssh: { ...face.sshTarget(), command_timeout_ms: 1000, connect_timeout_ms: 1500 },
      },
      faults: {
        silent: () => void (face.faults.silent = true),
        silentAfter: (n) => face.faults.silentAfter(n),
        refuseWrites: () => void (face.faults.refuseWrites = "configuration refused by the conformance suite"),
        lieOnWrites: () => void (face.faults.lieOnWrites = true),
        reset: () => face.faults.reset(),
      },
      refusalText: /configuration refused by the conformance suite/,
      requests: () => (rpcs += face.counters.rpcs.splice(0).length),
      stop: () => face.stop(),
    };
  };
}

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "junos_netconf",
    label: "lab NETCONF face (ELS), juniper profile",
    lab: { profile: "juniper", ports: 24, poePorts: poe8, seed: 7 },
    face: netconfFace(),
    interfaceId: (i) => i.name,
    unknownId: "ge-9/0/99",
    // get-interface-information, get-vlan-information, get-poe-interface-information
    learnInterfacesRequests: 3,
  },
];
