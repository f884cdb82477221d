/**
 * The helpdesk writes' own rules (issue 20; docs/api-decisions.md, "Helpdesk writes"):
 * the body of a port batch (POST .../batch/) and of a bounce or PoE power cycle, their
 * limits, the ports they are refused on, and their texts. Pure: app/port-batch.ts runs
 * them, with the single writes' own checks for every change a batch item carries.
 *
 *   limits    at most MAX_BATCH_ITEMS items; a wait of WAIT_MIN_S..WAIT_MAX_S seconds
 *             (default WAIT_DEFAULT_S); the waits of one batch add up to at most
 *             MAX_BATCH_WAIT_S
 *   items     each names an interface and exactly one change, in the single call's
 *             field names: vlan (optionally with bounce), untagged_vlan + tagged_vlans +
 *             allow_all (tags), state, poe_state, description, bounce, poe_cycle
 *   refusals  a bounce needs what a state write needs, and is refused on members of a
 *             link aggregation (the aggregate would lose a link); a power cycle needs
 *             what a PoE write needs, and is refused on aggregation members and, for
 *             everyone but superusers, on the ports the administrator protects (uplinks)
 */
import type { InterfaceInfo } from "../model/device";
import { canManageInterface, canTogglePoe, type InterfaceRights } from "./access";
import { adminDenied, lagMemberDenial, type PortProtection, type ProtectedFacts } from "./port-protection";
import { denial, failure, success, type Denial, type Failure, type Result } from "./result";
import { isOnValue, ON_VALUES } from "./request-values";
import * as msg from "./messages";

export const MAX_BATCH_ITEMS = 100;
export const WAIT_MIN_S = 0;
export const WAIT_MAX_S = 60;
export const WAIT_DEFAULT_S = 3;
export const MAX_BATCH_WAIT_S = 120;

/** what an item changes, by the single call it stands for */
export const ITEM_KINDS = ["vlan", "tags", "state", "poe_state", "description", "bounce", "poe_cycle"] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** the single call's operation behind each kind that is a single write */
export const ITEM_OPERATIONS: Record<Exclude<ItemKind, "bounce" | "poe_cycle">, string> = {
  vlan: "setInterfaceVlan",
  tags: "setInterfaceTags",
  state: "setInterfaceState",
  poe_state: "setInterfacePoe",
  description: "setInterfaceDescription",
};

/** One item as asked: its interface (URL spelling), its kind, the single call's body, and the bounce around it. */
export interface BatchItem {
  interface: string;
  kind: ItemKind;
  /** the fields of the single call (vlan, state, ...), checked by that call's own parse */
  body: Record<string, unknown>;
  /** bounce, poe_cycle, and vlan with bounce: the wait between off and on, in seconds */
  wait: number | null;
  /** a vlan item that bounces the port after the change (a new DHCP lease for the client) */
  bounceAfter: boolean;
}

export interface BatchRequest {
  items: BatchItem[];
  dryRun: boolean;
  /** after a device failure: stop (the rest are skipped) or go on with the rest */
  onFailure: "stop" | "continue";
  /** save the configuration at the end (devices that need a save) */
  save: boolean;
}

const ITEM_FIELDS: Record<ItemKind, readonly string[]> = {
  vlan: ["vlan"],
  tags: ["untagged_vlan", "tagged_vlans", "allow_all"],
  state: ["state"],
  poe_state: ["poe_state"],
  description: ["description"],
  bounce: ["bounce"],
  poe_cycle: ["poe_cycle"],
};
const ALL_FIELDS = new Set(["interface", "wait", ...Object.values(ITEM_FIELDS).flat()]);

function invalid(reason: string): Failure {
  return failure(400, "invalid_parameter", reason);
}

/** `wait` in seconds: absent is the default; a number (or its text) within the bounds, to the millisecond. */
export function parseWait(value: unknown): Result<number> {
  if (value === undefined || value === null || value === "") return success(WAIT_DEFAULT_S);
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n) || n < WAIT_MIN_S || n > WAIT_MAX_S)
    return invalid(
      msg.invalidWait(typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value)),
    );
  return success(Math.round(n * 1000) / 1000);
}

/** the on-set of `state` for a flag; a JSON boolean or 1 counts too */
function flag(value: unknown): boolean {
  return value === true || value === 1 || (typeof value === "string" && isOnValue(value));
}

