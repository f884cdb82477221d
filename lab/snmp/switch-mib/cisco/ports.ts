/**
 * How an IOS port carries VLANs: CISCO-VLAN-MEMBERSHIP-MIB vmMembershipTable for access
 * ports (trunks have no row there, as the MIB says and the recordings show) and
 * CISCO-VTP-MIB vlanTrunkPortTable for every Ethernet port (the native VLAN and allowed
 * lists of trunks; 1 and "all" on access ports, the IOS defaults).
 *
 * Writes:
 * - vmVlan moves an access port to an existing VLAN. A VLAN that does not exist (or is
 *   one of the reserved 1002-1005) is refused with inconsistentValue: the value is in
 *   the object's range, the switch's current state is what rules it out (RFC 3416
 *   4.2.5). 0 is wrongValue (only dynamic ports may be unassigned, per the MIB). A trunk
 *   port has no vmVlan instance: noCreation.
 * - vlanTrunkPortNativeVlan changes the untagged VLAN of a trunk; the old native VLAN
 *   stays allowed, tagged. On an access port it is refused with inconsistentValue (a
 *   simplification: the lab keeps no native VLAN for ports that do not trunk).
 * - vlanTrunkPortVlansEnabled (and 2k/3k/4k) set which existing VLANs a trunk carries
 *   tagged; bits of VLANs that do not exist are accepted and not kept. The native VLAN
 *   always stays. vlanTrunkPortSetSerialNo, when in the PDU, must hold the current value
 *   (TestAndIncr).
 */
import { vlanMembership, vtp } from "../../../../mib/cisco";
import type { LabInterface } from "../../../hardware";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance, octets } from "../../smi-values";
import type { FamilyState } from "../family-state";
import { E, isInt, plain, singleIndex, type SetTransaction, type WritableColumn } from "../writable";
import type { CiscoState } from "./state";
import { DOMAIN, RESERVED_VLANS } from "./vtp";

const reserved = new Set(RESERVED_VLANS.map((v) => v.id));

/** the four 128-octet VLAN bitmaps of vlanTrunkPortTable, by the first VLAN each covers */
const ENABLED: ReadonlyArray<[object: string, base: number, exactLength: boolean]> = [
  [vtp.vlanTrunkPortVlansEnabled, 0, true],
  [vtp.vlanTrunkPortVlansEnabled2k, 1024, false],
  [vtp.vlanTrunkPortVlansEnabled3k, 2048, false],
  [vtp.vlanTrunkPortVlansEnabled4k, 3072, false],
];

export const isTrunk = (sw: VirtualSwitch, bp: number, cfg = sw.running) => cfg.portModes.has(bp);

/** VLANs base..base+1023 as a 128-octet bitmap, most significant bit first */
function vlanBitmap(vlans: Iterable<number>, base: number): Buffer {
  const out = Buffer.alloc(128);
  for (const v of vlans) {
    const i = v - base;
    if (i >= 0 && i < 1024) out[i >> 3] |= 0x80 >> (i & 7);
  }
  return out;
}

/** what a trunk carries: every VLAN it is a member of */
function carried(sw: VirtualSwitch, bp: number): number[] {
  return [...sw.running.vlans].filter(([, v]) => v.egress.has(bp)).map(([id]) => id);
}

const ALL_VLANS = Array.from({ length: 4094 }, (_, i) => i + 1);

export function addPortTables(b: MibIndexBuilder, sw: VirtualSwitch, state: FamilyState<CiscoState>): void {
  const ports = sw.ethernetPorts;
  const byIf = (i: LabInterface) => [i.ifIndex];
  const bp = (i: LabInterface) => i.bridgePort!;
  const trunk = (i: LabInterface) => isTrunk(sw, bp(i));
  const trunking = (i: LabInterface) => trunk(i) && sw.operUp(i.ifIndex);

  // vmMembershipTable: access ports only (rows follow the port modes)
  const access = ports.filter((i) => !trunk(i));
  const pvidOf = (i: LabInterface) => sw.pvid(bp(i)) ?? 0;
  const accessValue = (i: LabInterface, f: () => number) => (trunk(i) ? noSuchInstance : integer(f()));
  b.column(vlanMembership.vmVlanType, access, byIf, (i) => accessValue(i, () => 1))
    .column(vlanMembership.vmVlan, access, byIf, (i) => accessValue(i, () => pvidOf(i)))
    .column(vlanMembership.vmPortStatus, access, byIf, (i) =>
      accessValue(i, () => (sw.vlan(pvidOf(i))?.active ? 2 : 1)),
    );

  // vlanTrunkPortTable: every Ethernet port
  b.column(vtp.vlanTrunkPortManagementDomain, ports, byIf, () => integer(DOMAIN))
    .column(vtp.vlanTrunkPortEncapsulationType, ports, byIf, () => integer(4))
    .column(vtp.vlanTrunkPortNativeVlan, ports, byIf, (i) => integer(trunk(i) ? pvidOf(i) : 1))
    .column(vtp.vlanTrunkPortRowStatus, ports, byIf, () => integer(1))
    // on(1) for "switchport mode trunk", off(2) for access ports
    .column(vtp.vlanTrunkPortDynamicState, ports, byIf, (i) => integer(trunk(i) ? 1 : 2))
    // what the port does now: a trunk whose link is down is not trunking
    .column(vtp.vlanTrunkPortDynamicStatus, ports, byIf, (i) => integer(trunking(i) ? 1 : 2))
    .column(vtp.vlanTrunkPortEncapsulationOperType, ports, byIf, (i) => integer(trunking(i) ? 4 : 6));
  for (const [object, base] of ENABLED) {
    b.column(object, ports, byIf, (i) => octets(vlanBitmap(trunk(i) ? carried(sw, bp(i)) : ALL_VLANS, base)));
  }
  b.scalar(vtp.vlanTrunkPortSetSerialNo, () => integer(state.current().trunkSerial));
}

