/**
 * The device service: the caller's menu from the inventory, the (group, device) pair of a
 * URL authorised on its own (without building the menu), a driver opened for a device
 * with its decrypted credentials, writes to one device applied one after another, and
 * what a learn found kept on the device record (driver_info, hostname). The per-device
 * gates and the write leases are the service's, given to it at start-up (app/startup.ts).
 *
 * Trust on first use, as OpenL2M's peers do for switches with self-signed certificates but
 * never silently: the SSH host key (connectors 7 and 2) or TLS certificate (1 and 3) a
 * device presents at its first contact is pinned, with an audit row and a log line saying
 * so; a different one later is refused (424) until an administrator accepts it. A
 * credential profile may name a CA file instead, which HTTPS devices are verified against.
 */
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { Row } from "../db/inventory";
import { bool } from "../db/flags";
import { openDriver as registryOpen, type DriverSpec, type OpenedDriver } from "../drivers/registry";
import type { Driver } from "../drivers/contract";
import { CertificateChanged, DeviceBusy, DeviceError, DriverChoiceStale, HostKeyChanged } from "../model/failures";
import {
  HTTPS_CONNECT_TIMEOUT_MS,
  HTTPS_REQUEST_TIMEOUT_MS,
  SSH_COMMAND_TIMEOUT_MS,
  SSH_CONNECT_TIMEOUT_MS,
  type Connection,
  type HttpsTarget,
  type SnmpTarget,
  type SshTarget,
} from "../model/targets";
import { nowIso } from "../db/time";
import { httpsGateKey, sshGateKey, type DeviceGates } from "../drivers/device-gate";
import { driverInfoWorthWriting } from "../domain/driver-info";
import * as msg from "../domain/messages";
import {
  menuGroups,
  pairInMenu,
  notInMenu,
  type GroupRights,
  type DeviceRights,
  type MenuGroup,
} from "../domain/access";
import { connectorWords, type DeviceRecord, type GroupRecord } from "../domain/records";
import type { Caller } from "./caller";
import { ApiError, deviceFailure, refusal } from "./errors";
import type { DeviceCounters, DeviceObserver } from "./telemetry";
import type { WriteLeases } from "./write-lease";
import type { AuditWriter } from "./audit";
import { readCaFile } from "./ca-file";
import { MenuCache } from "./menu-cache";

export type GroupFull = GroupRecord & GroupRights;
export type DeviceFull = DeviceRecord &
  DeviceRights & {
    status: "active" | "inactive";
    snmp_port: number;
    snmp_profile_id: number | null;
    credentials_profile_id: number | null;
    driver: string;
    detected_driver: string | null;
    detected_sysobjectid: string | null;
    ssh_host_key: string | null;
    ssh_host_key_accepted: string | null;
    tls_certificate: string | null;
    tls_certificate_accepted: string | null;
  };

export type Menu = MenuGroup<GroupFull, DeviceFull>[];
type MenuEntry = { group: GroupFull; devices: DeviceFull[] };

export type DriverOpener = (spec: DriverSpec) => Promise<OpenedDriver>;

/** NETCONF: one RPC (a whole interface table) from sending it to its reply (PyEZ waits 30 s) */
const NETCONF_RPC_TIMEOUT_MS = 30_000;

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
    credentials_profile_id: d.credentials_profile_id,
    driver: d.driver,
    detected_driver: d.detected_driver,
    detected_sysobjectid: d.detected_sysobjectid,
    ssh_host_key: d.ssh_host_key,
    ssh_host_key_accepted: d.ssh_host_key_accepted,
    tls_certificate: d.tls_certificate,
    tls_certificate_accepted: d.tls_certificate_accepted,
  };
}

/** The device slot a call's session holds for the whole call (SNMP takes one per request instead). */
function sessionGateKey(connection: Connection): string | null {
  switch (connection.connector) {
    case 2:
    case 7:
      return sshGateKey(connection.ssh.host, connection.ssh.port);
    case 1:
    case 3:
      return httpsGateKey(connection.https.host, connection.https.port);
    default:
      return null;
  }
}

