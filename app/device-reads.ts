/**
 * Device reads: the menu, the search, and a device's basic or details view (learned anew
 * on every call: nothing is cached between calls; reads waiting for the same device share
 * the next learn). Rights are worked out by the domain's
 * views from the caller, the group of the URL and the device.
 */
import type { LearnScope } from "../model/device";
import { searchView, switchView } from "../domain/views";
import * as msg from "../domain/messages";
import type { Caller } from "./caller";
import type { Services } from "./services";
import { ApiError } from "./errors";
import { policyOf } from "./config";
import type { DeviceFull, DeviceService } from "./devices";
import { SharedLearns } from "./shared-learns";

/** one per device service (one per server), so devices of two servers never share a key */
const sharing = new WeakMap<DeviceService, SharedLearns>();

/** The shared learns of a server's device service (bench and tests read its counters). */
export function sharedLearnsOf(devices: DeviceService): SharedLearns {
  let shared = sharing.get(devices);
  if (!shared) {
    shared = new SharedLearns();
    sharing.set(devices, shared);
  }
  return shared;
}

/**
 * A device learned now in `scope`, with its driver's info and capabilities; reads of one
 * device and scope waiting together are answered by one learn (shared-learns.ts), the
 * switch views' and the find's (app/find.ts) alike.
 */
export async function learnDevice(s: Services, device: DeviceFull, scope: LearnScope) {
  const learned = async () => {
    const found = await s.devices.use(device, async (d) => ({
      snapshot: await d.learn(scope),
      info: d.info,
      can: d.can,
    }));
    await s.devices.remember(device, found.snapshot.driver_info, found.snapshot.hostname);
    return found;
  };
  return sharedLearnsOf(s.devices).run(`${device.id} ${scope}`, learned);
}

/** GET api/switches/ as JSON text (the menu kept per inventory version, app/menu-cache.ts) */
export function menu(s: Services, caller: Caller, baseUrl: string): Promise<Buffer[]> {
  return s.devices.menuJson(caller, baseUrl);
}

export async function search(s: Services, caller: Caller, text: string, baseUrl: string) {
  const found = searchView(await s.devices.menu(caller), text, baseUrl);
  if (!found) throw new ApiError(404, "not_found", msg.deviceNotFound(text));
  return found;
}

export async function showSwitch(
  s: Services,
  caller: Caller,
  groupId: number,
  switchId: number,
  scope: LearnScope,
  baseUrl: string,
) {
  const { group, device } = await s.devices.resolve(caller, groupId, switchId);
  const { snapshot, info, can } = await learnDevice(s, device, scope);
  const policy = policyOf(s.config);
  return switchView({
    snapshot,
    device,
    group,
    caller,
    policy,
    capabilities: can,
    vendor: info.vendor,
    driver: info.driver,
    baseUrl,
  });
}
