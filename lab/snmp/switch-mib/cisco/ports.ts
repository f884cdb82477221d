/**
 * How an IOS port carries VLANs: CISCO-VLAN-MEMBERSHIP-MIB vmMembershipTable for access
 * ports (trunks have no row there, as the MIB says and the recordings show) and
 * CISCO-VTP-MIB vlanTrunkPortTable for every Ethernet port: its configured mode, native
 * VLAN and allowed lists (for an access port the trunk settings it keeps, by default
 * native 1 and all VLANs, as IOS has them). The port's settings are the configuration's
 * switchport settings (lab/config.ts); the memberships follow them.
 *
 * Writes:
 * - vmVlan moves an access port to an existing VLAN. A VLAN that does not exist (or is
 *   one of the reserved 1002-1005) is refused with inconsistentValue: the value is in
 *   the object's range, the switch's current state is what rules it out (RFC 3416
 *   4.2.5). 0 is wrongValue (only dynamic ports may be unassigned, per the MIB). A trunk
 *   port has no vmVlan instance: noCreation (in a PDU that first makes the port an
 *   access port, the instance exists).
 * - vlanTrunkPortDynamicState on(1) makes a port a trunk (`switchport mode trunk`): its
 *   native VLAN and allowed lists take effect, its access VLAN is kept for later; off(2)
 *   makes it an access port on its kept access VLAN. desirable(3), auto(4) and
 *   onNoNegotiate(5) need DTP, which the lab does not model: inconsistentValue.
 * - vlanTrunkPortNativeVlan sets the native VLAN (an existing one: the lab keeps every
 *   PVID a VLAN); on an access port it is kept until the port trunks.
 * - vlanTrunkPortVlansEnabled (and 2k/3k/4k) set the allowed list, VLAN ids that do not
 *   exist included (a VLAN created later is carried then). vlanTrunkPortSetSerialNo,
 *   when in the PDU, must hold the current value (TestAndIncr).
 * - vlanTrunkPortEncapsulationType is dot1Q(4) and not writable: a 2960-X knows no other.
 */
import { vlanMembership, vtp } from "../../../../mib/cisco";
import { configureSwitchport, setPortMode, switchportOf } from "../../../config";
import type { LabInterface } from "../../../hardware";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { integer, noSuchInstance, octets } from "../../../../mib/smi-values";
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

/** vlanTrunkPortDynamicState values the lab takes */
const STATE = { on: 1, off: 2 } as const;

export const isTrunk = (sw: VirtualSwitch, bp: number, cfg = sw.running) => cfg.portModes.has(bp);

const ALL_VLANS = Array.from({ length: 4094 }, (_, i) => i + 1);

/** VLANs base..base+1023 as a 128-octet bitmap, most significant bit first */
function vlanBitmap(vlans: Iterable<number>, base: number): Buffer {
  const out = Buffer.alloc(128);
  for (const v of vlans) {
    const i = v - base;
    if (i >= 0 && i < 1024) out[i >> 3] |= 0x80 >> (i & 7);
  }
  return out;
}

export function addPortTables(b: MibIndexBuilder, sw: VirtualSwitch, state: FamilyState<CiscoState>): void {
  const ports = sw.ethernetPorts;
  const byIf = (i: LabInterface) => [i.ifIndex];
  const bp = (i: LabInterface) => i.bridgePort!;
  const trunk = (i: LabInterface) => isTrunk(sw, bp(i));
  const trunking = (i: LabInterface) => trunk(i) && sw.operUp(i.ifIndex);
  const settings = (i: LabInterface) => switchportOf(sw.running, bp(i));

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
    .column(vtp.vlanTrunkPortNativeVlan, ports, byIf, (i) => integer(settings(i).native))
    .column(vtp.vlanTrunkPortRowStatus, ports, byIf, () => integer(1))
    // on(1) for "switchport mode trunk", off(2) for access ports
    .column(vtp.vlanTrunkPortDynamicState, ports, byIf, (i) => integer(trunk(i) ? STATE.on : STATE.off))
    // what the port does now: a trunk whose link is down is not trunking
    .column(vtp.vlanTrunkPortDynamicStatus, ports, byIf, (i) => integer(trunking(i) ? 1 : 2))
    .column(vtp.vlanTrunkPortEncapsulationOperType, ports, byIf, (i) => integer(trunking(i) ? 4 : 6));
  for (const [object, base] of ENABLED) {
    b.column(object, ports, byIf, (i) => {
      const allowed = settings(i).allowed;
      return octets(vlanBitmap(allowed === "all" ? ALL_VLANS : allowed, base));
    });
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
      configureSwitchport(tx.config(), port.bridgePort!, { access: value.value });
      tx.membershipVarbind = varbind;
      return E.noError;
    },
  };

  const dynamicState: WritableColumn = {
    column: parseOid(vtp.vlanTrunkPortDynamicState),
    phase: plain,
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 5) return E.wrongValue;
      const port = portAt(sw, instance);
      if (!port) return E.noCreation;
      if (value.value !== STATE.on && value.value !== STATE.off) return E.inconsistentValue;
      const bp = port.bridgePort!;
      const settings = switchportOf(tx.view(), bp);
      // the mode's untagged VLAN must be one a port may use
      if (!assignable(tx, value.value === STATE.on ? settings.native : settings.access)) return E.inconsistentValue;
      setPortMode(tx.config(), bp, value.value === STATE.on ? "trunk" : "access");
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
      if (value.value === 0 || !assignable(tx, value.value)) return E.inconsistentValue;
      configureSwitchport(tx.config(), port.bridgePort!, { native: value.value });
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
      const before = switchportOf(tx.view(), bp).allowed;
      // this bitmap's 1024 VLANs as written, the others as they were
      const allowed = new Set([...(before === "all" ? ALL_VLANS : before)].filter((v) => v < base || v >= base + 1024));
      for (let i = 0; i < value.value.length * 8 && i < 1024; i++) {
        if ((value.value[i >> 3] & (0x80 >> (i & 7))) !== 0 && base + i >= 1 && base + i <= 4094) allowed.add(base + i);
      }
      const all = ALL_VLANS.every((v) => allowed.has(v));
      configureSwitchport(tx.config(), bp, { allowed: all ? "all" : allowed });
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

  return [vmVlan, dynamicState, nativeVlan, ...enabled, serialNo];
}