/** the request counters of a driver that keeps them (SNMP drivers: requests and round trips) */
function countersOf(driver: Driver): DeviceCounters | null {
  const c = (driver as Partial<{ counters: Partial<DeviceCounters> }>).counters;
  return c && typeof c.requests === "number" && typeof c.roundTrips === "number"
    ? { requests: c.requests, roundTrips: c.roundTrips }
    : null;
}

/** 503 device_busy: the device's wait queue is full; nothing was sent */
function busy(device: DeviceFull, e: DeviceBusy): ApiError {
  return new ApiError(503, "device_busy", msg.deviceBusy(device.name, e.retryAfterSeconds), {
    "Retry-After": String(e.retryAfterSeconds),
  });
}

/** What the device service is built from. */
export interface DeviceServiceParts {
  repos: Repos;
  secrets: SecretBox;
  /** the service's per-device gates: every driver it opens goes through them */
  gates: DeviceGates;
  /** the service's write leases: writes to one device, one at a time across instances */
  leases: WriteLeases;
  /** opens a device's driver (default: the registry's) */
  open?: DriverOpener;
  /** told what each device use cost, each failure's code and each queue's depth */
  observer?: DeviceObserver;
  /** writes the row of a host key or certificate pinned at a device's first contact */
  audit?: AuditWriter;
  /** the JSON log: a line for each such pin (stderr without it) */
  log?: { warn(line: string): void };
}

export class DeviceService {
  /** writes running or waiting per device id (the metrics' queue depth) */
  private readonly depth = new Map<number, number>();
  private readonly repos: Repos;
  private readonly secrets: SecretBox;
  private readonly gates: DeviceGates;
  private readonly leases: WriteLeases;
  private readonly open: DriverOpener;
  private readonly observer?: DeviceObserver;
  private readonly audit?: AuditWriter;
  private readonly log?: { warn(line: string): void };
  /** the menu's JSON kept per inventory version (app/menu-cache.ts); the menu's own reads */
  readonly menus: MenuCache<MenuEntry[]> = new MenuCache(
    () => this.menuEntries(),
    (entries, caller, memberOf) => menuGroups(caller, entries, memberOf),
  );
  /**
   * The SNMP profile read with a device by resolve() (one statement for both), for that
   * call's connection: keyed by the call's own device object, so it lives as long as the call.
   */
  private readonly profilesRead = new WeakMap<DeviceFull, Row<"snmp_profiles"> | null>();

  constructor(parts: DeviceServiceParts) {
    this.repos = parts.repos;
    this.secrets = parts.secrets;
    this.gates = parts.gates;
    this.leases = parts.leases;
    this.open = parts.open ?? registryOpen;
    this.observer = parts.observer;
    this.audit = parts.audit;
    this.log = parts.log;
  }

  /** The caller's menu: groups with their rights and active members, sorted by name. */
  async menu(caller: Caller): Promise<Menu> {
    return menuGroups(caller, await this.menuEntries(), caller.user.switchgroups);
  }

  /**
   * GET api/switches/ as JSON text: the inventory's version read first (1 SELECT), then the
   * menu kept for it, or the inventory read again (4 SELECTs) when it changed since.
   */
  async menuJson(caller: Caller, baseUrl: string): Promise<Buffer[]> {
    return this.menus.json(await this.repos.inventory.version(), caller, baseUrl);
  }

  /** every group with its rights and its devices, as the menu is built from them */
  private async menuEntries(): Promise<MenuEntry[]> {
    const inv = this.repos.inventory;
    const [groups, switches, members, vlans] = await Promise.all([
      inv.list("switch_groups"),
      inv.list("switches"),
      inv.relationMap("switches"),
      inv.relationMap("vlans"),
    ]);
    const byId = new Map(switches.map((s) => [s.id, deviceFull(s)]));
    return groups.map((g) => ({
      group: groupFull(g, vlans.get(g.id) ?? []),
      devices: (members.get(g.id) ?? []).map((id) => byId.get(id)!).filter(Boolean),
    }));
  }

