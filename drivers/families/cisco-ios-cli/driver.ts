/**
 * Cisco IOS over its command line (SSH). Reads with show commands, writes in
 * configuration mode, and reads every write back with a show command of the one
 * interface or VLAN it touched; a difference is DeviceMismatch, a "%" answer to a
 * configuration line DeviceRefused. Interface ids are IOS interface names in the long
 * form (GigabitEthernet1/0/1); short forms and abbreviations are accepted.
 *
 * Like the SNMP drivers an instance lives for one API call: it logs in on first use
 * and keeps that one session until close().
 */
import { type Capabilities } from "../../../model/capabilities";
import {
  type DeviceSnapshot,
  type InterfaceView,
  type LearnScope,
  type TagChange,
  type VlanInfo,
} from "../../../model/device";
import { DeviceMismatch, DeviceRefused, NotSupported } from "../../../model/failures";
import { type Driver } from "../../contract";
import { CliSession } from "../../ssh/cli-session";
import { checkVlanId } from "../../ssh/safe-values";
import { describeTarget, type SshTarget } from "../../ssh/target";
import { unknownVlans } from "../../tag-change";
import {
  configLines,
  IOS_MAX_DESCRIPTION,
  IOS_MAX_VLAN_NAME,
  iosDescription,
  iosInterface,
  iosVlanName,
  saveCommand,
  show,
} from "./commands";
import { iosDialect } from "./dialect";
import { nameKey } from "./interface-names";
import { parseInterfacesDescription } from "./parse-interfaces-description";
import { parseInterfacesStatus } from "./parse-interfaces-status";
import { parseIpArp } from "./parse-ip-arp";
import { parseIpInterfaceBrief } from "./parse-ip-interface-brief";
import { parseLldpNeighborsDetail } from "./parse-lldp-neighbors";
import { parseMacTable } from "./parse-mac-table";
import { type PowerInline, parsePowerInline } from "./parse-power-inline";
import { parseRunningInterfaces } from "./parse-running-interface";
import { parseShowVersion } from "./parse-show-version";
import { allowedVlanSet, parseSwitchport, type SwitchportRow } from "./parse-switchport";
import { parseVlanBrief } from "./parse-vlan-brief";
import { markIosPortGuards, RUNNING_CONFIG } from "./port-guards";
import { devicePoe, interfaceInfos, isTrunk, type IosReadings, vlanInfos } from "./snapshot";
import { learnedContext } from "../../port-context";

export interface CiscoIosCliOptions {
  /** the device's inventory name, used in error messages */
  name?: string;
  /** an open session to use (and close) instead of logging in */
  session?: CliSession;
  /**
   * Called once after the login with the fingerprint of the host key the device
   * presented; with no pinned key in the target this is the key to store (trust on
   * first use).
   */
  onHostKey?: (fingerprint: string) => void;
}

export const ciscoIosCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  change_poe: true,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  save_config: true,
  change_tags: true,
  client_data: true,
  // IOS takes printable ASCII only here (see commands.ts): characters and bytes are one
  max_description_length: IOS_MAX_DESCRIPTION,
  max_description_bytes: IOS_MAX_DESCRIPTION,
  max_vlan_name_length: IOS_MAX_VLAN_NAME,
  max_vlan_name_bytes: IOS_MAX_VLAN_NAME,
};

/** What learnInterface() found beside the interface row, for the setters. */
interface IosPortContext {
  name: string;
  switchport: SwitchportRow | null;
}

function portContext(view: InterfaceView): IosPortContext {
  return learnedContext<IosPortContext>(view, "name", "this IOS driver");
}

// a save writes flash; IOS may take well over a normal command's time
const SAVE_TIMEOUT_MS = 60_000;

export class CiscoIosCliDriver implements Driver {
  readonly info: { vendor: string; driver: string } = { vendor: "Cisco", driver: "cisco_ios_cli" };
  readonly can: Capabilities = { ...ciscoIosCapabilities };
  private session: Promise<CliSession> | null;

  constructor(
    private readonly target: SshTarget,
    private readonly options: CiscoIosCliOptions = {},
  ) {
    this.session = options.session ? Promise.resolve(options.session) : null;
  }

  /** Logs in (once) and returns the session; learn and the setters call it themselves. */
  connect(): Promise<CliSession> {
    if (!this.session) {
      this.session = CliSession.open(this.target, iosDialect, { name: this.options.name }).then((s) => {
        this.options.onHostKey?.(s.hostKey);
        return s;
      });
    }
    return this.session;
  }

