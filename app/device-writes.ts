/**
 * Device writes: the five interface writes, save, and VLAN add/rename/delete share one
 * table-driven flow, in explicit phases (the way Netdisco's port-control workers do it):
 *
 *   parse   the request's own parameters (400), before anything else
 *   access  may this caller write to this device through this group (403), and the
 *           user-level right of the action (VLAN add/rename/delete: the profile's right,
 *           then the URL group's right to that VLAN id)
 *   check   the driver can do it at all (400 not_supported, no device I/O yet); then, from
 *           one learn of what the write needs (the interface view, or the VLAN list): the
 *           interface exists (404), the caller may touch it (403), the value is valid
 *           (400) and is not the current one (404). The check returns the planned change
 *           and the facts the audit row records.
 *   apply   the audit row is written as "pending" first (a database that cannot take it
 *           stops the write here, before the device is changed); then the device I/O:
 *           the setter gets the view the check used (the device is read once) and reads
 *           back what it wrote.
 *   record  the pending row is settled: the change, or the device's failure. A row
 *           that cannot be settled (the database was lost meanwhile) stays pending until
 *           the device's next write lease holder calls it unknown (app/write-lease.ts).
 *           A write refused or failed before its pending row is one row of its own. Both
 *           go through the audit writer's one path for failures (AuditWriter.failure).
 *
 * The order is the contract's (docs/api-decisions.md): parse, token, access, read-only,
 * learn, interface, rights, value, same value, write, read-back, audit. Writes to one
 * device run one after another (DeviceService.exclusive).
 */
import type { Driver } from "../drivers/contract";
import type { InterfaceInfo, InterfaceView, VlanInfo } from "../model/device";
import { capabilityOf, type Capabilities } from "../model/capabilities";
import {
  allowedVlans,
  canAddVlan,
  canChangeVlan,
  canDeleteVlan,
  canEditDescription,
  canEditTags,
  canManageInterface,
  canRenameVlan,
  canTogglePoe,
  canWrite,
  interfaceRights,
  isReadOnly,
  tagVlans,
  type InterfaceRights,
  type Policy,
} from "../domain/access";
import {
  checkCapability,
  checkPoeSupported,
  checkSameDescription,
  checkSamePoeState,
  checkSameState,
  checkSameVlan,
  checkVlanAbsent,
  checkVlanPresent,
  checkVlanTarget,
  planTagChange,
  tagsText,
} from "../domain/device-checks";
import {
  hasControlCharacter,
  isVlanId,
  parseDescription,
  parseInteger,
  parseOnOff,
  parseSave,
  parseUntaggedVlan,
  parseVlanDefinition,
  parseTagsRequest,
  parseVlanIdToDelete,
  type TagsRequest,
} from "../domain/request-values";
import type { Denial, Failure, Result } from "../domain/result";
import { DEVICE_ACTION_WORDS, type DeviceAction } from "../domain/audit-actions";
import * as msg from "../domain/messages";
import { guardedDescription, lagMemberDenial, NO_PORT_PROTECTION } from "../domain/port-protection";
import type { Caller } from "./caller";
import { markAudited, type Actor } from "./audit";
import type { DeviceFull, GroupFull } from "./devices";
import type { Services } from "./services";
import { ApiError, refusal, toApiError } from "./errors";
import { policyOf } from "./config";
import { switchOnLeftovers } from "./port-cycles";

/** What the request asks, as the handler received it. */
export interface WriteRequest {
  actor: Actor;
  groupId: number;
  switchId: number;
  /** the interface id as the URL spells it (interface writes only) */
  interfaceId?: string;
  body: Record<string, unknown>;
}

/** The audit row's facts about what was (to be) changed. */
export interface AuditFacts {
  interface?: string;
  old_value?: string;
  new_value?: string;
}

/** What a check decided: the answer's text, the audit facts, and the change to apply. */
export interface Plan {
  result: string;
  audit: AuditFacts;
  /** an interface write: the interface as it reads once the change is made (a batch checks its next items on it) */
  effect?: Partial<InterfaceInfo>;
  apply(driver: Driver): Promise<void>;
}

/** Who is writing where, for the checks. */
export interface Scope {
  caller: Caller;
  group: GroupFull;
  device: DeviceFull;
  policy: Policy;
  can: Capabilities;
}

export interface InterfaceFacts {
  view: InterfaceView;
  rights: InterfaceRights;
  allowed: ReadonlySet<number>;
}

