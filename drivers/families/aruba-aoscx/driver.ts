/**
 * HPE Aruba AOS-CX over its REST API (connector 1). An instance serves one API call: its
 * first use chooses the API version and logs in (rest-session.ts), every read and write of
 * the call goes with that session's cookie over one HttpsClient, and close() logs out,
 * bounded in time, whatever happened before (a refusal, a timeout): AOS-CX keeps a session
 * that was not logged out for 20 minutes and allows only a few per user.
 *
 * Reads take a fixed handful of requests whatever the port count, with attribute selection
 * and depth: the basic view is system, system/subsystems, system/vlans, system/interfaces
 * and the PoE of every port (interfaces/*\/poe_interface); the details add the LLDP
 * neighbours of every port (interfaces/*\/lldp_neighbors), the MAC table of every VLAN
 * (vlans/*\/macs) and the ARP table (vrfs/default/neighbors).
 * learnInterfaces() takes the basic view's interfaces, VLANs and PoE GETs, whatever the
 * number of ids.
 *
 * Writes are PATCHes of the keys they change (API v10.09 on), or before v10.09 a read of
 * the writable set and a PUT of it changed; each is read back, a difference is
 * DeviceMismatch. The save copies the running configuration to the startup configuration
 * (PUT fullconfigs/startup-config?from=...running-config).
 */
import type { Capabilities } from "../../../model/capabilities";
import type { DeviceSnapshot, InterfaceView, LearnScope, TagChange, VlanInfo } from "../../../model/device";
import {
  DeviceMismatch,
  DeviceOutcomeUnknown,
  DeviceRefused,
  DeviceUnreachable,
  NotSupported,
} from "../../../model/failures";
import type { HttpsTarget } from "../../../model/targets";
import type { Driver } from "../../contract";
import { describeHttpsTarget, HttpsClient } from "../../https/client";
import { RequestCounters } from "../../request-counters";
import { checkText, checkVlanId } from "../../ssh/safe-values";
import { unknownVlans } from "../../tag-change";
import { LOGOUT_TIMEOUT_MS, RestSession } from "./rest-session";
import {
  addressesByMac,
  adminUpOf,
  devicePoe,
  INTERFACE_ATTRIBUTES,
  interfaceInfo,
  interfaceInfos,
  isObject,
  type Json,
  macsByInterface,
  neighboursByInterface,
  objectOf,
  poeByInterface,
  poeOf,
  portVlansOf,
  productInfo,
  VLAN_ATTRIBUTES,
  vlanIdsOf,
  vlanInfos,
} from "./snapshot";
import { learnedContext } from "../../port-context";

/** AOS-CX: descriptions up to 64 characters, VLAN names up to 32 */
export const AOSCX_MAX_DESCRIPTION = 64;
export const AOSCX_MAX_VLAN_NAME = 32;

export const arubaAoscxCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  change_poe: true,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  save_config: true,
  change_tags: true,
  client_data: true,
  max_description_length: AOSCX_MAX_DESCRIPTION,
  max_description_bytes: AOSCX_MAX_DESCRIPTION,
  max_vlan_name_length: AOSCX_MAX_VLAN_NAME,
  max_vlan_name_bytes: AOSCX_MAX_VLAN_NAME,
};

export interface ArubaAoscxOptions {
  /** the device's inventory name, for messages */
  name?: string;
  /** called with the certificate fingerprint the switch presented, when none was pinned */
  onCertificate?: (fingerprint: string) => void;
}

/** What learnInterface() found beside the row, for the setters. */
interface AoscxPortContext {
  name: string;
  /** the applied VLAN mode (null: a routed interface) */
  mode: string | null;
  userConfig: Json;
  poeConfig: Json | null;
}

function portContext(view: InterfaceView): AoscxPortContext {
  return learnedContext<AoscxPortContext>(view, "name", "the AOS-CX REST driver");
}

// AOS-CX names: 1/1/1, lag1, vlan10, loopback0, mgmt
const NAME = /^[A-Za-z0-9][A-Za-z0-9/.:-]{0,63}$/;

/** the interface name, or null when the text cannot be one */
export function aoscxInterfaceName(text: string): string | null {
  if (!NAME.test(text) || text.includes("..") || text.includes("//") || text.endsWith("/")) return null;
  return text;
}

