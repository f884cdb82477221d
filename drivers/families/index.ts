/**
 * Every driver family the registry knows. Adding a family is a folder beside this file
 * and one line here; the engine and the registry do not change.
 */
import type { DriverEntry } from "../entry";
import { generic } from "./generic";
import { ciscosb } from "./ciscosb";
import { cisco } from "./cisco";
import { procurve } from "./procurve";
import { comware } from "./comware";
import { arubacx } from "./arubacx";
import { arista } from "./arista";
import { dell } from "./dell";
import { juniper } from "./juniper";
import { edgeswitch } from "./edgeswitch";
import { fs } from "./fs";
import { ciscoIosCli } from "./cisco-ios-cli";
import { linuxHost } from "./linux";
import { arubaAoscx } from "./aruba-aoscx";
import { aristaEapi } from "./arista-eapi";
import { junosNetconf } from "./junos-netconf";

export const FAMILIES: readonly DriverEntry[] = [
  generic,
  ciscosb,
  cisco,
  procurve,
  comware,
  arubacx,
  arista,
  dell,
  juniper,
  edgeswitch,
  fs,
  ciscoIosCli,
  linuxHost,
  arubaAoscx,
  aristaEapi,
  junosNetconf,
];
