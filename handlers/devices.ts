/**
 * The device endpoints: menu, search, basic/details, interface writes, save, VLANs.
 * Every write follows the contract's order: parse (400) -> token write (403) -> group and
 * device access, read-only (403) -> learn what the write needs (4xx when unreachable) ->
 * interface exists (404) -> rights on it (403) -> value checks (400) -> same value (404) ->
 * write, read back and verify (in the driver) -> audit row -> 200.
 */
import { callerOf, ok, type Ctx, type Handler, type Reply } from "./context";
import { ApiError } from "./errors";
import type { DeviceFull, GroupFull } from "./device-service";
import type { Driver, InterfaceInfo, LearnScope, VlanInfo } from "../drivers/types";
import type { Denial, Failure } from "../domain/result";
import {
  allowedVlans,
  canAddVlan,
  canDeleteVlan,
  canEditDescription,
  canManageInterface,
  canRenameVlan,
  canTogglePoe,
  canWrite,
  interfaceRights,
  isReadOnly,
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
  type ChangeCapability,
} from "../domain/device-checks";
import { parseDescription, parseInteger, parseOnOff, parseSave, parseUntaggedVlan, parseVlanDefinition, parseVlanIdToDelete } from "../domain/values";
import { menuView, searchView, switchView } from "../domain/views";
import * as msg from "../domain/messages";

type Problem = Denial | Failure | null;

/** a domain verdict as the one error type handlers throw */
function check(problem: Problem): void {
  if (problem) throw new ApiError(problem.status, problem.code, problem.reason);
}

function value<T>(r: { ok: true; value: T } | Failure): T {
  if (!r.ok) throw new ApiError(r.status, r.code, r.reason);
  return r.value;
}

const policyOf = (ctx: Ctx): Policy => ({ always_allow_poe_toggle: ctx.services.config.alwaysAllowPoeToggle });

// --- reads ----------------------------------------------------------------------------

const getMenu: Handler = async (ctx) => {
  const caller = callerOf(ctx);
  const menu = await ctx.services.devices.menu(caller);
  return ok(menuView(caller, menu.map((m) => ({ group: m.group, members: m.members })), ctx.baseUrl));
};

const searchSwitch: Handler = async (ctx) => {
  const caller = callerOf(ctx);
  const text = String(ctx.params.text);
  const menu = await ctx.services.devices.menu(caller);
  const found = searchView(menu.map((m) => ({ group: m.group, members: m.members })), text, ctx.baseUrl);
  if (!found) throw new ApiError(404, "not_found", msg.deviceNotFound(text));
  return ok(found);
};

async function showSwitch(ctx: Ctx, scope: LearnScope): Promise<Reply> {
  const caller = callerOf(ctx);
  const devices = ctx.services.devices;
  const { group, device } = await devices.resolve(caller, ctx.params.group, ctx.params.switch);
  const { snapshot, info, can } = await devices.use(device, async (d) => ({ snapshot: await d.learn(scope), info: d.info, can: d.can }));
  await devices.remember(device, snapshot.driver_info, snapshot.hostname);
  return ok(
    switchView({ snapshot, device, group, caller, policy: policyOf(ctx), capabilities: can, vendor: info.vendor, driver: info.driver, baseUrl: ctx.baseUrl }),
  );
}

// --- writes ---------------------------------------------------------------------------

interface WriteScope {
  ctx: Ctx;
  group: GroupFull;
  device: DeviceFull;
}

/** token write check, then menu and read-only: the first three steps of every write */
async function writeAccess(ctx: Ctx): Promise<WriteScope> {
  const caller = callerOf(ctx);
  if (caller.token && !caller.token.write_enabled) throw new ApiError(403, "token_read_only", msg.TOKEN_CANNOT_WRITE);
  const { group, device } = await ctx.services.devices.resolve(caller, ctx.params.group, ctx.params.switch);
  check(canWrite(caller, group, device));
  return { ctx, group, device };
}

interface AuditFacts {
  interface?: string;
  action: string;
  old_value?: string;
  new_value?: string;
}

/**
 * Runs a device change with the device to itself: the change's own checks and write
 * happen inside; a success and every failure of the device are written to the audit log.
 */
