/**
 * Checks of a requested change against what the device reported: does the interface or
 * VLAN exist, may this VLAN be used, is the value already in place, can the driver do
 * it at all. Each answers null (go on) or the contract's failure.
 */
import { CAPABILITY_FLAGS, type CapabilityFlag, type Capabilities } from "../model/capabilities";
import type { InterfaceInfo, VlanInfo } from "../model/device";
import { Failure, failure } from "./result";
import { isVlanId } from "./request-values";
import * as msg from "./messages";

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

/** 400 not_supported when the driver cannot do this; save has the contract's own text. */
export function checkCapability(can: Capabilities, capability: CapabilityFlag): Failure | null {
  if (can[capability]) return null;
  const reason = capability === "save_config" ? msg.CANNOT_SAVE : msg.deviceCannot(CAPABILITY_FLAGS[capability].action);
  return failure(400, "not_supported", reason);
}
