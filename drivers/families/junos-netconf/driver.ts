/**
 * Juniper Junos over NETCONF (connector 2). Reads are a handful of Junos RPCs sent
 * together on one session (NETCONF pipelining): software, interfaces, VLANs, PoE; the
 * details view adds the switching table, ARP, the LLDP summary and one LLDP detail per
 * interface that has a neighbour. A change is made so that a change which cuts the
 * switch off undoes itself: lock the candidate, load the `set` statements, `commit
 * confirmed` with a one-minute timeout, read the change back, then a plain commit to
 * confirm it, and unlock. Whatever fails after the lock, the candidate is discarded and
 * unlocked (finally); a read-back that differs rolls the commit back at once (rollback 1)
 * and is DeviceMismatch. An rpc-error is DeviceRefused with the switch's message. A Junos
 * commit persists: there is nothing to save.
 *
 * Like the other drivers an instance lives for one API call: it opens one NETCONF
 * session on first use and keeps it until close().
 */
import type { Capabilities } from "../../../model/capabilities";
import type {
  DevicePoe,
  DeviceSnapshot,
  InterfaceInfo,
  InterfaceView,
  LearnScope,
  PoePortInfo,
  TagChange,
  VlanInfo,
} from "../../../model/device";
import {
  DeviceMismatch,
  DeviceOutcomeUnknown,
  DeviceRefused,
  DeviceUnreachable,
  NotSupported,
} from "../../../model/failures";
import { escapeXml, type XmlElement } from "../../../model/xml";
import type { Driver } from "../../contract";
import { NetconfSession, RpcRefused } from "../../netconf/session";
import { RequestCounters } from "../../request-counters";
import { checkVlanId } from "../../ssh/safe-values";
import { describeTarget, type SshTarget } from "../../ssh/target";
import { unknownVlans } from "../../tag-change";
import {
  parseArp,
  parseInterfaces,
  parseLldp,
  parsePoeControllers,
  parsePoeInterfaces,
  parseSoftware,
  parseSwitchingTable,
  parseVlans,
  type SwitchStyle,
  type VlanReading,
} from "./parse";
import {
  isJunosInterfaceName,
  JUNOS_MAX_DESCRIPTION,
  JUNOS_MAX_VLAN_NAME,
  junosDescription,
  junosVlanName,
  statements,
} from "./statements";
import { learnedContext } from "../../port-context";

export const junosCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: true,
  change_poe: true,
  change_description: true,
  edit_vlans: true,
  change_vlan_name: true,
  // a commit is the save: Junos keeps every committed configuration
  save_config: false,
  change_tags: true,
  client_data: true,
  max_description_length: JUNOS_MAX_DESCRIPTION,
  max_description_bytes: JUNOS_MAX_DESCRIPTION,
  max_vlan_name_length: JUNOS_MAX_VLAN_NAME,
  max_vlan_name_bytes: JUNOS_MAX_VLAN_NAME,
};

export interface JunosNetconfOptions {
  name?: string;
  /** called once after the login with the fingerprint of the host key the device presented */
  onHostKey?: (fingerprint: string) => void;
  /** offer base:1.1 (chunked framing); default true */
  offerBase11?: boolean;
  /** the confirmed commit's timeout in minutes (Junos: 1..65535); default 1 */
  confirmMinutes?: number;
  /** tests: called after the confirmed commit was answered, before the read-back */
  afterConfirmedCommit?: (session: NetconfSession) => void;
}

interface JunosPortContext {
  name: string;
  /** a switch port's mode, null for interfaces that carry no VLANs */
  mode: "access" | "trunk" | null;
  style: SwitchStyle;
}

function portContext(view: InterfaceView): JunosPortContext {
  return learnedContext<JunosPortContext>(view, "name", "the Junos NETCONF driver");
}

// a commit on a real switch can take tens of seconds
const COMMIT_TIMEOUT_MS = 120_000;
const MAX_LLDP_DETAILS = 1000;

const GET_INTERFACES = "<get-interface-information/>";
const GET_VLANS = "<get-vlan-information><extensive/></get-vlan-information>";
const GET_SOFTWARE = "<get-software-information/>";
const GET_POE = "<get-poe-interface-information/>";
const GET_POE_CONTROLLERS = "<get-poe-controller-information/>";
const GET_MACS = "<get-ethernet-switching-table-information/>";
const GET_ARP = "<get-arp-table-information><no-resolve/></get-arp-table-information>";
const GET_LLDP = "<get-lldp-neighbors-information/>";

