/**
 * The menu's JSON kept between calls (issue 22, docs/performance.md "The menu"). Its inputs
 * are the inventory (groups, devices, memberships) and, of the caller, only which groups it
 * sees (domain/access.ts menuScope) and its own user part, written fresh on every call.
 *
 * The inventory's version (db/inventory.ts `version`, raised in the same transaction as
 * every inventory change on any instance) is read on every call, first; the inventory read
 * after it is at least as new as that version, so a snapshot is used for every call that
 * read the same version or an older one, and a newer version makes the next call read the
 * inventory again. A change made on another instance is therefore seen at the next call.
 *
 * Per version, one inventory read (calls arriving meanwhile wait for the same one) and one
 * JSON text per (base URL, scope), dropped oldest first beyond `maxBytes`.
 */
import type { Caller } from "./caller";
import { menuScope } from "../domain/access";
import { menuGroupsJson, menuJsonAround, type MenuInput } from "../domain/views";

interface Snapshot<E> {
  version: number;
  entries: Promise<E>;
  /** the groups' JSON as UTF-8 bytes, by (base URL, scope) */
  texts: Map<string, Buffer>;
  bytes: number;
}

/** default bound of the texts kept for one version, in bytes (a menu of 200 groups of 10: about 630 kB) */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class MenuCache<E> {
  private snapshot: Snapshot<E> | null = null;

  constructor(
    private readonly read: () => Promise<E>,
    private readonly groupsOf: (entries: E, caller: Caller, memberOf: readonly number[]) => MenuInput,
    private readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  /**
   * The menu's JSON for this caller as UTF-8 bytes in three parts (the caller's head, the
   * kept groups, the tail), given the inventory version read at this call's start. The
   * groups are sent from the kept bytes: a call neither encodes nor copies them.
   */
  async json(version: number, caller: Caller, baseUrl: string): Promise<Buffer[]> {
    const snap = this.at(version);
    let entries: E;
    try {
      entries = await snap.entries;
    } catch (e) {
      // a failed read is not kept: the next call reads again
      if (this.snapshot === snap) this.snapshot = null;
      throw e;
    }
    const memberOf = caller.user.switchgroups;
    const key = `${baseUrl} ${menuScope(caller, memberOf)}`;
    let groups = snap.texts.get(key);
    if (groups !== undefined) {
      // the most recently used last: the first one is dropped first
      snap.texts.delete(key);
      snap.texts.set(key, groups);
    } else {
      groups = Buffer.from(menuGroupsJson(this.groupsOf(entries, caller, memberOf), baseUrl));
      if (this.snapshot === snap) this.keep(snap, key, groups);
    }
    const [head, tail] = menuJsonAround(caller);
    return [Buffer.from(head), groups, Buffer.from(tail)];
  }

  /** the snapshot for calls that read `version`: the kept one unless it is older */
  private at(version: number): Snapshot<E> {
    const kept = this.snapshot;
    if (kept && kept.version >= version) return kept;
    const snap: Snapshot<E> = { version, entries: this.read(), texts: new Map(), bytes: 0 };
    snap.entries.catch(() => undefined);
    this.snapshot = snap;
    return snap;
  }

  private keep(snap: Snapshot<E>, key: string, text: Buffer): void {
    if (text.length > this.maxBytes) return;
    snap.texts.set(key, text);
    snap.bytes += text.length;
    for (const [k, t] of snap.texts) {
      if (snap.bytes <= this.maxBytes) break;
      snap.texts.delete(k);
      snap.bytes -= t.length;
    }
  }
}
