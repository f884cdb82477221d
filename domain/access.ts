/**
 * The permission model (docs/api-decisions.md section 3, OpenL2M's rules):
 * who sees which groups and devices, who may write, which VLANs a caller may use, and
 * what a caller may do on each interface. Pure: every input is plain data the handler
 * has already loaded.
 */
import type { InterfaceInfo } from "../model/device";
import { Denial, denial } from "./result";
import * as msg from "./messages";
import {
  adminDenied,
  everyoneDenied,
  lagMemberDenial,
  lagNote,
  NO_PORT_PROTECTION,
  type PortProtection,
} from "./port-protection";

export interface Caller {
  user: {
    id: number;
    username: string;
    is_superuser: boolean;
    is_staff: boolean;
    profile: { read_only: boolean; vlan_edit: boolean; allow_poe_toggle: boolean; edit_if_descr: boolean };
  };
  /** null = web session (sessions always may write, within the other rules) */
  token: { write_enabled: boolean } | null;
}

/** The rights a device group grants; the group in the URL decides them. */
export interface GroupRights {
  id: number;
  name: string;
  read_only: boolean;
  allow_poe_toggle: boolean;
  edit_if_descr: boolean;
  allow_all_vlans: boolean;
  /** VLAN ids members of this group may use */
  vlans: number[];
}

export interface DeviceRights {
  id: number;
  name: string;
  read_only: boolean;
  allow_poe_toggle: boolean;
  edit_if_descr: boolean;
}

/** Service-wide settings that widen rights. */
export interface Policy {
  /** PoE may be toggled on every port (OpenL2M's ALWAYS_ALLOW_POE_TOGGLE) */
  always_allow_poe_toggle: boolean;
  /** the administrator's port protections (domain/port-protection.ts); none when absent */
  protection?: PortProtection;
  /** superusers may change trunks (OpenL2M's ALLOW_TAGS_EDIT, on by default) */
  allow_tags_edit: boolean;
  /** staff users may too (OpenL2M's STAFF_ALLOW_TAGS_EDIT, off by default; needs allow_tags_edit) */
  staff_allow_tags_edit: boolean;
}

export interface InterfaceRights {
  manageable: boolean;
  /**
   * why not, present when not manageable; on a manageable member of a link aggregation,
   * why its VLANs cannot be changed (domain/port-protection.ts)
   */
  unmanage_reason?: string;
  allow_poe_toggle: boolean;
  can_edit_description: boolean;
}

/** The flags of an interface that the rules look at. */
export type InterfaceFacts = Pick<
  InterfaceInfo,
  | "kind"
  | "routed"
  | "untagged_vlan"
  | "disabled_reason"
  | "name"
  | "description"
  | "speed"
  | "lag_member_of"
  | "dot1x_auth"
>;

/** Read-only anywhere blocks every write; not even a superuser overrides it. */
export function isReadOnly(
  caller: Caller,
  group: Pick<GroupRights, "read_only">,
  device: Pick<DeviceRights, "read_only">,
): boolean {
  return caller.user.profile.read_only || group.read_only || device.read_only;
}

/** null when the caller may write to this device through this group. */
export function canWrite(
  caller: Caller,
  group: Pick<GroupRights, "read_only">,
  device: Pick<DeviceRights, "read_only">,
): Denial | null {
  if (caller.token !== null && !caller.token.write_enabled) return denial(msg.TOKEN_CANNOT_WRITE, "token_read_only");
  if (isReadOnly(caller, group, device)) return denial(msg.ACCESS_DENIED);
  return null;
}

/** Superuser and staff see every group, so they may use every VLAN too. */
function seesEverything(caller: Caller): boolean {
  return caller.user.is_superuser || caller.user.is_staff;
}

/**
 * The VLAN ids the caller may use on this device: all of the device's VLANs for
 * superuser, staff or an allow-all group, else the group's list limited to the VLANs
 * the device has.
 */
