/**
 * Juniper Junos ELS switch (EX family; sysObjectID of the recorded EX4600). Port n is
 * ge-m/0/p (48 ports an FPC, p from 0) with the physical ifIndex 513 + 2(n - 1) and its
 * logical unit ge-m/0/p.0 (propVirtual) right after it: ifIndexes in the 500s as
 * recorded. Bridge ports are 4096 + n and map to the physical ifIndex, as recorded on
 * the QFX. LLDP local ports are ifIndexes.
 */
import { lldpByIfIndex, memberPort, type SwitchProfile } from "./types";

const PER_FPC = 48;
const physicalIfIndex = (n: number) => 513 + 2 * (n - 1);
const junosName = (n: number) => {
  const { member, port } = memberPort(n, PER_FPC);
  return `ge-${member - 1}/0/${port - 1}`;
};

export const juniper: SwitchProfile = {
  id: "juniper",
  vendor: "Juniper",
  seedSalt: 8,
  sysObjectID: () => "1.3.6.1.4.1.2636.1.1.1.4.63.9",
  model: () => "ex4600-40f",
  sysDescr: () =>
    "Juniper Networks, Inc. ex4600-40f Ethernet Switch, kernel JUNOS 18.4R2-S3.2, Build date: 2020-01-20 09:35:31 UTC Copyright (c) 1996-2020 Juniper Networks, Inc.",
  softwareVersion: "18.4R2-S3.2",
  portIfIndex: physicalIfIndex,
  portName: junosName,
  portDescr: junosName,
  portBridgePort: (n) => 4096 + n,
  chassis: {
    refused: "it numbers ports by FPC (ge-<fpc>/0/<port>, 48 an FPC, bridge port 4096 + n); more ports make more FPCs",
  },
  layout: (ports) => ({
    lag: null,
    svi: { ifIndex: 501, ifType: 53, name: "irb.0" },
    loopback: { ifIndex: 6, ifType: 24, name: "lo0" },
    extra: [
      { ifIndex: 5, ifType: 1, name: "dsc" },
      ...Array.from({ length: ports }, (_, i) => ({
        ifIndex: physicalIfIndex(i + 1) + 1,
        ifType: 53,
        name: `${junosName(i + 1)}.0`,
      })),
    ],
  }),
  poePort: (n) => {
    const { member, port } = memberPort(n, PER_FPC);
    return { group: member, index: port };
  },
  lldpPortNum: lldpByIfIndex,
  // a Junos commit is persistent; there is nothing to save (and SNMP cannot write anyway)
  needsSave: false,
  maxAliasLength: 900,
  maxVlanNameLength: 255,
  maxVlans: 4094,
  defaultVlanName: "default",
  newVlanName: (id) => `vlan${id}`,
  defaultPoe: "none",
};
