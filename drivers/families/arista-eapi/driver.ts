/**
 * Arista EOS over eAPI (connector 3): JSON-RPC `runCmds` over HTTPS, JSON output.
 *
 *   reads    one request of several show commands: learn() sends `show hostname`, `show
 *            version`, `show interfaces`, `show interfaces switchport`, `show vlan` (and
 *            for the details view `show mac address-table`, `show ip arp`, `show lldp
 *            neighbors detail`); learnInterface() the one interface's `show interfaces
 *            X`, `show interfaces X switchport` and `show vlan`; learnInterfaces() the
 *            same three of every interface in one request, whatever the number of ids.
 *   changes  one request: `enable`, `configure terminal`, the configuration commands,
 *            `end`, then the show commands that read the change back, in the same
 *            request (EOS runs a request's commands in order and stops at the first that
 *            fails). A rename first reads the VLAN list (a second request), since `vlan N`
 *            would create a VLAN that is not there. A refused command is DeviceRefused in
 *            EOS's words; a change that reads back otherwise DeviceMismatch.
 *   save     `copy running-config startup-config`.
 *
 * Like every driver an instance lives for one API call: its HTTPS client keeps its
 * connection alive between the call's requests and close() closes it.
 */
import type { Capabilities } from "../../../model/capabilities";
import type {
  DeviceSnapshot,
  InterfaceInfo,
  InterfaceView,
  LearnScope,
  TagChange,
  VlanInfo,
} from "../../../model/device";
import { DeviceMismatch, DeviceRefused, NotSupported } from "../../../model/failures";
import type { HttpsTarget } from "../../../model/targets";
import type { Driver } from "../../contract";
import { checkVlanId } from "../../ssh/safe-values";
import { unknownVlans } from "../../tag-change";
import {
  configure,
  EOS_MAX_DESCRIPTION,
  EOS_MAX_VLAN_NAME,
  eosDescription,
  eosInterface,
  eosLines,
  eosVlanName,
  SAVE_COMMAND,
} from "./commands";
import type { RequestCounters } from "../../request-counters";
import { EapiClient, EapiCommandError } from "./eapi";
import {
  isTrunk,
  parseArp,
  parseHostname,
  parseInterfaces,
  parseLldpDetail,
  parseMacTable,
  parseSwitchports,
  parseVersion,
  parseVlans,
  type SwitchportRow,
  uptimeText,
} from "./parse";
import { learnedContext } from "../../port-context";

export interface AristaEapiOptions {
  /** the device's inventory name, for messages */
  name?: string;
  /** called with the certificate fingerprint the device presented when none is pinned */
  onCertificate?: (fingerprint: string) => void;
}

export const aristaEapiCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  // no source documents EOS's PoE commands or their JSON (reference/api-drivers.md 2.6),
  // and the lab's Arista (a 7050TX) has no PoE: the driver offers none
  change_poe: false,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  save_config: true,
  change_tags: true,
  client_data: true,
  // printable ASCII only (commands.ts): characters and bytes are one
  max_description_length: EOS_MAX_DESCRIPTION,
  max_description_bytes: EOS_MAX_DESCRIPTION,
  max_vlan_name_length: EOS_MAX_VLAN_NAME,
  max_vlan_name_bytes: EOS_MAX_VLAN_NAME,
};

/** What learnInterface() found beside the interface row, for the setters. */
interface EapiPortContext {
  name: string;
  switchport: SwitchportRow | null;
}

function portContext(view: InterfaceView): EapiPortContext {
  return learnedContext<EapiPortContext>(view, "name", "the eAPI driver");
}

const READ = ["show hostname", "show version", "show interfaces", "show interfaces switchport", "show vlan"];
const DETAILS = ["show mac address-table", "show ip arp", "show lldp neighbors detail"];
const ALL_INTERFACE_READS = ["show interfaces", "show interfaces switchport", "show vlan"];
const interfaceReads = (name: string) => [`show interfaces ${name}`, `show interfaces ${name} switchport`, "show vlan"];

export class AristaEapiDriver implements Driver {
  readonly info: { vendor: string; driver: string } = { vendor: "Arista", driver: "arista_eapi" };
  readonly can: Capabilities = { ...aristaEapiCapabilities };
  readonly eapi: EapiClient;

  /** requests and round trips of this call (read by the service for the log and the metrics) */
  get counters(): RequestCounters {
    return this.eapi.counters;
  }

