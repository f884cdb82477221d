/**
 * The device layer as handlers see it: the caller's menu from the inventory, the
 * (group, device) pair of a URL checked against it, a driver opened for a device with its
 * decrypted credentials, writes to one device applied one after another, and the audit
 * row of every change.
 */
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { Row } from "../db/inventory";
import type { AuditEntry } from "../db/audit";
import { bool } from "../db/time";
import { openDriver as registryOpen, type DriverSpec } from "../drivers/registry";
import { DeviceError, type Driver, type SnmpTarget } from "../drivers/types";
import { findInMenu, menuGroups, notInMenu, type Caller, type GroupRights, type DeviceRights, type MenuGroup } from "../domain/access";
import type { DeviceRecord, GroupRecord } from "../domain/records";
import * as msg from "../domain/messages";
import { ApiError } from "./errors";

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

/** A device failure as the contract's 4xx, naming the device and what failed. */
export function deviceFailure(device: { name: string }, e: DeviceError): ApiError {
  switch (e.code) {
    case "device_unreachable":
      return new ApiError(424, e.code, msg.deviceUnreachable(device.name, e.message));
    case "device_refused":
      return new ApiError(424, e.code, msg.deviceRefused(device.name, e.message));
    case "device_mismatch":
      return new ApiError(424, e.code, `Device '${device.name}' did not keep the change: ${e.message}`);
    case "not_supported":
      return new ApiError(400, e.code, e.message);
    case "device_hostkey_changed":
      // the SSH drivers' HostKeyChanged; the wording with the acceptance date comes with the SSH inventory
      return new ApiError(424, e.code, e.message);
  }
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
    const hit = findInMenu(await this.menu(caller), groupId, deviceId);
    if (!hit) {
      const d = notInMenu();
      throw new ApiError(d.status, d.code, d.reason);
    }
    return hit;
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
      if (e instanceof DeviceError) throw deviceFailure(device, e);
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

  async audit(entry: AuditEntry): Promise<void> {
    await this.repos.audit.write(entry);
  }
}
