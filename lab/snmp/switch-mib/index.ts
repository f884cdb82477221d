/** The whole MIB of a lab switch as one sorted index, rebuilt when rows appear or disappear. */
import type { VirtualSwitch } from "../../model";
import { MibIndex, MibIndexBuilder } from "../mib-index";
import type { MibProvider } from "../provider";
import { addBridge, addVlanTables } from "./bridge";
import { addCiscoSbCopy } from "./ciscosb-copy";
import { addNeighbours } from "./neighbours";
import { addPoe } from "./poe";
import { addSystemAndInterfaces } from "./system-and-interfaces";
import { switchSetter, type QBridgeMode } from "./writable";

/** Tables whose rows never change while the lab runs (values still read live). */
function buildFixedPart(sw: VirtualSwitch): MibIndex {
  const b = new MibIndexBuilder();
  addSystemAndInterfaces(b, sw);
  addBridge(b, sw);
  addPoe(b, sw);
  addNeighbours(b, sw);
  return b.build();
}

/** Tables whose rows SETs create and destroy. */
function buildRowsPart(sw: VirtualSwitch): MibIndex {
  const b = new MibIndexBuilder();
  addVlanTables(b, sw);
  if (sw.profile.copyMib) addCiscoSbCopy(b, sw);
  return b.build();
}

/**
 * Keeps the index in step with the switch: after a structural change (a VLAN or copy
 * row created or destroyed) only the small part with those tables is rebuilt and merged
 * with the fixed part, a linear step instead of re-encoding every OID.
 */
export class SwitchIndexCache {
  private readonly fixed: MibIndex;
  private cached: MibIndex | null = null;
  private version = -1;

  constructor(private readonly sw: VirtualSwitch) {
    this.fixed = buildFixedPart(sw);
  }

  current(): MibIndex {
    if (!this.cached || this.version !== this.sw.structureVersion) {
      this.version = this.sw.structureVersion;
      this.cached = MibIndex.merge(this.fixed, buildRowsPart(this.sw));
    }
    return this.cached;
  }
}

/** The provider the agent serves for a lab switch; qbridge: how it treats Q-BRIDGE writes. */
export function switchProvider(sw: VirtualSwitch, qbridge: QBridgeMode = "auto"): MibProvider {
  const cache = new SwitchIndexCache(sw);
  const set = switchSetter(sw, qbridge);
  return { index: () => cache.current(), prepareSet: set };
}
