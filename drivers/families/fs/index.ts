/**
 * FS.com switches (S3900 series; sysObjectID under FS's enterprise 1.3.6.1.4.1.52642).
 * The recorded S3900 serves Q-BRIDGE (static names, current memberships, PVIDs by
 * bridge port = ifIndex), LLDP and the Q-BRIDGE MAC table; ports are "Portn", VLAN
 * interfaces 1000 + VLAN id. Its vendor subtree (52642.2.1.45.1) holds only inventory
 * and health objects in the recording, and no MIB of that subtree with a save object is
 * public: changes stay in the running configuration, so the family cannot save
 * (save_config false, with that reason on a direct call).
 */
import { fsEnterprise } from "../../../mib/fastpath";
import { NotSupported } from "../../../model/failures";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { SavePart } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import { standardCapabilities } from "../generic";

const noSave: SavePart = {
  async save(session) {
    throw new NotSupported(
      `${session.where}: FS.com switches have no public SNMP object that saves the running configuration; save it on the switch's command line`,
    );
  },
};

export const fsFamily: SnmpFamily = {
  info: { vendor: "FS.com", driver: "fs" },
  can: { ...standardCapabilities, save_config: false },
  parts: { vlans: qBridgeVlans(), poe: standardPoe(), save: noSave, clientData: standardClientData() },
};

export const fs: DriverEntry = {
  name: "fs",
  vendor: "FS.com",
  description: "FS.com S-series: standard MIBs (Q-BRIDGE, LLDP); no save over SNMP",
  connector: 0,
  can: fsFamily.can,
  match: { sysObjectIds: [fsEnterprise] },
  open: (connection, options) => new SnmpDriver(fsFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["fs"], recordings: ["fs-switch_s3900"] },
};
