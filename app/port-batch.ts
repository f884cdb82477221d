/**
 * Port batches, bounces and PoE power cycles (issue 20; docs/api-decisions.md,
 * "Helpdesk writes"). A batch is a list of port changes to one device, run in one
 * holding of the device's write lease:
 *
 *   parse    the body's shape (domain/port-batch.ts): 400 for the whole call
 *   access   the single writes' own: a read-only token, the URL's pair, read-only flags
 *   learn    the interfaces the batch names, in one pass (Driver.learnInterfaces)
 *   check    every item in order, before anything is sent, with the single write's own
 *            parse and check (DEVICE_WRITES in app/device-writes.ts): so an item is
 *            refused with exactly the code and reason its single call would get. Each
 *            item is checked on the interface as the items before it leave it (two
 *            changes of one port in one batch see each other)
 *   apply    (not for a dry run) in order: the item's audit row pending, the driver's
 *            setter without its read-back (Driver.verifyWrites "deferred"). The views of
 *            the one learn go on from item to item: a driver whose setters keep them
 *            current (viewsFollowWrites: the SNMP engine's shared Q-BRIDGE bitmaps, the
 *            command-line and API drivers' per-port rows) is
 *            not read again, except the ports of the VLAN changes still to come after a
 *            failed VLAN write; another driver has a port learned again when an earlier
 *            item changed it, or before a VLAN change after another. A device failure
 *            stops the rest (on_failure "stop", they are `skipped`) or not ("continue")
 *   read     the touched interfaces, once, in one pass: each done item compared with what
 *            it meant to leave (a bounce: the port up); one the device did not keep is
 *            `failed` (424 device_mismatch, as a single write's read-back), and the audit
 *            rows are settled from this comparison
 *   save     when asked, on a device that needs a save, after at least one change
 *
 * Every audit row of a batch (refused items, changes, the save) carries its batch id. A
 * dry run does the checks only: nothing is sent, no lease is taken, nothing is audited.
 * A lone bounce or power cycle (POST .../bounce/, .../poe_cycle/) is a batch of one item
 * whose answer is the single call's: 200 with its result, or its error.
 */
import { randomUUID } from "node:crypto";
import type { Driver } from "../drivers/contract";
import type { InterfaceInfo, InterfaceView } from "../model/device";
import { DeviceError, DeviceMismatch, DeviceOutcomeUnknown } from "../model/failures";
import { canWrite } from "../domain/access";
import { checkCapability } from "../domain/device-checks";
import {
  canBounce,
  canCyclePoe,
  checkBounceable,
  checkCyclable,
  ITEM_OPERATIONS,
  parseBatch,
  parseCycle,
  type BatchItem,
  type BatchRequest,
  type ItemKind,
} from "../domain/port-batch";
import type { DeviceAction } from "../domain/audit-actions";
import * as msg from "../domain/messages";
import { NO_PORT_PROTECTION } from "../domain/port-protection";
import { capabilityOf, type CapabilityFlag } from "../model/capabilities";
import type { Actor, DeviceAuditFacts } from "./audit";
import { markAudited } from "./audit";
import { policyOf } from "./config";
import {
  DEVICE_WRITES,
  interfaceFacts,
  unknownOutcomeText,
  type AuditFacts,
  type Plan,
  type Scope,
} from "./device-writes";
import type { DeviceFull, GroupFull } from "./devices";
import { ApiError, deviceFailure, refusal, toApiError } from "./errors";
import { cyclePort, switchOnLeftovers } from "./port-cycles";
import type { Services } from "./services";

export type ItemOutcome = "done" | "same_value" | "refused" | "failed" | "skipped";

/** One item's answer: the single call's result text when done, else its status, code and reason. */
export interface ItemResult {
  index: number;
  interface: string;
  change: ItemKind;
  bounce?: boolean;
  result: ItemOutcome;
  message?: string;
  status?: number;
  code?: string;
  reason?: string;
}

