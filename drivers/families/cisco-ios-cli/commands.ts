/**
 * IOS command lines built from checked values only. IOS has no quoting: a description
 * or VLAN name is the rest of the line, so what would change the line's meaning is
 * refused instead of escaped: line breaks and control characters (safe-values.ts), "?"
 * (the command line answers it with help at once and drops it from the line),
 * characters outside printable ASCII (the terminal encoding is not defined) and
 * surrounding blanks (IOS drops them, so the read-back would differ).
 */
import { checkText, checkVlanId, UnsafeValue } from "../../ssh/safe-values";
import { iosName } from "./interface-names";

/** longest interface description IOS takes */
export const IOS_MAX_DESCRIPTION = 240;
/** longest VLAN name IOS takes */
export const IOS_MAX_VLAN_NAME = 32;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function iosText(value: unknown, what: string, maxLength: number, required: boolean): string {
  const text = checkText(value, { what, maxLength, required });
  if (!PRINTABLE_ASCII.test(text)) throw new UnsafeValue(what, "contains characters other than printable ASCII");
  if (text.includes("?")) throw new UnsafeValue(what, "contains '?', which the IOS command line answers with help");
  if (text !== text.trim()) throw new UnsafeValue(what, "begins or ends with a blank, which IOS drops");
  return text;
}

/** The long name of an interface given in either spelling; UnsafeValue when it is no interface name. */
export function iosInterface(value: unknown): string {
  const text = checkText(value, { what: "interface name", maxLength: 64, required: true });
  const name = iosName(text);
  if (!name || !PRINTABLE_ASCII.test(name.long))
    throw new UnsafeValue("interface name", "is not an IOS interface name");
  return name.long;
}

export function iosDescription(value: unknown): string {
  return iosText(value, "interface description", IOS_MAX_DESCRIPTION, false);
}

/** IOS takes a VLAN name as one word. */
export function iosVlanName(value: unknown): string {
  const name = iosText(value, "VLAN name", IOS_MAX_VLAN_NAME, true);
  if (/\s/.test(name)) throw new UnsafeValue("VLAN name", "contains a blank; IOS takes a VLAN name as one word");
  return name;
}

/** configuration lines (inside `configure terminal` ... `end`) of each change */
export const configLines = {
  adminState: (iface: string, up: boolean) => [`interface ${iosInterface(iface)}`, up ? "no shutdown" : "shutdown"],
  description: (iface: string, text: string) => {
    const name = iosInterface(iface);
    const d = iosDescription(text);
    return [`interface ${name}`, d === "" ? "no description" : `description ${d}`];
  },
  poe: (iface: string, on: boolean) => [
    `interface ${iosInterface(iface)}`,
    on ? "power inline auto" : "power inline never",
  ],
  accessVlan: (iface: string, vlan: number) => [
    `interface ${iosInterface(iface)}`,
    `switchport access vlan ${checkVlanId(vlan)}`,
  ],
  nativeVlan: (iface: string, vlan: number) => [
    `interface ${iosInterface(iface)}`,
    `switchport trunk native vlan ${checkVlanId(vlan)}`,
  ],
  createVlan: (id: number, name: string) => {
    const lines = [`vlan ${checkVlanId(id)}`];
    // without a name IOS gives its default one (VLAN0042)
    if (name !== "") lines.push(`name ${iosVlanName(name)}`);
    return lines;
  },
  renameVlan: (id: number, name: string) => [`vlan ${checkVlanId(id)}`, `name ${iosVlanName(name)}`],
  deleteVlan: (id: number) => [`no vlan ${checkVlanId(id)}`],
};

/** show commands, whole device or one interface */
export const show = {
  version: "show version",
  status: "show interfaces status",
  description: "show interfaces description",
  switchport: "show interfaces switchport",
  vlans: "show vlan brief",
  power: "show power inline",
  ipBrief: "show ip interface brief",
  macTable: "show mac address-table",
  arp: "show ip arp",
  lldp: "show lldp neighbors detail",
  interfaceStatus: (iface: string) => `show interfaces ${iosInterface(iface)} status`,
  interfaceDescription: (iface: string) => `show interfaces ${iosInterface(iface)} description`,
  interfaceSwitchport: (iface: string) => `show interfaces ${iosInterface(iface)} switchport`,
  interfacePower: (iface: string) => `show power inline ${iosInterface(iface)}`,
  interfaceIpBrief: (iface: string) => `show ip interface brief ${iosInterface(iface)}`,
  interfaceConfig: (iface: string) => `show running-config interface ${iosInterface(iface)}`,
};

export const saveCommand = "write memory";
