/**
 * What a driver can change on the device it talks to: the one definition. The switch
 * section of the device view shows each flag under its own name, every write operation
 * checks the flag this table names for it before it touches the device, and the spec's
 * description of each flag says the same (a spec test holds them together).
 */

export interface CapabilityFlagInfo {
  /** a short name for tables (the README's driver table) */
  label: string;
  /** what a device without it cannot do, for the not_supported answer ("... cannot <action>") */
  action: string;
  /** the spec's operationIds that need it */
  operations: readonly string[];
  /** the spec's description of the flag in the switch section */
  description: string;
}

export const CAPABILITY_FLAGS = {
  change_admin_status: {
    label: "state",
    action: "change the interface status",
    operations: ["setInterfaceState", "bounceInterface"],
    description: "The driver can set an interface's admin state (POST .../state/).",
  },
  change_vlan: {
    label: "VLAN",
    action: "change the interface vlan",
    operations: ["setInterfaceVlan"],
    description: "The driver can set an interface's untagged VLAN (POST .../vlan/).",
  },
  change_poe: {
    label: "PoE",
    action: "change the PoE status",
    operations: ["setInterfacePoe", "cycleInterfacePoe"],
    description: "The driver can switch PoE of an interface on and off (POST .../poe_state/).",
  },
  change_description: {
    label: "description",
    action: "change the interface description",
    operations: ["setInterfaceDescription"],
    description: "The driver can set an interface's description (POST .../description/).",
  },
  edit_vlans: {
    label: "VLAN add/delete",
    action: "add or delete vlans",
    operations: ["addVlan", "deleteVlan"],
    description: "The driver can add and delete VLANs (POST .../vlan/add/ and .../vlan/delete/).",
  },
  change_vlan_name: {
    label: "VLAN rename",
    action: "change vlan names",
    operations: ["editVlan"],
    description: "The driver can rename VLANs (POST .../vlan/edit/).",
  },
  save_config: {
    label: "save",
    action: "save the config",
    operations: ["saveConfig"],
    description: "The device needs an explicit save (POST .../save/) after changes, and the driver can do it.",
  },
  change_tags: {
    label: "trunk",
    action: "change the interface tagged vlans",
    operations: ["setInterfaceTags"],
    description: "The driver can set an interface's tagged VLANs and native VLAN (POST .../tags/).",
  },
} as const satisfies Record<string, CapabilityFlagInfo>;

export type CapabilityFlag = keyof typeof CAPABILITY_FLAGS;

export const CAPABILITY_FLAG_NAMES = Object.keys(CAPABILITY_FLAGS) as CapabilityFlag[];

/** The flag an operation needs, or null for operations that change nothing on a device. */
export function capabilityOf(operationId: string): CapabilityFlag | null {
  for (const flag of CAPABILITY_FLAG_NAMES) {
    if ((CAPABILITY_FLAGS[flag].operations as readonly string[]).includes(operationId)) return flag;
  }
  return null;
}

export type Capabilities = Record<CapabilityFlag, boolean> & {
  /** the details scope (MAC table, LLDP) is available */
  client_data: boolean;
  /** longest interface description the device accepts, in characters */
  max_description_length: number;
  /** longest interface description the device accepts, in bytes of UTF-8 */
  max_description_bytes: number;
  /** longest VLAN name the device accepts, in characters */
  max_vlan_name_length: number;
  /** longest VLAN name the device accepts, in bytes of UTF-8 */
  max_vlan_name_bytes: number;
};
