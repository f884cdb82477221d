/**
 * The facts behind the port protections (domain/port-protection.ts) on Cisco IOS, from
 * the interface configuration (`show running-config`, or `show running-config interface
 * X` for one port) and `show interfaces switchport`:
 *
 *   `channel-group <n> mode ...`           a member of Port-channel<n> (LACP, PAgP or on)
 *   "(member of bundle Po1)" in the        the same, as the switchport listing says it
 *   switchport's operational mode          (also "suspended member" of a member that is down)
 *   `authentication port-control auto`,    802.1X decides who uses the port (IBNS 1 and the
 *   `dot1x port-control auto`              older form; force-authorized is not 802.1X mode)
 *   `no switchport`, "Switchport:          a routed port
 *   Disabled"
 */
import type { InterfaceInfo } from "../../../model/device";
import { longName, nameKey } from "./interface-names";
import type { InterfaceConfig } from "./parse-running-interface";
import type { SwitchportRow } from "./parse-switchport";

/** the whole configuration, of which the interface blocks are read */
export const RUNNING_CONFIG = "show running-config";

export interface IosPortGuards {
  /** the aggregate's long name (Port-channel1) */
  lag?: string;
  dot1x: boolean;
  routed: boolean;
}

const CHANNEL_GROUP = /^channel-group\s+(\d+)\s+mode\s+\S+/;
const PORT_CONTROL_AUTO = /^(authentication|dot1x)\s+port-control\s+auto\s*$/;
const BUNDLE = /member of bundle\s+(\S+?)\)?$/;

/** One interface's guards from its configuration lines and its switchport row (either may be missing). */
export function portGuards(config: InterfaceConfig | undefined, switchport: SwitchportRow | undefined): IosPortGuards {
  const guards: IosPortGuards = { dot1x: false, routed: false };
  for (const line of config?.lines ?? []) {
    const group = CHANNEL_GROUP.exec(line);
    if (group) guards.lag = `Port-channel${group[1]}`;
    if (PORT_CONTROL_AUTO.test(line)) guards.dot1x = true;
    if (line.trim() === "no switchport") guards.routed = true;
  }
  const bundle = switchport ? BUNDLE.exec(switchport.operMode) : null;
  if (!guards.lag && bundle) guards.lag = longName(bundle[1]);
  if (switchport?.switchport === "Disabled") guards.routed = true;
  return guards;
}

/** Writes the guards onto the Ethernet ports of a learn (configuration and switchport rows by interface). */
export function markIosPortGuards(
  interfaces: InterfaceInfo[],
  configs: readonly InterfaceConfig[],
  switchports: readonly SwitchportRow[],
): void {
  const configOf = new Map(configs.map((c) => [nameKey(c.interface), c]));
  const switchportOf = new Map(switchports.map((r) => [nameKey(r.interface), r]));
  for (const iface of interfaces) {
    if (iface.kind !== "ethernet") continue;
    const key = nameKey(iface.name);
    const guards = portGuards(configOf.get(key), switchportOf.get(key));
    if (guards.lag) iface.lag_member_of = guards.lag;
    if (guards.dot1x) iface.dot1x_auth = true;
    if (guards.routed) iface.routed = true;
  }
}
