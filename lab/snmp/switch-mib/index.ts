/** The whole MIB of a lab switch as one sorted index, rebuilt when rows appear or disappear. */
import type { VirtualSwitch } from "../../model";
import { MibIndex, MibIndexBuilder } from "../mib-index";
import type { MibProvider } from "../provider";
import type { FamilyMib, VendorOptions } from "./family";
import { families } from "./families";
import { switchSetter, type QBridgeMode } from "./writable";

export type { VendorOptions, VtpMode } from "./family";

/** The family MIB of a switch's profile. */
export function familyOf(sw: VirtualSwitch, qbridge: QBridgeMode = "auto", vendor: VendorOptions = {}): FamilyMib {
  return families[sw.profile.id](sw, { qbridge, vendor });
}

/**
 * Keeps the index in step with the switch: after a structural change (a VLAN or copy
 * row created or destroyed) only the small part with those tables is rebuilt and merged
 * with the fixed part, a linear step instead of re-encoding every OID. Families whose
 * rows follow port memberships rebuild that part after every change.
 */
export class SwitchIndexCache {
  private readonly fixed: MibIndex;
  private cached: MibIndex | null = null;
  private version = "";

  constructor(
    private readonly sw: VirtualSwitch,
    private readonly family: FamilyMib = familyOf(sw),
  ) {
    const b = new MibIndexBuilder();
    family.addFixed(b);
    this.fixed = b.build();
  }

  current(): MibIndex {
    const version = `${this.sw.structureVersion}:${this.family.rowsFollowConfig ? this.sw.changeCount : 0}`;
    if (!this.cached || this.version !== version) {
      this.version = version;
      const b = new MibIndexBuilder();
      this.family.addRows(b);
      this.cached = MibIndex.merge(this.fixed, b.build());
    }
    return this.cached;
  }
}

/** The provider the agent serves for a lab switch; qbridge: how it treats Q-BRIDGE writes. */
export function switchProvider(
  sw: VirtualSwitch,
  qbridge: QBridgeMode = "auto",
  vendor: VendorOptions = {},
): MibProvider {
  const family = familyOf(sw, qbridge, vendor);
  const cache = new SwitchIndexCache(sw, family);
  const contexts = family.contexts;
  return {
    index: (context = "") => (context === "" || !contexts ? cache.current() : contexts.index(context)),
    prepareSet: switchSetter(sw, qbridge, family.set),
    contexts: contexts ? { fromCommunity: (s) => contexts.fromCommunity(s), has: (c) => contexts.has(c) } : undefined,
    onRestart: () => family.onReboot?.(),
    close: () => family.close?.(),
  };
}