/** the Ethernet port at an ifIndex instance, or null */
function portAt(sw: VirtualSwitch, instance: number[]): LabInterface | null {
  const ifIndex = singleIndex(instance);
  const i = ifIndex === null ? undefined : sw.interface(ifIndex);
  return i && i.portNumber !== null && i.bridgePort !== null ? i : null;
}

/** a VLAN an access or native VLAN may be: exists, is active, is not one of the reserved */
function assignable(tx: SetTransaction, id: number): boolean {
  const v = tx.view().vlans.get(id);
  return !!v && v.active && !reserved.has(id);
}

export function portColumns(sw: VirtualSwitch, state: FamilyState<CiscoState>): WritableColumn[] {
  const vmVlan: WritableColumn = {
    column: parseOid(vlanMembership.vmVlan),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 4095) return E.wrongValue;
      const port = portAt(sw, instance);
      if (!port || isTrunk(sw, port.bridgePort!, tx.view())) return E.noCreation;
      if (!assignable(tx, value.value)) return E.inconsistentValue;
      moveTo(tx, port.bridgePort!, value.value);
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const nativeVlan: WritableColumn = {
    column: parseOid(vtp.vlanTrunkPortNativeVlan),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 0 || value.value > 4095) return E.wrongValue;
      const port = portAt(sw, instance);
      if (!port) return E.noCreation;
      const bp = port.bridgePort!;
      if (!isTrunk(sw, bp, tx.view())) return E.inconsistentValue;
      if (value.value === 0 || !assignable(tx, value.value)) return E.inconsistentValue;
      const cfg = tx.config();
      const old = cfg.pvid.get(bp);
      if (old !== value.value) {
        if (old !== undefined) cfg.vlans.get(old)?.untagged.delete(bp);
        const next = cfg.vlans.get(value.value)!;
        next.untagged.add(bp);
        next.egress.add(bp);
        cfg.pvid.set(bp, value.value);
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const enabled = ENABLED.map(([object, base, exact]): WritableColumn => ({
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (value.tag !== 0x04) return E.wrongType;
      if (exact ? value.value.length !== 128 : value.value.length > 128) return E.wrongLength;
      const port = portAt(sw, instance);
      if (!port) return E.noCreation;
      const bp = port.bridgePort!;
      if (!isTrunk(sw, bp, tx.view())) return E.inconsistentValue;
      const cfg = tx.config();
      const native = cfg.pvid.get(bp);
      for (const [id, v] of cfg.vlans) {
        const i = id - base;
        if (i < 0 || i >= 1024 || id === native) continue;
        const allowed = i >> 3 < value.value.length && (value.value[i >> 3] & (0x80 >> (i & 7))) !== 0;
        if (allowed) v.egress.add(bp);
        else {
          v.egress.delete(bp);
          v.untagged.delete(bp);
        }
      }
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  }));

  const serialNo: WritableColumn = {
    column: parseOid(vtp.vlanTrunkPortSetSerialNo),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (instance.length !== 1 || instance[0] !== 0) return E.noCreation;
      const s = tx.state(state);
      // TestAndIncr: the manager proves it read the current value
      if (value.value !== s.trunkSerial) return E.inconsistentValue;
      s.trunkSerial = (s.trunkSerial + 1) % 2147483648;
      return E.noError;
    },
  };

  return [vmVlan, nativeVlan, ...enabled, serialNo];
}

/** an access port's new VLAN: out of the old one, untagged into the new one */
function moveTo(tx: SetTransaction, bp: number, vlan: number): void {
  const cfg = tx.config();
  for (const v of cfg.vlans.values()) {
    if (v.untagged.has(bp)) {
      v.untagged.delete(bp);
      v.egress.delete(bp);
    }
  }
  const target = cfg.vlans.get(vlan)!;
  target.untagged.add(bp);
  target.egress.add(bp);
  cfg.pvid.set(bp, vlan);
}
