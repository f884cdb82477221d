/**
 * Standard MIB objects beside the ones mib/oids.ts holds. Columns are given without their
 * instance suffix.
 *
 * - ENTITY-MIB (RFC 6933): what the Cisco PoE part and its lab agent use to map a PoE
 *   entity to an ifIndex (oids.ts has Descr, Class, SoftwareRev, SerialNum, ModelName).
 * - IF-MIB (RFC 2863) ifStackTable and IANAifType values, IEEE8023-LAG-MIB: what the LAG
 *   part (drivers/snmp/parts/lag.ts) and the lab's aggregates read and serve.
 */

export const entityExtra = {
  entPhysicalName: "1.3.6.1.2.1.47.1.1.1.1.7", // index entPhysicalIndex; e.g. "GigabitEthernet1/0/1"
  // index entPhysicalIndex.entAliasLogicalIndexOrZero; value the OID of the mapped object,
  // for ports "1.3.6.1.2.1.2.2.1.1.<ifIndex>": how a PoE entity (Cisco) becomes an ifIndex
  entAliasMappingIdentifier: "1.3.6.1.2.1.47.1.3.2.1.2",
} as const;

// IF-MIB extras
export const ifExtra = {
  // ifStackTable, index ifStackHigherLayer.ifStackLowerLayer (0 = none): LAG -> members,
  // port -> sub-interfaces; value RowStatus 1 active .. 6 destroy
  ifStackStatus: "1.3.6.1.2.1.31.1.2.1.3",
} as const;

/** IANAifType values the LAG part sorts interfaces by (ifType column). */
export const ifTypes = {
  propVirtual: 53,
  ieee8023adLag: 161,
} as const;

// IEEE8023-LAG-MIB (lagMIB 1.2.840.10006.300.43)
export const lag = {
  dot3adAggActorAdminKey: "1.2.840.10006.300.43.1.1.1.1.6", // index dot3adAggIndex (ifIndex of the LAG); 0..65535
  dot3adAggActorOperKey: "1.2.840.10006.300.43.1.1.1.1.7", // index dot3adAggIndex
  dot3adAggPortActorAdminKey: "1.2.840.10006.300.43.1.2.1.1.4", // index dot3adAggPortIndex (member ifIndex)
  dot3adAggPortActorOperKey: "1.2.840.10006.300.43.1.2.1.1.5", // index dot3adAggPortIndex
  dot3adAggPortSelectedAggID: "1.2.840.10006.300.43.1.2.1.1.12", // index member ifIndex; LAG ifIndex selected, 0 none
  dot3adAggPortAttachedAggID: "1.2.840.10006.300.43.1.2.1.1.13", // index member ifIndex; LAG ifIndex attached, 0 none
} as const;
