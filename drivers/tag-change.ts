/**
 * What every driver's setTags (Driver.setTags) checks the same way, whatever protocol it
 * speaks.
 */
import type { TagChange } from "../model/device";

/**
 * The VLANs of a trunk change that the switch does not have (the untagged one included);
 * a driver refuses such a change before it writes anything, though some switches would
 * keep an allowed VLAN that does not exist.
 */
export function unknownVlans(known: readonly number[], change: TagChange): number[] {
  const have = new Set(known);
  return [...new Set([change.untagged, ...change.tagged])].filter((v) => !have.has(v)).sort((a, b) => a - b);
}
