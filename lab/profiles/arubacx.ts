/**
 * Aruba AOS-CX (a 6300M; sysObjectID and sysDescr as recorded). Member m holds up to 52
 * ports named m/1/p with ifIndex = bridge port = 64 * (m - 1) + p, as in the recorded VSF
 * stack. VLAN interfaces are propVirtual at 16777216 + VLAN id (vlan1 = 16777217), the
 * management port eth0 is 268435456 and no bridge port.
 */
import { lldpByBridgePort, memberPort, type SwitchProfile } from "./types";

const PER_MEMBER = 52;

export const arubacx: SwitchProfile = {
  id: "arubacx",
  vendor: "HPE Aruba",
  seedSalt: 5,
  sysObjectID: () => "1.3.6.1.4.1.47196.4.1.1.1.100",
  model: (_ports, poe) => (poe ? "JL661A 6300M 48G CL4 PoE 4SFP56" : "JL658A 6300M 24SFP+ 4SFP56"),
  sysDescr: (_ports, poe) =>
    `HPE ANW ${poe ? "JL661A 6300M 48G CL4 PoE 4SFP56" : "JL658A 6300M 24SFP+ 4SFP56"} Swch FL.10.16.1006`,
  softwareVersion: "FL.10.16.1006",
  portIfIndex: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return 64 * (member - 1) + port;
  },
  portName: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return `${member}/1/${port}`;
  },
  portDescr: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return `${member}/1/${port}`;
  },
  portBridgePort: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return 64 * (member - 1) + port;
  },
  chassis: {
    refused:
      "it numbers ports by VSF member (<member>/1/<port>, bridge port 64 * (member - 1) + port); more ports make more members",
  },
  layout: () => ({
    lag: null,
    svi: { ifIndex: 16777217, ifType: 53, name: "vlan1" },
    loopback: null,
    extra: [{ ifIndex: 268435456, ifType: 6, name: "eth0" }],
  }),
  poePort: (n) => {
    const { member, port } = memberPort(n, PER_MEMBER);
    return { group: member, index: port };
  },
  lldpPortNum: lldpByBridgePort,
  needsSave: true,
  maxAliasLength: 64,
  maxVlanNameLength: 32,
  maxVlans: 4094,
  defaultVlanName: "DEFAULT_VLAN_1",
  newVlanName: (id) => `VLAN${id}`,
  defaultPoe: "none",
};