  /** The URL's (group, device) pair if the caller's menu holds it, else 403 Access denied! */
  async resolve(caller: Caller, groupId: number, deviceId: number): Promise<{ group: GroupFull; device: DeviceFull }> {
    const p = await this.repos.inventory.pair(groupId, deviceId, caller.user.id, caller.user.switchgroups);
    const visible =
      p.group !== null &&
      p.device !== null &&
      pairInMenu(caller, {
        deviceInGroup: p.switchInGroup,
        deviceActive: p.device.status !== "inactive",
        callerInGroup: p.userInGroup,
      });
    if (!visible) throw refusal(notInMenu());
    const device = deviceFull(p.device!);
    this.profilesRead.set(device, p.snmpProfile);
    return { group: groupFull(p.group!, p.vlans), device };
  }

  private host(device: DeviceFull): string {
    const host = device.primary_ipv4 || device.primary_ipv6 || device.hostname;
    if (!host)
      throw new ApiError(
        400,
        "not_supported",
        `Device '${device.name}' has no address (primary_ipv4, primary_ipv6 or hostname)`,
      );
    return host;
  }

  private secret(v: string | null): string | undefined {
    return v ? this.secrets.decrypt(v) : undefined;
  }

  /** How to reach the device: its connector with the target built from its profile (secrets decrypted). */
  private async connection(device: DeviceFull): Promise<Connection> {
    switch (device.connector_type) {
      case 7:
        return { connector: 7, ssh: await this.sshTarget(device, SSH_COMMAND_TIMEOUT_MS) };
      case 2:
        return { connector: 2, ssh: await this.sshTarget(device, NETCONF_RPC_TIMEOUT_MS) };
      case 1:
      case 3:
        return { connector: device.connector_type, https: await this.httpsTarget(device) };
      default:
        return { connector: 0, snmp: await this.snmpTarget(device) };
    }
  }

  private async snmpTarget(device: DeviceFull): Promise<SnmpTarget> {
    const read = this.profilesRead.get(device);
    const p =
      device.snmp_profile_id === null
        ? null
        : read?.id === device.snmp_profile_id
          ? read
          : await this.repos.inventory.get("snmp_profiles", device.snmp_profile_id);
    if (!p) throw new ApiError(400, "not_supported", `Device '${device.name}' has no SNMP profile configured`);
    return {
      host: this.host(device),
      port: device.snmp_port,
      version: p.version === "3" ? "3" : "2c",
      community: this.secret(p.community_enc),
      username: p.username || undefined,
      auth_protocol: (p.auth_protocol || undefined) as SnmpTarget["auth_protocol"],
      auth_key: this.secret(p.auth_key_enc),
      priv_protocol: (p.priv_protocol || undefined) as SnmpTarget["priv_protocol"],
      priv_key: this.secret(p.priv_key_enc),
      context: p.context || undefined,
      timeout_ms: p.timeout_ms,
      retries: p.retries,
    };
  }

  /** the device's credential profile; a device without one is a 400 naming what its connector needs */
  private async credentialProfile(device: DeviceFull): Promise<Row<"credentials">> {
    const c =
      device.credentials_profile_id === null
        ? null
        : await this.repos.inventory.get("credentials", device.credentials_profile_id);
    if (c) return c;
    if (device.connector_type === 7)
      throw new ApiError(400, "not_supported", `Device '${device.name}' has no SSH credential profile configured`);
    throw new ApiError(
      400,
      "not_supported",
      `Device '${device.name}' has no credential profile configured; ${connectorWords(device.connector_type)} logs in with one`,
    );
  }

  /** SSH command line (7) and NETCONF (2): the profile's login with the pinned host key */
  private async sshTarget(device: DeviceFull, commandTimeoutMs: number): Promise<SshTarget> {
    const c = await this.credentialProfile(device);
    return {
      host: this.host(device),
      port: c.port,
      username: c.username,
      password: this.secret(c.password_enc),
      private_key: this.secret(c.private_key_enc),
      enable_secret: this.secret(c.enable_password_enc),
      host_key_fingerprint: device.ssh_host_key ?? undefined,
      connect_timeout_ms: SSH_CONNECT_TIMEOUT_MS,
      command_timeout_ms: commandTimeoutMs,
    };
  }