/** One kind of write, as written: how to read its parameters (P) and how to check and plan it. */
type WriteSpec<P> =
  | {
      action: DeviceAction;
      target: "interface";
      parse(body: Record<string, unknown>): P;
      /** the audit facts known from the request alone (before the device was read) */
      requested(params: P, interfaceId: string): AuditFacts;
      check(scope: Scope, facts: InterfaceFacts, params: P): Plan;
    }
  | {
      action: DeviceAction;
      target: "vlans" | "device";
      parse(body: Record<string, unknown>): P;
      /** the user-level right this action needs, beside writing to the device (and, for VLANs, the group's right to the VLAN) */
      permit?(caller: Caller, group: GroupFull, params: P): Denial | null;
      requested(params: P): AuditFacts;
      check(scope: Scope, vlans: VlanInfo[], params: P): Plan;
    };

/** a domain verdict: go on, or the error to answer */
function need(problem: Denial | Failure | null): void {
  if (problem) throw refusal(problem);
}

function valueOf<T>(r: Result<T>): T {
  if (!r.ok) throw refusal(r);
  return r.value;
}

const word = (on: boolean) => msg.stateWord(on);

const setInterfaceState: WriteSpec<boolean> = {
  action: "admin_state",
  target: "interface",
  parse: (body) => valueOf(parseOnOff(body.state, "state")),
  requested: (up, id) => ({ interface: id, new_value: word(up) }),
  check(_scope, { view, rights }, up) {
    const iface = view.interface;
    need(canManageInterface(rights));
    need(checkSameState(up, iface.admin_up));
    return {
      result: msg.stateChanged(iface.name, up),
      audit: { interface: iface.name, old_value: word(iface.admin_up), new_value: word(up) },
      effect: { admin_up: up },
      apply: (d) => d.setAdminState(view, up),
    };
  },
};

const setInterfacePoe: WriteSpec<boolean> = {
  action: "poe_state",
  target: "interface",
  parse: (body) => valueOf(parseOnOff(body.poe_state, "poe_state")),
  requested: (on, id) => ({ interface: id, new_value: word(on) }),
  check(_scope, { view, rights }, on) {
    const iface = view.interface;
    need(canTogglePoe(rights));
    need(checkPoeSupported(iface));
    need(checkSamePoeState(on, iface.poe!.admin_status === "Enabled"));
    return {
      result: msg.poeChanged(iface.name, on),
      audit: { interface: iface.name, old_value: iface.poe!.admin_status, new_value: word(on) },
      effect: { poe: { ...iface.poe!, admin_status: word(on) } },
      apply: (d) => d.setPoe(view, on),
    };
  },
};

const setInterfaceVlan: WriteSpec<number> = {
  action: "untagged_vlan",
  target: "interface",
  parse: (body) => valueOf(parseUntaggedVlan(body.vlan)),
  requested: (vlan, id) => ({ interface: id, new_value: String(vlan) }),
  check(_scope, { view, rights, allowed }, vlan) {
    const iface = view.interface;
    need(canManageInterface(rights));
    need(lagMemberDenial(iface));
    need(checkVlanTarget(vlan, view.vlans, allowed));
    need(checkSameVlan(vlan, iface.untagged_vlan));
    return {
      result: msg.vlanChanged(iface.name, vlan),
      audit: { interface: iface.name, old_value: String(iface.untagged_vlan), new_value: String(vlan) },
      effect: { untagged_vlan: vlan, tagged_vlans: iface.tagged_vlans.filter((v) => v !== vlan) },
      apply: (d) => d.setUntaggedVlan(view, vlan),
    };
  },
};

/** docs/api-decisions.md "Trunk ports": who may, which VLANs, and what is kept */
const setInterfaceTags: WriteSpec<TagsRequest> = {
  action: "tagged_vlans",
  target: "interface",
  parse: (body) => valueOf(parseTagsRequest(body)),
  requested: (r, id) => ({ interface: id, new_value: tagsText(r.untagged, r.tagged, r.allowAll) }),
  check({ caller, group, policy }, { view, rights }, request) {
    const iface = view.interface;
    need(canEditTags(caller, rights, policy, iface));
    const planned = planTagChange(request, iface, view.vlans, tagVlans(caller, group, view.vlans));
    if ("status" in planned) throw refusal(planned);
    return {
      result: msg.tagsChanged(iface.name),
      audit: {
        interface: iface.name,
        old_value: tagsText(iface.untagged_vlan, iface.tagged_vlans),
        new_value: tagsText(planned.untagged, planned.tagged, planned.allowAll),
      },
      effect: { untagged_vlan: planned.untagged, tagged_vlans: planned.tagged },
      apply: (d) => d.setTags(view, planned),
    };
  },
};

