/**
 * The configuration part of a lab switch: what a SET changes and a save copies. Kept
 * apart from the fixed hardware facts so running and startup are two values of one type.
 */

export interface PortSettings {
  adminUp: boolean;
  alias: string;
  /** pethPsePortAdminEnable; meaningless on ports without PoE */
  poeEnabled: boolean;
}

export interface VlanSettings {
  name: string;
  /** RowStatus active(1); false = notInService(2) (created with createAndWait) */
  active: boolean;
  /** bridge ports that send this VLAN (tagged or untagged) */
  egress: Set<number>;
  /** bridge ports that send it untagged; always a subset of egress */
  untagged: Set<number>;
}

/**
 * How a bridge port is configured to carry VLANs, on the families that have a port mode
 * (Cisco `switchport mode trunk`, Comware `port link-type`, AOS-CX `vlan trunk`). A port
 * without an entry is an access port. Q-BRIDGE-only families ignore it: there the VLAN
 * memberships alone say what a port carries.
 */
export type PortMode = "trunk" | "hybrid";

/**
 * What a port of those families keeps configured for both modes, whichever is active:
 * the access VLAN (IOS `switchport access vlan`), the trunk's native VLAN and its allowed
 * list (`switchport trunk native vlan`, `switchport trunk allowed vlan`; Comware `port
 * trunk pvid` and `port trunk permit vlan`). The VLAN memberships follow the active
 * mode's settings (applySwitchport); the other mode's settings wait for a mode change,
 * as on the real switch. A port without an entry has the settings its memberships show
 * (switchportOf), so a generated switch needs none.
 */
export interface SwitchportSettings {
  access: number;
  native: number;
  /** VLANs the trunk may carry, VLANs that do not exist (yet) included; "all" also carries VLANs created later */
  allowed: ReadonlySet<number> | "all";
}

export interface SwitchConfig {
  /** by ifIndex */
  ports: Map<number, PortSettings>;
  /** bridge port -> PVID */
  pvid: Map<number, number>;
  /** by VLAN id */
  vlans: Map<number, VlanSettings>;
  /** bridge port -> mode, for ports that are not access ports */
  portModes: Map<number, PortMode>;
  /** bridge port -> its switchport settings, where they were configured (see SwitchportSettings) */
  switchport: Map<number, SwitchportSettings>;
}

export function cloneConfig(c: SwitchConfig): SwitchConfig {
  const ports = new Map<number, PortSettings>();
  for (const [k, v] of c.ports) ports.set(k, { ...v });
  const vlans = new Map<number, VlanSettings>();
  for (const [k, v] of c.vlans) {
    vlans.set(k, { name: v.name, active: v.active, egress: new Set(v.egress), untagged: new Set(v.untagged) });
  }
  const switchport = new Map<number, SwitchportSettings>();
  for (const [k, s] of c.switchport)
    switchport.set(k, { ...s, allowed: s.allowed === "all" ? "all" : new Set(s.allowed) });
  return { ports, pvid: new Map(c.pvid), vlans, portModes: new Map(c.portModes), switchport };
}

