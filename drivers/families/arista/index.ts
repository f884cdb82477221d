/**
 * Arista EOS switches (enterprise 30065) over SNMP: Q-BRIDGE VLANs (static names, current
 * memberships), PVIDs through the bridge port map, LLDP, the Q-BRIDGE forwarding table.
 *
 * EOS's SNMP agent is read-only but for a few objects: ifAdminStatus, ifAlias and
 * dot1qPvid. Writing dot1qPvid alone moves an access port (EOS moves the port's
 * membership itself; Arista's own advice, and what the reference tool does), so the
 * untagged VLAN change is that one SET, read back. VLAN creation, renaming and deletion
 * are not writable over SNMP, and neither is a configuration copy: ARISTA-CONFIG-COPY-MIB
 * rows are refused (the reference tool's attempt never worked), so changes stay in the
 * running configuration until someone saves them on the switch (eAPI or CLI
 * `write memory`). No PoE writes: the recorded EOS serves no POWER-ETHERNET-MIB rows and no
 * SNMP PoE write of EOS is documented; where a switch serves PoE rows, their state is shown.
 *
 * VLAN names: EOS serves a configured name wrapped in backslashes ("\Red_Backbone\" in
 * the recording, while the built-in VLAN 1 is plain "default"); the view shows the name
 * as configured, without the wrapping.
 */
import { qbridge } from "../../../mib/oids";
import { NotSupported } from "../../../model/failures";
import { snmpOf, type DriverEntry } from "../../entry";
import { SnmpDriver, type SnmpFamily } from "../../snmp/driver";
import { standardClientData } from "../../snmp/parts/client-standard";
import type { PortVlans, VlanPart } from "../../snmp/parts/part";
import { standardPoe } from "../../snmp/parts/poe-standard";
import { qBridgeVlans } from "../../snmp/parts/qbridge";
import type { SnmpSession } from "../../snmp/session";
import { gaugeWrite, writeVerified } from "../../snmp/verified-write";
import { standardCapabilities } from "../generic";

const NO_TRUNK_EDIT =
  "EOS takes no SNMP write of VLAN memberships (only dot1qPvid); change trunks with eAPI or the CLI";
const NO_VLAN_EDIT = "EOS does not take VLAN creation, renaming or deletion over SNMP; use eAPI or the CLI";

/** "\name\" as EOS serves a configured VLAN name -> "name"; other names as they are */
export function configuredName(served: string): string {
  const wrapped = /^\\(.*)\\$/s.exec(served);
  return wrapped ? wrapped[1] : served;
}

/** Q-BRIDGE reads; the untagged VLAN change is dot1qPvid alone; no VLAN rows. */
export function aristaVlans(): VlanPart {
  const base = qBridgeVlans();
  return {
    ...base,
    vlans: (tables) => base.vlans(tables).map((v) => ({ ...v, name: configuredName(v.name) })),
    async setUntagged(session: SnmpSession, _ifIndex: number, port: PortVlans, vlan: number): Promise<void> {
      const { bridgePort } = port.writeState as { bridgePort: number | null };
      if (bridgePort === null) throw new NotSupported(`${session.where}: the interface is not a bridge port`);
      await writeVerified(session, [gaugeWrite(`${qbridge.dot1qPvid}.${bridgePort}`, vlan)]);
    },
    async setTags(session: SnmpSession): Promise<void> {
      throw new NotSupported(`${session.where}: ${NO_TRUNK_EDIT}`);
    },
    async createVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_EDIT);
    },
    async renameVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_EDIT);
    },
    async deleteVlan(): Promise<void> {
      throw new NotSupported(NO_VLAN_EDIT);
    },
  };
}

export const aristaFamily: SnmpFamily = {
  info: { vendor: "Arista", driver: "arista" },
  can: {
    ...standardCapabilities,
    change_poe: false,
    edit_vlans: false,
    change_vlan_name: false,
    save_config: false,
    change_tags: false,
  },
  parts: { vlans: aristaVlans(), poe: standardPoe(), save: null, clientData: standardClientData() },
};

export const arista: DriverEntry = {
  name: "arista",
  vendor: "Arista",
  description:
    "Arista EOS: Q-BRIDGE VLANs and PVIDs, LLDP; admin state, description and untagged VLAN (dot1qPvid alone, as EOS takes it) over SNMP; EOS refuses VLAN edits and saves over SNMP, so neither is offered",
  connector: 0,
  can: aristaFamily.can,
  match: { sysObjectIds: ["1.3.6.1.4.1.30065"] },
  open: (connection, options) => new SnmpDriver(aristaFamily, snmpOf(connection), options),
  provenAgainst: { lab: ["arista"], recordings: ["arista_eos"] },
};
