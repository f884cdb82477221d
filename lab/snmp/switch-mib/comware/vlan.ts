/**
 * Comware port VLANs. Reads: Q-BRIDGE static table (names, egress, untagged) and
 * dot1qPvid, as recorded, plus HH3C-LswVLAN-MIB hh3cdot1qVlanMIBTable and
 * HH3C-LswINF-MIB hh3cifVLANType / hh3cifVLANTrunkStatusTable.
 *
 * A trunk's PVID and permitted VLANs are the configuration's switchport settings (native
 * and allowed list, lab/config.ts): hh3cifVLANTrunkAllowListLow/High read the permitted
 * list as configured (all ones after "permit vlan all"), ...PassList the VLANs the port
 * carries now.
 *
 * Writes, as the reference tool drives a Comware switch:
 * - an access port changes VLAN by rewriting hh3cdot1qVlanPorts of the target VLAN with
 *   the port added (it leaves its old VLAN); taking an access port out of its VLAN's
 *   list puts it back in VLAN 1 ("undo port access vlan"), and out of VLAN 1 is refused
 *   (inconsistentValue). For a trunk or hybrid port the list adds or removes the VLAN
 *   tagged; its PVID VLAN cannot be taken out this way.
 * - dot1qPvid on an access port is answered noError and changes nothing: Comware takes
 *   an access port's PVID from its access VLAN, so a manager that writes only the PVID
 *   reads back the old VLAN. On a trunk or hybrid port it changes the PVID (the old one
 *   stays tagged where the port permits it).
 * - hh3cifVLANType switches a port between access(2), trunk(1) and hybrid(3). An access
 *   port made a trunk starts as Comware starts a trunk: PVID 1, permitting VLAN 1 only
 *   (its access VLAN is gone until the manager permits it); to access drops its tagged
 *   VLANs (its PVID becomes its access VLAN); fabric(4) is wrongValue.
 * - hh3cifVLANTrunkAllowListLow/High set the VLANs a trunk or hybrid port may carry
 *   (bit order as the MIB has it: within an octet the least significant bit is the
 *   lowest VLAN), ids that do not exist included; on an access port inconsistentValue.
 * - hh3cdot1qVlanName renames, hh3cdot1qVlanRowStatus createAndGo/destroy creates and
 *   deletes VLANs (the Q-BRIDGE rules: VLAN 1 and PVIDs stay; a new VLAN is carried by
 *   the trunks that permit it). The Q-BRIDGE static columns are read-only here
 *   (notWritable).
 */
import { hh3cIf, hh3cVlan } from "../../../../mib/comware";
import { qbridge } from "../../../../mib/oids";
import { carryNewVlan, configureSwitchport, setPortMode, switchportOf, type SwitchConfig } from "../../../config";
import type { LabInterface } from "../../../hardware";
import type { VirtualSwitch } from "../../../model";
import { portListOf, portsOf } from "../../../../mib/portlist";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance, octets, type SnmpValue } from "../../../../mib/smi-values";
import {
  dot1qVlanStaticName,
  dot1qVlanStaticRowStatus,
  E,
  isInt,
  plain,
  singleIndex,
  validVlanId,
  type WritableColumn,
} from "../writable";

const MODE = { trunk: 1, access: 2, hybrid: 3 } as const;

/** VLANs from..from+2047 as 256 octets, least significant bit = lowest VLAN of an octet (the MIB's order) */
function trunkList(vlans: Iterable<number>, from: number): Buffer {
  const out = Buffer.alloc(256);
  for (const v of vlans) {
    const i = v - from;
    if (i >= 0 && i < 2048) out[i >> 3] |= 1 << (i & 7);
  }
  return out;
}

const modeOf = (sw: VirtualSwitch, bp: number, cfg = sw.running) => {
  const m = cfg.portModes.get(bp);
  return m === "trunk" ? MODE.trunk : m === "hybrid" ? MODE.hybrid : MODE.access;
};