export function allowedVlans(
  caller: Caller,
  group: Pick<GroupRights, "allow_all_vlans" | "vlans">,
  deviceVlans: readonly { id: number }[],
): ReadonlySet<number> {
  const onDevice = deviceVlans.map((vlan) => vlan.id);
  if (seesEverything(caller) || group.allow_all_vlans) return new Set(onDevice);
  const groupList = new Set(group.vlans);
  return new Set(onDevice.filter((id) => groupList.has(id)));
}

const NOTHING_ALLOWED = { manageable: false, allow_poe_toggle: false, can_edit_description: false } as const;

/**
 * What the caller may do on one interface. The first rule that matches decides, in
 * OpenL2M's order: hard denials (read-only, driver-disabled, not Ethernet, 802.1X,
 * routed) allow nothing at all, then the superuser may do everything, then the PoE and
 * description flags, then the administrator's name, description and speed rules
 * (domain/port-protection.ts), then the VLAN allow-list decides manageability.
 * `readOnly` is isReadOnly() for this caller, group and device.
 */
export function interfaceRights(
  caller: Caller,
  group: Pick<GroupRights, "allow_poe_toggle" | "edit_if_descr">,
  device: Pick<DeviceRights, "allow_poe_toggle" | "edit_if_descr">,
  policy: Policy,
  iface: InterfaceFacts,
  allowed: ReadonlySet<number>,
  readOnly: boolean,
): InterfaceRights {
  if (iface.disabled_reason) return { ...NOTHING_ALLOWED, unmanage_reason: iface.disabled_reason };
  if (readOnly) return { ...NOTHING_ALLOWED, unmanage_reason: msg.ACCESS_DENIED };
  // A LAG is shown but managed through its member ports, like every non-Ethernet port.
  if (iface.kind !== "ethernet") return { ...NOTHING_ALLOWED, unmanage_reason: msg.NOT_ETHERNET };
  const nobody = everyoneDenied(iface);
  if (nobody) return { ...NOTHING_ALLOWED, unmanage_reason: nobody };
  if (iface.routed) return { ...NOTHING_ALLOWED, unmanage_reason: msg.ROUTED_MODE };
  // a member of a link aggregation stays manageable; its reason says its VLANs are the aggregate's
  const lag = lagNote(iface);
  if (caller.user.is_superuser)
    return {
      manageable: true,
      allow_poe_toggle: true,
      can_edit_description: true,
      ...(lag ? { unmanage_reason: lag } : {}),
    };

  const profile = caller.user.profile;
  const allowPoe =
    policy.always_allow_poe_toggle || profile.allow_poe_toggle || group.allow_poe_toggle || device.allow_poe_toggle;
  const descriptionFlags = profile.edit_if_descr && group.edit_if_descr && device.edit_if_descr;

  const adminReason = adminDenied(iface, policy.protection ?? NO_PORT_PROTECTION);
  if (adminReason) {
    return { manageable: false, unmanage_reason: adminReason, allow_poe_toggle: allowPoe, can_edit_description: false };
  }
  if (!allowed.has(iface.untagged_vlan)) {
    return {
      manageable: false,
      unmanage_reason: msg.VLAN_NOT_ACCESSIBLE,
      allow_poe_toggle: allowPoe,
      can_edit_description: false,
    };
  }
  return {
    manageable: true,
    allow_poe_toggle: allowPoe,
    can_edit_description: descriptionFlags,
    ...(lag ? { unmanage_reason: lag } : {}),
  };
}

/** state and vlan writes need a manageable interface. */
export function canManageInterface(rights: InterfaceRights): Denial | null {
  return rights.manageable ? null : denial(msg.CANNOT_MANAGE_INTERFACE);
}

/** PoE: a PoE flag anywhere allows it even on an unmanageable port; otherwise manageable. */
export function canTogglePoe(rights: InterfaceRights): Denial | null {
  return rights.allow_poe_toggle || rights.manageable ? null : denial(msg.CANNOT_MANAGE_INTERFACE);
}