  constructor(target: HttpsTarget, options: AristaEapiOptions = {}) {
    this.eapi = new EapiClient(target, { name: options.name, onCertificate: options.onCertificate });
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const cmds = scope === "details" ? [...READ, ...DETAILS] : READ;
    const [hostname, version, interfaces, switchports, vlanAnswer, macs, arp, lldp] = await this.eapi.run(cmds);
    const vlans = parseVlans(vlanAnswer);
    const rows = parseInterfaces(interfaces, parseSwitchports(switchports), vlans);
    if (scope === "details") {
      const byPort = parseMacTable(macs, parseArp(arp));
      const neighbours = parseLldpDetail(lldp);
      for (const row of rows) {
        row.macs = byPort.get(row.name) ?? [];
        row.neighbors = neighbours.get(row.name) ?? [];
      }
    }
    const facts = parseVersion(version);
    return {
      hostname: parseHostname(hostname),
      driver_info: {
        model: facts.model,
        serial: facts.serial,
        version: facts.version,
        software: `EOS ${facts.version}`,
        uptime: uptimeText(facts.uptime_seconds),
        uptime_seconds: facts.uptime_seconds,
      },
      vlans: vlans.vlans,
      interfaces: rows,
      poe: null,
      scope,
    };
  }

  /** EOS interface names, "_" standing for "/" in URLs (Ethernet3_1 is Ethernet3/1). */
  parseInterfaceId(urlId: string): string | null {
    try {
      return eosInterface(urlId.replace(/_/g, "/"));
    } catch {
      return null;
    }
  }

  /**
   * Every id in one request: `show interfaces`, `show interfaces switchport` and `show vlan`
   * of the whole device (the basic learn's interface reads), each id's row picked from
   * them; a view is what learnInterface() gives for it (null for an id EOS does not have).
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const unique = [...new Set(ids)];
    const names = new Map(unique.map((id) => [id, this.parseInterfaceId(id)]));
    const out = new Map<string, InterfaceView | null>(unique.map((id) => [id, null]));
    if (![...names.values()].some((n) => n !== null)) return out;
    const [interfaces, switchports, vlanAnswer] = await this.eapi.run(ALL_INTERFACE_READS);
    const vlans = parseVlans(vlanAnswer);
    const ports = parseSwitchports(switchports);
    const rows = new Map(parseInterfaces(interfaces, ports, vlans).map((r) => [r.name, r]));
    for (const [id, name] of names) {
      const row = name === null ? undefined : rows.get(name);
      if (name === null || !row) continue;
      const context: EapiPortContext = { name, switchport: ports.get(name) ?? null };
      out.set(id, { interface: row, vlans: vlans.vlans, driverContext: context });
    }
    return out;
  }

  /**
   * A setter's read-back (in its own request) updates the view's switchport: a later write
   * through the same view builds on it, and a port's write changes nothing another port's
   * view holds (its row and switchport are its own, and the VLAN list is the device's).
   */
  readonly viewsFollowWrites = true;

  async learnInterface(id: string): Promise<InterfaceView | null> {
    const name = this.parseInterfaceId(id);
    if (name === null) return null;
    let answers: unknown[];
    try {
      answers = await this.eapi.run(interfaceReads(name));
    } catch (e) {
      // EOS refuses a show of an interface it does not have
      if (e instanceof EapiCommandError && e.index === 0 && e.errors.some((x) => /does not exist/i.test(x)))
        return null;
      throw e;
    }
    return this.viewOf(name, answers);
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const [answer] = await this.eapi.run(["show vlan"]);
    return parseVlans(answer).vlans;
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const { name } = portContext(view);
    const after = await this.change(eosLines.adminState(name, up), view);
    if (after.admin_up !== up)
      throw this.mismatch(`admin state of ${name}`, up ? "up" : "down", after.admin_up ? "up" : "down");
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const { name } = portContext(view);
    const description = eosDescription(text);
    const after = await this.change(eosLines.description(name, description), view);
    if (after.description !== description)
      throw this.mismatch(`description of ${name}`, JSON.stringify(description), JSON.stringify(after.description));
  }

  async setPoe(view: InterfaceView): Promise<void> {
    throw new NotSupported(
      `${this.eapi.where}: the eAPI driver cannot switch PoE (interface ${portContext(view).name})`,
    );
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const { name, switchport } = portContext(view);
    checkVlanId(vlan);
    if (!switchport) throw new NotSupported(`${this.eapi.where}: interface ${name} is not a switchport`);
    // a trunk's untagged VLAN is its native VLAN; its access VLAN would not be used
    const trunk = isTrunk(switchport);
    const lines = trunk ? eosLines.nativeVlan(name, vlan) : eosLines.accessVlan(name, vlan);
    const after = await this.change(lines, view);
    if (after.untagged_vlan !== vlan)
      throw this.mismatch(`${trunk ? "native" : "access"} VLAN of ${name}`, String(vlan), String(after.untagged_vlan));
  }

