/**
 * Every driver family the registry knows. Adding a family is a folder beside this file
 * and one line here; the engine and the registry do not change.
 */
import type { DriverEntry } from "../entry";
import { generic } from "./generic";
import { ciscosb } from "./ciscosb";
import { ciscoIosCli } from "./cisco-ios-cli";
import { linuxHost } from "./linux";
import { dell } from "./dell";
import { juniper } from "./juniper";

export const FAMILIES: readonly DriverEntry[] = [generic, ciscosb, ciscoIosCli, linuxHost, dell, juniper];