/** Description: a manageable port first, then the description right. */
export function canEditDescription(rights: InterfaceRights): Denial | null {
  if (!rights.manageable) return denial(msg.CANNOT_MANAGE_INTERFACE);
  return rights.can_edit_description ? null : denial(msg.CANNOT_EDIT_DESCRIPTION);
}

/**
 * The two writes the interface view announces (docs/api-decisions.md section 4): each is
 * true exactly when that write would pass every permission check it meets, the write's
 * own checks asked here rather than repeated. `mayWrite` is canWrite() for this caller,
 * group and device: a read-only token is refused every write, so it is offered none.
 */
export function offeredWrites(
  rights: InterfaceRights,
  mayWrite: boolean,
): { allow_poe_toggle: boolean; can_edit_description: boolean } {
  return {
    allow_poe_toggle: mayWrite && canTogglePoe(rights) === null,
    can_edit_description: mayWrite && canEditDescription(rights) === null,
  };
}

/**
 * Trunk changes (POST .../tags/, docs/api-decisions.md "Trunk ports"): a manageable port,
 * and OpenL2M's two settings: ALLOW_TAGS_EDIT lets superusers, STAFF_ALLOW_TAGS_EDIT (with
 * it) staff users; no one else. The refusal is the contract's "You can not manage this
 * interface!". Which VLANs may be added or removed is tagVlans().
 */
export function canEditTags(
  caller: Caller,
  rights: InterfaceRights,
  policy: Policy,
  iface: Pick<InterfaceInfo, "lag_member_of">,
): Denial | null {
  if (!rights.manageable || !policy.allow_tags_edit) return denial(msg.CANNOT_MANAGE_INTERFACE);
  // a member of a link aggregation keeps its VLANs (domain/port-protection.ts), superusers too
  const lag = lagMemberDenial(iface);
  if (lag) return lag;
  if (caller.user.is_superuser) return null;
  if (caller.user.is_staff && policy.staff_allow_tags_edit) return null;
  return denial(msg.CANNOT_MANAGE_INTERFACE);
}

/** The interface view's `can_edit_tags`: the tags write would pass its permission checks (see offeredWrites). */
export function offeredTagsEdit(
  caller: Caller,
  rights: InterfaceRights,
  policy: Policy,
  mayWrite: boolean,
  iface: Pick<InterfaceInfo, "lag_member_of">,
): boolean {
  return mayWrite && canEditTags(caller, rights, policy, iface) === null;
}

/**
 * The VLAN ids the caller may add to or remove from a port's tagged VLANs, or make a
 * trunk's native VLAN: every VLAN of the device for superusers, else the group's list
 * (every VLAN in an allow_all_vlans group). Staff are held to the group's list here,
 * unlike for an access port's VLAN (allowedVlans): a trunk carries its VLANs on to
 * whatever is at the other end, so it takes the group's word (docs/api-decisions.md).
 */
export function tagVlans(
  caller: Caller,
  group: Pick<GroupRights, "allow_all_vlans" | "vlans">,
  deviceVlans: readonly { id: number }[],
): ReadonlySet<number> {
  const onDevice = deviceVlans.map((vlan) => vlan.id);
  if (caller.user.is_superuser || group.allow_all_vlans) return new Set(onDevice);
  const groupList = new Set(group.vlans);
  return new Set(onDevice.filter((id) => groupList.has(id)));
}

/** VLAN add: superuser or a profile with vlan_edit (staff too needs vlan_edit). */
export function canAddVlan(caller: Caller): Denial | null {
  return caller.user.is_superuser || caller.user.profile.vlan_edit ? null : denial(msg.ACCESS_DENIED);
}

/** VLAN rename: the same rule as add (OpenL2M checks nothing here; we do). */
export function canRenameVlan(caller: Caller): Denial | null {
  return canAddVlan(caller);
}

export function canDeleteVlan(caller: Caller): Denial | null {
  return caller.user.is_superuser ? null : denial(msg.SUPERUSER_TO_DELETE_VLAN);
}

/**
 * VLAN add, rename and delete touch one VLAN id, which must be one the group of the URL
 * allows, as for moving a port: every id for superuser, staff or an allow_all_vlans
 * group, else the group's list. Asked after the action's own right above.
 */