const setInterfaceDescription: WriteSpec<unknown> = {
  action: "description",
  target: "interface",
  parse(body) {
    // the value's rules depend on the device (its length limits): checked with the interface
    if (typeof body.description !== "string")
      throw new ApiError(400, "missing_parameter", msg.missingParameter("description"));
    // a line break never waits for a device connection to be refused
    if (hasControlCharacter(body.description))
      throw new ApiError(400, "invalid_parameter", msg.DESCRIPTION_CONTROL_CHARACTERS);
    return body.description;
  },
  requested: (text, id) => ({ interface: id, new_value: String(text) }),
  check(scope, { view, rights }, raw) {
    const iface = view.interface;
    need(canEditDescription(rights));
    const limits = { characters: scope.can.max_description_length, bytes: scope.can.max_description_bytes };
    const asked = valueOf(parseDescription(raw, limits));
    // OpenL2M's description guards; a kept beginning makes the text longer: the limits again
    const guarded = valueOf(
      guardedDescription(
        asked,
        iface.description,
        scope.caller.user.is_superuser,
        scope.policy.protection ?? NO_PORT_PROTECTION,
      ),
    );
    const text = guarded === asked ? asked : valueOf(parseDescription(guarded, limits));
    need(checkSameDescription(text, iface.description));
    return {
      result: msg.descriptionChanged(iface.name),
      audit: { interface: iface.name, old_value: iface.description, new_value: text },
      effect: { description: text },
      apply: (d) => d.setDescription(view, text),
    };
  },
};

const saveConfig: WriteSpec<true> = {
  action: "save_config",
  target: "device",
  parse: (body) => valueOf(parseSave(body.save)),
  requested: () => ({ new_value: "startup-config" }),
  check: () => ({ result: msg.CONFIG_SAVED, audit: { new_value: "startup-config" }, apply: (d) => d.saveConfig() }),
};

/** add/edit's parameters as sent: vlan_id a number or the text of one, vlan_name text */
interface VlanParams {
  vlan_id: number | string;
  vlan_name: string;
}

/** the parse step of add/edit: both fields present and vlan_id numeric (values checked later) */
function vlanParams(body: Record<string, unknown>): VlanParams {
  const id = body.vlan_id;
  // parseInteger takes only a number or its text: the typeof checks say so to the compiler
  if (
    parseInteger(id) === null ||
    (typeof id !== "number" && typeof id !== "string") ||
    typeof body.vlan_name !== "string"
  ) {
    throw new ApiError(400, "missing_parameter", msg.VLAN_PARAMETERS_INVALID);
  }
  if (hasControlCharacter(body.vlan_name))
    throw new ApiError(400, "invalid_parameter", msg.VLAN_NAME_CONTROL_CHARACTERS);
  return { vlan_id: id, vlan_name: body.vlan_name };
}

/** a VLAN write's id must be one the URL's group allows; an id outside 1..4094 is left to the value check (400) */
function vlanOfGroup(caller: Caller, group: GroupFull, rawId: unknown): Denial | null {
  const id = parseInteger(rawId);
  return id !== null && isVlanId(id) ? canChangeVlan(caller, group, id) : null;
}

const vlanLabel = (vlans: VlanInfo[], id: number) => `${id} ${vlans.find((v) => v.id === id)?.name ?? ""}`.trim();
const nameLimits = (can: Capabilities) => ({ characters: can.max_vlan_name_length, bytes: can.max_vlan_name_bytes });

const addVlan: WriteSpec<VlanParams> = {
  action: "vlan_add",
  target: "vlans",
  parse: vlanParams,
  permit: (caller, group, p) => canAddVlan(caller) ?? vlanOfGroup(caller, group, p.vlan_id),
  requested: (p) => ({ new_value: `${p.vlan_id} ${p.vlan_name}`.trim() }),
  check(scope, vlans, p) {
    const def = valueOf(parseVlanDefinition(p, "add", nameLimits(scope.can)));
    need(checkVlanAbsent(vlans, def.id));
    return {
      result: msg.vlanCreated(def.id, def.name),
      audit: { new_value: `${def.id} ${def.name}` },
      apply: (d) => d.createVlan(def.id, def.name),
    };
  },
};

