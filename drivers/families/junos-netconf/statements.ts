/**
 * The Junos configuration statements (`set` / `delete` / `rename`) of each change, in the
 * ELS hierarchy or the older EX one (`port-mode`, the native VLAN under the unit). Every
 * value is checked before it becomes a statement: interface names by their Junos form,
 * VLAN names by the characters Junos takes in them, descriptions by the rules every
 * command line needs (drivers/ssh/safe-values.ts), then quoted. The statements travel
 * inside XML, which the driver escapes.
 */
import { NotSupported } from "../../../model/failures";
import { checkText, checkVlanId, UnsafeValue } from "../../ssh/safe-values";
import type { SwitchStyle } from "./parse";

export const JUNOS_MAX_DESCRIPTION = 900;
export const JUNOS_MAX_VLAN_NAME = 255;

/** ge-0/0/1, xe-1/0/0:2, ae0, lo0, irb, irb.0, vlan.10, me0 */
const INTERFACE = /^[a-z][a-z0-9]{0,15}(-\d{1,3}\/\d{1,3}\/\d{1,3}(:\d{1,3})?)?(\.\d{1,5})?$/;
const VLAN_NAME = /^[A-Za-z0-9][\w.-]*$/;

export function isJunosInterfaceName(name: string): boolean {
  return INTERFACE.test(name);
}

/** an interface name a statement may carry (a physical interface: statements address units themselves) */
export function junosInterface(name: string): string {
  if (!INTERFACE.test(name) || name.includes("."))
    throw new UnsafeValue("interface name", "is not a Junos interface name");
  return name;
}

export function junosVlanName(name: string): string {
  checkText(name, { what: "VLAN name", maxLength: JUNOS_MAX_VLAN_NAME, required: true });
  if (!VLAN_NAME.test(name)) throw new NotSupported("A Junos VLAN name holds only letters, digits, '-', '_' and '.'");
  return name;
}

/** a quoted string of the set syntax: backslash and double quote escaped */
export function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

export function junosDescription(text: string): string {
  return checkText(text, { what: "interface description", maxLength: JUNOS_MAX_DESCRIPTION });
}

const es = (name: string) => `interfaces ${junosInterface(name)} unit 0 family ethernet-switching`;

export const statements = {
  adminState: (name: string, up: boolean) => [`${up ? "delete" : "set"} interfaces ${junosInterface(name)} disable`],
  description: (name: string, text: string) =>
    text === ""
      ? [`delete interfaces ${junosInterface(name)} description`]
      : [`set interfaces ${junosInterface(name)} description ${quoted(junosDescription(text))}`],
  poe: (name: string, on: boolean) => [`${on ? "delete" : "set"} poe interface ${junosInterface(name)} disable`],
  /** an access port on `vlan` */
  access: (name: string, vlan: number, style: SwitchStyle) => [
    `delete ${es(name)} vlan`,
    ...nativeOff(name, style),
    `set ${es(name)} ${style === "els" ? "interface-mode" : "port-mode"} access`,
    `set ${es(name)} vlan members ${checkVlanId(vlan)}`,
  ],
  /** a trunk carrying `tagged` (every VLAN when "all") with `native` untagged */
  trunk: (name: string, native: number, tagged: number[] | "all", style: SwitchStyle) => {
    const members =
      tagged === "all"
        ? "all"
        : `[ ${[...new Set([...tagged, native])]
            .map(checkVlanId)
            .sort((a, b) => a - b)
            .join(" ")} ]`;
    return [
      `delete ${es(name)} vlan`,
      `set ${es(name)} ${style === "els" ? "interface-mode" : "port-mode"} trunk`,
      `set ${es(name)} vlan members ${members}`,
      style === "els"
        ? `set interfaces ${junosInterface(name)} native-vlan-id ${checkVlanId(native)}`
        : `set ${es(name)} native-vlan-id ${checkVlanId(native)}`,
    ];
  },
  createVlan: (id: number, name: string) => [`set vlans ${junosVlanName(name)} vlan-id ${checkVlanId(id)}`],
  renameVlan: (from: string, to: string) => [`rename vlans ${junosVlanName(from)} to ${junosVlanName(to)}`],
  deleteVlan: (name: string) => [`delete vlans ${junosVlanName(name)}`],
};

function nativeOff(name: string, style: SwitchStyle): string[] {
  return [
    style === "els" ? `delete interfaces ${junosInterface(name)} native-vlan-id` : `delete ${es(name)} native-vlan-id`,
  ];
}
