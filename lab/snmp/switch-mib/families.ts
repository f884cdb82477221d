/**
 * The MIB side of every lab profile: which tables the family serves, how it takes SETs,
 * its contexts. Keyed like lab/profiles/index.ts, so a profile without its MIB half
 * does not compile.
 */
import type { ProfileId } from "../../profiles";
import { ciscosbFamily } from "./ciscosb";
import type { FamilyFactory } from "./family";
import { genericFamily } from "./generic";
import { ciscoFamily } from "./cisco";

export const families: Record<ProfileId, FamilyFactory> = {
  generic: genericFamily,
  ciscosb: ciscosbFamily,
  cisco: ciscoFamily,
  procurve: genericFamily,
  comware: genericFamily,
  arubacx: genericFamily,
  dell: genericFamily,
  arista: genericFamily,
  juniper: genericFamily,
  edgeswitch: genericFamily,
  fs: genericFamily,
};
