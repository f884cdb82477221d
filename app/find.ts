/**
 * "Where is it plugged in?" (GET api/switches/find/, docs/api-decisions.md section 18): a
 * MAC or IP address looked for, live, on the devices of the caller's menu (narrowed by a
 * group or a list of devices). Each device's details view (MAC table, ARP, LLDP) is
 * learned through the per-device bound and the shared learns (app/device-reads.ts), at
 * most FIND_CONCURRENCY devices at once, and the answer comes by FIND_DEADLINE_MS at the
 * latest: a device that failed, or was not done by then, is listed under `not_answered`
 * with its code, and never fails the search. Matches come edge ports first
 * (domain/find.ts).
 */
import type { components } from "../generated/api";
import type { MacEntry } from "../model/device";
import { notInMenu } from "../domain/access";
import { compareMatches, macsOfIp, parseDeviceIds, parseFindAddress, portRole, type FindQuery } from "../domain/find";
import { isHidden, NO_PORT_PROTECTION } from "../domain/port-protection";
import { switchUrl } from "../domain/urls";
import type { Caller } from "./caller";
import type { Services } from "./services";
import type { DeviceFull, GroupFull } from "./devices";
import { ApiError, badRequest, refusal, toApiError } from "./errors";
import { learnDevice } from "./device-reads";

type Schemas = components["schemas"];
export type FindJson = Schemas["FindResult"];
type MatchJson = Schemas["FindMatch"];
type NotAnsweredJson = Schemas["FindNotAnswered"];

/** what a search was asked: the address, and optionally a group id and a device id list (as text) */
export interface FindRequest {
  address: string;
  group?: number;
  switches?: string;
}

interface Target {
  group: GroupFull;
  device: DeviceFull;
}

type Learned = Awaited<ReturnType<typeof learnDevice>>;
type Outcome = { learned: Learned } | { error: { code: string; reason: string } };

/** the code that says a device was not done when the deadline came */
export const DEADLINE_CODE = "deadline_passed";

/**
 * The devices to search, each once (under the first group of the caller's menu that
 * holds it, or the group asked for): the menu, narrowed. A group or a device outside the
 * menu is 403, as on every device path.
 */
async function targetsOf(s: Services, caller: Caller, req: FindRequest): Promise<Target[]> {
  const max = s.config.find.maxDevices;
  const ids = req.switches === undefined ? null : parseDeviceIds(req.switches, max);
  if (ids && "reason" in ids) throw badRequest(ids.reason);
  const menu = await s.devices.menu(caller);
  const groups = req.group === undefined ? menu : menu.filter((g) => g.group.id === req.group);
  if (req.group !== undefined && groups.length === 0) throw refusal(notInMenu());
  const byDevice = new Map<number, Target>();
  for (const { group, members } of groups)
    for (const device of members) if (!byDevice.has(device.id)) byDevice.set(device.id, { group, device });
  let targets = [...byDevice.values()];
  if (ids) {
    if (ids.ids.some((id) => !byDevice.has(id))) throw refusal(notInMenu());
    targets = ids.ids.map((id) => byDevice.get(id)!);
  }
  if (targets.length > max)
    throw badRequest(
      `This search would read ${targets.length} devices; at most ${max} are searched in one call (FIND_MAX_DEVICES): narrow it with 'group' or 'switches'`,
    );
  return targets;
}

/** a device's failure as its code and reason (the same a single read of it would answer) */
function failureOf(e: unknown): { code: string; reason: string } {
  const api = e instanceof ApiError ? e : toApiError(e);
  return api
    ? { code: api.code, reason: api.reason }
    : { code: "server_error", reason: "The device could not be read" };
}

/**
 * Learns every target's details view, `concurrency` at a time, until all are done or the
 * deadline passes; a device not done by then has no outcome. Nothing new starts after
 * the deadline; a learn under way then ends in the background (its own timeouts bound it).
 */