const nameElement = (tag: string, value: string) => `<${tag}>${escapeXml(value)}</${tag}>`;

export class JunosNetconfDriver implements Driver {
  readonly info = { vendor: "Juniper", driver: "junos_netconf" };
  readonly can: Capabilities = { ...junosCapabilities };
  private session: Promise<NetconfSession> | null = null;
  /** RPCs and round trips of this call (read by the service for the log and the metrics) */
  readonly counters = new RequestCounters();

  constructor(
    private readonly target: SshTarget,
    private readonly options: JunosNetconfOptions = {},
  ) {}

  private get where(): string {
    return describeTarget(this.target, this.options.name);
  }

  /** Logs in (once) and returns the session. */
  connect(): Promise<NetconfSession> {
    if (!this.session) {
      this.session = NetconfSession.open(this.target, {
        name: this.options.name,
        offerBase11: this.options.offerBase11,
        counters: this.counters,
      }).then((s) => {
        this.options.onHostKey?.(s.hostKey);
        return s;
      });
    }
    return this.session;
  }

  parseInterfaceId(urlId: string): string | null {
    const name = urlId.replace(/_/g, "/");
    return isJunosInterfaceName(name) ? name : null;
  }

  async learn(scope: LearnScope): Promise<DeviceSnapshot> {
    const s = await this.connect();
    const [software, interfaces, vlanReply, poeReply, controllers] = await Promise.all([
      s.rpc(GET_SOFTWARE),
      s.rpc(GET_INTERFACES),
      s.rpc(GET_VLANS),
      optional(s.rpc(GET_POE)),
      optional(s.rpc(GET_POE_CONTROLLERS)),
    ]);
    const vlans = parseVlans(vlanReply);
    const poe = poeReply ? parsePoeInterfaces(poeReply) : new Map<string, PoePortInfo>();
    const rows = parseInterfaces(interfaces, vlans, poe);
    if (scope === "details") await this.addDetails(s, rows, vlans.vlans);
    const sw = parseSoftware(software);
    const devicePoe: DevicePoe | null = controllers ? parsePoeControllers(controllers) : null;
    return {
      hostname: sw.hostname,
      driver_info: { model: sw.model, version: sw.version, style: vlans.style === "els" ? "ELS" : "non-ELS" },
      vlans: vlans.vlans,
      interfaces: rows,
      poe: devicePoe,
      scope,
    };
  }

  private async addDetails(s: NetconfSession, rows: InterfaceInfo[], vlans: VlanInfo[]): Promise<void> {
    const [macReply, arpReply, lldpReply] = await Promise.all([
      s.rpc(GET_MACS),
      optional(s.rpc(GET_ARP)),
      optional(s.rpc(GET_LLDP)),
    ]);
    const macs = parseSwitchingTable(macReply, vlans);
    const arp = arpReply ? parseArp(arpReply) : new Map<string, string[]>();
    const summary = lldpReply ? parseLldp(lldpReply) : [];
    const locals = [...new Set(summary.map((n) => n.local))].filter(isJunosInterfaceName).slice(0, MAX_LLDP_DETAILS);
    // the summary lacks management addresses: one detail per interface with a neighbour, sent together
    const details = await Promise.all(
      locals.map((local) =>
        optional(
          s.rpc(
            `<get-lldp-interface-neighbors>${nameElement("interface-device", local)}</get-lldp-interface-neighbors>`,
          ),
        ),
      ),
    );
    const neighbours = new Map<string, ReturnType<typeof parseLldp>>();
    locals.forEach((local, i) => {
      const detail = details[i];
      neighbours.set(local, detail ? parseLldp(detail) : summary.filter((n) => n.local === local));
    });
    for (const row of rows) {
      row.macs = (macs.get(row.name) ?? [])
        .map((m) => ({ ...m, ipv4: arp.get(m.address) ?? [] }))
        .sort((a, b) => a.vlan - b.vlan || a.address.localeCompare(b.address));
      row.neighbors = (neighbours.get(row.name) ?? []).map((n) => n.neighbor);
    }
  }

