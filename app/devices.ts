/**
 * The device service: the caller's menu from the inventory, the (group, device) pair of a
 * URL authorised on its own (without building the menu), a driver opened for a device
 * with its decrypted credentials, writes to one device applied one after another, and
 * what a learn found kept on the device record (driver_info, hostname).
 */
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { Row } from "../db/inventory";
import { bool } from "../db/time";
import { openDriver as registryOpen, type DriverSpec } from "../drivers/registry";
import type { Driver } from "../drivers/contract";
import { DeviceError } from "../model/failures";
import type { SnmpTarget } from "../model/targets";
import { menuGroups, pairInMenu, notInMenu, type GroupRights, type DeviceRights, type MenuGroup } from "../domain/access";
import type { DeviceRecord, GroupRecord } from "../domain/records";
import type { Caller } from "./caller";
import { ApiError, deviceFailure, refusal } from "./errors";

export type GroupFull = GroupRecord & GroupRights;
export type DeviceFull = DeviceRecord &
  DeviceRights & {
    status: "active" | "inactive";
    snmp_port: number;
    snmp_profile_id: number | null;
    driver: string;
  };

export type Menu = MenuGroup<GroupFull, DeviceFull>[];

export type DriverOpener = (spec: DriverSpec) => Promise<Driver>;

function groupFull(g: Row<"switch_groups">, vlans: number[]): GroupFull {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    display_name: g.display_name,
    comments: g.comments,
    read_only: bool(g.read_only),
    allow_poe_toggle: bool(g.allow_poe_toggle),
    edit_if_descr: bool(g.edit_if_descr),
    allow_all_vlans: bool(g.allow_all_vlans),
    vlans,
  };
}

function deviceFull(d: Row<"switches">): DeviceFull {
  return {
    id: d.id,
    name: d.name,
    hostname: d.hostname,
    description: d.description,
    comments: d.comments,
    nms_id: d.nms_id,
    primary_ipv4: d.primary_ipv4,
    primary_ipv6: d.primary_ipv6,
    read_only: bool(d.read_only),
    allow_poe_toggle: bool(d.allow_poe_toggle),
    edit_if_descr: bool(d.edit_if_descr),
    default_view: d.default_view,
    connector_type: d.connector_type,
    driver_info: d.driver_info,
    status: d.status === "inactive" ? "inactive" : "active",
    snmp_port: d.snmp_port,
    snmp_profile_id: d.snmp_profile_id,
    driver: d.driver,
  };
}

export class DeviceService {
  /** tail of the queue of writes per device id */
  private readonly queues = new Map<number, Promise<unknown>>();

  constructor(
    private readonly repos: Repos,
    private readonly secrets: SecretBox,
    private readonly open: DriverOpener = registryOpen,
  ) {}

  /** The caller's menu: groups with their rights and active members, sorted by name. */
  async menu(caller: Caller): Promise<Menu> {
    const inv = this.repos.inventory;
    const [groups, switches, members, vlans, mine] = await Promise.all([
      inv.list("switch_groups"),
      inv.list("switches"),
      inv.relationMap("switches"),
      inv.relationMap("vlans"),
      inv.groupsOfUser(caller.user.id),
    ]);
    const byId = new Map(switches.map((s) => [s.id, deviceFull(s)]));
    const entries = groups.map((g) => ({
      group: groupFull(g, vlans.get(g.id) ?? []),
      devices: (members.get(g.id) ?? []).map((id) => byId.get(id)!).filter(Boolean),
    }));
    return menuGroups(caller, entries, mine);
  }

  /** The URL's (group, device) pair if the caller's menu holds it, else 403 Access denied! */
  async resolve(caller: Caller, groupId: number, deviceId: number): Promise<{ group: GroupFull; device: DeviceFull }> {
    const p = await this.repos.inventory.pair(groupId, deviceId, caller.user.id);
    const visible =
      p.group !== null &&
      p.device !== null &&
      pairInMenu(caller, { deviceInGroup: p.switchInGroup, deviceActive: p.device.status !== "inactive", callerInGroup: p.userInGroup });
    if (!visible) throw refusal(notInMenu());
    return { group: groupFull(p.group!, p.vlans), device: deviceFull(p.device!) };
  }

  private async target(device: DeviceFull): Promise<SnmpTarget> {
    if (device.snmp_profile_id === null) throw new ApiError(400, "not_supported", `Device '${device.name}' has no SNMP profile configured`);
    const p = await this.repos.inventory.get("snmp_profiles", device.snmp_profile_id);
    if (!p) throw new ApiError(400, "not_supported", `Device '${device.name}' has no SNMP profile configured`);
    const host = device.primary_ipv4 || device.hostname;
    if (!host) throw new ApiError(400, "not_supported", `Device '${device.name}' has no address (primary_ipv4 or hostname)`);
    const secret = (v: string | null) => (v ? this.secrets.decrypt(v) : undefined);
    return {
      host,
      port: device.snmp_port,
      version: p.version === "3" ? "3" : "2c",
      community: secret(p.community_enc),
      username: p.username || undefined,
      auth_protocol: (p.auth_protocol || undefined) as SnmpTarget["auth_protocol"],
      auth_key: secret(p.auth_key_enc),
      priv_protocol: (p.priv_protocol || undefined) as SnmpTarget["priv_protocol"],
      priv_key: secret(p.priv_key_enc),
      context: p.context || undefined,
      timeout_ms: p.timeout_ms,
      retries: p.retries,
    };
  }

  /** Opens the device's driver, runs `fn`, always closes; device failures become 4xx. */
  async use<T>(device: DeviceFull, fn: (driver: Driver) => Promise<T>): Promise<T> {
    const target = await this.target(device);
    let driver: Driver | null = null;
    try {
      driver = await this.open({ driver: device.driver, snmp: target, name: device.name });
      return await fn(driver);
    } catch (e) {
      if (e instanceof DeviceError) throw deviceFailure(e, device);
      throw e;
    } finally {
      await driver?.close().catch(() => undefined);
    }
  }

  /** Writes to one device run one after another, in arrival order. */
  async exclusive<T>(deviceId: number, fn: () => Promise<T>): Promise<T> {
    const before = this.queues.get(deviceId) ?? Promise.resolve();
    const run = before.then(fn, fn);
    const tail = run.catch(() => undefined);
    this.queues.set(deviceId, tail);
    try {
      return await run;
    } finally {
      if (this.queues.get(deviceId) === tail) this.queues.delete(deviceId);
    }
  }

  /** Keeps what the driver learned about the device (menu's driver_info, hostname). */
  async remember(device: DeviceFull, info: Record<string, string | number>, hostname: string): Promise<void> {
    const text = JSON.stringify(info);
    if (text === device.driver_info && (!hostname || hostname === device.hostname)) return;
    await this.repos.inventory.setDriverInfo(device.id, text, hostname || undefined);
  }
}
