/**
 * Ports that must not be changed, as OpenL2M protects them (docs/api-decisions.md,
 * "Ports that must not be changed"), and its two description guards. Pure rules over what the driver learned
 * of a port and the administrator's settings (OpenL2M's names, README configuration):
 *
 *   802.1X   a port whose access is decided by 802.1X (port control auto) allows no
 *            change at all, superusers included: its VLAN comes from the RADIUS server
 *   LAG      a member of a link aggregation keeps the aggregate's VLANs: its untagged
 *            VLAN and its tagged VLANs are refused (lagMemberDenial(), for every VLAN or
 *            tag write), state, description and PoE are not
 *   admin    for everyone but superusers, a port whose name (IFACE_HIDE_REGEX_IFNAME) or
 *            description (IFACE_HIDE_REGEX_IFDESCR) matches, or whose speed is above
 *            IFACE_HIDE_SPEED_ABOVE Mbps, is shown but not manageable (uplinks)
 *   hidden   HIDE_NONE_ETHERNET_INTERFACES leaves every interface that is not Ethernet
 *            out of the view, for everyone
 *
 * Patterns are matched as OpenL2M's Python re.match matches them: at the start of the
 * text only, case-sensitive unless the pattern begins with an inline flag such as (?i).
 */
import type { InterfaceInfo } from "../model/device";
import { denial, failure, success, type Denial, type Result } from "./result";
import * as msg from "./messages";

/** The administrator's settings, compiled (app/config.ts reads them from the environment). */
export interface PortProtection {
  /** IFACE_HIDE_REGEX_IFNAME: a matching interface name is not manageable for non-superusers */
  hideNamePattern: RegExp | null;
  /** IFACE_HIDE_REGEX_IFDESCR: a matching description is not manageable for non-superusers */
  hideDescriptionPattern: RegExp | null;
  /** IFACE_HIDE_SPEED_ABOVE: Mbps; a faster port is not manageable for non-superusers (0: off) */
  hideSpeedAboveMbps: number;
  /** HIDE_NONE_ETHERNET_INTERFACES: interfaces that are not Ethernet are left out of the view */
  hideNonEthernet: boolean;
  /** IFACE_ALIAS_NOT_ALLOW_REGEX: a new description that matches is refused */
  descriptionNotAllowedPattern: RegExp | null;
  /** IFACE_ALIAS_KEEP_BEGINNING_REGEX: the matching start of the old description stays (non-superusers) */
  descriptionKeepBeginningPattern: RegExp | null;
}

/** Every setting off, as OpenL2M ships. */
export const NO_PORT_PROTECTION: PortProtection = {
  hideNamePattern: null,
  hideDescriptionPattern: null,
  hideSpeedAboveMbps: 0,
  hideNonEthernet: false,
  descriptionNotAllowedPattern: null,
  descriptionKeepBeginningPattern: null,
};

/** unmanage_reason texts, OpenL2M's where it has one */
export const DOT1X_MODE = "Access denied: interface in 802.1x authentication mode!";
export const NAME_DENIED = "Interface access denied: name matches admin deny setting!";
export const DESCRIPTION_DENIED = "Interface access denied: description matches admin deny setting!";
export const SPEED_DENIED = "Interface access denied: speed is denied by admin setting!";

/** ours: the reason a member of a link aggregation shows (it stays manageable otherwise) */
export function lagMemberReason(aggregate: string): string {
  return `Vlan changes denied: interface is a member of link aggregation ${aggregate}!`;
}

/** OpenL2M's text for a description IFACE_ALIAS_NOT_ALLOW_REGEX refuses */
export function descriptionNotAllowed(text: string): string {
  return `The description '${text}' is not allowed!`;
}

/** ours: a non-superuser's description that would replace the kept beginning by another one */
export function descriptionMustKeep(beginning: string): string {
  return `The description must keep its beginning '${beginning}'!`;
}

// --- the patterns ----------------------------------------------------------------------

const INLINE_FLAGS: Record<string, string> = { i: "i", m: "m", s: "s" };

/**
 * A Python pattern as OpenL2M writes it, for JavaScript: anchored at the start (re.match),
 * a leading inline flag group such as (?i) turned into flags. Throws an Error saying what
 * is wrong; "" is no pattern (the setting is off).
 */