/** An interface as it reads after the batch. */
export interface InterfaceAfter {
  id: string;
  name: string;
  state: "Enabled" | "Disabled";
  vlan: number;
  tagged_vlans: number[];
  description: string;
  poe_state?: "Enabled" | "Disabled";
}

export interface BatchAnswer {
  batch_id: string;
  dry_run: boolean;
  stopped: boolean;
  summary: Record<ItemOutcome, number>;
  items: ItemResult[];
  save: { result: "done" | "failed" | "skipped"; message?: string; code?: string; reason?: string } | null;
  interfaces: InterfaceAfter[] | null;
}

export interface BatchRequestIn {
  actor: Actor;
  groupId: number;
  switchId: number;
  body: Record<string, unknown>;
}

/** An item with what its check decided. */
interface Checked {
  item: BatchItem;
  result: ItemResult;
  action: DeviceAction;
  /** the interface id in the driver's spelling (once known) */
  portId: string | null;
  audit: AuditFacts;
  plan: Plan | null;
  /** the bounce after a vlan change */
  bounceAfter: boolean;
  /** the interface as the check saw it */
  view: InterfaceView | null;
  /** what the item changes on the interface (its check's) */
  effect: Partial<InterfaceInfo>;
}

/** a bounce needs the state write's capability, a power cycle the PoE write's (model/capabilities.ts) */
const CYCLE_FLAG: Record<"bounce" | "poe_cycle", CapabilityFlag | null> = {
  bounce: capabilityOf("bounceInterface"),
  poe_cycle: capabilityOf("cycleInterfacePoe"),
};

const ACTION_OF: Record<ItemKind, DeviceAction> = {
  vlan: "untagged_vlan",
  tags: "tagged_vlans",
  state: "admin_state",
  poe_state: "poe_state",
  description: "description",
  bounce: "port_bounce",
  poe_cycle: "poe_cycle",
};

function outcomeOf(e: ApiError): ItemOutcome {
  if (e.code === "same_value") return "same_value";
  return e.status === 424 || e.code.startsWith("device_") ? "failed" : "refused";
}

function errorResult(base: ItemResult, e: ApiError): ItemResult {
  return { ...base, result: outcomeOf(e), status: e.status, code: e.code, reason: e.reason };
}

/** a thrown value as the API error a single call would answer, on this device */
function asApiError(e: unknown, device: { name: string }): ApiError {
  if (e instanceof DeviceError) return deviceFailure(e, device);
  const api = toApiError(e);
  if (api) return api;
  throw e;
}

/** POST api/switches/<g>/<s>/batch/ */
export async function runBatch(s: Services, req: BatchRequestIn): Promise<BatchAnswer> {
  const parsed = parseBatch(req.body);
  if (!parsed.ok) throw refusal(parsed);
  const batch = parsed.value;
  const { caller } = req.actor;
  if (caller.token && !caller.token.write_enabled) throw new ApiError(403, "token_read_only", msg.TOKEN_CANNOT_WRITE);
  const resolved = await s.devices.resolve(caller, req.groupId, req.switchId);
  const denied = canWrite(caller, resolved.group, resolved.device);
  if (denied) throw refusal(denied);
  const batchId = randomUUID();
  const run = (lease: string | null) =>
    s.devices.use(resolved.device, (driver) =>
      runOnDevice(s, req.actor, resolved.group, resolved.device, driver, batch, batchId, lease),
    );
  return batch.dryRun ? run(null) : s.devices.exclusive(resolved.device.id, (lease) => run(lease));
}

