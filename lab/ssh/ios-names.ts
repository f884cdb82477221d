/**
 * How the lab's IOS face names the interfaces of a VirtualSwitch: Ethernet ports by
 * their description (GigabitEthernet1/0/n in every profile), the LAG as Port-channel,
 * the VLAN interface as Vlan1, the loopback as Loopback0, each with the short form show
 * commands print. And the reverse: what a typed name (either spelling, an abbreviation,
 * a blank before the number) points at.
 */
import type { LabInterface, VirtualSwitch } from "../model";

export interface IosInterface {
  iface: LabInterface;
  long: string;
  short: string;
}

const FAMILIES: ReadonlyArray<readonly [string, string]> = [
  ["GigabitEthernet", "Gi"],
  ["Port-channel", "Po"],
  ["Vlan", "Vl"],
  ["Loopback", "Lo"],
];

function longOf(iface: LabInterface): string {
  if (iface.portNumber !== null) return iface.descr;
  if (iface.ifType === 161) return `Port-channel${/(\d+)$/.exec(iface.name)?.[1] ?? "1"}`;
  if (iface.ifType === 24) return "Loopback0";
  return `Vlan${/(\d+)$/.exec(iface.name)?.[1] ?? "1"}`;
}

function shortOf(long: string): string {
  for (const [family, short] of FAMILIES) if (long.startsWith(family)) return short + long.slice(family.length);
  return long;
}

/** Every interface of the switch with its IOS names, in the model's order. */
export function iosInterfaces(model: VirtualSwitch): IosInterface[] {
  return model.interfaces.map((iface) => {
    const long = longOf(iface);
    return { iface, long, short: shortOf(long) };
  });
}

/** The IOS long name of one interface (tests use it as the driver's interface id). */
export function iosInterfaceName(iface: LabInterface): string {
  return longOf(iface);
}

/** The interface a typed name points at, or null. */
export function findInterface(all: readonly IosInterface[], typed: string): IosInterface | null {
  const m = /^([A-Za-z][A-Za-z-]*?)\s*(\d+(?:\/\d+)*)$/.exec(typed.trim());
  if (!m) return null;
  const prefix = m[1].toLowerCase();
  const families = FAMILIES.filter(
    ([long, short]) => long.toLowerCase().startsWith(prefix) || short.toLowerCase() === prefix,
  );
  if (families.length !== 1) return null;
  const long = `${families[0][0]}${m[2]}`;
  return all.find((i) => i.long === long) ?? null;
}
