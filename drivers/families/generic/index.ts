/**
 * The generic SNMP family: standard MIBs only (IF-MIB, BRIDGE-MIB, Q-BRIDGE-MIB,
 * POWER-ETHERNET-MIB, IP-MIB, LLDP-MIB); no save. What "auto" picks when no family
 * claims a device's sysObjectID.
 */
import type { Capabilities } from "../../../model/capabilities";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { qBridgeVlans } from "../../snmp/parts/qbridge";

/** What the standard MIBs let a driver do; families start from it. */
export const standardCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  change_poe: true,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  save_config: false,
  // Q-BRIDGE's egress and untagged PortLists and dot1qPvid (drivers/snmp/parts/qbridge-tags.ts)
  change_tags: true,
  client_data: true,
  // IF-MIB ifAlias is DisplayString (SIZE(0..64)) and Q-BRIDGE names SnmpAdminString
  // (SIZE(0..32)): octets, so the byte limits are the ones agents enforce
  max_description_length: 64,
  max_description_bytes: 64,
  max_vlan_name_length: 32,
  max_vlan_name_bytes: 32,
};

export const genericFamily: SnmpFamily = {
  info: { vendor: "Generic SNMP", driver: "generic" },
  can: standardCapabilities,
  parts: { vlans: qBridgeVlans(), poe: standardPoe(), save: null, clientData: standardClientData() },
};

export const generic: DriverEntry = {
  name: "generic",
  vendor: "Generic SNMP",
  description: "standard MIBs: IF-MIB, BRIDGE-MIB, Q-BRIDGE-MIB, POWER-ETHERNET-MIB, LLDP-MIB; no save",
  connector: 0,
  can: genericFamily.can,
  // every sysObjectID: the most general match, so any family's own prefix wins over it
  match: { sysObjectIds: [""] },
  open: (connection, options) => new SnmpDriver(genericFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["generic"], recordings: ["dlink_dgs-1510-28", "linksys-ss_lgs318p"] },
};