/** A lone bounce or power cycle: a batch of one, answered as a single write. */
export async function runCycle(
  s: Services,
  kind: "bounce" | "poe_cycle",
  req: BatchRequestIn & { interfaceId: string },
): Promise<string> {
  const parsed = parseCycle(kind, req.body);
  if (!parsed.ok) throw refusal(parsed);
  const item = { ...parsed.value, interface: req.interfaceId };
  const { caller } = req.actor;
  if (caller.token && !caller.token.write_enabled) throw new ApiError(403, "token_read_only", msg.TOKEN_CANNOT_WRITE);
  const resolved = await s.devices.resolve(caller, req.groupId, req.switchId);
  const denied = canWrite(caller, resolved.group, resolved.device);
  if (denied) throw refusal(denied);
  const batch = { items: [item], dryRun: false, onFailure: "stop" as const, save: false };
  const answer = await s.devices.exclusive(resolved.device.id, (lease) =>
    s.devices.use(resolved.device, (driver) =>
      runOnDevice(s, req.actor, resolved.group, resolved.device, driver, batch, randomUUID(), lease),
    ),
  );
  const one = answer.items[0];
  if (one.result === "done") return one.message ?? "";
  // the item's row is written: the shell must not write another
  throw markAudited(
    new ApiError(one.status ?? 400, (one.code ?? "invalid_parameter") as ApiError["code"], one.reason ?? ""),
  );
}

async function runOnDevice(
  s: Services,
  actor: Actor,
  group: GroupFull,
  device: DeviceFull,
  driver: Driver,
  batch: BatchRequest,
  batchId: string,
  lease: string | null,
): Promise<BatchAnswer> {
  const where = { id: device.id, name: device.name };
  // a port a cut-off bounce left down comes up before anything else is done here
  if (lease !== null) await switchOnLeftovers(s, where, lease, driver);
  const policy = policyOf(s.config);
  const scope: Scope = { caller: actor.caller, group, device, policy, can: driver.can };

  // learn: every interface the batch names, in one pass (Driver.learnInterfaces)
  const ids = [...new Set(batch.items.map((i) => driver.parseInterfaceId(i.interface)).filter((x) => x !== null))];
  const views = ids.length > 0 ? await driver.learnInterfaces(ids) : new Map<string, InterfaceView | null>();

  // check: every item, in order, on the interfaces as the items before leave them
  const current = new Map<string, InterfaceView>();
  for (const [id, v] of views) if (v) current.set(id, v);
  const checked: Checked[] = batch.items.map((item, index) => checkItem(scope, driver, current, item, index));

  const answer: BatchAnswer = {
    batch_id: batchId,
    dry_run: batch.dryRun,
    stopped: false,
    summary: { done: 0, same_value: 0, refused: 0, failed: 0, skipped: 0 },
    items: [],
    save: null,
    interfaces: null,
  };
  if (batch.dryRun || lease === null) {
    answer.items = checked.map((c) => c.result);
    return count(answer);
  }

  const rowOf = (c: Checked) => ({
    action: c.action,
    switch: where,
    group_id: group.id,
    ...c.audit,
    batch_id: batchId,
  });
  // the refusals are rows of the batch, written before anything is sent
  for (const c of checked) {
    if (c.plan || !c.result.code) continue;
    await s.audit.failure(actor, {
      ...rowOf(c),
      code: c.result.code as ApiError["code"],
      message: c.result.reason ?? "",
    });
  }

  // apply, in order, each write sent without its own read-back where the driver allows
  // (Driver.verifyWrites): the read at the end decides
  const touched = new Set<string>();
  const applied: Applied[] = [];
  driver.verifyWrites?.("deferred");
  try {
    await applyItems(
      s,
      actor,
      scope,
      driver,
      checked,
      batch,
      answer,
      { where, device, lease, batchId, rowOf },
      touched,
      applied,
    );
  } finally {
    driver.verifyWrites?.("each");
  }

  // read back: the touched interfaces, once; an item the device did not keep fails now
  const after = await readAfter(driver, [...touched]);
  const setLater = new Map<string, Set<keyof Expected>>();
  for (const a of [...applied].reverse()) {
    const later = setLater.get(a.portId) ?? new Set<keyof Expected>();
    a.overwritten = new Set([...later]);
    for (const f of Object.keys(a.expect) as (keyof Expected)[]) later.add(f);
    setLater.set(a.portId, later);
  }
  for (const a of applied) {
    const problem = after.views ? notKept(a, after.views.get(a.portId) ?? null, device) : null;
    const err = problem ?? (after.views ? null : unconfirmed(after.error!, device, a.c));
    if (!err) {
      await s.audit.settle(a.pending, { ...a.c.audit, outcome: "success", code: null, message: a.message });
      continue;
    }
    a.c.result = errorResult(a.c.result, err);
    await s.audit.failure(actor, { ...rowOf(a.c), code: err.code, message: err.reason }, a.pending);
  }
  answer.items = checked.map((c) => c.result);

  // save, when asked and something changed on a device that needs it
  if (batch.save) answer.save = await saveAfter(s, actor, group, device, driver, answer, batchId, lease);

  answer.interfaces = after.views ? [...after.views.values()].filter((v) => v !== null).map(afterOf) : null;
  return count(answer);
}

