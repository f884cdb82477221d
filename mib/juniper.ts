/**
 * Juniper Junos objects (enterprise 2636). Junos switches are read-only for SNMP here. VLAN
 * names and tags come from JUNIPER-L2ALD-MIB, indexed by an internal VLAN id that is not
 * the tag. The L2ALD MIB has no port membership table: memberships and PVIDs come from
 * Q-BRIDGE, whose rows on ELS Junos are indexed by VLAN tag and whose "PortList" columns
 * hold comma-separated bridge port numbers as text (seen in both recordings), mapped to
 * interfaces through dot1dBasePortIfIndex. Older non-ELS EX software uses the
 * JUNIPER-VLAN-MIB jnxExVlan tables instead.
 *
 * Sources: JUNIPER-L2ALD-MIB, JUNIPER-VLAN-MIB (OIDs, enums and INDEX clauses as defined).
 */

/** JUNIPER-L2ALD-MIB jnxL2aldVlanTable, index jnxL2aldVlanID (internal id 1..4094, not the tag). */
export const jnxL2aldVlan = {
  jnxL2aldVlanName: "1.3.6.1.4.1.2636.3.48.1.3.1.1.2", // 1..255 octets
  jnxL2aldVlanTag: "1.3.6.1.4.1.2636.3.48.1.3.1.1.3", // 1..4094, the 802.1Q VLAN id
  jnxL2aldVlanType: "1.3.6.1.4.1.2636.3.48.1.3.1.1.4", // 1 static, 2 dynamic
  jnxL2aldVlanFdbId: "1.3.6.1.4.1.2636.3.48.1.3.1.1.5", // the dot1qFdbId this VLAN learns into (first index of dot1qTpFdbPort)
} as const;

/**
 * JUNIPER-VLAN-MIB (jnxExVlan, non-ELS EX): VLANs by jnxExVlanID, members through a port
 * group. Which numbering jnxExVlanPort uses (bridge port or ifIndex) the MIB does not say.
 */
export const jnxExVlan = {
  // jnxExVlanTable, index jnxExVlanID
  jnxExVlanName: "1.3.6.1.4.1.2636.3.40.1.5.1.5.1.2", // 1..255 octets
  jnxExVlanType: "1.3.6.1.4.1.2636.3.40.1.5.1.5.1.3", // 1 static, 2 dynamic
  jnxExVlanPortGroupInstance: "1.3.6.1.4.1.2636.3.40.1.5.1.5.1.4", // jnxExVlanPortGroupIndex of its ports
  jnxExVlanTag: "1.3.6.1.4.1.2636.3.40.1.5.1.5.1.5", // Unsigned32, the 802.1Q VLAN id
  // jnxExVlanPortGroupTable, index jnxExVlanPortGroupIndex.jnxExVlanPort
  jnxExVlanPortStatus: "1.3.6.1.4.1.2636.3.40.1.5.1.7.1.3", // 1 autoActive, 2 allowed, 3 allowedActive, 4 allowedNotAvail, 5 notAssociated
  jnxExVlanPortTagness: "1.3.6.1.4.1.2636.3.40.1.5.1.7.1.4", // 1 tagged, 2 untagged
} as const;