  /**
   * An access port (`switchport access vlan`, `switchport mode access`) or a trunk
   * (`switchport trunk native vlan`, `... allowed vlan`, `switchport mode trunk`) in one
   * request with its read-back: the untagged and tagged VLANs must be what was asked.
   */
  async setTags(view: InterfaceView, change: TagChange): Promise<void> {
    const { name, switchport } = portContext(view);
    if (!switchport) throw new NotSupported(`${this.eapi.where}: interface ${name} is not a switchport`);
    const known = view.vlans.map((v) => v.id);
    const unknown = unknownVlans(known, change);
    if (unknown.length > 0)
      throw new NotSupported(`${this.eapi.where} has no vlan ${unknown.join(", ")}; nothing was changed`);
    const access = change.tagged.length === 0 && !change.allowAll;
    const lines = access
      ? eosLines.accessPort(name, change.untagged)
      : eosLines.trunk(name, change.untagged, change.allowAll ? "all" : change.tagged);
    const after = await this.changeInterface(lines, view);
    const tagged = change.allowAll
      ? known.filter((v) => v !== change.untagged)
      : [...change.tagged].sort((a, b) => a - b);
    const want = `${access ? "access" : "trunk"}, untagged ${change.untagged}, tagged ${access ? "" : tagged.join(",")}`;
    const mode = after.switchport && isTrunk(after.switchport) ? "trunk" : "access";
    const now = `${mode}, untagged ${after.row.untagged_vlan}, tagged ${after.row.tagged_vlans.join(",")}`;
    if (now !== want) throw this.mismatch(name, want, now);
  }

  async createVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    if (name !== "") eosVlanName(name);
    const vlans = await this.changeVlans(eosLines.createVlan(id, name));
    const vlan = vlans.find((v) => v.id === id);
    if (!vlan) throw this.mismatch(`VLAN ${id}`, "created", "absent");
    if (name !== "" && vlan.name !== name)
      throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), JSON.stringify(vlan.name));
  }

  async renameVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    eosVlanName(name);
    // "vlan N" creates a VLAN that is not there: a rename must not do that
    if (!(await this.learnVlans()).some((v) => v.id === id))
      throw new DeviceRefused(`${this.eapi.where} has no VLAN ${id} to rename`);
    const vlan = (await this.changeVlans(eosLines.renameVlan(id, name))).find((v) => v.id === id);
    if (vlan?.name !== name)
      throw this.mismatch(`name of VLAN ${id}`, JSON.stringify(name), vlan ? JSON.stringify(vlan.name) : "absent");
  }

  async deleteVlan(id: number): Promise<void> {
    checkVlanId(id);
    if ((await this.changeVlans(eosLines.deleteVlan(id))).some((v) => v.id === id))
      throw this.mismatch(`VLAN ${id}`, "deleted", "still present");
  }

  /** `copy running-config startup-config`; EOS answers an error when the copy fails. */
  async saveConfig(): Promise<void> {
    await this.eapi.run(["enable", SAVE_COMMAND], { change: true });
  }

  async close(): Promise<void> {
    this.eapi.close();
  }

  private viewOf(name: string, [interfaces, switchports, vlanAnswer]: unknown[]): InterfaceView | null {
    const vlans = parseVlans(vlanAnswer);
    const ports = parseSwitchports(switchports);
    const row: InterfaceInfo | undefined = parseInterfaces(interfaces, ports, vlans).find((r) => r.name === name);
    if (!row) return null;
    const context: EapiPortContext = { name, switchport: ports.get(name) ?? null };
    return { interface: row, vlans: vlans.vlans, driverContext: context };
  }

  /**
   * One request: the change in configuration mode, then the interface's reads; its row
   * after the change. The view's switchport becomes the one read back (viewsFollowWrites).
   */
  private async changeInterface(
    lines: string[],
    view: InterfaceView,
  ): Promise<{ row: InterfaceInfo; switchport: SwitchportRow | null }> {
    const context = portContext(view);
    const name = context.name;
    const cmds = configure(lines);
    const answers = await this.eapi.run([...cmds, ...interfaceReads(name)], { change: true });
    const after = this.viewOf(name, answers.slice(cmds.length));
    if (!after) throw this.mismatch(`interface ${name}`, "present", "absent after the change");
    context.switchport = portContext(after).switchport;
    return { row: after.interface, switchport: context.switchport };
  }

  private async change(lines: string[], view: InterfaceView): Promise<InterfaceInfo> {
    return (await this.changeInterface(lines, view)).row;
  }

  /** One request: a VLAN change, then `show vlan`; the VLAN list after it. */
  private async changeVlans(lines: string[]): Promise<VlanInfo[]> {
    const cmds = configure(lines);
    const answers = await this.eapi.run([...cmds, "show vlan"], { change: true });
    return parseVlans(answers[cmds.length]).vlans;
  }

  private mismatch(what: string, wrote: string, now: string): DeviceMismatch {
    return new DeviceMismatch(
      `${this.eapi.where} accepted the change but reads back otherwise: wrote ${what} = ${wrote}, device reports ${now}`,
    );
  }
}
