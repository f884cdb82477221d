/**
 * EOS configuration commands built from checked values only. The request carries them as
 * JSON strings, so JSON needs no care here, but each string is still one EOS command
 * line: a description or VLAN name is the rest of the line, so what would change the
 * line's meaning or not read back the same is refused, never escaped: line breaks and
 * control characters (safe-values.ts), characters outside printable ASCII, "?" (EOS's
 * help), surrounding blanks (EOS drops them), and blanks in a VLAN name (EOS takes a
 * name as one word).
 */
import { checkRestOfLine, checkText, checkVlanId, UnsafeValue } from "../../ssh/safe-values";

/** longest interface description EOS takes */
export const EOS_MAX_DESCRIPTION = 240;
/** longest VLAN name EOS takes */
export const EOS_MAX_VLAN_NAME = 32;

function eosText(value: unknown, what: string, maxLength: number, required: boolean): string {
  return checkRestOfLine(value, { what, maxLength, required, cli: "EOS", help: "takes as a help request" });
}

export function eosDescription(value: unknown): string {
  return eosText(value, "interface description", EOS_MAX_DESCRIPTION, false);
}

export function eosVlanName(value: unknown): string {
  const name = eosText(value, "VLAN name", EOS_MAX_VLAN_NAME, true);
  if (/\s/.test(name)) throw new UnsafeValue("VLAN name", "contains a blank; EOS takes a VLAN name as one word");
  return name;
}

/**
 * EOS interface names: a type and a number with optional "/module" parts and a ".sub"
 * part (Ethernet1, Ethernet3/1, Port-Channel10, Vlan20, Management1). Nothing else is an
 * interface name, so nothing else reaches a command.
 */
const INTERFACE_NAME =
  /^(Ethernet|Port-Channel|Vlan|Management|Loopback|Tunnel|Vxlan|Recirc-Channel)\d{1,5}(\/\d{1,3}){0,2}(\.\d{1,5})?$/;

export function eosInterface(value: unknown): string {
  const text = checkText(value, { what: "interface name", maxLength: 64, required: true });
  if (!INTERFACE_NAME.test(text)) throw new UnsafeValue("interface name", "is not an EOS interface name");
  return text;
}

/** VLAN ids as EOS lists take them: ascending, consecutive ids as "a-b", commas, no blanks */
export function eosVlanList(ids: Iterable<number>): string {
  const sorted = [...new Set([...ids].map(checkVlanId))].sort((a, b) => a - b);
  const items: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    items.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j;
  }
  return items.join(",");
}

/** The commands of one change: privileged, configuration mode, the lines, back to exec. */
export function configure(lines: readonly string[]): string[] {
  return ["enable", "configure terminal", ...lines, "end"];
}

export const eosLines = {
  adminState: (name: string, up: boolean) => [`interface ${eosInterface(name)}`, up ? "no shutdown" : "shutdown"],
  description: (name: string, text: string) => {
    const description = eosDescription(text);
    return [`interface ${eosInterface(name)}`, description === "" ? "no description" : `description ${description}`];
  },
  accessVlan: (name: string, vlan: number) => [
    `interface ${eosInterface(name)}`,
    `switchport access vlan ${checkVlanId(vlan)}`,
  ],
  nativeVlan: (name: string, vlan: number) => [
    `interface ${eosInterface(name)}`,
    `switchport trunk native vlan ${checkVlanId(vlan)}`,
  ],
  /** an access port on `vlan`: the VLAN first (kept while still a trunk), then the mode */
  accessPort: (name: string, vlan: number) => [
    `interface ${eosInterface(name)}`,
    `switchport access vlan ${checkVlanId(vlan)}`,
    "switchport mode access",
  ],
  /**
   * A trunk: native VLAN and allowed list first (on an access port they wait for the
   * mode; on a trunk the native VLAN is carried throughout), then the mode. The native
   * VLAN is in the allowed list too, so it is carried on every EOS.
   */
  trunk: (name: string, native: number, allowed: readonly number[] | "all") => [
    `interface ${eosInterface(name)}`,
    `switchport trunk native vlan ${checkVlanId(native)}`,
    `switchport trunk allowed vlan ${allowed === "all" ? "all" : eosVlanList([native, ...allowed])}`,
    "switchport mode trunk",
  ],
  createVlan: (id: number, name: string) => [
    `vlan ${checkVlanId(id)}`,
    ...(name === "" ? [] : [`name ${eosVlanName(name)}`]),
  ],
  renameVlan: (id: number, name: string) => [`vlan ${checkVlanId(id)}`, `name ${eosVlanName(name)}`],
  deleteVlan: (id: number) => [`no vlan ${checkVlanId(id)}`],
};

export const SAVE_COMMAND = "copy running-config startup-config";