  /** fingerprint of the host key presented at login (logs in when not yet done) */
  async hostKey(): Promise<string> {
    return (await this.connect()).hostKey;
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const s = await this.connect();
    const version = parseShowVersion(await s.run(show.version));
    const vlans = vlanInfos(parseVlanBrief(await s.run(show.vlans)));
    const power = await this.power(s, show.power);
    const readings: IosReadings = {
      description: parseInterfacesDescription(await s.run(show.description)),
      status: parseInterfacesStatus(await s.run(show.status)),
      switchport: parseSwitchport(await s.run(show.switchport)),
      power: power?.ports ?? [],
      ipBrief: parseIpInterfaceBrief(await s.run(show.ipBrief)),
    };
    if (scope === "details") {
      readings.macs = parseMacTable(await s.run(show.macTable));
      readings.arp = parseIpArp(await s.run(show.arp));
      readings.lldp = parseLldpNeighborsDetail(await s.run(show.lldp));
    }
    const interfaces = interfaceInfos(readings, vlans);
    // LAG members, 802.1X and routed ports (port-guards.ts); a session that may not read the configuration learns none
    const configs = await optional(async () => parseRunningInterfaces(await s.run(RUNNING_CONFIG)));
    markIosPortGuards(interfaces, configs ?? [], readings.switchport);
    return {
      hostname: version.hostname || s.hostname,
      driver_info: {
        model: version.model,
        serial: version.serial,
        software: version.software,
        version: version.version,
        uptime: version.uptime,
      },
      vlans,
      interfaces,
      poe: devicePoe(power),
      scope,
    };
  }

  /** Interface names, "_" standing for "/" in URLs; short forms become the long name. */
  parseInterfaceId(urlId: string): string | null {
    try {
      return iosInterface(urlId.replace(/_/g, "/"));
    } catch {
      return null;
    }
  }

  /**
   * Every id from one set of show commands of the whole switch, the basic learn's less
   * `show version`: `show vlan brief`, `show power inline`, `show interfaces description`,
   * `... status`, `... switchport`, `show ip interface brief` and `show running-config`
   * (for the port guards): 7 commands whatever the number of ids, where learnInterface()
   * sends 7 per id. A view is what learnInterface() gives for the id (null for one the
   * switch does not have).
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, InterfaceView | null>(unique.map((id) => [id, null]));
    const names = new Map<string, string>();
    for (const id of unique) {
      try {
        names.set(id, iosInterface(id));
      } catch {
        // not an interface name at all: no such interface
      }
    }
    if (names.size === 0) return out;
    const s = await this.connect();
    const vlans = vlanInfos(parseVlanBrief(await s.run(show.vlans)));
    const power = await this.power(s, show.power);
    const readings: IosReadings = {
      description: parseInterfacesDescription(await s.run(show.description)),
      status: parseInterfacesStatus(await s.run(show.status)),
      switchport: parseSwitchport(await s.run(show.switchport)),
      power: power?.ports ?? [],
      ipBrief: parseIpInterfaceBrief(await s.run(show.ipBrief)),
    };
    const interfaces = interfaceInfos(readings, vlans);
    const configs = await optional(async () => parseRunningInterfaces(await s.run(RUNNING_CONFIG)));
    markIosPortGuards(interfaces, configs ?? [], readings.switchport);
    const rows = new Map(interfaces.map((i) => [nameKey(i.name), i]));
    const switchports = new Map(readings.switchport.map((r) => [nameKey(r.interface), r]));
    for (const [id, name] of names) {
      const iface = rows.get(nameKey(name));
      if (!iface) continue;
      const context: IosPortContext = { name, switchport: switchports.get(nameKey(name)) ?? null };
      out.set(id, { interface: iface, vlans, driverContext: context });
    }
    return out;
  }

  /**
   * The VLAN setters keep the view's switchport row as they read it back, and a write
   * changes nothing of another port's view: a later write through the same or another
   * view builds on it.
   */
  readonly viewsFollowWrites = true;

