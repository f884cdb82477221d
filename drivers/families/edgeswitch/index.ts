/**
 * Ubiquiti UniFi and EdgeSwitch switches (Broadcom FASTPATH). Their agents answer with
 * Broadcom's bare enterprise OID 1.3.6.1.4.1.4413 as sysObjectID (or Ubiquiti's 41112),
 * which many other FASTPATH OEMs share: "auto" picks this family only when the sysDescr
 * also names a Ubiquiti model ("US-8, 5.76...", "USW-...", "EdgeSwitch 24...", "ES-...").
 *
 * VLANs: Q-BRIDGE. The US-8 as recorded numbers ports 0/n with ifIndex = bridge port = n,
 * the LAGs 3/k as bridge ports 66.., the CPU interface 65 (carrying the management
 * address) outside the bridge; its PVIDs are indexed by bridge port and its static table
 * holds the names, the current table the memberships (the Q-BRIDGE part reads both).
 * PoE: POWER-ETHERNET-MIB where the model has it (the recorded US-8 answers none).
 * Save: EdgeSwitch-SWITCHING-MIB agentSaveConfig / agentSaveConfigStatus (save.ts).
 */
import { broadcomEnterprise, edgeSwitch, ubiquitiEnterprise } from "../../../mib/fastpath";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import { standardCapabilities } from "../generic";
import { fastpathSave } from "./save";

export const edgeswitchFamily: SnmpFamily = {
  info: { vendor: "Ubiquiti", driver: "edgeswitch" },
  can: { ...standardCapabilities, save_config: true },
  parts: {
    vlans: qBridgeVlans(),
    poe: standardPoe(),
    save: fastpathSave({ saveOid: edgeSwitch.agentSaveConfig, statusOid: edgeSwitch.agentSaveConfigStatus }),
    clientData: standardClientData(),
  },
};

export const edgeswitch: DriverEntry = {
  name: "edgeswitch",
  vendor: "Ubiquiti",
  description:
    "UniFi and EdgeSwitch (FASTPATH): standard MIBs plus saving through EdgeSwitch-SWITCHING-MIB agentSaveConfig",
  connector: 0,
  can: edgeswitchFamily.can,
  match: {
    sysObjectIds: [broadcomEnterprise, ubiquitiEnterprise],
    sysDescr: [/^US[- ]/, /^USW[- ]/, /^UBNT US/, /^EdgeSwitch/, /^ES-/, /^EdgePoint/],
  },
  open: (connection, options) => new SnmpDriver(edgeswitchFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["edgeswitch"], recordings: ["edgeswitch_us-8-v2"] },
};
