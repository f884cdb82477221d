/** Conformance subjects of the Cisco IOS command-line driver (SSH). */
import { iosInterfaceName } from "../../../lab";
import type { Subject } from "../conformance";
import { expectIos, poe8, sshFace } from "./faces";

export const subjects: Subject[] = [
  {
    kind: "lab",
    driver: "cisco_ios_cli",
    label: "lab SSH face (IOS dialect), generic profile",
    lab: { profile: "generic", ports: 24, poePorts: poe8, seed: 7 },
    face: sshFace,
    interfaceId: iosInterfaceName,
    unknownId: "GigabitEthernet9/0/99",
    // show vlan brief, show power inline, show interfaces description, ... status,
    // ... switchport, show ip interface brief, show running-config
    learnInterfacesRequests: 7,
    expectInterface: expectIos,
  },
];