  /**
   * Every id from one set of RPCs sent together: `get-interface-information`,
   * `get-vlan-information` and `get-poe-interface-information` of the whole switch (the
   * basic learn's), each id's row picked from them: 3 RPCs whatever the number of ids. A
   * view is what learnInterface() gives for the id (null for one the switch does not have).
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, InterfaceView | null>(unique.map((id) => [id, null]));
    if (!unique.some(isJunosInterfaceName)) return out;
    const s = await this.connect();
    const [interfaces, vlanReply, poeReply] = await Promise.all([
      s.rpc(GET_INTERFACES),
      s.rpc(GET_VLANS),
      optional(s.rpc(GET_POE)),
    ]);
    const vlans = parseVlans(vlanReply);
    const poe = poeReply ? parsePoeInterfaces(poeReply) : new Map<string, PoePortInfo>();
    const rows = new Map(parseInterfaces(interfaces, vlans, poe).map((r) => [r.id, r]));
    for (const id of unique) {
      const row = isJunosInterfaceName(id) ? rows.get(id) : undefined;
      if (row) out.set(id, this.viewOf(row, vlans));
    }
    return out;
  }

  /**
   * A setter changes only its own port's configuration and keeps the view's switch-port
   * mode as it commits it: a later write through the same or another view builds on it.
   */
  readonly viewsFollowWrites = true;

  async learnInterface(id: string): Promise<InterfaceView | null> {
    if (!isJunosInterfaceName(id)) return null;
    const s = await this.connect();
    const physical = id.includes(".") ? null : id;
    const [interfaces, vlanReply, poeReply] = await Promise.all([
      optional(s.rpc(`<get-interface-information>${nameElement("interface-name", id)}</get-interface-information>`)),
      s.rpc(GET_VLANS),
      physical
        ? optional(
            s.rpc(
              `<get-poe-interface-information>${nameElement("interface-name", physical)}</get-poe-interface-information>`,
            ),
          )
        : Promise.resolve(null),
    ]);
    if (!interfaces) return null; // "device ... not found"
    const vlans = parseVlans(vlanReply);
    const poe = poeReply ? parsePoeInterfaces(poeReply) : new Map<string, PoePortInfo>();
    const row = parseInterfaces(interfaces, vlans, poe).find((r) => r.id === id);
    return row ? this.viewOf(row, vlans) : null;
  }

  private viewOf(row: InterfaceInfo, vlans: VlanReading): InterfaceView {
    const member = vlans.members.get(row.id);
    const context: JunosPortContext = {
      name: row.id,
      mode: member ? (member.trunk ? "trunk" : "access") : null,
      style: vlans.style,
    };
    return { interface: row, vlans: vlans.vlans, driverContext: context };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    const s = await this.connect();
    return parseVlans(await s.rpc(GET_VLANS)).vlans;
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const { name } = portContext(view);
    await this.change(`admin state of ${name}`, statements.adminState(name, up), async () => {
      const now = await this.rowOf(name);
      const state = now ? (now.admin_up ? "up" : "down") : "(interface not listed)";
      return state === (up ? "up" : "down") ? null : { wrote: up ? "up" : "down", now: state };
    });
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const { name } = portContext(view);
    const description = junosDescription(text);
    await this.change(`description of ${name}`, statements.description(name, description), async () => {
      const now = await this.rowOf(name);
      const seen = now ? now.description : "(interface not listed)";
      return seen === description ? null : { wrote: JSON.stringify(description), now: JSON.stringify(seen) };
    });
  }

  async setPoe(view: InterfaceView, on: boolean): Promise<void> {
    const { name } = portContext(view);
    if (!view.interface.poe) throw new NotSupported(`${this.where}: interface ${name} has no PoE port`);
    await this.change(`PoE of ${name}`, statements.poe(name, on), async () => {
      const now = (await this.connect().then((s) => this.poeOf(s, name)))?.admin_status;
      const want = on ? "Enabled" : "Disabled";
      return now === want ? null : { wrote: want, now: now ?? "(no PoE row)" };
    });
  }

