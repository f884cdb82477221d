/**
 * ENTITY-MIB objects (RFC 6933) beside the ones mib/oids.ts holds (Descr, Class,
 * SoftwareRev, SerialNum, ModelName): what the Cisco PoE part and its lab agent use to map
 * a PoE entity to an ifIndex. Columns are given without their instance suffix.
 */

export const entityExtra = {
  entPhysicalName: "1.3.6.1.2.1.47.1.1.1.1.7", // index entPhysicalIndex; e.g. "GigabitEthernet1/0/1"
  // index entPhysicalIndex.entAliasLogicalIndexOrZero; value the OID of the mapped object,
  // for ports "1.3.6.1.2.1.2.2.1.1.<ifIndex>": how a PoE entity (Cisco) becomes an ifIndex
  entAliasMappingIdentifier: "1.3.6.1.2.1.47.1.3.2.1.2",
} as const;