  /**
   * HTTPS APIs (1, 3): the profile's user name, password and port, and either the pinned
   * certificate or, when the profile names a CA file, that file's certificates (read now,
   * so a replaced file counts from the next call). A file that cannot be used is a 400
   * naming the profile and the setting; nothing is sent to the device.
   */
  private async httpsTarget(device: DeviceFull): Promise<HttpsTarget> {
    const c = await this.credentialProfile(device);
    const password = this.secret(c.password_enc);
    if (!c.username || password === undefined)
      throw new ApiError(
        400,
        "not_supported",
        `Device '${device.name}': credential profile '${c.name}' has no ${c.username ? "password" : "username"}; ${connectorWords(device.connector_type)} logs in with a username and password`,
      );
    let ca: string | undefined;
    if (c.ca_file) {
      const answer = await readCaFile(c.ca_file);
      if ("problem" in answer)
        throw new ApiError(
          400,
          "not_supported",
          `Device '${device.name}' was not contacted: the CA file (ca_file) of credential profile '${c.name}' ${answer.problem}; an administrator must correct the profile`,
        );
      ca = answer.pem;
    }
    return {
      host: this.host(device),
      port: c.port,
      username: c.username,
      password,
      // with a CA the certificate is verified, not pinned
      certificate_fingerprint: ca ? undefined : (device.tls_certificate ?? undefined),
      ca,
      connect_timeout_ms: HTTPS_CONNECT_TIMEOUT_MS,
      request_timeout_ms: HTTPS_REQUEST_TIMEOUT_MS,
    };
  }

  /**
   * Opens the device's driver, runs `fn`, always closes; device failures become 4xx.
   * With driver "auto", the stored choice is opened without a probe; when the device
   * shows the choice is stale (another sysObjectID) the choice is made again and `fn`
   * runs once more (nothing was written: the check comes with the first read). SSH host
   * keys and TLS certificates are pinned on first use; a different one is refused until an
   * admin accepts it.
   */
  async use<T>(device: DeviceFull, fn: (driver: Driver) => Promise<T>): Promise<T> {
    const connection = await this.connection(device);
    // an SSH, NETCONF or HTTPS session holds one of the device's slots for the call
    // (drivers/device-gate.ts): one session per call; SNMP sessions take a slot per
    // request inside the engine
    let release: (() => void) | null = null;
    const gateKey = sessionGateKey(connection);
    if (gateKey) {
      try {
        release = await this.gates.hold(gateKey);
      } catch (e) {
        throw e instanceof DeviceBusy ? busy(device, e) : e;
      }
    }
    try {
      return await this.opened(device, connection, fn);
    } finally {
      release?.();
    }
  }

  private async opened<T>(device: DeviceFull, connection: Connection, fn: (driver: Driver) => Promise<T>): Promise<T> {
    let detected =
      device.detected_driver && device.detected_sysobjectid
        ? { driver: device.detected_driver, sysObjectId: device.detected_sysobjectid }
        : null;
    for (let attempt = 0; ; attempt++) {
      let opened: OpenedDriver | null = null;
      let presentedKey: string | null = null;
      let presentedCertificate: string | null = null;
      try {
        opened = await this.open({
          driver: device.driver,
          connection,
          name: device.name,
          detected,
          onHostKey: (fp) => (presentedKey = fp),
          onCertificate: (fp) => (presentedCertificate = fp),
          gates: this.gates,
        });
        if (opened.detected) await this.repos.inventory.setDetection(device.id, opened.detected);
        return await fn(opened.driver);
      } catch (e) {
        if (e instanceof DriverChoiceStale && attempt === 0) {
          detected = null; // the next opening probes and stores the new choice
          continue;
        }
        if (e instanceof DeviceError) this.observer?.deviceFailed(e.code);
        if (e instanceof HostKeyChanged) {
          await this.repos.inventory.presentedHostKey(device.id, e.presented);
          throw new ApiError(
            424,
            "device_hostkey_changed",
            msg.hostKeyChanged(device.name, e.presented, device.ssh_host_key_accepted ?? "an earlier date"),
          );
        }
        if (e instanceof CertificateChanged) {
          await this.repos.inventory.presentedCertificate(device.id, e.presented);
          throw new ApiError(
            424,
            "device_certificate_changed",
            msg.certificateChanged(device.name, e.presented, device.tls_certificate_accepted ?? "an earlier date"),
          );
        }
        if (e instanceof DeviceError) throw deviceFailure(e, device);
        if (e instanceof DeviceBusy) throw busy(device, e);
        throw e;
      } finally {
        // trust on first use: the first key or certificate a device presents is the one it
        // must keep presenting
        if (presentedKey && !device.ssh_host_key) await this.pinFirst(device, "ssh", presentedKey);
        if (presentedCertificate && !device.tls_certificate) await this.pinFirst(device, "tls", presentedCertificate);
        await opened?.driver.close().catch(() => undefined);
        if (opened) this.observer?.deviceUsed(opened.driver.info.driver, countersOf(opened.driver));
      }
    }
  }

