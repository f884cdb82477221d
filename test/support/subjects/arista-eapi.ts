/** Conformance subjects of the Arista eAPI driver: the lab's arista profile through its eAPI face (HTTPS, JSON-RPC). */
import type { Subject } from "../conformance";
import { eapiFace } from "./faces";

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "arista_eapi",
    label: "lab eAPI face (HTTPS JSON-RPC), arista profile",
    lab: { profile: "arista", ports: 24, seed: 7 },
    face: eapiFace,
    interfaceId: (i) => i.name,
    unknownId: "Ethernet999",
    // one runCmds request: show interfaces, show interfaces switchport, show vlan
    learnInterfacesRequests: 1,
  },
];
