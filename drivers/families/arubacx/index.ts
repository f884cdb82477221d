/**
 * HPE Aruba AOS-CX switches (enterprise 47196) over SNMP. What the agent serves decides
 * what the family does:
 *
 *   reads   IF-MIB, the bridge port map, dot1qPvid, ARUBAWIRED-PORTVLAN (where served),
 *           POWER-ETHERNET-MIB and ARUBAWIRED-POE, the Q-BRIDGE forwarding table, LLDP;
 *           no Q-BRIDGE VLAN tables (vlans.ts)
 *   writes  ifAdminStatus and pethPsePortAdminEnable only (AOS-CX's writable objects);
 *           no description, port VLAN or VLAN row writes over SNMP
 *   save    ARUBAWIRED-CONFIG-MIB's configuration copy table (save.ts)
 *
 * Without VLAN names on the device, the view's VLANs carry ids only and driver_info's
 * `vlan_names` says why. Ports of a VSF stack are named member/1/port (ifIndex = bridge
 * port = 64 * (member - 1) + port), as the switch names them.
 */
import type { DeviceSnapshot, LearnScope } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import { standardCapabilities } from "../generic";
import { arubaCxPoePart } from "./poe";
import { arubaCxSave } from "./save";
import { arubaCxVlans } from "./vlans";

export const VLAN_NAMES_MISSING =
  "not available: this AOS-CX agent serves no VLAN names over SNMP (no Q-BRIDGE or IEEE 802.1Q VLAN table); the VLANs listed are the ports' VLAN ids, unnamed";

const NO_DESCRIPTION_WRITES = "AOS-CX takes no SNMP write of ifAlias (interface descriptions); use its REST API or CLI";

export const arubaCxFamily: SnmpFamily = {
  info: { vendor: "HPE Aruba", driver: "arubacx" },
  can: {
    ...standardCapabilities,
    change_vlan: false,
    change_description: false,
    edit_vlans: false,
    change_vlan_name: false,
    save_config: true,
    change_tags: false,
  },
  parts: { vlans: arubaCxVlans(), poe: arubaCxPoePart(), save: arubaCxSave(), clientData: standardClientData() },
};

/** The engine with the family's parts, and the view's note when the device names no VLAN. */
export class ArubaCxDriver extends SnmpDriver {
  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const snapshot = await super.learn(scope);
    if (snapshot.vlans.length > 0 && snapshot.vlans.every((v) => v.name === ""))
      snapshot.driver_info.vlan_names = VLAN_NAMES_MISSING;
    return snapshot;
  }

  async setDescription(): Promise<void> {
    throw new NotSupported(NO_DESCRIPTION_WRITES);
  }
}

export const arubacx: DriverEntry = {
  name: "arubacx",
  vendor: "HPE Aruba",
  description:
    "Aruba AOS-CX: VLANs from PVIDs (no VLAN names over SNMP unless IEEE8021-Q-BRIDGE serves them), admin state and PoE writes, save through ARUBAWIRED-CONFIG-MIB; the agent refuses VLAN and description writes",
  connector: 0,
  can: arubaCxFamily.can,
  match: { sysObjectIds: ["1.3.6.1.4.1.47196"] },
  open: (connection, options) => new ArubaCxDriver(arubaCxFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["arubacx"], recordings: ["arubaos-cx_10.16", "arubaos-cx_6300_vsf_stack"] },
};