const ifPath = (name: string) => `system/interfaces/${encodeURIComponent(name)}`;

// a save writes flash: it may take well over a normal request's time
const SAVE_TIMEOUT_MS = 60_000;

export class ArubaAoscxDriver implements Driver {
  readonly info = { vendor: "HPE Aruba", driver: "aruba_aoscx" };
  readonly can: Capabilities = { ...arubaAoscxCapabilities };
  private client: HttpsClient | null = null;
  /** requests and round trips of this call (read by the service for the log and the metrics) */
  readonly counters = new RequestCounters();
  private session: Promise<RestSession> | null = null;
  private closed = false;

  constructor(
    private readonly target: HttpsTarget,
    private readonly options: ArubaAoscxOptions = {},
  ) {}

  private get where(): string {
    return describeHttpsTarget(this.target, this.options.name);
  }

  /** The call's session: opened on first use (version chosen, logged in). */
  connect(): Promise<RestSession> {
    if (this.closed) return Promise.reject(new Error("the AOS-CX driver is closed"));
    if (!this.session) {
      this.client = new HttpsClient(this.target, {
        name: this.options.name,
        onCertificate: this.options.onCertificate,
        counters: this.counters,
      });
      this.session = RestSession.open(this.client, this.target.username, this.target.password);
    }
    return this.session;
  }