async function change(w: WriteScope, facts: () => AuditFacts, body: (driver: Driver) => Promise<string>): Promise<Reply> {
  const { ctx, device, group } = w;
  const caller = callerOf(ctx);
  const devices = ctx.services.devices;
  const record = (outcome: "success" | "failure", code: string | null, message: string) => {
    const f = facts();
    return devices.audit({
      user_id: caller.user.id,
      username: caller.user.username,
      source_address: ctx.ip,
      switch_id: device.id,
      switch_name: device.name,
      group_id: group.id,
      interface: f.interface ?? "",
      action: f.action,
      old_value: f.old_value ?? "",
      new_value: f.new_value ?? "",
      outcome,
      code,
      message,
    });
  };
  return devices.exclusive(device.id, async () => {
    try {
      const result = await devices.use(device, body);
      await record("success", null, result);
      return ok({ result });
    } catch (e) {
      // a failure of the device itself (unreachable, refused, did not keep the change) is recorded
      if (e instanceof ApiError && e.code.startsWith("device_")) await record("failure", e.code, e.reason);
      throw e;
    }
  });
}

/** learn one interface (404 when missing) and the caller's rights on it */
async function interfaceScope(w: WriteScope, driver: Driver) {
  const ifId = String(w.ctx.params.interface).replace(/_/g, "/");
  const view = await driver.learnInterface(ifId);
  if (!view) throw new ApiError(404, "interface_not_found", msg.interfaceNotFound(ifId));
  const caller = callerOf(w.ctx);
  const allowed = allowedVlans(caller, w.group, view.vlans);
  const rights = interfaceRights(caller, w.group, w.device, policyOf(w.ctx), view.interface, allowed, isReadOnly(caller, w.group, w.device));
  return { ifId, iface: view.interface, vlans: view.vlans, allowed, rights };
}

const capable = (driver: Driver, what: ChangeCapability) => check(checkCapability(driver.can, what));
const word = (on: boolean) => msg.stateWord(on);

const setInterfaceState: Handler = async (ctx) => {
  const up = value(parseOnOff(ctx.body.state, "state"));
  const w = await writeAccess(ctx);
  let iface: InterfaceInfo | null = null;
  return change(
    w,
    () => ({ interface: iface?.name ?? String(ctx.params.interface), action: "admin_state", old_value: iface ? word(iface.admin_up) : "", new_value: word(up) }),
    async (driver) => {
      const s = await interfaceScope(w, driver);
      iface = s.iface;
      check(canManageInterface(s.rights));
      capable(driver, "change_admin_status");
      check(checkSameState(up, s.iface.admin_up));
      await driver.setAdminState(s.ifId, up);
      return msg.stateChanged(s.iface.name, up);
    },
  );
};

const setInterfacePoe: Handler = async (ctx) => {
  const on = value(parseOnOff(ctx.body.poe_state, "poe_state"));
  const w = await writeAccess(ctx);
  let iface: InterfaceInfo | null = null;
  return change(
    w,
    () => ({
      interface: iface?.name ?? String(ctx.params.interface),
      action: "poe_state",
      old_value: iface?.poe ? iface.poe.admin_status : "",
      new_value: word(on),
    }),
    async (driver) => {
      const s = await interfaceScope(w, driver);
      iface = s.iface;
      check(canTogglePoe(s.rights));
      check(checkPoeSupported(s.iface));
      capable(driver, "change_poe");
      check(checkSamePoeState(on, s.iface.poe!.admin_status === "Enabled"));
      await driver.setPoe(s.ifId, on);
      return msg.poeChanged(s.iface.name, on);
    },
  );
};

const setInterfaceVlan: Handler = async (ctx) => {
  const vlan = value(parseUntaggedVlan(ctx.body.vlan));
  const w = await writeAccess(ctx);
  let iface: InterfaceInfo | null = null;
  return change(
    w,
    () => ({ interface: iface?.name ?? String(ctx.params.interface), action: "untagged_vlan", old_value: iface ? String(iface.untagged_vlan) : "", new_value: String(vlan) }),
    async (driver) => {
      const s = await interfaceScope(w, driver);
      iface = s.iface;
      check(canManageInterface(s.rights));
      capable(driver, "change_vlan");
      check(checkVlanTarget(vlan, s.vlans, s.allowed));
      check(checkSameVlan(vlan, s.iface.untagged_vlan));
      await driver.setUntaggedVlan(s.ifId, vlan);
      return msg.vlanChanged(s.iface.name, vlan);
    },
  );
};

