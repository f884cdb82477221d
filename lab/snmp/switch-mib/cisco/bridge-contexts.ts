/**
 * BRIDGE-MIB on IOS is one instance per VLAN: a manager reads VLAN n's port map and MAC
 * table with the community "public@n" (v2c) or the context "vlan-n" (v3). The default
 * context is VLAN 1's. Each instance lists the bridge ports that carry the VLAN (access
 * ports in it and trunks allowing it) and the MACs learned in it. The system group is
 * served in every context; nothing else is (as in the recorded per-VLAN walk).
 */
import { system } from "../../../../mib/oids";
import type { VirtualSwitch } from "../../../model";
import { MibIndex, MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { objectId, octets, timeTicks } from "../../../../mib/smi-values";
import { addBridgePorts, addDot1dFdb } from "../bridge";
import type { ContextSupport } from "../family";
import { RESERVED_VLANS } from "./vtp";

const reserved = new Set(RESERVED_VLANS.map((v) => v.id));

/** BRIDGE-MIB of one VLAN: its member ports and MAC entries */
export function addVlanBridge(b: MibIndexBuilder, sw: VirtualSwitch, vlan: number): void {
  const v = sw.vlan(vlan);
  const ports = v ? sw.bridgePorts.filter((p) => v.egress.has(p)) : [];
  addBridgePorts(b, sw, ports);
  addDot1dFdb(
    b,
    sw.fdb.filter((e) => e.vlan === vlan),
  );
}

export function vlanContexts(sw: VirtualSwitch): ContextSupport {
  const cache = new Map<number, { version: string; index: MibIndex }>();
  const vlanOf = (context: string): number | null => {
    const m = /^vlan-(\d+)$/.exec(context);
    const id = m ? Number(m[1]) : NaN;
    return Number.isInteger(id) && !reserved.has(id) && sw.vlan(id)?.active ? id : null;
  };
  return {
    // "public@10": digits naming an existing VLAN; anything else is no community of this agent
    fromCommunity: (suffix) =>
      /^\d+$/.test(suffix) && vlanOf(`vlan-${Number(suffix)}`) !== null ? `vlan-${Number(suffix)}` : null,
    has: (context) => vlanOf(context) !== null,
    index(context) {
      const vlan = vlanOf(context) ?? 0;
      const version = `${sw.structureVersion}:${sw.changeCount}`;
      const hit = cache.get(vlan);
      if (hit && hit.version === version) return hit.index;
      const b = new MibIndexBuilder();
      const s = sw.system;
      b.scalar(system.sysDescr, () => octets(s.sysDescr))
        .scalar(system.sysObjectID, () => objectId(parseOid(s.sysObjectID)))
        .scalar(system.sysUpTime, () => timeTicks(sw.uptimeTicks()))
        .scalar(system.sysName, () => octets(s.sysName));
      if (vlan) addVlanBridge(b, sw, vlan);
      const index = b.build();
      cache.set(vlan, { version, index });
      return index;
    },
  };
}
