/**
 * The tables every lab switch serves (system group, IF-MIB, LLDP, IP, PoE) and the
 * building block of the Q-BRIDGE families: which bridge and VLAN tables they serve is
 * an option, the rest is theirs to add.
 */
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import {
  addBridgePorts,
  addDot1dFdb,
  addQBridgeBase,
  addVlanTables,
  FULL_QBRIDGE,
  type QBridgeBaseView,
  type VlanTablesView,
} from "./bridge";
import type { FamilyEnv, FamilyMib } from "./family";
import { addLagAndDot1x } from "./lag-dot1x";
import { addNeighbours } from "./neighbours";
import { addPoe } from "./poe";
import { addSystemAndInterfaces } from "./system-and-interfaces";
import { qbridgeColumns, type SetRules } from "./writable";

/** system group, interfaces, PoE, LLDP and IP tables, LAG and 802.1X where configured */
export function addCommon(b: MibIndexBuilder, sw: VirtualSwitch): void {
  addSystemAndInterfaces(b, sw);
  addPoe(b, sw);
  addNeighbours(b, sw);
  addLagAndDot1x(b, sw);
}

export interface QBridgeFamilyOptions {
  /** serve dot1dTpFdbTable besides dot1qTpFdbTable */
  dot1dFdb?: boolean;
  base?: QBridgeBaseView;
  vlanTables?: VlanTablesView;
  set?: SetRules;
  /** vendor tables besides the standard ones */
  addFixed?: (b: MibIndexBuilder) => void;
  addRows?: (b: MibIndexBuilder) => void;
}

/** A family that serves Q-BRIDGE for its VLANs (everything but Cisco IOS and Junos' names). */
export function qbridgeFamily(sw: VirtualSwitch, _env: FamilyEnv, o: QBridgeFamilyOptions = {}): FamilyMib {
  return {
    addFixed(b) {
      addCommon(b, sw);
      addBridgePorts(b, sw);
      if (o.dot1dFdb ?? true) addDot1dFdb(b, sw.fdb);
      addQBridgeBase(b, sw, o.base);
      o.addFixed?.(b);
    },
    addRows(b) {
      addVlanTables(b, sw, o.vlanTables ?? FULL_QBRIDGE);
      o.addRows?.(b);
    },
    set: o.set ?? { columns: qbridgeColumns(sw) },
  };
}