const setInterfaceDescription: Handler = async (ctx) => {
  if (typeof ctx.body.description !== "string") throw new ApiError(400, "missing_parameter", msg.missingParameter("description"));
  const w = await writeAccess(ctx);
  let iface: InterfaceInfo | null = null;
  let wanted = "";
  return change(
    w,
    () => ({ interface: iface?.name ?? String(ctx.params.interface), action: "description", old_value: iface?.description ?? "", new_value: wanted }),
    async (driver) => {
      const s = await interfaceScope(w, driver);
      iface = s.iface;
      check(canEditDescription(s.rights));
      capable(driver, "change_description");
      wanted = value(parseDescription(ctx.body.description, driver.can.max_description_length));
      check(checkSameDescription(wanted, s.iface.description));
      await driver.setDescription(s.ifId, wanted);
      return msg.descriptionChanged(s.iface.name);
    },
  );
};

const saveConfig: Handler = async (ctx) => {
  value(parseSave(ctx.body.save));
  const w = await writeAccess(ctx);
  return change(
    w,
    () => ({ action: "save_config", new_value: "startup-config" }),
    async (driver) => {
      if (!driver.can.save_config) throw new ApiError(400, "not_supported", msg.CANNOT_SAVE);
      await driver.saveConfig();
      return msg.CONFIG_SAVED;
    },
  );
};

function vlanName(vlans: VlanInfo[], id: number): string {
  return vlans.find((v) => v.id === id)?.name ?? "";
}

/** the parse step of add/edit: both fields present and vlan_id numeric (values checked later) */
function vlanParams(ctx: Ctx): void {
  if (parseInteger(ctx.body.vlan_id) === null || typeof ctx.body.vlan_name !== "string") {
    throw new ApiError(400, "missing_parameter", msg.VLAN_PARAMETERS_INVALID);
  }
}

const addVlan: Handler = async (ctx) => {
  const caller = callerOf(ctx);
  vlanParams(ctx);
  const w = await writeAccess(ctx);
  check(canAddVlan(caller));
  return change(
    w,
    () => ({ action: "vlan_add", new_value: `${ctx.body.vlan_id} ${ctx.body.vlan_name ?? ""}`.trim() }),
    async (driver) => {
      capable(driver, "edit_vlans");
      const def = value(parseVlanDefinition({ vlan_id: ctx.body.vlan_id, vlan_name: ctx.body.vlan_name }, "add", driver.can.max_vlan_name_length));
      check(checkVlanAbsent(await driver.learnVlans(), def.id));
      await driver.createVlan(def.id, def.name);
      return msg.vlanCreated(def.id, def.name);
    },
  );
};

const editVlan: Handler = async (ctx) => {
  const caller = callerOf(ctx);
  vlanParams(ctx);
  const w = await writeAccess(ctx);
  check(canRenameVlan(caller));
  let old = "";
  return change(
    w,
    () => ({ action: "vlan_rename", old_value: old, new_value: `${ctx.body.vlan_id} ${ctx.body.vlan_name ?? ""}`.trim() }),
    async (driver) => {
      capable(driver, "change_vlan_name");
      const def = value(parseVlanDefinition({ vlan_id: ctx.body.vlan_id, vlan_name: ctx.body.vlan_name }, "edit", driver.can.max_vlan_name_length));
      const vlans = await driver.learnVlans();
      check(checkVlanPresent(vlans, def.id));
      old = `${def.id} ${vlanName(vlans, def.id)}`;
      await driver.renameVlan(def.id, def.name);
      return msg.vlanRenamed(def.id, def.name);
    },
  );
};

const deleteVlan: Handler = async (ctx) => {
  const caller = callerOf(ctx);
  const id = value(parseVlanIdToDelete(ctx.body.vlan_id));
  const w = await writeAccess(ctx);
  check(canDeleteVlan(caller));
  let old = "";
  return change(
    w,
    () => ({ action: "vlan_delete", old_value: old, new_value: "" }),
    async (driver) => {
      capable(driver, "edit_vlans");
      const vlans = await driver.learnVlans();
      check(checkVlanPresent(vlans, id));
      old = `${id} ${vlanName(vlans, id)}`;
      await driver.deleteVlan(id);
      return msg.vlanDeleted(id);
    },
  );
};

export const deviceHandlers: Record<string, Handler> = {
  getMenu,
  searchSwitch,
  getSwitchBasic: (ctx) => showSwitch(ctx, "basic"),
  getSwitchDetails: (ctx) => showSwitch(ctx, "details"),
  setInterfaceState,
  setInterfacePoe,
  setInterfaceVlan,
  setInterfaceDescription,
  saveConfig,
  addVlan,
  editVlan,
  deleteVlan,
};