  async setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void> {
    const context = portContext(view);
    checkVlanId(vlan);
    if (context.mode === null) throw new NotSupported(`${this.where}: interface ${context.name} is not a switch port`);
    if (context.mode === "trunk") {
      // a trunk's untagged VLAN is its native VLAN; the tagged VLANs stay
      const tagged = view.interface.tagged_vlans.filter((v) => v !== vlan);
      return this.setTags(view, { untagged: vlan, tagged, allowAll: false });
    }
    if (!view.vlans.some((v) => v.id === vlan))
      throw new NotSupported(`${this.where} has no vlan ${vlan}; nothing was changed`);
    await this.change(`VLAN of ${context.name}`, statements.access(context.name, vlan, context.style), async () => {
      const now = await this.tagsOf(context.name);
      return now.untagged === vlan ? null : { wrote: `access vlan ${vlan}`, now: `untagged vlan ${now.untagged}` };
    });
    view.interface.untagged_vlan = vlan;
  }

  async setTags(view: InterfaceView, change: TagChange): Promise<void> {
    const context = portContext(view);
    if (context.mode === null) throw new NotSupported(`${this.where}: interface ${context.name} is not a switch port`);
    const known = view.vlans.map((v) => v.id);
    const unknown = unknownVlans(known, change);
    if (unknown.length > 0)
      throw new NotSupported(`${this.where} has no vlan ${unknown.join(", ")}; nothing was changed`);
    const access = change.tagged.length === 0 && !change.allowAll;
    const lines = access
      ? statements.access(context.name, change.untagged, context.style)
      : statements.trunk(context.name, change.untagged, change.allowAll ? "all" : change.tagged, context.style);
    const wantTagged = change.allowAll
      ? known.filter((v) => v !== change.untagged)
      : [...new Set(change.tagged)].filter((v) => v !== change.untagged).sort((a, b) => a - b);
    const want = `untagged ${change.untagged}, tagged [${wantTagged.join(",")}]`;
    await this.change(`VLANs of ${context.name}`, lines, async () => {
      const now = await this.tagsOf(context.name);
      const seen = `untagged ${now.untagged}, tagged [${now.tagged.join(",")}]`;
      return seen === want ? null : { wrote: want, now: seen };
    });
    // committed and read back: the view shows the port as the change left it (viewsFollowWrites)
    context.mode = access ? "access" : "trunk";
    view.interface.untagged_vlan = change.untagged;
    view.interface.tagged_vlans = wantTagged;
  }