const editVlan: WriteSpec<VlanParams> = {
  action: "vlan_rename",
  target: "vlans",
  parse: vlanParams,
  permit: (caller, group, p) => canRenameVlan(caller) ?? vlanOfGroup(caller, group, p.vlan_id),
  requested: (p) => ({ new_value: `${p.vlan_id} ${p.vlan_name}`.trim() }),
  check(scope, vlans, p) {
    const def = valueOf(parseVlanDefinition(p, "edit", nameLimits(scope.can)));
    need(checkVlanPresent(vlans, def.id));
    return {
      result: msg.vlanRenamed(def.id, def.name),
      audit: { old_value: vlanLabel(vlans, def.id), new_value: `${def.id} ${def.name}` },
      apply: (d) => d.renameVlan(def.id, def.name),
    };
  },
};

const deleteVlan: WriteSpec<number> = {
  action: "vlan_delete",
  target: "vlans",
  parse: (body) => valueOf(parseVlanIdToDelete(body.vlan_id)),
  permit: (caller, group, id) => canDeleteVlan(caller) ?? vlanOfGroup(caller, group, id),
  requested: () => ({}),
  check(_scope, vlans, id) {
    need(checkVlanPresent(vlans, id));
    return {
      result: msg.vlanDeleted(id),
      audit: { old_value: vlanLabel(vlans, id), new_value: "" },
      apply: (d) => d.deleteVlan(id),
    };
  },
};

/** A request parsed by its write spec: the rest of the spec's steps, bound to its parameters. */
export type ParsedWrite =
  | {
      target: "interface";
      requested(interfaceId: string): AuditFacts;
      check(scope: Scope, facts: InterfaceFacts): Plan;
    }
  | {
      target: "vlans" | "device";
      permit(caller: Caller, group: GroupFull): Denial | null;
      requested(): AuditFacts;
      check(scope: Scope, vlans: VlanInfo[]): Plan;
    };

/** A write spec whatever its parameters' type: parse gives the steps that know them. */
export interface DeviceWrite {
  action: DeviceAction;
  parse(body: Record<string, unknown>): ParsedWrite;
}

function deviceWrite<P>(spec: WriteSpec<P>): DeviceWrite {
  return {
    action: spec.action,
    parse(body) {
      const params = spec.parse(body);
      if (spec.target === "interface") {
        return {
          target: spec.target,
          requested: (interfaceId) => spec.requested(params, interfaceId),
          check: (scope, facts) => spec.check(scope, facts, params),
        };
      }
      return {
        target: spec.target,
        permit: (caller, group) => spec.permit?.(caller, group, params) ?? null,
        requested: () => spec.requested(params),
        check: (scope, vlans) => spec.check(scope, vlans, params),
      };
    },
  };
}

/** Every device write, by the spec's operationId. */
export const DEVICE_WRITES: Record<string, DeviceWrite> = {
  setInterfaceState: deviceWrite(setInterfaceState),
  setInterfacePoe: deviceWrite(setInterfacePoe),
  setInterfaceVlan: deviceWrite(setInterfaceVlan),
  setInterfaceTags: deviceWrite(setInterfaceTags),
  setInterfaceDescription: deviceWrite(setInterfaceDescription),
  saveConfig: deviceWrite(saveConfig),
  addVlan: deviceWrite(addVlan),
  editVlan: deviceWrite(editVlan),
  deleteVlan: deviceWrite(deleteVlan),
};

