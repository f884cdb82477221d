/**
 * Checks of a requested change against what the device reported: does the interface or
 * VLAN exist, may this VLAN be used, is the value already in place, can the driver do
 * it at all. Each answers null (go on) or the contract's failure.
 */
import { CAPABILITY_FLAGS, type CapabilityFlag, type Capabilities } from "../model/capabilities";
import type { InterfaceInfo, TagChange, VlanInfo } from "../model/device";
import { Denial, denial, Failure, failure } from "./result";
import { isVlanId, type TagsRequest } from "./request-values";
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

/**
 * A tags request against the port and the device (docs/api-decisions.md "Trunk ports"):
 * every VLAN named exists on the device (400); `allowAll` needs every VLAN of the device
 * to be one the caller may use for trunks (`mayTag`), a new native VLAN and the native
 * VLAN it replaces must be such VLANs, and so must every tagged VLAN added or removed
 * (403 vlan_not_allowed naming the first that is not). A tagged VLAN on the port the
 * caller may not use stays on it: the change keeps it. The same VLANs as now: 404. The
 * answer is the change to make, with allowAll's VLANs listed.
 */
export function planTagChange(
  request: TagsRequest,
  iface: Pick<InterfaceInfo, "untagged_vlan" | "tagged_vlans">,
  deviceVlans: readonly { id: number }[],
  mayTag: ReadonlySet<number>,
): TagChange | Failure | Denial {
  const onDevice = new Set(deviceVlans.map((v) => v.id));
  for (const id of [request.untagged, ...request.tagged]) {
    if (!onDevice.has(id)) return failure(400, "invalid_parameter", msg.vlanMissing(id));
  }
  const refuse = (id: number) => denial(msg.vlanChangeNotAllowed(id), "vlan_not_allowed");
  const current = new Set(iface.tagged_vlans);
  if (request.untagged !== iface.untagged_vlan) {
    for (const id of [request.untagged, iface.untagged_vlan])
      if (onDevice.has(id) && !mayTag.has(id)) return refuse(id);
  }
  let tagged: number[];
  if (request.allowAll) {
    const foreign = [...onDevice].sort((a, b) => a - b).find((id) => !mayTag.has(id));
    if (foreign !== undefined) return refuse(foreign);
    tagged = [...onDevice].filter((id) => id !== request.untagged);
  } else {
    const wanted = new Set(request.tagged);
    const added = request.tagged.filter((id) => !current.has(id));
    const addedForeign = added.find((id) => !mayTag.has(id));
    if (addedForeign !== undefined) return refuse(addedForeign);
    // a tagged VLAN the caller may not use that the request leaves out: it stays on the port
    const kept = iface.tagged_vlans.filter((id) => !wanted.has(id) && !mayTag.has(id));
    tagged = [...request.tagged, ...kept];
  }
  tagged = [...new Set(tagged)].filter((id) => id !== request.untagged).sort((a, b) => a - b);
  const same =
    request.untagged === iface.untagged_vlan && tagged.length === current.size && tagged.every((id) => current.has(id));
  if (same) return failure(404, "same_value", msg.SAME_TAGS);
  return { untagged: request.untagged, tagged, allowAll: request.allowAll };
}

/** "untagged 10 tagged 20-23,30": a port's VLANs for the audit log (runs of ids as ranges) */
export function tagsText(untagged: number, tagged: readonly number[], allowAll = false): string {
  if (allowAll) return `untagged ${untagged} tagged all`;
  const ids = [...tagged].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < ids.length;) {
    let j = i;
    while (j + 1 < ids.length && ids[j + 1] === ids[j] + 1) j++;
    runs.push(j - i >= 2 ? `${ids[i]}-${ids[j]}` : ids.slice(i, j + 1).join(","));
    i = j + 1;
  }
  return `untagged ${untagged} tagged ${runs.length ? runs.join(",") : "none"}`;
}