  async createVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    // Junos names every VLAN; an empty name gets the one Junos users commonly give
    const vlanName = junosVlanName(name === "" ? `vlan${id}` : name);
    await this.change(`VLAN ${id}`, statements.createVlan(id, vlanName), async () => {
      const vlan = (await this.learnVlans()).find((v) => v.id === id);
      return vlan?.name === vlanName ? null : { wrote: `${vlanName} (${id})`, now: vlan ? vlan.name : "absent" };
    });
  }

  async renameVlan(id: number, name: string): Promise<void> {
    checkVlanId(id);
    junosVlanName(name);
    const current = (await this.learnVlans()).find((v) => v.id === id);
    if (!current) throw new DeviceRefused(`${this.where} has no VLAN ${id} to rename`);
    if (current.name === name) return;
    await this.change(`name of VLAN ${id}`, statements.renameVlan(current.name, name), async () => {
      const vlan = (await this.learnVlans()).find((v) => v.id === id);
      return vlan?.name === name
        ? null
        : { wrote: JSON.stringify(name), now: vlan ? JSON.stringify(vlan.name) : "absent" };
    });
  }

  async deleteVlan(id: number): Promise<void> {
    checkVlanId(id);
    const current = (await this.learnVlans()).find((v) => v.id === id);
    if (!current) throw new DeviceRefused(`${this.where} has no VLAN ${id} to delete`);
    await this.change(`VLAN ${id}`, statements.deleteVlan(current.name), async () => {
      const still = (await this.learnVlans()).some((v) => v.id === id);
      return still ? { wrote: "deleted", now: "still present" } : null;
    });
  }

  saveConfig(): Promise<void> {
    return Promise.reject(new NotSupported(`${this.where}: a Junos commit is persistent; there is nothing to save`));
  }

  async close(): Promise<void> {
    const pending = this.session;
    this.session = null;
    if (!pending) return;
    try {
      await (await pending).close();
    } catch {
      // a login that failed has nothing to close
    }
  }

  /**
   * One change: lock, load, commit confirmed, read back, confirm, unlock. `check`
   * returns null when the device reads back as wanted, else what it wrote and what it sees.
   */
  private async change(
    what: string,
    lines: string[],
    check: () => Promise<{ wrote: string; now: string } | null>,
  ): Promise<void> {
    const s = await this.connect();
    const minutes = this.options.confirmMinutes ?? 1;
    await s.rpc("<lock-configuration/>");
    let stage: "load" | "commit" | "check" | "confirm" | "done" = "load";
    try {
      await s.rpc(
        `<load-configuration action="set" format="text"><configuration-set>${escapeXml(lines.join("\n"))}</configuration-set></load-configuration>`,
      );
      stage = "commit";
      await s.rpc(
        `<commit-configuration><confirmed/><confirm-timeout>${minutes}</confirm-timeout><log>switchdesk: ${escapeXml(what)}</log></commit-configuration>`,
        { timeoutMs: Math.max(COMMIT_TIMEOUT_MS, this.target.command_timeout_ms) },
      );
      stage = "check";
      this.options.afterConfirmedCommit?.(s);
      const mismatch = await check();
      if (mismatch) {
        // the switch took the commit and shows otherwise: back to the configuration before it, at once
        let undone = true;
        try {
          await s.rpc('<load-configuration rollback="1"/>');
          await s.rpc("<commit-configuration/>", {
            timeoutMs: Math.max(COMMIT_TIMEOUT_MS, this.target.command_timeout_ms),
          });
        } catch {
          undone = false;
        }
        stage = "done";
        throw new DeviceMismatch(
          `${this.where} accepted the change but reads back otherwise: wrote ${what} = ${mismatch.wrote}, device reports ${mismatch.now}; ${
            undone
              ? "the commit was rolled back"
              : `rolling it back failed, the switch rolls it back by itself within ${minutes} minute(s)`
          }`,
        );
      }
      stage = "confirm";
      await s.rpc("<commit-configuration/>", {
        timeoutMs: Math.max(COMMIT_TIMEOUT_MS, this.target.command_timeout_ms),
      });
      stage = "done";
    } catch (e) {
      if (s.usable) {
        // whatever is left in the candidate goes (rollback 0); the lock goes in finally
        await optional(s.rpc("<discard-changes/>")).catch(() => undefined);
      }
      throw this.failure(e, what, stage, minutes);
    } finally {
      if (s.usable) await s.rpc("<unlock-configuration/>").catch(() => undefined);
    }
  }

  private failure(e: unknown, what: string, stage: string, minutes: number): unknown {
    if (!(e instanceof DeviceUnreachable)) return e;
    if (stage === "commit" || stage === "check")
      return new DeviceOutcomeUnknown(
        `${e.message}; the change of ${what} may have been committed (confirmed commit): unless confirmed the switch rolls it back by itself within ${minutes} minute(s)`,
      );
    if (stage === "confirm")
      return new DeviceOutcomeUnknown(
        `${e.message}; the change of ${what} was committed and read back, but its confirmation was not answered: if it was lost, the switch rolls the change back within ${minutes} minute(s)`,
      );
    return e;
  }

  private async rowOf(name: string): Promise<InterfaceInfo | null> {
    const view = await this.learnInterface(name);
    return view?.interface ?? null;
  }

  private async tagsOf(name: string): Promise<{ untagged: number; tagged: number[] }> {
    const s = await this.connect();
    const reading: VlanReading = parseVlans(await s.rpc(GET_VLANS));
    const m = reading.members.get(name);
    const untagged = m?.untagged[0] ?? 0;
    return { untagged, tagged: m ? [...new Set(m.tagged)].filter((v) => v !== untagged).sort((a, b) => a - b) : [] };
  }

  private async poeOf(s: NetconfSession, name: string): Promise<PoePortInfo | null> {
    const reply = await optional(
      s.rpc(`<get-poe-interface-information>${nameElement("interface-name", name)}</get-poe-interface-information>`),
    );
    return reply ? (parsePoeInterfaces(reply).get(name) ?? null) : null;
  }
}

/** the reply, or null when the switch answered with an rpc-error (no PoE, no such interface) */
async function optional(reply: Promise<XmlElement>): Promise<XmlElement | null> {
  try {
    return await reply;
  } catch (e) {
    if (e instanceof RpcRefused) return null;
    throw e;
  }
}