/** An item the device took: its pending audit row, what it means to leave on the port. */
interface Applied {
  c: Checked;
  portId: string;
  pending: number;
  message: string;
  /** the fields the item sets, as the read at the end must show them */
  expect: Partial<Expected>;
  /** its fields a later item of the same port set again (that item is held to them) */
  overwritten?: Set<keyof Expected>;
}

interface Expected {
  admin_up: boolean;
  untagged_vlan: number;
  tagged_vlans: number[];
  description: string;
  poe_state: "Enabled" | "Disabled";
}

/** What an item means to leave on its port. */
function expectedOf(item: BatchItem, effect: Partial<InterfaceInfo>): Partial<Expected> {
  if (item.kind === "bounce") return { admin_up: true };
  if (item.kind === "poe_cycle") return { poe_state: "Enabled" };
  const out: Partial<Expected> = {};
  if (effect.admin_up !== undefined) out.admin_up = effect.admin_up;
  if (effect.description !== undefined) out.description = effect.description;
  if (effect.poe) out.poe_state = effect.poe.admin_status;
  if (effect.untagged_vlan !== undefined) out.untagged_vlan = effect.untagged_vlan;
  // the trunk's tagged list as planned (every VLAN with allow_all is the device's own list)
  if (item.kind === "tags" && effect.tagged_vlans && item.body.allow_all !== true)
    out.tagged_vlans = [...effect.tagged_vlans].sort((a, b) => a - b);
  if (item.bounceAfter) out.admin_up = true;
  return out;
}

interface ApplyContext {
  where: { id: number; name: string };
  device: DeviceFull;
  lease: string;
  batchId: string;
  rowOf: (c: Checked) => Omit<DeviceAuditFacts, "code" | "outcome" | "message">;
}

/**
 * The items in order. A view goes on from one item to the next: a driver whose setters keep
 * the views of one learn current (Driver.viewsFollowWrites: the SNMP engine's Q-BRIDGE
 * bitmaps, the command-line and API drivers' per-port rows) needs no new read in between; after a failed write the VLAN state it shares is
 * not known, and the ports of the VLAN changes still to come are read again (once, together).
 * Another driver reads a port again before an item when an earlier item changed that port,
 * or before a VLAN change after another one.
 */