export function compilePattern(text: string): RegExp | null {
  if (text === "") return null;
  let body = text;
  let flags = "";
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(body);
  if (inline) {
    for (const f of inline[1]) {
      const js = INLINE_FLAGS[f];
      if (!js) throw new Error(`the inline flag (?${f}) is not supported (only i, m and s are)`);
      if (!flags.includes(js)) flags += js;
    }
    body = body.slice(inline[0].length);
  }
  if (/\(\?P[<=]/.test(body))
    throw new Error("Python's named groups (?P<name>...) are not supported; use (?<name>...)");
  try {
    return new RegExp(`^(?:${body})`, flags);
  } catch (e) {
    throw new Error(e instanceof Error ? e.message : String(e), { cause: e });
  }
}

/** The part of `text` the pattern matches at its start, or null. */
function matchedBeginning(pattern: RegExp, text: string): string | null {
  const m = pattern.exec(text);
  return m ? m[0] : null;
}

// --- the rules -------------------------------------------------------------------------

/** The facts of a port these rules look at. */
export type ProtectedFacts = Pick<
  InterfaceInfo,
  "name" | "description" | "kind" | "speed" | "lag_member_of" | "dot1x_auth"
>;

/** Why nobody may change this port (802.1X), or null. */
export function everyoneDenied(iface: Pick<ProtectedFacts, "dot1x_auth">): string | null {
  return iface.dot1x_auth ? DOT1X_MODE : null;
}

/** Why a non-superuser may not manage this port (the administrator's patterns and speed), or null. */
export function adminDenied(iface: ProtectedFacts, p: PortProtection): string | null {
  if (p.hideNamePattern?.test(iface.name)) return NAME_DENIED;
  if (p.hideDescriptionPattern?.test(iface.description)) return DESCRIPTION_DENIED;
  if (p.hideSpeedAboveMbps > 0 && iface.speed > p.hideSpeedAboveMbps) return SPEED_DENIED;
  return null;
}

/** The reason a manageable member of a link aggregation shows, or undefined. */
export function lagNote(iface: Pick<ProtectedFacts, "lag_member_of">): string | undefined {
  return iface.lag_member_of ? lagMemberReason(iface.lag_member_of) : undefined;
}

/**
 * Every write of a port's VLANs (untagged, tagged, trunk mode) asks this after the port's
 * own manageability: a member of a link aggregation is refused with the contract's text.
 */
export function lagMemberDenial(iface: Pick<ProtectedFacts, "lag_member_of">): Denial | null {
  return iface.lag_member_of ? denial(msg.CANNOT_MANAGE_INTERFACE) : null;
}

/** Is the interface left out of the view (HIDE_NONE_ETHERNET_INTERFACES)? */
export function isHidden(iface: Pick<ProtectedFacts, "kind">, p: PortProtection): boolean {
  return p.hideNonEthernet && iface.kind !== "ethernet";
}

/**
 * The description to write, after OpenL2M's two guards: IFACE_ALIAS_NOT_ALLOW_REGEX
 * refuses a new text that matches (403, for everyone, as OpenL2M); for a non-superuser
 * IFACE_ALIAS_KEEP_BEGINNING_REGEX keeps the matched beginning of the old description (a
 * circuit id): a new text that starts with the same match is taken as it is, one that
 * starts with another match is refused (403: it would replace the kept beginning), any other text is
 * written after it ("D.123" + " " + text; the beginning alone when the text is empty).
 * `text` is the new description, already stripped and checked.
 */
export function guardedDescription(text: string, old: string, superuser: boolean, p: PortProtection): Result<string> {
  if (p.descriptionNotAllowedPattern?.test(text)) return failure(403, "access_denied", descriptionNotAllowed(text));
  const keep = p.descriptionKeepBeginningPattern;
  if (!keep || superuser) return success(text);
  const kept = matchedBeginning(keep, old);
  if (kept === null || kept === "") return success(text);
  const begins = matchedBeginning(keep, text);
  if (begins === kept) return success(text);
  if (begins) return failure(403, "access_denied", descriptionMustKeep(kept));
  return success(text === "" ? kept : `${kept} ${text}`);
}
