/**
 * IOS command lines built from checked values only. IOS has no quoting: a description
 * or VLAN name is the rest of the line, so what would change the line's meaning is
 * refused instead of escaped: line breaks and control characters (safe-values.ts), "?"
 * (the command line answers it with help at once and drops it from the line),
 * characters outside printable ASCII (the terminal encoding is not defined) and
 * surrounding blanks (IOS drops them, so the read-back would differ).
 */
import { checkRestOfLine, checkText, checkVlanId, PRINTABLE_ASCII, UnsafeValue } from "../../ssh/safe-values";
import { iosName } from "./interface-names";

/** longest interface description IOS takes */
export const IOS_MAX_DESCRIPTION = 240;
/** longest VLAN name IOS takes */
export const IOS_MAX_VLAN_NAME = 32;

function iosText(value: unknown, what: string, maxLength: number, required: boolean): string {
  return checkRestOfLine(value, { what, maxLength, required, cli: "IOS", help: "answers with help" });
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

/** longest VLAN list put on one line; longer lists go on as "add" lines, as IOS itself writes them */
export const IOS_VLAN_LIST_CHARS = 200;

const VLAN_LIST = /^\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?)*$/;

/**
 * VLAN ids as IOS lists take them: ascending, consecutive ids as "a-b", commas, no
 * blanks, each id checked to be a VLAN id; cut into pieces of at most `maxChars`
 * characters (whole items only). Nothing else ever reaches the command line.
 */
export function iosVlanLists(ids: Iterable<number>, maxChars = IOS_VLAN_LIST_CHARS): string[] {
  const sorted = [...new Set([...ids].map(checkVlanId))].sort((a, b) => a - b);
  const items: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    items.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j;
  }
  const pieces: string[] = [];
  for (const item of items) {
    const last = pieces.length - 1;
    if (last >= 0 && pieces[last].length + 1 + item.length <= maxChars) pieces[last] += `,${item}`;
    else pieces.push(item);
  }
  for (const piece of pieces)
    if (!VLAN_LIST.test(piece)) throw new UnsafeValue("VLAN list", "is not a list of VLAN ids");
  return pieces;
}

/** What a trunk change starts from and goes to (cisco-ios-cli/driver.ts reads the port). */
export interface IosTrunkChange {
  /** the port is configured as a trunk now (its trunk settings are live) */
  trunk: boolean;
  /** `switchport trunk encapsulation dot1q` is needed first (the port is set to negotiate or isl) */
  encapsulation: boolean;
  /** the native VLAN now and the one wanted */
  oldNative: number | null;
  native: number;
  /** the allowed list now (as configured) and the one wanted */
  current: ReadonlySet<number> | "all";
  allowed: ReadonlySet<number> | "all";
}

const ALL_VLAN_IDS = Array.from({ length: 4094 }, (_, i) => i + 1);
const allowedLine = (list: string) => `switchport trunk allowed vlan ${list}`;

/** "switchport trunk allowed vlan <list>", more of it as "... add <list>" lines when long */
function replaceAllowed(allowed: ReadonlySet<number> | "all"): string[] {
  if (allowed === "all") return [allowedLine("all")];
  if (allowed.size === 0) return [allowedLine("none")];
  const [first, ...more] = iosVlanLists(allowed);
  return [allowedLine(first), ...more.map((l) => allowedLine(`add ${l}`))];
}

/**
 * The interface lines of a trunk change, in an order that never cuts the port off. A port
 * that is no trunk yet gets its native VLAN and allowed list first (IOS keeps them until
 * the port trunks) and `switchport mode trunk` last. A live trunk first allows what it is
 * to carry (add: nothing is dropped), then moves its native VLAN, then drops what it is no
 * longer to carry (a bare list replaces the whole list, the classic outage, so it is sent
 * only when everything on it is allowed already).
 */
function trunkLines(c: IosTrunkChange): string[] {
  const native = `switchport trunk native vlan ${checkVlanId(c.native)}`;
  if (!c.trunk) {
    return [
      ...(c.encapsulation ? ["switchport trunk encapsulation dot1q"] : []),
      native,
      ...replaceAllowed(c.allowed),
      "switchport mode trunk",
    ];
  }
  const lines: string[] = [];
  if (c.allowed === "all") {
    if (c.current !== "all") lines.push(allowedLine("all"));
  } else {
    const current = c.current;
    const add = [...c.allowed].filter((v) => current !== "all" && !current.has(v));
    lines.push(...(add.length ? iosVlanLists(add).map((l) => allowedLine(`add ${l}`)) : []));
  }
  if (c.native !== c.oldNative) lines.push(native);
  if (c.allowed !== "all") {
    const allowed = c.allowed;
    const drop = (c.current === "all" ? ALL_VLAN_IDS : [...c.current]).filter((v) => !allowed.has(v));
    if (drop.length) {
      const replace = replaceAllowed(allowed);
      lines.push(...(replace.length === 1 ? replace : iosVlanLists(drop).map((l) => allowedLine(`remove ${l}`))));
    }
  }
  return lines;
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
  /** a trunk carrying `allowed` with native VLAN `native` (see trunkLines) */
  trunk: (iface: string, change: IosTrunkChange) => [`interface ${iosInterface(iface)}`, ...trunkLines(change)],
  /** an access port on `vlan`: the access VLAN first (kept by a trunk), then the mode */
  accessPort: (iface: string, vlan: number, modeChange: boolean) => [
    `interface ${iosInterface(iface)}`,
    `switchport access vlan ${checkVlanId(vlan)}`,
    ...(modeChange ? ["switchport mode access"] : []),
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