async function learnAll(
  s: Services,
  targets: readonly Target[],
  concurrency: number,
  deadlineMs: number,
): Promise<Map<number, Outcome>> {
  const outcomes = new Map<number, Outcome>();
  let next = 0;
  let expired = false;
  const worker = async () => {
    while (!expired && next < targets.length) {
      const { device } = targets[next++];
      try {
        const learned = await learnDevice(s, device, "details");
        if (!expired) outcomes.set(device.id, { learned });
      } catch (e) {
        if (!expired) outcomes.set(device.id, { error: failureOf(e) });
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve();
    }, deadlineMs);
  });
  const workers = Array.from({ length: Math.min(concurrency, targets.length) }, worker);
  try {
    await Promise.race([Promise.all(workers), deadline]);
  } finally {
    clearTimeout(timer);
    expired = true;
  }
  return outcomes;
}

/** the MAC entries of a device's interfaces the caller is shown (HIDE_NONE_ETHERNET_INTERFACES) */
function shownInterfaces(s: Services, learned: Learned) {
  const protection = s.config.portProtection ?? NO_PORT_PROTECTION;
  return learned.snapshot.interfaces.filter((iface) => !isHidden(iface, protection));
}

export async function findAddress(s: Services, caller: Caller, req: FindRequest, baseUrl: string): Promise<FindJson> {
  const parsed = parseFindAddress(req.address);
  if ("reason" in parsed)
    throw badRequest(parsed.reason, req.address.trim() === "" ? "missing_parameter" : "invalid_parameter");
  const query: FindQuery = parsed.query;
  const started = Date.now();
  const targets = await targetsOf(s, caller, req);
  const { concurrency, deadlineMs, uplinkMacs } = s.config.find;
  const outcomes = await learnAll(s, targets, concurrency, deadlineMs);

  // an IP address stands for the MACs the devices' ARP entries map it to
  const everyEntry = function* (): Generator<MacEntry> {
    for (const o of outcomes.values())
      if ("learned" in o) for (const iface of o.learned.snapshot.interfaces) yield* iface.macs;
  };
  const macs = query.kind === "mac" ? new Set([query.mac]) : macsOfIp(query, everyEntry());

  const matches: MatchJson[] = [];
  const notAnswered: NotAnsweredJson[] = [];
  for (const { group, device } of targets) {
    const who = { group: group.name, group_id: group.id, switch: device.name, switch_id: device.id };
    const o = outcomes.get(device.id);
    if (!o) {
      notAnswered.push({
        ...who,
        code: DEADLINE_CODE,
        reason: `Device '${device.name}' did not answer within ${deadlineMs} ms`,
      });
      continue;
    }
    if ("error" in o) {
      notAnswered.push({ ...who, ...o.error });
      continue;
    }
    for (const iface of shownInterfaces(s, o.learned)) {
      const found = iface.macs.filter((m) => macs.has(m.address.toLowerCase()));
      if (found.length === 0) continue;
      const { role, because } = portRole(iface, uplinkMacs);
      for (const m of found)
        matches.push({
          ...who,
          url: switchUrl(baseUrl, group.id, device.id),
          interface: iface.id,
          interface_name: iface.name,
          description: iface.description,
          vlan: m.vlan,
          mac: m.address.toLowerCase(),
          ipv4: m.ipv4,
          ipv6: m.ipv6,
          port: role,
          uplink_reason: because,
          macs_on_port: iface.macs.length,
          neighbors: iface.neighbors.map((n) => n.system_name || n.chassis_id),
        });
    }
  }
  matches.sort((a, b) =>
    compareMatches(
      { role: a.port, group: a.group, switch: a.switch, interface: a.interface_name, vlan: a.vlan },
      { role: b.port, group: b.group, switch: b.switch, interface: b.interface_name, vlan: b.vlan },
    ),
  );
  return {
    address: query.kind === "mac" ? query.mac : query.ip,
    kind: query.kind,
    macs: [...macs].sort(),
    matches,
    not_answered: notAnswered,
    searched: targets.length,
    answered: targets.length - notAnswered.length,
    elapsed_ms: Date.now() - started,
  };
}