  async learnInterface(ifId: string): Promise<InterfaceView | null> {
    let name: string;
    try {
      name = iosInterface(ifId);
    } catch {
      return null; // not an interface name at all: no such interface
    }
    const s = await this.connect();
    const description = await optional(async () =>
      parseInterfacesDescription(await s.run(show.interfaceDescription(name))),
    );
    const row = description?.find((r) => nameKey(r.interface) === nameKey(name));
    if (!row) return null;
    const vlans = vlanInfos(parseVlanBrief(await s.run(show.vlans)));
    const switchport = await this.switchportOf(s, name);
    const readings: IosReadings = {
      description: [row],
      // an SVI or loopback has no switchport or status rows: IOS answers those with an error
      status: (await optional(async () => parseInterfacesStatus(await s.run(show.interfaceStatus(name))))) ?? [],
      switchport: switchport ? [switchport] : [],
      power: (await this.power(s, show.interfacePower(name)))?.ports ?? [],
      ipBrief: (await optional(async () => parseIpInterfaceBrief(await s.run(show.interfaceIpBrief(name))))) ?? [],
    };
    const context: IosPortContext = { name, switchport };
    const iface = interfaceInfos(readings, vlans)[0];
    const config = await optional(async () => parseRunningInterfaces(await s.run(show.interfaceConfig(name))));
    markIosPortGuards([iface], config ?? [], readings.switchport);
    return { interface: iface, vlans, driverContext: context };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const s = await this.connect();
    return vlanInfos(parseVlanBrief(await s.run(show.vlans)));
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const { name } = portContext(view);
    const s = await this.connect();
    await s.configure(configLines.adminState(name, up));
    const row = (
      await optional(async () => parseInterfacesDescription(await s.run(show.interfaceDescription(name))))
    )?.find((r) => nameKey(r.interface) === nameKey(name));
    const now = row ? (row.status === "admin down" ? "down" : "up") : "(interface not listed)";
    if (now !== (up ? "up" : "down")) throw this.mismatch(`admin state of ${name}`, up ? "up" : "down", now);
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const { name } = portContext(view);
    const description = iosDescription(text);
    const s = await this.connect();
    await s.configure(configLines.description(name, description));
    const config = parseRunningInterfaces(await s.run(show.interfaceConfig(name))).find(
      (c) => nameKey(c.interface) === nameKey(name),
    );
    const now = config ? config.description : "(interface not in the configuration)";
    if (now !== description)
      throw this.mismatch(`description of ${name}`, JSON.stringify(description), JSON.stringify(now));
  }

  async setPoe(view: InterfaceView, on: boolean): Promise<void> {
    const { name } = portContext(view);
    const s = await this.connect();
    if (!view.interface.poe) throw new NotSupported(`${s.where}: interface ${name} has no PoE port`);
    await s.configure(configLines.poe(name, on));
    const after = await this.powerRow(s, name);
    const now = after ? (after.admin === "off" ? "never" : after.admin) : "(no PoE row)";
    const enabled = after !== null && after.admin !== "off";
    if (enabled !== on) throw this.mismatch(`PoE of ${name}`, on ? "auto" : "never", now);
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const context = portContext(view);
    const { name, switchport: before } = context;
    checkVlanId(vlan);
    const s = await this.connect();
    if (!before || before.switchport !== "Enabled")
      throw new NotSupported(`${s.where}: interface ${name} is not a switchport`);
    // a trunk's untagged VLAN is its native VLAN; its access VLAN would not be used
    const trunk = isTrunk(before);
    await s.configure(trunk ? configLines.nativeVlan(name, vlan) : configLines.accessVlan(name, vlan));
    const after = await this.switchportOf(s, name);
    context.switchport = after;
    const now = after ? (trunk ? after.nativeVlan : after.accessVlan) : "(no switchport)";
    if (now !== String(vlan)) throw this.mismatch(`${trunk ? "native" : "access"} VLAN of ${name}`, String(vlan), now);
  }

  /**
   * A trunk (`switchport trunk native vlan`, `... allowed vlan`, `switchport mode trunk`)
   * or an access port (`switchport access vlan`, `switchport mode access`), in the order
   * commands.ts gives (the port is never cut off), read back with `show interfaces <if>
   * switchport`: the mode, the native or access VLAN and the allowed list over the
   * switch's VLANs must be what was asked.
   */
  async setTags(view: InterfaceView, change: TagChange): Promise<void> {
    const context = portContext(view);
    const { name, switchport: before } = context;
    const s = await this.connect();
    if (!before || before.switchport !== "Enabled")
      throw new NotSupported(`${s.where}: interface ${name} is not a switchport`);
    const known = view.vlans.map((v) => v.id);
    const unknown = unknownVlans(known, change);
    if (unknown.length > 0) throw new NotSupported(`${s.where} has no vlan ${unknown.join(", ")}; nothing was changed`);
    if (change.tagged.length === 0 && !change.allowAll) {
      const vlan = change.untagged;
      await s.configure(configLines.accessPort(name, vlan, before.adminMode !== "static access"));
      const after = await this.switchportOf(s, name);
      context.switchport = after;
      const now = after ? `${after.adminMode}, access vlan ${after.accessVlan}` : "(no switchport)";
      if (!after || after.adminMode !== "static access" || after.accessVlan !== String(vlan))
        throw this.mismatch(`${name}`, `static access, access vlan ${vlan}`, now);
      return;
    }
    const current = allowedVlanSet(before.trunkingVlans);
    if (current === null)
      throw new NotSupported(
        `${s.where}: the allowed VLAN list of ${name} reads "${before.trunkingVlans.join(",")}", which is not a VLAN list; nothing was changed`,
      );
    const allowed = change.allowAll ? "all" : new Set([...change.tagged, change.untagged]);
    const trunk = before.adminMode === "trunk";
    await s.configure(
      configLines.trunk(name, {
        trunk,
        // hardware that also knows ISL refuses mode trunk while the encapsulation is negotiated
        encapsulation: !trunk && /^(negotiate|isl)$/i.test(before.adminEncapsulation),
        oldNative: /^\d+$/.test(before.nativeVlan) ? Number(before.nativeVlan) : null,
        native: change.untagged,
        current,
        allowed,
      }),
    );
    const after = await this.switchportOf(s, name);
    context.switchport = after;
    const carried = (set: Set<number> | "all" | null) =>
      set === null ? null : known.filter((v) => set === "all" || set.has(v)).join(",");
    const want = `trunk, native vlan ${change.untagged}, allowed vlans ${carried(allowed)}`;
    const nowAllowed = after ? carried(allowedVlanSet(after.trunkingVlans)) : null;
    const now = after
      ? `${after.adminMode}, native vlan ${after.nativeVlan}, allowed vlans ${nowAllowed ?? after.trunkingVlans.join(",")}`
      : "(no switchport)";
    if (now !== want) throw this.mismatch(`${name}`, want, now);
  }