export function canChangeVlan(
  caller: Caller,
  group: Pick<GroupRights, "allow_all_vlans" | "vlans">,
  id: number,
): Denial | null {
  if (seesEverything(caller) || group.allow_all_vlans || group.vlans.includes(id)) return null;
  return denial(msg.vlanChangeNotAllowed(id), "vlan_not_allowed");
}

/**
 * api/admin/...: superusers only (staff is not enough). A change (`writes`) also needs a
 * caller that may write: a read-only token, or a token of a user whose profile is
 * read-only, only reads, as everywhere else; a web session of a read-only user too.
 */
export function canAdminister(caller: Caller, writes: boolean): Denial | null {
  if (!caller.user.is_superuser) return denial(msg.NO_ADMIN_PERMISSION, "forbidden");
  if (!writes) return null;
  const readOnlyToken = caller.token !== null && (!caller.token.write_enabled || caller.user.profile.read_only);
  if (readOnlyToken) return denial(msg.TOKEN_CANNOT_WRITE, "token_read_only");
  if (caller.user.profile.read_only) return denial(msg.ACCESS_DENIED);
  return null;
}

// --- the menu: which groups and devices a caller sees ---------------------------------

export interface MenuDeviceFacts {
  id: number;
  name: string;
  status: "active" | "inactive";
}

export interface MenuGroupFacts {
  id: number;
  name: string;
}

export interface MenuGroup<G extends MenuGroupFacts, D extends MenuDeviceFacts> {
  group: G;
  /** active devices only, sorted by name */
  members: D[];
}

function byName(a: { name: string; id: number }, b: { name: string; id: number }): number {
  // Case-insensitive like the usual database collation; id keeps equal names stable.
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  if (x !== y) return x < y ? -1 : 1;
  if (a.name !== b.name) return a.name < b.name ? -1 : 1;
  return a.id - b.id;
}

/**
 * The caller's menu. Superuser and staff see every group, others the groups they are
 * members of; either way a group without any device (of any status) is left out, as in
 * OpenL2M, and only active devices are listed. Groups and members are sorted by name.
 */
export function menuGroups<G extends MenuGroupFacts, D extends MenuDeviceFacts>(
  caller: Caller,
  groups: readonly { group: G; devices: readonly D[] }[],
  memberOfGroupIds: readonly number[],
): MenuGroup<G, D>[] {
  const memberOf = new Set(memberOfGroupIds);
  const everything = seesEverything(caller);
  return groups
    .filter((entry) => entry.devices.length > 0 && (everything || memberOf.has(entry.group.id)))
    .map((entry) => ({
      group: entry.group,
      members: entry.devices.filter((device) => device.status === "active").sort(byName),
    }))
    .sort((a, b) => byName(a.group, b.group));
}

/**
 * What a caller's menu is drawn from besides the inventory: "*" for a caller who sees every
 * group, else its groups' ids. Two callers with the same scope get the same groups from
 * menuGroups (the menu's groups do not depend on anything else about the caller).
 */
export function menuScope(caller: Caller, memberOfGroupIds: readonly number[]): string {
  if (seesEverything(caller)) return "*";
  return [...new Set(memberOfGroupIds)].sort((a, b) => a - b).join(",");
}

/**
 * Is the (group, device) pair of a URL in the caller's menu? The menu's own rule for one
 * pair, so that a request is authorised without building the whole menu: the device is an
 * active member of the group, and the caller sees every group (superuser, staff) or is a
 * member of this one. (A group with this device has a device, so it is in the menu.)
 */
export function pairInMenu(
  caller: Caller,
  pair: { deviceInGroup: boolean; deviceActive: boolean; callerInGroup: boolean },
): boolean {
  return pair.deviceInGroup && pair.deviceActive && (seesEverything(caller) || pair.callerInGroup);
}

/** The 403 for a (group, device) pair outside the caller's menu. */
export function notInMenu(): Denial {
  return denial(msg.ACCESS_DENIED);
}
