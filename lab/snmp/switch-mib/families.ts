/**
 * The MIB side of every lab profile: which tables the family serves, how it takes SETs,
 * its contexts. Keyed like lab/profiles/index.ts, so a profile without its MIB half
 * does not compile.
 */
import type { ProfileId } from "../../profiles";
import { aristaFamily } from "./arista";
import { arubacxFamily } from "./arubacx";
import { ciscoFamily } from "./cisco";
import { ciscosbFamily } from "./ciscosb";
import { comwareFamily } from "./comware";
import { dellFamily } from "./dell";
import type { FamilyFactory } from "./family";
import { edgeswitchFamily, fsFamily } from "./fastpath";
import { genericFamily } from "./generic";
import { juniperFamily } from "./juniper";
import { procurveFamily } from "./procurve";

export const families: Record<ProfileId, FamilyFactory> = {
  generic: genericFamily,
  ciscosb: ciscosbFamily,
  cisco: ciscoFamily,
  procurve: procurveFamily,
  comware: comwareFamily,
  arubacx: arubacxFamily,
  dell: dellFamily,
  arista: aristaFamily,
  juniper: juniperFamily,
  edgeswitch: edgeswitchFamily,
  fs: fsFamily,
};