  /**
   * Logs out (when a session was opened) and closes the connections. Bounded: a switch that
   * does not answer the logout within LOGOUT_TIMEOUT_MS (plus a new connection's set-up)
   * does not hold the call.
   */
  async close(): Promise<void> {
    this.closed = true;
    const pending = this.session;
    const client = this.client;
    this.session = null;
    this.client = null;
    if (!pending || !client) return;
    const bound = this.target.connect_timeout_ms + LOGOUT_TIMEOUT_MS + 500;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        (async () => {
          const s = await pending;
          await s.logout(Math.min(LOGOUT_TIMEOUT_MS, Math.max(this.target.request_timeout_ms, 500)));
        })(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, bound))),
      ]);
    } catch {
      // a login that failed has nothing to log out; a logout that failed cannot be helped here
    } finally {
      clearTimeout(timer);
      client.close();
    }
  }

  parseInterfaceId(urlId: string): string | null {
    return aoscxInterfaceName(urlId.replace(/_/g, "/"));
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const s = await this.connect();
    // every read of the view at once, after the login: one round trip however many there
    // are (the client opens at most 4 connections; the session's cookie goes with each)
    const details = scope === "details";
    const [systemAnswer, subsystems, vlanAnswer, ifAnswer, poeAnswer, lldpAnswer, macsAnswer, arpAnswer] =
      await Promise.all([
        s.get("system", { attributes: "hostname,platform_name,software_version,boot_time" }),
        s.get("system/subsystems", { depth: "2", attributes: "product_info,poe_power" }),
        s.get("system/vlans", { depth: "2", attributes: VLAN_ATTRIBUTES }),
        s.get("system/interfaces", { depth: "2", attributes: INTERFACE_ATTRIBUTES }),
        s.get("system/interfaces/%2A/poe_interface", { depth: "2" }),
        details ? s.get("system/interfaces/%2A/lldp_neighbors", { depth: "2" }) : null,
        details ? s.get("system/vlans/%2A/macs", { depth: "2" }) : null,
        details
          ? s.get("system/vrfs/default/neighbors", { depth: "2", attributes: "ip_address,mac,address_family" })
          : null,
      ]);
    const system = objectOf(systemAnswer);
    const vlans = vlanInfos(vlanAnswer);
    const interfaces = interfaceInfos(
      ifAnswer,
      vlans.map((v) => v.id),
      poeByInterface(poeAnswer),
    );
    if (details) {
      const lldp = neighboursByInterface(lldpAnswer);
      const arp = addressesByMac(arpAnswer);
      const macs = macsByInterface(macsAnswer, arp);
      for (const i of interfaces) {
        i.macs = macs.get(i.name) ?? [];
        i.neighbors = lldp.get(i.name) ?? [];
      }
    }
    const product = productInfo(subsystems);
    const bootTime = Number(system.boot_time) || 0;
    const uptime = bootTime > 0 ? Math.max(0, Math.floor(Date.now() / 1000) - bootTime) : 0;
    return {
      hostname: typeof system.hostname === "string" ? system.hostname : "",
      driver_info: {
        model: product.model,
        serial: product.serial,
        platform: typeof system.platform_name === "string" ? system.platform_name : "",
        software: typeof system.software_version === "string" ? system.software_version : "",
        uptime: formatUptime(uptime),
        uptime_seconds: uptime,
        rest_api: s.version,
      },
      vlans,
      interfaces,
      poe: devicePoe(subsystems),
      scope,
    };
  }

  /**
   * Every id from the basic learn's interface reads, sent together in the call's one
   * session: system/interfaces (depth 2), system/vlans and the PoE of every port
   * (interfaces/*\/poe_interface): 3 GETs whatever the number of ids, where
   * learnInterface() takes 2 or 3 per id. A view is what learnInterface() gives for the id
   * (null for one the switch does not have).
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, InterfaceView | null>(unique.map((id) => [id, null]));
    if (!unique.some((id) => aoscxInterfaceName(id) !== null)) return out;
    const s = await this.connect();
    const [ifAnswer, vlanAnswer, poeAnswer] = await Promise.all([
      s.get("system/interfaces", { depth: "2", attributes: INTERFACE_ATTRIBUTES }),
      s.get("system/vlans", { depth: "2", attributes: VLAN_ATTRIBUTES }),
      s.get("system/interfaces/%2A/poe_interface", { depth: "2" }),
    ]);
    const vlans = vlanInfos(vlanAnswer);
    const poeByName = objectOf(poeAnswer);
    const byName = new Map<string, Json>();
    for (const [key, raw] of Object.entries(objectOf(ifAnswer))) {
      const attrs = objectOf(raw);
      byName.set(typeof attrs.name === "string" && attrs.name !== "" ? attrs.name : key, attrs);
    }
    for (const id of unique) {
      const name = aoscxInterfaceName(id);
      const attrs = name === null ? undefined : byName.get(name);
      if (name === null || !attrs) continue;
      // as learnInterface(): the PoE of a port whose row refers to one
      const poeAnswer = typeof attrs.poe_interface === "string" ? (poeByName[name] ?? null) : null;
      out.set(id, this.viewOf(attrs, name, vlans, poeAnswer));
    }
    return out;
  }

  /**
   * Each setter keeps what the view holds of its port as it reads back (user_config, the
   * applied VLAN mode, the PoE config), and a write changes nothing of another port's
   * view: a later write through the same or another view builds on it.
   */
  readonly viewsFollowWrites = true;

  async learnInterface(id: string): Promise<InterfaceView | null> {
    const name = aoscxInterfaceName(id);
    if (!name) return null;
    const s = await this.connect();
    const attrs = await s.get(ifPath(name), { attributes: INTERFACE_ATTRIBUTES });
    if (!isObject(attrs)) return null;
    const vlans = await this.vlans(s);
    const poeAnswer = typeof attrs.poe_interface === "string" ? await s.get(`${ifPath(name)}/poe_interface`) : null;
    return this.viewOf(attrs, name, vlans, poeAnswer);
  }

  private viewOf(attrs: Json, name: string, vlans: VlanInfo[], poeAnswer: unknown): InterfaceView {
    const poe = poeOf(poeAnswer);
    const iface = interfaceInfo(
      attrs,
      name,
      vlans.map((v) => v.id),
      poe,
    );
    const context: AoscxPortContext = {
      name: iface.name,
      mode: typeof attrs.applied_vlan_mode === "string" ? attrs.applied_vlan_mode : null,
      userConfig: objectOf(attrs.user_config),
      poeConfig: isObject(poeAnswer) ? objectOf(poeAnswer.config) : null,
    };
    return { interface: iface, vlans, driverContext: context };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    return this.vlans(await this.connect());
  }

  private async vlans(s: RestSession): Promise<VlanInfo[]> {
    return vlanInfos(await s.get("system/vlans", { depth: "2", attributes: VLAN_ATTRIBUTES }));
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const context = portContext(view);
    const { name, userConfig } = context;
    const s = await this.connect();
    const state = up ? "up" : "down";
    await this.change(s, ifPath(name), { admin: state, user_config: { ...userConfig, admin: state } });
    const now = await this.readBack(s, ifPath(name), "admin,user_config");
    context.userConfig = objectOf(now.user_config);
    if (adminUpOf(now) !== up) throw this.mismatch(`admin state of ${name}`, state, adminUpOf(now) ? "up" : "down");
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const { name } = portContext(view);
    const description = checkText(text, {
      what: "interface description",
      maxLength: AOSCX_MAX_DESCRIPTION,
      bytes: true,
    });
    const s = await this.connect();
    await this.change(s, ifPath(name), { description: description === "" ? null : description });
    const now = await this.readBack(s, ifPath(name), "description");
    const seen = typeof now.description === "string" ? now.description : "";
    if (seen !== description)
      throw this.mismatch(`description of ${name}`, JSON.stringify(description), JSON.stringify(seen));
  }

  async setPoe(view: InterfaceView, on: boolean): Promise<void> {
    const context = portContext(view);
    const { name, poeConfig } = context;
    if (!view.interface.poe || !poeConfig) throw new NotSupported(`${this.where}: interface ${name} has no PoE port`);
    const s = await this.connect();
    const path = `${ifPath(name)}/poe_interface`;
    await this.change(s, path, { config: { ...poeConfig, admin_disable: !on } });
    const answer = await this.readBack(s, path);
    context.poeConfig = objectOf(answer.config);
    const now = poeOf(answer);
    const enabled = now?.admin_status === "Enabled";
    if (!now || enabled !== on)
      throw this.mismatch(
        `PoE of ${name}`,
        on ? "enabled" : "disabled",
        now ? (enabled ? "enabled" : "disabled") : "absent",
      );
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const context = portContext(view);
    const { name, mode } = context;
    checkVlanId(vlan);
    if (mode === null) throw new NotSupported(`${this.where}: interface ${name} is routed; it has no VLANs`);
    const s = await this.connect();
    // a trunk's untagged VLAN is its native VLAN
    const trunk = mode !== "access";
    await this.change(
      s,
      ifPath(name),
      trunk ? { vlan_tag: this.vlanRefs(s, [vlan]) } : { vlan_mode: "access", vlan_tag: this.vlanRefs(s, [vlan]) },
    );
    const now = await this.readBack(s, ifPath(name), "applied_vlan_mode,applied_vlan_tag");
    context.mode = typeof now.applied_vlan_mode === "string" ? now.applied_vlan_mode : null;
    const seen = vlanIdsOf(now.applied_vlan_tag)[0] ?? 0;
    if (seen !== vlan)
      throw this.mismatch(`${trunk ? "native" : "access"} VLAN of ${name}`, String(vlan), String(seen));
  }

  async setTags(view: InterfaceView, change: TagChange): Promise<void> {
    const context = portContext(view);
    const { name, mode } = context;
    if (mode === null) throw new NotSupported(`${this.where}: interface ${name} is routed; it has no VLANs`);
    const known = view.vlans.map((v) => v.id);
    const unknown = unknownVlans(known, change);
    if (unknown.length > 0)
      throw new NotSupported(`${this.where} has no vlan ${unknown.join(", ")}; nothing was changed`);
    const s = await this.connect();
    const access = change.tagged.length === 0 && !change.allowAll;
    const tagged = access
      ? []
      : change.allowAll
        ? known.filter((v) => v !== change.untagged)
        : [...new Set(change.tagged)].filter((v) => v !== change.untagged).sort((a, b) => a - b);
    await this.change(
      s,
      ifPath(name),
      access
        ? { vlan_mode: "access", vlan_tag: this.vlanRefs(s, [change.untagged]) }
        : {
            vlan_mode: "native-untagged",
            vlan_tag: this.vlanRefs(s, [change.untagged]),
            // {} is "every VLAN", also those created later
            vlan_trunks: change.allowAll ? {} : this.vlanRefs(s, [change.untagged, ...tagged]),
          },
    );
    const now = await this.readBack(s, ifPath(name), "applied_vlan_mode,applied_vlan_tag,applied_vlan_trunks");
    context.mode = typeof now.applied_vlan_mode === "string" ? now.applied_vlan_mode : null;
    const seen = portVlansOf(now, known);
    const want = `${access ? "access" : "trunk"}, untagged ${change.untagged}, tagged ${tagged.join(",") || "none"}`;
    const got = seen
      ? `${now.applied_vlan_mode === "access" ? "access" : "trunk"}, untagged ${seen.untagged}, tagged ${seen.tagged.join(",") || "none"}`
      : "(no VLAN settings)";
    if (got !== want) throw this.mismatch(name, want, got);
  }

  async createVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    if (name !== "") checkText(name, { what: "VLAN name", maxLength: AOSCX_MAX_VLAN_NAME, bytes: true });
    const s = await this.connect();
    await s.send("POST", "system/vlans", { id, ...(name !== "" ? { name } : {}), type: "static", admin: "up" });
    const now = await this.readBackOrNull(s, `system/vlans/${id}`, "id,name");
    if (!now) throw this.mismatch(`VLAN ${id}`, "created", "absent");
    if (name !== "" && now.name !== name)
      throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), JSON.stringify(now.name));
  }

  async renameVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    checkText(name, { what: "VLAN name", maxLength: AOSCX_MAX_VLAN_NAME, bytes: true, required: true });
    const s = await this.connect();
    await this.change(s, `system/vlans/${id}`, { name });
    const now = await this.readBack(s, `system/vlans/${id}`, "name");
    if (now.name !== name) throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), JSON.stringify(now.name));
  }

  async deleteVlan(id: number): Promise<void> {
    checkVlanId(id);
    const s = await this.connect();
    await s.send("DELETE", `system/vlans/${id}`);
    const now = await this.readBackOrNull(s, `system/vlans/${id}`, "id");
    if (now) throw this.mismatch(`VLAN ${id}`, "deleted", "still present");
  }

  async saveConfig(): Promise<void> {
    const s = await this.connect();
    const from = encodeURIComponent(`${s.prefix}/fullconfigs/running-config`);
    await s.send("PUT", `fullconfigs/startup-config?from=${from}`, undefined, {
      timeoutMs: Math.max(SAVE_TIMEOUT_MS, this.target.request_timeout_ms),
    });
  }

  private vlanRefs(s: RestSession, ids: readonly number[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const id of ids) out[String(id)] = `${s.prefix}/system/vlans/${id}`;
    return out;
  }

  /**
   * Changes the given attributes of one resource: a PATCH, or before v10.09 the writable
   * set read, changed and PUT back (a PUT replaces every writable attribute).
   */
  private async change(s: RestSession, path: string, attrs: Json): Promise<void> {
    if (s.canPatch) {
      await s.send("PATCH", path, attrs);
      return;
    }
    const writable = await s.get(path, { selector: "writable" });
    if (!isObject(writable)) throw new DeviceRefused(`${this.where} has no ${path}`);
    await s.send("PUT", path, { ...writable, ...attrs });
  }

  /** a GET after a write; no answer means the write's outcome is unknown */
  private async readBack(s: RestSession, path: string, attributes?: string): Promise<Json> {
    const answer = await this.readBackOrNull(s, path, attributes);
    if (!answer) throw new DeviceMismatch(`${this.where} took the change but ${path} is gone`);
    return answer;
  }

  /** the read-back, or null when the resource does not exist */
  private async readBackOrNull(s: RestSession, path: string, attributes?: string): Promise<Json | null> {
    let answer: unknown;
    try {
      answer = await s.get(path, attributes ? { attributes } : {});
    } catch (e) {
      if (e instanceof DeviceUnreachable)
        throw new DeviceOutcomeUnknown(
          `${this.where} took the change but its read-back got no answer (${e.message}); the change may or may not be in effect`,
        );
      throw e;
    }
    return isObject(answer) ? answer : null;
  }

  private mismatch(what: string, wrote: string, now: string): DeviceMismatch {
    return new DeviceMismatch(
      `${this.where} accepted the change but reads back otherwise: wrote ${what} = ${wrote}, device reports ${now}`,
    );
  }
}

function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d} days, ${two(h)}:${two(m)}:${two(s)}`;
}
