/**
 * Checks of a requested change against what the device reported: does the interface or
 * VLAN exist, may this VLAN be used, is the value already in place, can the driver do
 * it at all. Each answers null (go on) or the contract's failure.
 */
import type { Capabilities, InterfaceInfo, VlanInfo } from "../drivers/types";
import { Failure, Result, failure, success } from "./result";
import { isVlanId } from "./values";
import * as msg from "./messages";

/** The interface of the URL, or 404 `Interface <id> not found`. */
export function requireInterface<T>(found: T | null | undefined, interfaceId: string): Result<T> {
  return found === null || found === undefined
    ? failure(404, "not_found", msg.interfaceNotFound(interfaceId))
    : success(found);
}

/** A new untagged VLAN must be a VLAN id, exist on the device and be allowed to the caller. */
export function checkVlanTarget(
  vlan: number,
  deviceVlans: readonly { id: number }[],
  allowed: ReadonlySet<number>,
): Failure | null {
  const usable = isVlanId(vlan) && deviceVlans.some((known) => known.id === vlan) && allowed.has(vlan);
  return usable ? null : failure(400, "invalid_parameter", msg.vlanNotAllowed(vlan));
}

export function checkSameState(requestedUp: boolean, currentUp: boolean): Failure | null {
  return requestedUp === currentUp ? failure(404, "same_value", msg.sameState(msg.stateWord(requestedUp))) : null;
}

export function checkSamePoeState(requestedOn: boolean, currentOn: boolean): Failure | null {
  return requestedOn === currentOn ? failure(404, "same_value", msg.samePoeState(msg.stateWord(requestedOn))) : null;
}

export function checkSameVlan(requested: number, current: number): Failure | null {
  return requested === current ? failure(404, "same_value", msg.sameVlan(requested)) : null;
}

export function checkSameDescription(requested: string, current: string): Failure | null {
  return requested === current ? failure(404, "same_value", msg.SAME_DESCRIPTION) : null;
}

export function checkPoeSupported(iface: Pick<InterfaceInfo, "name" | "poe">): Failure | null {
  return iface.poe ? null : failure(400, "not_supported", msg.noPoe(iface.name));
}

export function checkVlanAbsent(vlans: readonly VlanInfo[], id: number): Failure | null {
  return vlans.some((vlan) => vlan.id === id) ? failure(400, "already_exists", msg.vlanExists(id)) : null;
}

export function checkVlanPresent(vlans: readonly VlanInfo[], id: number): Failure | null {
  return vlans.some((vlan) => vlan.id === id) ? null : failure(404, "not_found", msg.vlanMissing(id));
}

export type ChangeCapability = Exclude<
  { [K in keyof Capabilities]: Capabilities[K] extends boolean ? K : never }[keyof Capabilities],
  undefined
>;

/** What a device without the capability cannot do, for the not_supported text. */
const CAPABILITY_ACTIONS: Record<ChangeCapability, string> = {
  change_admin_status: "change the interface status",
  change_vlan: "change the interface vlan",
  change_poe: "change the PoE status",
  change_description: "change the interface description",
  edit_vlans: "add or delete vlans",
  change_vlan_name: "change vlan names",
  save_config: "save the config",
  client_data: "show ethernet addresses and neighbors",
};

/** 400 not_supported when the driver cannot do this; save has the contract's own text. */
export function checkCapability(can: Capabilities, capability: ChangeCapability): Failure | null {
  if (can[capability]) return null;
  const reason = capability === "save_config" ? msg.CANNOT_SAVE : msg.deviceCannot(CAPABILITY_ACTIONS[capability]);
  return failure(400, "not_supported", reason);
}