/** Runs one write through the phases; the answer's `result` text. */
export async function runWrite(s: Services, operationId: string, req: WriteRequest): Promise<string> {
  const spec = DEVICE_WRITES[operationId];
  const capability = capabilityOf(operationId);
  if (!spec || !capability) throw new Error(`${operationId} is not a device write`);
  const { caller } = req.actor;
  // what the audit row says: filled in as the phases learn it
  let device: { id: number; name: string } | null = null;
  let groupId: number | null = null;
  let audit: AuditFacts = { new_value: requestedText(req.body) };
  /** the pending audit row, once written (just before the device is changed) */
  let pending: number | null = null;
  try {
    // parse, then access (token, the URL's pair, read-only), then the action's own right
    const write = spec.parse(req.body);
    audit = write.target === "interface" ? write.requested(req.interfaceId ?? "") : write.requested();
    if (caller.token && !caller.token.write_enabled) throw new ApiError(403, "token_read_only", msg.TOKEN_CANNOT_WRITE);
    const resolved = await s.devices.resolve(caller, req.groupId, req.switchId);
    device = resolved.device;
    groupId = resolved.group.id;
    need(canWrite(caller, resolved.group, resolved.device));
    if (write.target !== "interface") need(write.permit(caller, resolved.group));
    const where = { switch: resolved.device, group_id: resolved.group.id, action: spec.action };
    const result = await s.devices.exclusive(resolved.device.id, (lease) =>
      applyWrite(
        s,
        write,
        capability,
        caller,
        resolved,
        req.interfaceId ?? "",
        (facts) => (audit = facts),
        async (facts) => {
          pending = await s.audit.pending(req.actor, { ...where, ...facts }, lease);
        },
        lease,
      ),
    );
    // the device answered: a row that cannot be settled stays pending (reported), the
    // answer is the device's (a retry of a change that was made would only be refused)
    if (pending !== null) await s.audit.settle(pending, { ...audit, outcome: "success", code: null, message: result });
    return result;
  } catch (e) {
    const err =
      e instanceof ApiError ? unknownOutcomeText(e, device, spec.action, audit.interface) : (toApiError(e) ?? e);
    // every end that is not a success is a row: refused before any change, failed on the
    // device, or not known (the pending row settled, when the write got that far)
    await s.audit.failure(
      req.actor,
      {
        action: spec.action,
        switch: device ?? { id: null, name: `#${req.switchId}` },
        group_id: groupId,
        ...audit,
        code: err instanceof ApiError ? err.code : "server_error",
        message: err instanceof ApiError ? err.reason : "Internal server error",
      },
      pending,
    );
    throw markAudited(err);
  }
}

/** The body as asked, for the audit row of a request refused before it could be understood. */
function requestedText(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body).slice(0, 200);
  } catch {
    return "";
  }
}

/** device_outcome_unknown in the contract's words: what may have changed, and where. */
export function unknownOutcomeText(
  e: ApiError,
  device: { name: string } | null,
  action: DeviceAction,
  iface: string | undefined,
): ApiError {
  if (e.code !== "device_outcome_unknown" || !device) return e;
  const what = `the change of ${DEVICE_ACTION_WORDS[action]}${iface ? ` on ${iface}` : ""}`;
  return new ApiError(e.status, e.code, msg.outcomeUnknown(device.name, what));
}

/** What the checks of an interface write look at: the view, the caller's rights on it, the VLANs it may use. */
export function interfaceFacts(scope: Scope, view: InterfaceView): InterfaceFacts {
  const { caller, group, device, policy } = scope;
  const allowed = allowedVlans(caller, group, view.vlans);
  const readOnly = isReadOnly(caller, group, device);
  const rights = interfaceRights(caller, group, device, policy, view.interface, allowed, readOnly);
  return { view, rights, allowed };
}

/** The check and apply phases on the device (inside the device's queue). */
async function applyWrite(
  s: Services,
  write: ParsedWrite,
  capability: NonNullable<ReturnType<typeof capabilityOf>>,
  caller: Caller,
  where: Awaited<ReturnType<Services["devices"]["resolve"]>>,
  interfaceId: string,
  learned: (facts: AuditFacts) => void,
  recordPending: (facts: AuditFacts) => Promise<void>,
  lease: string,
): Promise<string> {
  const { group, device } = where;
  const policy: Policy = policyOf(s.config);
  return s.devices.use(device, async (driver) => {
    // a port that a cut-off bounce or power cycle left off comes on first (app/port-cycles.ts)
    await switchOnLeftovers(s, device, lease, driver);
    const scope: Scope = { caller, group, device, policy, can: driver.can };
    need(checkCapability(driver.can, capability));
    let plan: Plan;
    if (write.target === "interface") {
      const id = driver.parseInterfaceId(interfaceId);
      const view = id === null ? null : await driver.learnInterface(id);
      if (!view) throw new ApiError(404, "interface_not_found", msg.interfaceNotFound(interfaceId));
      learned({ ...write.requested(interfaceId), interface: view.interface.name });
      plan = write.check(scope, interfaceFacts(scope, view));
    } else {
      const vlans = write.target === "vlans" ? await driver.learnVlans() : [];
      plan = write.check(scope, vlans);
    }
    learned(plan.audit);
    // no change without its row: the row first, the device after
    await recordPending(plan.audit);
    await plan.apply(driver);
    return plan.result;
  });
}