export function addComwareVlanTables(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const len = sw.portListLength;
  const ids = sw.vlanIds();
  const byVlan = (id: number) => [id];
  const value = (id: number, f: (v: NonNullable<ReturnType<VirtualSwitch["vlan"]>>) => SnmpValue) => {
    const v = sw.vlan(id);
    return v ? f(v) : noSuchInstance;
  };
  const tagged = (v: NonNullable<ReturnType<VirtualSwitch["vlan"]>>) => [...v.egress].filter((p) => !v.untagged.has(p));
  b.column(hh3cVlan.hh3cdot1qVlanName, ids, byVlan, (id) => value(id, (v) => octets(v.name)))
    .column(hh3cVlan.hh3cdot1qVlanPorts, ids, byVlan, (id) => value(id, (v) => octets(portListOf(v.egress, len))))
    .column(hh3cVlan.hh3cdot1qVlanType, ids, byVlan, () => integer(2))
    .column(hh3cVlan.hh3cdot1qVlanStatus, ids, byVlan, () => integer(2))
    .column(hh3cVlan.hh3cdot1qVlanRowStatus, ids, byVlan, (id) => value(id, (v) => integer(v.active ? 1 : 2)))
    .column(hh3cVlan.hh3cdot1qVlanTaggedPorts, ids, byVlan, (id) =>
      value(id, (v) => octets(portListOf(tagged(v), len))),
    )
    .column(hh3cVlan.hh3cdot1qVlanUntaggedPorts, ids, byVlan, (id) =>
      value(id, (v) => octets(portListOf(v.untagged, len))),
    )
    .column(hh3cVlan.hh3cdot1qVlanPortIndexs, ids, byVlan, (id) =>
      value(id, (v) =>
        octets(
          [...v.egress]
            .sort((x, y) => x - y)
            .map((p) => sw.interfaceOfBridgePort(p)!.ifIndex)
            .join(","),
        ),
      ),
    );

  const ports = sw.ethernetPorts;
  const byIf = (i: LabInterface) => [i.ifIndex];
  b.column(hh3cIf.hh3cifVLANType, ports, byIf, (i) => integer(modeOf(sw, i.bridgePort!)));
  // hh3cifVLANTrunkStatusTable: trunk and hybrid ports (rows follow the port modes)
  const trunks = ports.filter((i) => modeOf(sw, i.bridgePort!) !== MODE.access);
  const carried = (i: LabInterface) =>
    [...sw.running.vlans].filter(([, v]) => v.egress.has(i.bridgePort!)).map(([id]) => id);
  const permitted = (i: LabInterface) => {
    const allowed = switchportOf(sw.running, i.bridgePort!).allowed;
    return allowed === "all" ? ALL_VLANS : allowed;
  };
  b.column(hh3cIf.hh3cifVLANTrunkPassListLow, trunks, byIf, (i) => octets(trunkList(carried(i), 1)))
    .column(hh3cIf.hh3cifVLANTrunkPassListHigh, trunks, byIf, (i) => octets(trunkList(carried(i), 2049)))
    .column(hh3cIf.hh3cifVLANTrunkAllowListLow, trunks, byIf, (i) => octets(trunkList(permitted(i), 1)))
    .column(hh3cIf.hh3cifVLANTrunkAllowListHigh, trunks, byIf, (i) => octets(trunkList(permitted(i), 2049)));
}

const ALL_VLANS = Array.from({ length: 4094 }, (_, i) => i + 1);

function portAt(sw: VirtualSwitch, instance: number[]): LabInterface | null {
  const ifIndex = singleIndex(instance);
  const i = ifIndex === null ? undefined : sw.interface(ifIndex);
  return i && i.portNumber !== null && i.bridgePort !== null ? i : null;
}

/** a trunk permits `vlan` or no longer does (its allowed list; the memberships follow) */
function permit(cfg: SwitchConfig, bp: number, vlan: number, on: boolean): void {
  const before = switchportOf(cfg, bp).allowed;
  if (on && before === "all") return;
  const allowed = new Set(before === "all" ? ALL_VLANS : before);
  if (on) allowed.add(vlan);
  else allowed.delete(vlan);
  configureSwitchport(cfg, bp, { allowed });
}

/** the same rules as another column, under a Comware OID */
const alias = (object: string, rules: WritableColumn): WritableColumn => ({ ...rules, column: parseOid(object) });

