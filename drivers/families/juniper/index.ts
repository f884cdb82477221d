/**
 * Juniper Junos switches (EX, QFX; enterprise 2636), read only: Junos takes its
 * configuration by commit, not by SNMP SET, so every setter refuses with the family's
 * reason and `can` is all false. VLANs from JUNIPER-L2ALD-MIB with Q-BRIDGE PVIDs and
 * Junos port lists (vlans.ts); MAC table VLANs and LLDP ports mapped the Junos way
 * (client-data.ts).
 */
import type { Capabilities } from "../../../model/capabilities";
import type { InterfaceView, TagChange } from "../../../model/device";
import { NotSupported } from "../../../model/failures";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { standardCapabilities } from "../generic";
import { junosClientData } from "./client-data";
import { JUNOS_READ_ONLY, junosVlans } from "./vlans";

export const juniperCapabilities: Capabilities = {
  ...standardCapabilities,
  change_admin_status: false,
  change_vlan: false,
  change_poe: false,
  change_description: false,
  edit_vlans: false,
  change_vlan_name: false,
  save_config: false,
  change_tags: false,
};

export const juniperFamily: SnmpFamily = {
  info: { vendor: "Juniper", driver: "juniper" },
  can: juniperCapabilities,
  parts: { vlans: junosVlans(), poe: standardPoe(), save: null, clientData: junosClientData() },
};

/** The engine's reads; every write refused before anything is sent. */
export class JunosDriver extends SnmpDriver {
  private refuse(): never {
    throw new NotSupported(`${this.session.where}: ${JUNOS_READ_ONLY}`);
  }
  async setAdminState(_view: InterfaceView, _up: boolean): Promise<void> {
    this.refuse();
  }
  async setDescription(_view: InterfaceView, _text: string): Promise<void> {
    this.refuse();
  }
  async setPoe(_view: InterfaceView, _on: boolean): Promise<void> {
    this.refuse();
  }
  async setUntaggedVlan(_view: InterfaceView, _vlan: number): Promise<void> {
    this.refuse();
  }
  async setTags(_view: InterfaceView, _change: TagChange): Promise<void> {
    this.refuse();
  }
  async createVlan(_id: number, _name: string): Promise<void> {
    this.refuse();
  }
  async renameVlan(_id: number, _name: string): Promise<void> {
    this.refuse();
  }
  async deleteVlan(_id: number): Promise<void> {
    this.refuse();
  }
  async saveConfig(): Promise<void> {
    this.refuse();
  }
}

export const juniper: DriverEntry = {
  name: "juniper",
  vendor: "Juniper",
  description:
    "Junos EX/QFX, read only: VLANs from JUNIPER-L2ALD-MIB, Q-BRIDGE PVIDs and Junos port lists (text or bitmap)",
  connector: 0,
  can: juniperCapabilities,
  match: { sysObjectIds: ["1.3.6.1.4.1.2636"] },
  open: (connection, options) => new JunosDriver(juniperFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["juniper"], recordings: ["junos_ex4600mp", "junos_qfx5100"] },
};
