/**
 * Arista EOS objects (enterprise 30065). VLANs, PVIDs and memberships come from Q-BRIDGE
 * (static names, current bitmaps); EOS has no SNMP VLAN editing. A configuration copy is
 * a row of ARISTA-CONFIG-COPY-MIB with URIs ("running-config" and "startup-config" are
 * accepted aliases per the MIB).
 *
 * Sources: ARISTA-CONFIG-COPY-MIB (OIDs, enums and INDEX clauses as defined there).
 */

/**
 * aristaConfigCopyCommandTable, index aristaConfigCopyName.aristaConfigCopyId: a name
 * (OCTET STRING 0..255, encoded length-prefixed in the OID) and an Unsigned32 id.
 */
export const aristaConfigCopy = {
  aristaConfigCopySourceUri: "1.3.6.1.4.1.30065.3.7.1.1.3", // 0..512 octets, e.g. "running-config"
  aristaConfigCopyDestUri: "1.3.6.1.4.1.30065.3.7.1.1.4", // 0..512 octets, e.g. "startup-config"
  aristaConfigCopyState: "1.3.6.1.4.1.30065.3.7.1.1.5", // 0 inactive, 1 scheduled, 2 running, 3 completed, 4 failed
  aristaConfigCopyTimeStarted: "1.3.6.1.4.1.30065.3.7.1.1.7", // DateAndTime
  aristaConfigCopyTimeCompleted: "1.3.6.1.4.1.30065.3.7.1.1.8", // DateAndTime
  aristaConfigCopyFailureCause: "1.3.6.1.4.1.30065.3.7.1.1.9", // 0 none, 1 unknown, 2 timeout
  aristaConfigCopyRowStatus: "1.3.6.1.4.1.30065.3.7.1.1.11", // RowStatus 1 active, 4 createAndGo, 6 destroy
} as const;