export function comwareVlanColumns(sw: VirtualSwitch): WritableColumn[] {
  const vlanPorts: WritableColumn = {
    column: parseOid(hh3cVlan.hh3cdot1qVlanPorts),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (value.tag !== 0x04) return E.wrongType;
      const wanted = new Set(portsOf(value.value));
      for (const p of wanted) if (!sw.interfaceOfBridgePort(p)) return E.wrongValue;
      const id = singleIndex(instance);
      if (!validVlanId(id)) return E.noCreation;
      if (!tx.view().vlans.has(id)) return E.inconsistentName;
      const cfg = tx.config();
      const vlan = cfg.vlans.get(id)!;
      for (const p of sw.bridgePorts) {
        const mode = cfg.portModes.get(p);
        const member = vlan.egress.has(p);
        if (wanted.has(p) && !member) {
          if (!mode) configureSwitchport(cfg, p, { access: id });
          else if (mode === "trunk") permit(cfg, p, id, true);
          else vlan.egress.add(p);
        } else if (!wanted.has(p) && member) {
          if (cfg.pvid.get(p) === id) {
            // an access port leaves for VLAN 1; nothing leaves VLAN 1, no trunk its PVID VLAN
            if (mode || id === 1) return E.inconsistentValue;
            configureSwitchport(cfg, p, { access: 1 });
          } else if (mode === "trunk") {
            permit(cfg, p, id, false);
          } else {
            vlan.egress.delete(p);
            vlan.untagged.delete(p);
          }
        }
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const pvid: WritableColumn = {
    column: parseOid(qbridge.dot1qPvid),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (value.tag !== 0x42) return E.wrongType;
      if (!validVlanId(value.value)) return E.wrongValue;
      const bp = singleIndex(instance);
      if (bp === null || !sw.interfaceOfBridgePort(bp)) return E.noCreation;
      const target = tx.view().vlans.get(value.value);
      if (!target || !target.active) return E.inconsistentValue;
      // an access port's PVID follows its access VLAN: the write is taken and changes nothing
      if (!tx.view().portModes.has(bp)) return E.noError;
      const cfg = tx.config();
      if (cfg.portModes.get(bp) === "trunk") {
        configureSwitchport(cfg, bp, { native: value.value });
        tx.membershipVarbind = varbind;
        return E.noError;
      }
      const old = cfg.pvid.get(bp);
      if (old !== undefined && old !== value.value) cfg.vlans.get(old)?.untagged.delete(bp);
      const next = cfg.vlans.get(value.value)!;
      next.untagged.add(bp);
      next.egress.add(bp);
      cfg.pvid.set(bp, value.value);
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const vlanType: WritableColumn = {
    column: parseOid(hh3cIf.hh3cifVLANType),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 3) return E.wrongValue;
      const port = portAt(sw, instance);
      if (!port) return E.noCreation;
      const bp = port.bridgePort!;
      const cfg = tx.config();
      const before = modeOf(sw, bp, cfg);
      if (value.value === before) {
        // no change
      } else if (value.value === MODE.access) {
        // the PVID becomes the access VLAN; the trunk settings are not kept (Comware drops them)
        cfg.switchport.set(bp, { access: cfg.pvid.get(bp) ?? 1, native: 1, allowed: new Set([1]) });
        setPortMode(cfg, bp, "access");
      } else if (value.value === MODE.hybrid) {
        cfg.portModes.set(bp, "hybrid");
        cfg.switchport.delete(bp);
      } else if (before === MODE.access) {
        // a new trunk: PVID 1, VLAN 1 permitted
        cfg.switchport.set(bp, { access: cfg.pvid.get(bp) ?? 1, native: 1, allowed: new Set([1]) });
        setPortMode(cfg, bp, "trunk");
      } else {
        // hybrid to trunk keeps what the port carries
        const carried = [...cfg.vlans].filter(([, v]) => v.egress.has(bp)).map(([id]) => id);
        cfg.switchport.set(bp, { access: 1, native: cfg.pvid.get(bp) ?? 1, allowed: new Set(carried) });
        setPortMode(cfg, bp, "trunk");
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const allowList = (object: string, from: number): WritableColumn => ({
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (value.tag !== 0x04) return E.wrongType;
      if (value.value.length > 256) return E.wrongLength;
      const port = portAt(sw, instance);
      if (!port) return E.noCreation;
      const bp = port.bridgePort!;
      if (!tx.view().portModes.has(bp)) return E.inconsistentValue;
      const cfg = tx.config();
      if (cfg.portModes.get(bp) === "trunk") {
        // this half's 2048 VLANs as written, the other half as it was
        const before = switchportOf(cfg, bp).allowed;
        const allowed = new Set(
          [...(before === "all" ? ALL_VLANS : before)].filter((v) => v < from || v >= from + 2048),
        );
        for (let i = 0; i < value.value.length * 8 && i < 2048; i++) {
          if ((value.value[i >> 3] & (1 << (i & 7))) !== 0 && from + i <= 4094) allowed.add(from + i);
        }
        configureSwitchport(cfg, bp, { allowed: ALL_VLANS.every((v) => allowed.has(v)) ? "all" : allowed });
        tx.membershipVarbind = varbind;
        return E.noError;
      }
      const pvidVlan = cfg.pvid.get(bp);
      for (const [id, v] of cfg.vlans) {
        const i = id - from;
        if (i < 0 || i >= 2048 || id === pvidVlan) continue;
        const allowed = i >> 3 < value.value.length && (value.value[i >> 3] & (1 << (i & 7))) !== 0;
        if (allowed) v.egress.add(bp);
        else {
          v.egress.delete(bp);
          v.untagged.delete(bp);
        }
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  });

  return [
    vlanPorts,
    pvid,
    vlanType,
    allowList(hh3cIf.hh3cifVLANTrunkAllowListLow, 1),
    allowList(hh3cIf.hh3cifVLANTrunkAllowListHigh, 2049),
    alias(hh3cVlan.hh3cdot1qVlanName, dot1qVlanStaticName),
    {
      ...alias(hh3cVlan.hh3cdot1qVlanRowStatus, dot1qVlanStaticRowStatus),
      apply(tx, instance, value, varbind) {
        const status = dot1qVlanStaticRowStatus.apply(tx, instance, value, varbind);
        const id = singleIndex(instance);
        // a VLAN created: the trunks that permit it carry it
        if (status === E.noError && id !== null && tx.stagedConfig?.vlans.has(id) && !tx.sw.vlan(id))
          carryNewVlan(tx.config(), id);
        return status;
      },
    },
  ];
}