async function applyItems(
  s: Services,
  actor: Actor,
  scope: Scope,
  driver: Driver,
  checked: Checked[],
  batch: BatchRequest,
  answer: BatchAnswer,
  ctx: ApplyContext,
  touched: Set<string>,
  applied: Applied[],
): Promise<void> {
  const follows = driver.viewsFollowWrites === true;
  /** views read again in the batch, in place of the check's, as the items after them leave them */
  const fresh = new Map<string, InterfaceView>();
  let vlanStateKnown = true;
  let vlanChanged = false;
  let stoppedAt: number | null = null;
  const touchesVlans = (c: Checked) => c.item.kind === "vlan" || c.item.kind === "tags";
  for (const [index, c] of checked.entries()) {
    if (!c.plan) continue;
    if (stoppedAt !== null) {
      c.result = {
        ...c.result,
        result: "skipped",
        status: 409,
        code: "batch_stopped",
        reason: msg.batchStopped(stoppedAt),
      };
      await s.audit.failure(actor, { ...ctx.rowOf(c), code: "batch_stopped", message: c.result.reason! });
      continue;
    }
    let pending: number | null = null;
    try {
      pending = await s.audit.pending(actor, ctx.rowOf(c), ctx.lease);
      const portId = c.portId!;
      let view = fresh.get(portId) ?? c.view!;
      let plan = c.plan;
      let effect = c.effect;
      const vlans = touchesVlans(c);
      const again = follows ? vlans && !vlanStateKnown : touched.has(portId) || (vlans && vlanChanged);
      if (again) {
        if (follows) {
          // the VLAN changes still to come, read together: they share the new state
          const later = checked
            .slice(index)
            .filter((x) => x.plan && touchesVlans(x))
            .map((x) => x.portId!);
          const read = await driver.learnInterfaces([...new Set([portId, ...later])]);
          for (const [id, v] of read) if (v) fresh.set(id, v);
          vlanStateKnown = true;
        } else {
          const v = await driver.learnInterface(portId);
          if (v) fresh.set(portId, v);
        }
        const v = fresh.get(portId);
        if (!v) throw new ApiError(404, "interface_not_found", msg.interfaceNotFound(c.item.interface));
        view = v;
        ({ plan, effect } = planFor(scope, c.item, view));
      } else if (fresh.has(portId) && view !== c.view) {
        // the check saw the view the batch started with: the same check on the one read since
        ({ plan, effect } = planFor(scope, c.item, view));
      }
      touched.add(portId);
      if (vlans) vlanChanged = true;
      const cycle = {
        s,
        device: ctx.where,
        lease: ctx.lease,
        batchId: ctx.batchId,
        username: actor.caller.user.username,
      };
      try {
        if (c.item.kind === "bounce" || c.item.kind === "poe_cycle") {
          await cyclePort(cycle, driver, view, c.item.kind, c.item.wait ?? 0);
        } else {
          await plan.apply(driver);
          // a new VLAN, then a bounce so that the client asks for a new address
          if (c.bounceAfter) await cyclePort(cycle, driver, view, "bounce", c.item.wait ?? 0);
        }
      } catch (e) {
        if (vlans) vlanStateKnown = false;
        throw e;
      }
      if (fresh.has(portId)) fresh.set(portId, { ...view, interface: { ...view.interface, ...effect } });
      c.result = { ...c.result, result: "done", message: plan.result };
      applied.push({ c, portId, pending, message: plan.result, expect: expectedOf(c.item, effect) });
    } catch (e) {
      const raw = asApiError(e, ctx.device);
      const err = unknownOutcomeText(raw, ctx.device, c.action, c.audit.interface);
      c.result = errorResult(c.result, err);
      await s.audit.failure(actor, { ...ctx.rowOf(c), code: err.code, message: err.reason }, pending);
      if (c.result.result === "failed" && batch.onFailure === "stop") {
        answer.stopped = true;
        stoppedAt = c.result.index + 1;
      }
    }
  }
}

/**
 * The item's fields the read at the end does not show, as a single write's mismatch
 * (424 device_mismatch); null when the port shows them. Only the last item of a port to set
 * a field is held to it (an earlier one was overwritten on purpose).
 */