/** One item's shape (its values are the single call's to check); a Failure names the item by its position. */
function parseItem(raw: unknown, index: number): Result<BatchItem> {
  const where = `Batch item ${index + 1}`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    return invalid(`${where} is not an object with 'interface' and one change`);
  const item = raw as Record<string, unknown>;
  for (const key of Object.keys(item)) if (!ALL_FIELDS.has(key)) return invalid(`${where}: unknown field '${key}'`);
  const id = item.interface;
  if ((typeof id !== "string" && typeof id !== "number") || String(id).trim() === "" || String(id).length > 200)
    return invalid(`${where}: 'interface' is missing`);
  const asked = ITEM_KINDS.filter((k) => ITEM_FIELDS[k].some((f) => f in item));
  // a vlan change may bounce the port after it: one change and its bounce
  const bounceAfter = asked.length === 2 && asked[0] === "vlan" && asked[1] === "bounce";
  if (asked.length !== 1 && !bounceAfter)
    return invalid(
      `${where}: give exactly one change (${ITEM_KINDS.join(", ")}; 'vlan' may add 'bounce'), not ${asked.length}`,
    );
  const kind = asked[0];
  const cycles = kind === "bounce" || kind === "poe_cycle" || bounceAfter;
  if ((kind === "bounce" || kind === "poe_cycle" || bounceAfter) && !flag(item[bounceAfter ? "bounce" : kind]))
    return invalid(`${where}: '${bounceAfter ? "bounce" : kind}' must be an on-value (${ON_VALUES.join(", ")})`);
  if ("wait" in item && !cycles) return invalid(`${where}: 'wait' belongs to a bounce or a power cycle`);
  let wait: number | null = null;
  if (cycles) {
    const w = parseWait(item.wait);
    if (!w.ok) return invalid(`${where}: ${w.reason}`);
    wait = w.value;
  }
  const body: Record<string, unknown> = {};
  for (const f of ITEM_FIELDS[kind]) if (f in item) body[f] = item[f];
  return success({ interface: String(id).trim(), kind, body, wait, bounceAfter });
}

/**
 * A batch's body: `items` (a JSON array, or in a form its JSON text), `dry_run`, `save`
 * (on-values), `on_failure` ("stop", the default, or "continue"). The shape is checked
 * here (400 for the whole call); each item's values are its single call's to check.
 */
export function parseBatch(body: Record<string, unknown>): Result<BatchRequest> {
  let items = body.items;
  if (typeof items === "string") {
    try {
      items = JSON.parse(items);
    } catch {
      return invalid(msg.BATCH_ITEMS_INVALID);
    }
  }
  if (!Array.isArray(items)) return failure(400, "missing_parameter", msg.BATCH_ITEMS_INVALID);
  if (items.length === 0) return invalid(msg.BATCH_ITEMS_INVALID);
  if (items.length > MAX_BATCH_ITEMS) return invalid(msg.batchTooLarge(items.length, MAX_BATCH_ITEMS));
  const parsed: BatchItem[] = [];
  for (const [i, raw] of items.entries()) {
    const r = parseItem(raw, i);
    if (!r.ok) return r;
    parsed.push(r.value);
  }
  const waits = parsed.reduce((sum, item) => sum + (item.wait ?? 0), 0);
  if (waits > MAX_BATCH_WAIT_S) return invalid(msg.batchWaitTooLong(waits, MAX_BATCH_WAIT_S));
  const onFailure = body.on_failure ?? "stop";
  if (onFailure !== "stop" && onFailure !== "continue") return invalid(msg.BATCH_ON_FAILURE_INVALID);
  return success({ items: parsed, dryRun: flag(body.dry_run), onFailure, save: flag(body.save) });
}

/** A lone bounce or power cycle's body: `wait` (and for a bounce an optional `vlan` to change first). */
export function parseCycle(kind: "bounce" | "poe_cycle", body: Record<string, unknown>): Result<BatchItem> {
  const wait = parseWait(body.wait);
  if (!wait.ok) return wait;
  const withVlan = kind === "bounce" && body.vlan !== undefined;
  return success({
    interface: "",
    kind: withVlan ? "vlan" : kind,
    body: withVlan ? { vlan: body.vlan } : {},
    wait: wait.value,
    bounceAfter: withVlan,
  });
}

/** A bounce: what a state write needs, and never on a member of a link aggregation. */
export function canBounce(rights: InterfaceRights, iface: Pick<InterfaceInfo, "lag_member_of">): Denial | null {
  return canManageInterface(rights) ?? lagMemberDenial(iface);
}

/**
 * A power cycle: what a PoE write needs, never on a member of a link aggregation, and
 * for everyone but superusers never on a port the administrator protects (uplinks),
 * which a PoE flag alone would otherwise allow.
 */
export function canCyclePoe(
  rights: InterfaceRights,
  iface: ProtectedFacts,
  superuser: boolean,
  protection: PortProtection,
): Denial | null {
  const poe = canTogglePoe(rights) ?? lagMemberDenial(iface);
  if (poe) return poe;
  return !superuser && adminDenied(iface, protection) ? denial(msg.CANNOT_MANAGE_INTERFACE) : null;
}

/** A bounce brings an enabled port down and up; a disabled one is refused (enabling it is a state write). */
export function checkBounceable(iface: Pick<InterfaceInfo, "name" | "admin_up">): Failure | null {
  return iface.admin_up ? null : invalid(msg.bounceNeedsEnabled(iface.name));
}

/** A power cycle switches PoE off and on: the port must have PoE, and it must be on. */
export function checkCyclable(iface: Pick<InterfaceInfo, "name" | "poe">): Failure | null {
  if (!iface.poe) return invalid(msg.noPoe(iface.name));
  return iface.poe.admin_status === "Enabled" ? null : invalid(msg.poeCycleNeedsEnabled(iface.name));
}
