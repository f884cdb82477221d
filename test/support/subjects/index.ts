/**
 * Every conformance subject, by family: one module per family beside this file (a new
 * family adds its module and a line here). The conformance tests of each family run in
 * their own file (test/devices/conformance-<family>.test.ts); the registry test checks
 * this list against the registry.
 */
import type { Subject } from "../conformance";
import * as generic from "./generic";
import * as ciscosb from "./ciscosb";
import * as procurve from "./procurve";
import * as comware from "./comware";
import * as cisco from "./cisco";
import * as ciscoIosCli from "./cisco-ios-cli";
import * as linux from "./linux";
import * as edgeswitch from "./edgeswitch";
import * as fs from "./fs";
import * as arubacx from "./arubacx";
import * as arista from "./arista";
import * as dell from "./dell";
import * as juniper from "./juniper";
import * as arubaAoscx from "./aruba-aoscx";
import * as aristaEapi from "./arista-eapi";
import * as junosNetconf from "./junos-netconf";

export const FAMILY_SUBJECTS: Record<string, { subjects: Subject[]; recordingsServed?: boolean }> = {
  generic,
  ciscosb,
  procurve,
  comware,
  cisco,
  cisco_ios_cli: ciscoIosCli,
  linux_host: linux,
  edgeswitch,
  fs,
  arubacx,
  arista,
  dell,
  juniper,
  aruba_aoscx: arubaAoscx,
  arista_eapi: aristaEapi,
  junos_netconf: junosNetconf,
};

export const ALL_SUBJECTS: Subject[] = Object.values(FAMILY_SUBJECTS).flatMap((f) => f.subjects);

/** recordings are served in this run (fixtures and snmpsimd present) */
export const recordingsServed = Object.values(FAMILY_SUBJECTS).every((f) => f.recordingsServed !== false);