function sameSet(a: ReadonlySet<number>, b: ReadonlySet<number>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export function configsEqual(a: SwitchConfig, b: SwitchConfig): boolean {
  if (a.ports.size !== b.ports.size || a.pvid.size !== b.pvid.size || a.vlans.size !== b.vlans.size) return false;
  if (a.portModes.size !== b.portModes.size) return false;
  for (const [k, m] of a.portModes) if (b.portModes.get(k) !== m) return false;
  if (a.switchport.size !== b.switchport.size) return false;
  for (const [k, s] of a.switchport) {
    const t = b.switchport.get(k);
    if (!t || t.access !== s.access || t.native !== s.native) return false;
    if (s.allowed === "all" || t.allowed === "all" ? s.allowed !== t.allowed : !sameSet(s.allowed, t.allowed))
      return false;
  }
  for (const [k, p] of a.ports) {
    const q = b.ports.get(k);
    if (!q || q.adminUp !== p.adminUp || q.alias !== p.alias || q.poeEnabled !== p.poeEnabled) return false;
  }
  for (const [k, v] of a.pvid) if (b.pvid.get(k) !== v) return false;
  for (const [k, v] of a.vlans) {
    const w = b.vlans.get(k);
    if (!w || w.name !== v.name || w.active !== v.active) return false;
    if (!sameSet(v.egress, w.egress) || !sameSet(v.untagged, w.untagged)) return false;
  }
  return true;
}

/**
 * The one rule every Q-BRIDGE agent keeps, even one that changes each written object
 * only: a VLAN's untagged ports are among its egress ports (an untagged port is an
 * egress port whose frames leave without a tag). In words, empty when kept.
 */
export function untaggedOutsideEgress(c: SwitchConfig): string[] {
  const problems: string[] = [];
  for (const [id, v] of c.vlans) {
    for (const p of v.untagged) {
      if (!v.egress.has(p)) problems.push(`VLAN ${id}: port ${p} untagged but not in egress`);
    }
  }
  return problems;
}

/**
 * The VLAN rules a real Q-BRIDGE switch keeps: each bridge port's PVID is an active
 * VLAN whose untagged set holds the port, the port is untagged in exactly that one
 * VLAN, and every VLAN's egress set contains its untagged set. Returns the broken
 * rules in words (empty when consistent).
 */
export function consistencyProblems(c: SwitchConfig, bridgePorts: readonly number[]): string[] {
  const problems = untaggedOutsideEgress(c);
  for (const p of bridgePorts) {
    const pvid = c.pvid.get(p);
    if (pvid === undefined) {
      problems.push(`port ${p}: no PVID`);
      continue;
    }
    const vlan = c.vlans.get(pvid);
    if (!vlan || !vlan.active) problems.push(`port ${p}: PVID ${pvid} is not an active VLAN`);
    else if (!vlan.untagged.has(p)) problems.push(`port ${p}: not untagged in its PVID ${pvid}`);
    const untaggedIn = [...c.vlans].filter(([, v]) => v.untagged.has(p)).map(([id]) => id);
    if (untaggedIn.length !== 1)
      problems.push(`port ${p}: untagged in ${untaggedIn.length} VLANs (${untaggedIn.join(", ")})`);
  }
  return problems;
}

/**
 * Makes `vlan` the access VLAN of bridge port p, as setting the PVID or adding the port
 * to a VLAN's untagged set does on the switches modelled here: the port leaves its old
 * untagged VLAN (egress too) and becomes an untagged member of the new one. Tagged
 * memberships stay.
 */
export function moveAccessVlan(c: SwitchConfig, port: number, vlan: number): void {
  for (const v of c.vlans.values()) {
    if (v.untagged.has(port)) {
      v.untagged.delete(port);
      v.egress.delete(port);
    }
  }
  const target = c.vlans.get(vlan);
  if (target) {
    target.untagged.add(port);
    target.egress.add(port);
  }
  c.pvid.set(port, vlan);
}

/** The switchport settings of bridge port `bp`: as configured, or as its memberships show them. */
export function switchportOf(c: SwitchConfig, bp: number): SwitchportSettings {
  const stored = c.switchport.get(bp);
  if (stored) return stored;
  const pvid = c.pvid.get(bp) ?? 1;
  if (!c.portModes.has(bp)) return { access: pvid, native: 1, allowed: "all" };
  const carried = [...c.vlans].filter(([, v]) => v.egress.has(bp)).map(([id]) => id);
  return { access: 1, native: pvid, allowed: new Set(carried) };
}

/**
 * The VLAN memberships of bridge port `bp` made what its mode and settings say: an
 * access port is an untagged member of its access VLAN only; a trunk is an untagged
 * member of its native VLAN and a tagged member of every existing VLAN its allowed list
 * holds. (Lab simplification: the native VLAN is carried even when the allowed list
 * leaves it out; a real switch would drop its untagged frames.) Hybrid ports keep their
 * memberships as they are.
 */
export function applySwitchport(c: SwitchConfig, bp: number): void {
  const mode = c.portModes.get(bp);
  if (mode === "hybrid") return;
  const s = switchportOf(c, bp);
  const trunk = mode === "trunk";
  const untagged = trunk ? s.native : s.access;
  for (const [id, v] of c.vlans) {
    const carried = id === untagged || (trunk && (s.allowed === "all" || s.allowed.has(id)));
    if (carried) v.egress.add(bp);
    else v.egress.delete(bp);
    if (id === untagged) v.untagged.add(bp);
    else v.untagged.delete(bp);
  }
  c.pvid.set(bp, untagged);
}

/** Changes settings of bridge port `bp` (those not named stay) and applies them. */
export function configureSwitchport(c: SwitchConfig, bp: number, change: Partial<SwitchportSettings>): void {
  c.switchport.set(bp, { ...switchportOf(c, bp), ...change });
  applySwitchport(c, bp);
}

/** Switches bridge port `bp` between access and trunk; the settings of both modes are kept. */
export function setPortMode(c: SwitchConfig, bp: number, mode: "access" | "trunk"): void {
  // taken while the memberships still show the old mode's settings
  c.switchport.set(bp, { ...switchportOf(c, bp) });
  if (mode === "trunk") c.portModes.set(bp, "trunk");
  else c.portModes.delete(bp);
  applySwitchport(c, bp);
}

/** A VLAN just created: the trunks whose configured allowed list holds it carry it from now on. */
export function carryNewVlan(c: SwitchConfig, id: number): void {
  for (const [bp, s] of c.switchport) {
    if (c.portModes.get(bp) !== "trunk") continue;
    if (s.allowed === "all" || s.allowed.has(id)) c.vlans.get(id)?.egress.add(bp);
  }
}
