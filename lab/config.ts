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

export interface SwitchConfig {
  /** by ifIndex */
  ports: Map<number, PortSettings>;
  /** bridge port -> PVID */
  pvid: Map<number, number>;
  /** by VLAN id */
  vlans: Map<number, VlanSettings>;
  /** bridge port -> mode, for ports that are not access ports */
  portModes: Map<number, PortMode>;
}

export function cloneConfig(c: SwitchConfig): SwitchConfig {
  const ports = new Map<number, PortSettings>();
  for (const [k, v] of c.ports) ports.set(k, { ...v });
  const vlans = new Map<number, VlanSettings>();
  for (const [k, v] of c.vlans) {
    vlans.set(k, { name: v.name, active: v.active, egress: new Set(v.egress), untagged: new Set(v.untagged) });
  }
  return { ports, pvid: new Map(c.pvid), vlans, portModes: new Map(c.portModes) };
}

function sameSet(a: Set<number>, b: Set<number>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

export function configsEqual(a: SwitchConfig, b: SwitchConfig): boolean {
  if (a.ports.size !== b.ports.size || a.pvid.size !== b.pvid.size || a.vlans.size !== b.vlans.size) return false;
  if (a.portModes.size !== b.portModes.size) return false;
  for (const [k, m] of a.portModes) if (b.portModes.get(k) !== m) return false;
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
