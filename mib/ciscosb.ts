/**
 * Cisco small-business objects (ciscoSB, 1.3.6.1.4.1.9.6.1; the same RADLAN layout serves
 * Linksys LGS switches under 3955.1000.201) beyond what mib/oids.ts has (rlCopy for the
 * save). These switches serve Q-BRIDGE and POWER-ETHERNET-MIB themselves; the vendor PoE
 * table adds power and status per port, indexed like pethPsePortTable.
 *
 * Sources: CISCOSB-POE-MIB, CISCOSB-vlan-MIB (OIDs, enums and INDEX clauses as defined).
 */

/** CISCOSB-POE-MIB rlPethPsePortTable, index rlPethPsePortGroupIndex.rlPethPsePortIndex. */
export const ciscoSbPoe = {
  rlPethPsePortOutputVoltage: "1.3.6.1.4.1.9.6.1.101.108.1.1.3", // 0..2^31-1
  rlPethPsePortOutputCurrent: "1.3.6.1.4.1.9.6.1.101.108.1.1.4", // 0..2^31-1
  rlPethPsePortOutputPower: "1.3.6.1.4.1.9.6.1.101.108.1.1.5", // milliwatts delivered
  rlPethPsePortPowerLimit: "1.3.6.1.4.1.9.6.1.101.108.1.1.6", // read-write; 0..2^31-1
  rlPethPsePortStatus: "1.3.6.1.4.1.9.6.1.101.108.1.1.7", // hardware status code; the MIB defines no enum
  rlPethPsePortStatusDescription: "1.3.6.1.4.1.9.6.1.101.108.1.1.8", // DisplayString, the hardware status in words
  rlPethPsePortOperPowerLimit: "1.3.6.1.4.1.9.6.1.101.108.1.1.9", // milliwatts the port may deliver
  rlPethPsePortOperStatus: "1.3.6.1.4.1.9.6.1.101.108.1.1.11", // 1 true, 2 false: powered, after admin state and time range
} as const;

/**
 * CISCOSB-vlan-MIB per-port VLAN mode tables, index ifIndex. vlanPortModeState is a plain
 * INTEGER in this MIB ("1 is generic cli"): its other values are not defined here, so a
 * driver must not interpret them without a newer MIB.
 */
export const ciscoSbVlan = {
  vlanPortModeState: "1.3.6.1.4.1.9.6.1.101.48.22.1.1", // read-write INTEGER, values not enumerated in the MIB
  vlanTrunkPortModeNativeVlanId: "1.3.6.1.4.1.9.6.1.101.48.61.1.1", // Unsigned32; native VLAN in trunk mode
  vlanAccessPortModeVlanId: "1.3.6.1.4.1.9.6.1.101.48.62.1.1", // Unsigned32; VLAN in access mode
} as const;