  async createVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    if (name !== "") iosVlanName(name);
    const s = await this.connect();
    await s.configure(configLines.createVlan(id, name));
    const vlan = (await this.learnVlans()).find((v) => v.id === id);
    if (!vlan) throw this.mismatch(`VLAN ${id}`, "created", "absent");
    if (name !== "" && vlan.name !== name)
      throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), JSON.stringify(vlan.name));
  }

  async renameVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    iosVlanName(name);
    const s = await this.connect();
    // "vlan N" creates a VLAN that is not there: a rename must not do that
    if (!(await this.learnVlans()).some((v) => v.id === id))
      throw new DeviceRefused(`${s.where} has no VLAN ${id} to rename`);
    await s.configure(configLines.renameVlan(id, name));
    const vlan = (await this.learnVlans()).find((v) => v.id === id);
    if (vlan?.name !== name)
      throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), vlan ? JSON.stringify(vlan.name) : "absent");
  }

  async deleteVlan(id: number): Promise<void> {
    checkVlanId(id);
    const s = await this.connect();
    await s.configure(configLines.deleteVlan(id));
    if ((await this.learnVlans()).some((v) => v.id === id))
      throw this.mismatch(`VLAN ${id}`, "deleted", "still present");
  }

  async saveConfig(): Promise<void> {
    const s = await this.connect();
    const output = await s.run(saveCommand, {
      write: true,
      timeoutMs: Math.max(SAVE_TIMEOUT_MS, this.target.command_timeout_ms),
    });
    // IOS ends a good save with "[OK]"; anything else did not say it saved
    if (!/\[OK\]/.test(output)) {
      const last =
        output
          .split("\n")
          .filter((l) => l.trim())
          .pop() ?? "(no output)";
      throw new DeviceRefused(`${s.where} did not confirm "${saveCommand}": ${last.trim()}`);
    }
  }

  async close(): Promise<void> {
    const pending = this.session;
    this.session = null;
    if (!pending) return;
    try {
      (await pending).close();
    } catch {
      // a login that failed has nothing to close
    }
  }

  private mismatch(what: string, wrote: string, now: string): DeviceMismatch {
    const where = describeTarget(this.target, this.options.name);
    return new DeviceMismatch(
      `${where} accepted the change but reads back otherwise: wrote ${what} = ${wrote}, device reports ${now}`,
    );
  }

  private async switchportOf(s: CliSession, name: string): Promise<SwitchportRow | null> {
    const rows = await optional(async () => parseSwitchport(await s.run(show.interfaceSwitchport(name))));
    return rows?.find((r) => nameKey(r.interface) === nameKey(name)) ?? null;
  }

  private async powerRow(s: CliSession, name: string) {
    return (
      (await this.power(s, show.interfacePower(name)))?.ports.find((r) => nameKey(r.interface) === nameKey(name)) ??
      null
    );
  }

  /** `show power inline` output; null on switches without PoE (IOS does not know the command there). */
  private async power(s: CliSession, command: string): Promise<PowerInline | null> {
    return optional(async () => parsePowerInline(await s.run(command)));
  }
}

/** The result, or null when the device answered the show command with a syntax error. */
async function optional<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    if (e instanceof DeviceRefused) return null;
    throw e;
  }
}
