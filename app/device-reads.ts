/**
 * Device reads: the menu, the search, and a device's basic or details view (learned anew
 * on every call: nothing is cached between calls). Rights are worked out by the domain's
 * views from the caller, the group of the URL and the device.
 */
import type { LearnScope } from "../model/device";
import { menuView, searchView, switchView } from "../domain/views";
import * as msg from "../domain/messages";
import type { Caller } from "./caller";
import type { Services } from "./services";
import { ApiError } from "./errors";

export async function menu(s: Services, caller: Caller, baseUrl: string) {
  const groups = await s.devices.menu(caller);
  return menuView(caller, groups, baseUrl);
}

export async function search(s: Services, caller: Caller, text: string, baseUrl: string) {
  const found = searchView(await s.devices.menu(caller), text, baseUrl);
  if (!found) throw new ApiError(404, "not_found", msg.deviceNotFound(text));
  return found;
}

export async function showSwitch(s: Services, caller: Caller, groupId: number, switchId: number, scope: LearnScope, baseUrl: string) {
  const { group, device } = await s.devices.resolve(caller, groupId, switchId);
  const { snapshot, info, can } = await s.devices.use(device, async (d) => ({ snapshot: await d.learn(scope), info: d.info, can: d.can }));
  await s.devices.remember(device, snapshot.driver_info, snapshot.hostname);
  const policy = { always_allow_poe_toggle: s.config.alwaysAllowPoeToggle };
  return switchView({ snapshot, device, group, caller, policy, capabilities: can, vendor: info.vendor, driver: info.driver, baseUrl });
}