  /**
   * Pins what a device presented at its first contact, and says so: an audit row and a log
   * line (a pin is never silent). Of two first contacts at once, the one that pins says it.
   */
  private async pinFirst(device: DeviceFull, kind: "ssh" | "tls", fingerprint: string): Promise<void> {
    if (!(await this.repos.inventory.pinFirst(device.id, kind, fingerprint, nowIso()))) return;
    const what = kind === "ssh" ? "SSH host key" : "TLS certificate";
    const line = `${msg.pinnedOnFirstContact(device.name, what, fingerprint)} (switch id ${device.id})`;
    if (this.log) this.log.warn(line);
    else console.warn(line);
    await this.audit?.pinned(device, kind, fingerprint);
  }

  /** `switchdesk`'s POST .../redetect/: forget what "auto" chose and probe the device now. */
  async redetect(device: DeviceFull): Promise<void> {
    if (device.driver !== "auto")
      throw new ApiError(
        400,
        "not_supported",
        `Switch '${device.name}' names its driver ('${device.driver}'); only "auto" is chosen by probing`,
      );
    await this.repos.inventory.setDetection(device.id, null);
    await this.use({ ...device, detected_driver: null, detected_sysobjectid: null }, async () => undefined);
  }

  /** POST .../accept_hostkey/: pin the key the device presented, or forget the pin. */
  async acceptHostKey(deviceId: number, presented: string | null): Promise<void> {
    await this.repos.inventory.pinHostKey(deviceId, presented, presented ? nowIso() : null);
  }

  /** POST .../accept_certificate/: pin the certificate the device presented, or forget the pin. */
  async acceptCertificate(deviceId: number, presented: string | null): Promise<void> {
    await this.repos.inventory.pinCertificate(deviceId, presented, presented ? nowIso() : null);
  }

  /** A device of the inventory by id (active or not), as the service handles it. */
  async byId(id: number): Promise<DeviceFull | null> {
    const row = await this.repos.inventory.get("switches", id);
    return row ? deviceFull(row) : null;
  }

  /**
   * Writes to one device run one after another: in arrival order within this instance,
   * and across instances through the device's lease row in the database (app/write-lease.ts).
   */
  async exclusive<T>(deviceId: number, fn: (lease: string) => Promise<T>): Promise<T> {
    this.countQueued(deviceId, +1);
    try {
      return await this.leases.run(deviceId, fn);
    } finally {
      this.countQueued(deviceId, -1);
    }
  }

  private countQueued(deviceId: number, change: 1 | -1): void {
    const n = (this.depth.get(deviceId) ?? 0) + change;
    if (n > 0) this.depth.set(deviceId, n);
    else this.depth.delete(deviceId);
    this.observer?.queueDepth(deviceId, n);
  }

  /** Writes running or waiting, over all devices (shutdown waits for none). */
  get pendingWrites(): number {
    let n = 0;
    for (const d of this.depth.values()) n += d;
    return n;
  }

  /**
   * Resolves when no write is running or waiting, at the latest after `ms`; true when none
   * is left. Checked every 50 ms (bounded by the deadline).
   */
  async settle(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (this.pendingWrites > 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, end - Date.now()))));
    return this.pendingWrites === 0;
  }

  /**
   * Keeps what the driver learned about the device (menu's driver_info, hostname): written
   * when it changed, the uptime alone only when the stored one is an hour behind or the
   * device restarted (domain/driver-info.ts), so a read does not write at every learn.
   */
  async remember(device: DeviceFull, info: Record<string, string | number>, hostname: string): Promise<void> {
    const newHostname = !!hostname && hostname !== device.hostname;
    if (!newHostname && !driverInfoWorthWriting(device.driver_info, info)) return;
    await this.repos.inventory.setDriverInfo(device.id, JSON.stringify(info), hostname || undefined);
  }
}
