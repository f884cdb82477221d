/**
 * Cisco IOS / IOS-XE switches over SNMP (sysObjectID under 1.3.6.1.4.1.9; Cisco small
 * business 1.3.6.1.4.1.9.6.1 is the longer, more specific ciscosb prefix): VLANs from
 * CISCO-VTP-MIB, access VLANs through vmVlan, trunks through vlanTrunkPortTable (trunk
 * changes in trunk.ts), VLAN
 * edits through the VTP edit buffer (vlans.ts, vtp-edit.ts), PoE tied to ports through
 * entities (poe.ts), per-VLAN MAC tables through community@vlan / context vlan-N
 * (client-data.ts), saves through CISCO-CONFIG-COPY-MIB or writeMem (save.ts).
 */
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardCapabilities } from "../generic";
import { ciscoClientData } from "./client-data";
import { ciscoPoe } from "./poe";
import { ciscoSave } from "./save";
import { ciscoVlans } from "./vlans";

export const ciscoFamily: SnmpFamily = {
  info: { vendor: "Cisco", driver: "cisco" },
  // edit_vlans: a VTP client refuses at the call with not_supported (vtp-edit.ts)
  can: { ...standardCapabilities, save_config: true, change_tags: true },
  parts: { vlans: ciscoVlans(), poe: ciscoPoe(), save: ciscoSave(), clientData: ciscoClientData() },
};

export const cisco: DriverEntry = {
  name: "cisco",
  vendor: "Cisco",
  description:
    "Cisco IOS / IOS-XE: VTP VLANs and edit buffer, vmVlan, trunks through vlanTrunkPortTable (mode, native VLAN, allowed bitmaps), PoE through entities, MAC tables per VLAN context, save through CISCO-CONFIG-COPY-MIB or writeMem",
  connector: 0,
  can: ciscoFamily.can,
  match: { sysObjectIds: ["1.3.6.1.4.1.9"] },
  open: (connection, options) => new SnmpDriver(ciscoFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["cisco"], recordings: ["ios_2960x", "ios_4506e", "ios_stp-vlans", "iosxe_c9300"] },
};