function notKept(a: Applied, now: InterfaceView | null, device: DeviceFull): ApiError | null {
  const name = now?.interface.name ?? a.c.audit.interface ?? a.portId;
  const problems: string[] = [];
  const show = (v: unknown) => (typeof v === "string" ? `'${v}'` : Array.isArray(v) ? `[${v.join(",")}]` : String(v));
  for (const [field, wanted] of Object.entries(a.expect) as [keyof Expected, unknown][]) {
    if (a.overwritten?.has(field)) continue;
    const i = now?.interface;
    const got = !i
      ? null
      : field === "poe_state"
        ? (i.poe?.admin_status ?? null)
        : field === "tagged_vlans"
          ? [...i.tagged_vlans].sort((x, y) => x - y)
          : i[field];
    if (JSON.stringify(got) !== JSON.stringify(wanted))
      problems.push(`${name} ${field}: wrote ${show(wanted)}, device reports ${got === null ? "nothing" : show(got)}`);
  }
  if (problems.length === 0) return null;
  return asApiError(
    new DeviceMismatch(`${device.name} accepted the change but reads back otherwise: ${problems.join("; ")}`),
    device,
  );
}

/** The read at the end got no answer: the items sent are not confirmed (as a single write whose read-back is lost). */
function unconfirmed(e: DeviceError, device: DeviceFull, c: Checked): ApiError {
  const err = asApiError(new DeviceOutcomeUnknown(e.message), device);
  return unknownOutcomeText(err, device, c.action, c.audit.interface);
}

/** an item checked with its single call's own parse and check on `view` */
function planFor(scope: Scope, item: BatchItem, view: InterfaceView): { plan: Plan; effect: Partial<InterfaceInfo> } {
  const iface = view.interface;
  const facts = interfaceFacts(scope, view);
  const need = (problem: { status: number; code: ApiError["code"]; reason: string } | null) => {
    if (problem) throw refusal(problem);
  };
  if (item.kind === "bounce" || item.kind === "poe_cycle") {
    const kind = item.kind;
    const wait = item.wait ?? 0;
    if (kind === "bounce") {
      need(canBounce(facts.rights, iface));
      need(checkBounceable(iface));
    } else {
      const protection = scope.policy.protection ?? NO_PORT_PROTECTION;
      need(canCyclePoe(facts.rights, iface, scope.caller.user.is_superuser, protection));
      need(checkCyclable(iface));
    }
    return {
      plan: {
        result: kind === "bounce" ? msg.bounced(iface.name, wait) : msg.poeCycled(iface.name, wait),
        audit: {
          interface: iface.name,
          old_value: "Enabled",
          new_value: `Enabled (${kind === "bounce" ? "down" : "PoE off"} ${wait} s)`,
        },
        // the apply loop runs the cycle (app/port-cycles.ts): it needs the lease and the batch
        apply: () => Promise.reject(new Error("a bounce or power cycle is run by cyclePort")),
      },
      effect: {},
    };
  }
  const write = DEVICE_WRITES[ITEM_OPERATIONS[item.kind]].parse(item.body);
  if (write.target !== "interface") throw new Error(`${item.kind} is not an interface write`);
  const plan = write.check(scope, facts);
  if (!item.bounceAfter) return { plan, effect: plan.effect ?? {} };
  // a VLAN change with a bounce after it: the bounce's checks on the port as the change leaves it
  need(canBounce(facts.rights, iface));
  need(checkBounceable(iface));
  const bounced = msg.bounced(iface.name, item.wait ?? 0);
  return { plan: { ...plan, result: `${plan.result}; ${bounced}` }, effect: plan.effect ?? {} };
}

