/**
 * The list of lab profiles, one per vendor family: how interfaces are numbered and named,
 * what the system group says (sysObjectID picks the driver in switchdesk), limits and
 * defaults. The MIB side of each family (tables served, write rules, save) is its entry
 * in lab/snmp/switch-mib/families.ts; both lists are keyed by ProfileId, so the compiler
 * refuses a family that has one half only.
 */
import { arista } from "./arista";
import { arubacx } from "./arubacx";
import { cisco } from "./cisco";
import { ciscosb } from "./ciscosb";
import { comware } from "./comware";
import { dell } from "./dell";
import { edgeswitch } from "./edgeswitch";
import { fs } from "./fs";
import { generic } from "./generic";
import { juniper } from "./juniper";
import { procurve } from "./procurve";
import type { ProfileId, SwitchProfile } from "./types";

export type { ProfileId, SwitchProfile, InterfaceLayout, VirtualInterfaceSpec } from "./types";

export const profiles: Record<ProfileId, SwitchProfile> = {
  generic,
  ciscosb,
  cisco,
  procurve,
  comware,
  arubacx,
  dell,
  arista,
  juniper,
  edgeswitch,
  fs,
};

export const profileIds = Object.keys(profiles) as ProfileId[];

export function isProfileId(id: string): id is ProfileId {
  return Object.prototype.hasOwnProperty.call(profiles, id);
}

export function getProfile(id: ProfileId): SwitchProfile {
  const p = isProfileId(id) ? profiles[id] : undefined;
  if (!p) throw new Error(`unknown lab profile: ${String(id)}`);
  return p;
}
