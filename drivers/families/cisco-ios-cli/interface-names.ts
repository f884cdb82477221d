/**
 * IOS interface names in their two spellings. Show commands print the short form
 * (Gi1/0/1), configuration and `show ip interface brief` the long one
 * (GigabitEthernet1/0/1), and people type either, or an abbreviation IOS completes
 * (gig1/0/1). The driver keys everything by the long form.
 */

/** [long, short]; the short forms are what `show interfaces status` prints */
const FAMILIES: ReadonlyArray<readonly [string, string]> = [
  ["GigabitEthernet", "Gi"],
  ["FastEthernet", "Fa"],
  ["TenGigabitEthernet", "Te"],
  ["TwoGigabitEthernet", "Tw"],
  ["FiveGigabitEthernet", "Fi"],
  ["TwentyFiveGigE", "Twe"],
  ["FortyGigabitEthernet", "Fo"],
  ["HundredGigE", "Hu"],
  ["AppGigabitEthernet", "Ap"],
  ["Ethernet", "Et"],
  ["Port-channel", "Po"],
  ["Vlan", "Vl"],
  ["Loopback", "Lo"],
  ["Tunnel", "Tu"],
  ["Wlan-GigabitEthernet", "Wl"],
];

const SHAPE = /^([A-Za-z][A-Za-z-]*?)\s?(\d+(?:[/:.]\d+)*)$/;

export interface IosName {
  /** GigabitEthernet1/0/1; as given when the family is unknown */
  long: string;
  /** Gi1/0/1; as given when the family is unknown */
  short: string;
  /** the family's long name ("GigabitEthernet"), "" when unknown */
  family: string;
}

/** Both spellings of an interface name, or null when the text is no interface name at all. */
export function iosName(text: string): IosName | null {
  const m = SHAPE.exec(text.trim());
  if (!m) return null;
  const [, prefix, number] = m;
  const p = prefix.toLowerCase();
  const family =
    FAMILIES.find(([long, short]) => long.toLowerCase() === p || short.toLowerCase() === p) ??
    // an abbreviation IOS would complete: only when exactly one family starts with it
    uniqueAbbreviation(p);
  if (!family) return { long: `${prefix}${number}`, short: `${prefix}${number}`, family: "" };
  return { long: `${family[0]}${number}`, short: `${family[1]}${number}`, family: family[0] };
}

function uniqueAbbreviation(p: string): readonly [string, string] | undefined {
  if (p.length < 2) return undefined;
  const matches = FAMILIES.filter(([long]) => long.toLowerCase().startsWith(p));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The long form, or the text itself when it is no interface name. */
export function longName(text: string): string {
  return iosName(text)?.long ?? text.trim();
}

/** A key under which both spellings of one interface meet. */
export function nameKey(text: string): string {
  return longName(text).toLowerCase();
}

/** IANA ifType and the permission model's class of an interface by its family. */
export function interfaceClass(name: string): { kind: "ethernet" | "lag" | "other"; ifType: number } {
  const family = iosName(name)?.family ?? "";
  if (family === "Port-channel") return { kind: "lag", ifType: 161 };
  if (family === "Vlan") return { kind: "other", ifType: 53 };
  if (family === "Loopback") return { kind: "other", ifType: 24 };
  if (family === "Tunnel") return { kind: "other", ifType: 131 };
  if (/Ethernet|GigE/.test(family)) return { kind: "ethernet", ifType: 6 };
  return { kind: "other", ifType: 0 };
}