/** One item's check: a plan, or the refusal the single call would have answered. */
function checkItem(
  scope: Scope,
  driver: Driver,
  current: Map<string, InterfaceView>,
  item: BatchItem,
  index: number,
): Checked {
  const base: ItemResult = {
    index,
    interface: item.interface,
    change: item.kind,
    ...(item.bounceAfter ? { bounce: true } : {}),
    result: "done",
  };
  const action = ACTION_OF[item.kind];
  const checked: Checked = {
    item,
    result: base,
    action,
    portId: null,
    audit: { interface: item.interface, new_value: JSON.stringify(item.body).slice(0, 200) },
    plan: null,
    bounceAfter: item.bounceAfter,
    view: null,
    effect: {},
  };
  try {
    // the single call's order: its parameters, the driver's capability, the interface, the rest
    if (item.kind !== "bounce" && item.kind !== "poe_cycle") {
      const write = DEVICE_WRITES[ITEM_OPERATIONS[item.kind]].parse(item.body);
      if (write.target === "interface") checked.audit = write.requested(item.interface);
    }
    const flag =
      item.kind === "bounce" || item.kind === "poe_cycle"
        ? CYCLE_FLAG[item.kind]
        : capabilityOf(ITEM_OPERATIONS[item.kind]);
    const lacking = flag ? checkCapability(scope.can, flag) : null;
    if (lacking) throw refusal(lacking);
    if (item.bounceAfter) {
      const cannot = checkCapability(scope.can, "change_admin_status");
      if (cannot) throw refusal(cannot);
    }
    const id = driver.parseInterfaceId(item.interface);
    const view = id === null ? undefined : current.get(id);
    if (!view || id === null) throw new ApiError(404, "interface_not_found", msg.interfaceNotFound(item.interface));
    checked.portId = id;
    checked.audit = { ...checked.audit, interface: view.interface.name };
    const { plan, effect } = planFor(scope, item, view);
    checked.audit = plan.audit;
    checked.plan = plan;
    checked.view = view;
    checked.effect = effect;
    current.set(id, { ...view, interface: { ...view.interface, ...effect } });
    checked.result = { ...base, message: plan.result };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    checked.result = errorResult(base, e);
  }
  return checked;
}

/** Sets `answer.summary` from its items. */
function count(answer: BatchAnswer): BatchAnswer {
  for (const k of Object.keys(answer.summary) as ItemOutcome[]) answer.summary[k] = 0;
  for (const i of answer.items) answer.summary[i.result]++;
  return answer;
}

async function saveAfter(
  s: Services,
  actor: Actor,
  group: GroupFull,
  device: DeviceFull,
  driver: Driver,
  answer: BatchAnswer,
  batchId: string,
  lease: string,
): Promise<BatchAnswer["save"]> {
  if (!driver.can.save_config) return { result: "skipped", reason: msg.CANNOT_SAVE };
  if (!answer.items.some((i) => i.result === "done")) return { result: "skipped", reason: msg.BATCH_NOTHING_TO_SAVE };
  const row = {
    action: "save_config" as const,
    switch: { id: device.id, name: device.name },
    group_id: group.id,
    new_value: "startup-config",
    batch_id: batchId,
  };
  let pending: number | null = null;
  try {
    pending = await s.audit.pending(actor, row, lease);
    await driver.saveConfig();
    await s.audit.settle(pending, { outcome: "success", code: null, message: msg.CONFIG_SAVED });
    return { result: "done", message: msg.CONFIG_SAVED };
  } catch (e) {
    const err = asApiError(e, device);
    await s.audit.failure(actor, { ...row, code: err.code, message: err.reason }, pending);
    return { result: "failed", code: err.code, reason: err.reason };
  }
}

/** The interfaces the batch touched, as they read now, in one pass (views null when the device did not answer). */
async function readAfter(
  driver: Driver,
  ports: string[],
): Promise<{ views: Map<string, InterfaceView | null> | null; error: DeviceError | null }> {
  if (ports.length === 0) return { views: new Map(), error: null };
  try {
    return { views: await driver.learnInterfaces(ports), error: null };
  } catch (e) {
    if (e instanceof DeviceError) return { views: null, error: e };
    throw e;
  }
}

function afterOf(view: InterfaceView): InterfaceAfter {
  const i = view.interface;
  return {
    id: i.id,
    name: i.name,
    state: i.admin_up ? "Enabled" : "Disabled",
    vlan: i.untagged_vlan,
    tagged_vlans: i.tagged_vlans,
    description: i.description,
    ...(i.poe ? { poe_state: i.poe.admin_status } : {}),
  };
}
