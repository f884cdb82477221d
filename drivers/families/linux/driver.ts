/**
 * A Linux host over SSH, its network links as the "ports": read with iproute2's JSON
 * output, links taken up and down and described (the link alias) with `ip link set`,
 * each write read back with `ip -j link show dev X`; the interfaces of a batch are read
 * with one `ip -j -d addr show`. Interface ids are link names.
 * A host has no VLAN table, PoE or saved configuration in this sense: those answer
 * NotSupported with the reason. Commands go over exec channels (exec-session.ts), so
 * output, errors and exit status come apart without prompt guessing.
 */
import { type Capabilities } from "../../../model/capabilities";
import {
  type DeviceSnapshot,
  type InterfaceInfo,
  type InterfaceView,
  type LearnScope,
  type MacEntry,
  type TagChange,
  type VlanInfo,
} from "../../../model/device";
import { DeviceMismatch, DeviceRefused, NotSupported } from "../../../model/failures";
import { type Driver } from "../../contract";
import { ExecSession } from "../../ssh/exec-session";
import { describeTarget, type SshTarget } from "../../ssh/target";
import { LINUX_MAX_ALIAS_BYTES, linuxAlias, linuxCommands, linuxInterface } from "./commands";
import {
  type AddressRow,
  type LinkRow,
  type NeighbourRow,
  parseAddresses,
  parseLinks,
  parseNeighbours,
  UnexpectedOutput,
} from "./parse-ip-json";

export interface LinuxHostOptions {
  /** the device's inventory name, used in error messages */
  name?: string;
  /** an open session to use (and close) instead of logging in */
  session?: ExecSession;
  /** called once after the login with the presented host key's fingerprint (pin it on first use) */
  onHostKey?: (fingerprint: string) => void;
}

export const linuxHostCapabilities: Readonly<Capabilities> = {
  change_admin_status: true,
  change_vlan: false,
  change_poe: false,
  change_description: true,
  edit_vlans: false,
  change_vlan_name: false,
  save_config: false,
  change_tags: false,
  client_data: true,
  // IFALIASZ: the kernel keeps an alias of up to 255 bytes
  max_description_length: LINUX_MAX_ALIAS_BYTES,
  max_description_bytes: LINUX_MAX_ALIAS_BYTES,
  max_vlan_name_length: 0,
  max_vlan_name_bytes: 0,
};

// link kinds that are not Ethernet ports even though they carry Ethernet frames
const NOT_PORTS = new Set([
  "bridge",
  "vlan",
  "vxlan",
  "macvlan",
  "macvtap",
  "ipvlan",
  "tun",
  "tap",
  "wireguard",
  "gretap",
  "vrf",
]);

export class LinuxHostDriver implements Driver {
  readonly info: { vendor: string; driver: string } = { vendor: "Linux", driver: "linux_host" };
  readonly can: Capabilities = { ...linuxHostCapabilities };
  private session: Promise<ExecSession> | null;

  constructor(
    private readonly target: SshTarget,
    private readonly options: LinuxHostOptions = {},
  ) {
    this.session = options.session ? Promise.resolve(options.session) : null;
  }

  /** Logs in (once) and returns the session. */
  connect(): Promise<ExecSession> {
    if (!this.session) {
      this.session = ExecSession.open(this.target, { name: this.options.name }).then((s) => {
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
    // independent reads on channels of one connection, side by side
    const [uname, links, addresses, neighbours] = await Promise.all([
      this.run(linuxCommands.hostname),
      this.run(linuxCommands.links),
      this.run(linuxCommands.addresses),
      scope === "details" ? this.run(linuxCommands.neighbours) : Promise.resolve("[]"),
    ]);
    const [hostname = "", release = "", machine = ""] = uname.trim().split(/\s+/);
    const rows = this.parsed(() => parseLinks(links));
    const addrs = this.parsed(() => parseAddresses(addresses));
    const neigh = this.parsed(() => parseNeighbours(neighbours));
    return {
      hostname,
      driver_info: { kernel: release, machine },
      vlans: [],
      interfaces: rows.map((r) => interfaceInfo(r, addrs, neigh)),
      poe: null,
      scope,
    };
  }

  /** Link names as they are; "_" stands for "/" in URLs (a link name cannot hold "/"). */
  parseInterfaceId(urlId: string): string | null {
    try {
      return linuxInterface(urlId.replace(/_/g, "/"));
    } catch {
      return null;
    }
  }

  /**
   * Every id from one command, `ip -j -d addr show`: each link with the details `ip -d link
   * show` gives and its addresses, where learnInterface() runs 2 commands per id. A view is
   * what learnInterface() gives for the id (null for a link the host does not have).
   */
  async learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>> {
    const unique = [...new Set(ids)];
    const out = new Map<string, InterfaceView | null>(unique.map((id) => [id, null]));
    const valid = unique.filter((id) => {
      try {
        return linuxInterface(id) === id;
      } catch {
        return false; // not a link name: no such link
      }
    });
    if (valid.length === 0) return out;
    const text = await this.run(linuxCommands.linksWithAddresses);
    const links = new Map(this.parsed(() => parseLinks(text)).map((l) => [l.ifname, l]));
    const addresses = this.parsed(() => parseAddresses(text));
    for (const id of valid) {
      const link = links.get(id);
      if (link) out.set(id, { interface: interfaceInfo(link, addresses, []), vlans: [] });
    }
    return out;
  }

  /**
   * A view holds its link's name alone for the setters (each reads its link back), so a
   * write through one view leaves every other view as good as before.
   */
  readonly viewsFollowWrites = true;

  /** commands run so far (each an exec channel): what a call cost the host */
  commands = 0;

  async learnInterface(ifId: string): Promise<InterfaceView | null> {
    let dev: string;
    try {
      dev = linuxInterface(ifId);
    } catch {
      return null;
    }
    const link = await this.link(dev);
    if (!link) return null;
    const addresses = await this.run(linuxCommands.linkAddresses(dev));
    return {
      interface: interfaceInfo(
        link,
        this.parsed(() => parseAddresses(addresses)),
        [],
      ),
      vlans: [],
    };
  }

  async learnVlans(): Promise<VlanInfo[]> {
    // no switch VLAN table on a host: an empty list, not an error, so reads of it keep working
    return [];
  }

  async setAdminState(view: InterfaceView, up: boolean): Promise<void> {
    const dev = linuxInterface(view.interface.id);
    await this.run(linuxCommands.setState(dev, up));
    const link = await this.link(dev);
    const now = link ? (link.flags.includes("UP") ? "up" : "down") : "(link gone)";
    if (now !== (up ? "up" : "down")) throw this.mismatch(`state of ${dev}`, up ? "up" : "down", now);
  }

  async setDescription(view: InterfaceView, text: string): Promise<void> {
    const dev = linuxInterface(view.interface.id);
    const alias = linuxAlias(text);
    await this.run(linuxCommands.setAlias(dev, alias));
    const link = await this.link(dev);
    const now = link ? link.ifalias : "(link gone)";
    if (now !== alias) throw this.mismatch(`alias of ${dev}`, JSON.stringify(alias), JSON.stringify(now));
  }

  async setUntaggedVlan(_view: InterfaceView, _vlan: number): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host's links have no switch VLAN membership to change`);
  }

  async setTags(_view: InterfaceView, _change: TagChange): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host's links carry no switch trunk VLANs to change`);
  }

  async setPoe(_view: InterfaceView, _on: boolean): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host supplies no PoE`);
  }

  async createVlan(_id: number, _name: string): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host has no switch VLAN table to add to`);
  }

  async renameVlan(_id: number, _name: string): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host has no switch VLAN table to rename in`);
  }

  async deleteVlan(_id: number): Promise<void> {
    throw new NotSupported(`${this.where}: a Linux host has no switch VLAN table to remove from`);
  }

  async saveConfig(): Promise<void> {
    throw new NotSupported(
      `${this.where}: link changes on a Linux host are not saved by this driver (they last until reboot)`,
    );
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

  private get where(): string {
    return describeTarget(this.target, this.options.name);
  }

  /** stdout of a command that must succeed */
  private async run(command: string): Promise<string> {
    const s = await this.connect();
    this.commands++;
    const r = await s.exec(command);
    if (r.code === 0) return r.stdout;
    const reason = r.stderr.trim().split("\n")[0] || `exit status ${r.code ?? "(signal)"}`;
    if (r.code === 127) throw new NotSupported(`${s.where} has no "${command.split(" ")[0]}" command: ${reason}`);
    throw new DeviceRefused(`${s.where} refused "${command}": ${reason}`);
  }

  /** one link, or null when the host has none of that name */
  private async link(dev: string): Promise<LinkRow | null> {
    const s = await this.connect();
    this.commands++;
    const r = await s.exec(linuxCommands.link(dev));
    if (r.code !== 0) {
      if (/does not exist|cannot find device/i.test(r.stderr)) return null;
      throw new DeviceRefused(`${s.where} refused "${linuxCommands.link(dev)}": ${r.stderr.trim().split("\n")[0]}`);
    }
    return this.parsed(() => parseLinks(r.stdout)).find((l) => l.ifname === dev) ?? null;
  }

  private parsed<T>(read: () => T): T {
    try {
      return read();
    } catch (e) {
      if (e instanceof UnexpectedOutput)
        throw new DeviceRefused(`${this.where}: ${e.message} (iproute2 with JSON output is needed)`);
      throw e;
    }
  }

  private mismatch(what: string, wrote: string, now: string): DeviceMismatch {
    return new DeviceMismatch(
      `${this.where} accepted the change but reads back otherwise: wrote ${what} = ${wrote}, device reports ${now}`,
    );
  }
}

function interfaceInfo(
  link: LinkRow,
  addresses: readonly AddressRow[],
  neighbours: readonly NeighbourRow[],
): InterfaceInfo {
  const lag = link.kind === "bond" || link.kind === "team";
  const ethernet = !lag && link.link_type === "ether" && !NOT_PORTS.has(link.kind);
  const lowerUp = link.flags.includes("LOWER_UP");
  const adminUp = link.flags.includes("UP");
  const macs = new Map<string, MacEntry>();
  for (const n of neighbours) {
    if (n.dev !== link.ifname) continue;
    const entry = macs.get(n.lladdr) ?? { address: n.lladdr, vlan: 0, ipv4: [], ipv6: [] };
    (n.family === "inet" ? entry.ipv4 : entry.ipv6).push(n.dst);
    macs.set(n.lladdr, entry);
  }
  return {
    id: link.ifname,
    name: link.ifname,
    description: link.ifalias,
    kind: lag ? "lag" : ethernet ? "ethernet" : "other",
    if_type: link.link_type === "loopback" ? 24 : lag ? 161 : link.link_type === "ether" ? 6 : 0,
    admin_up: adminUp,
    // the kernel updates operstate a moment after the flags, so a link just set down may
    // still say UP; software links without carrier detection say UNKNOWN while passing traffic
    oper_up: adminUp && (link.operstate === "UP" || (link.operstate === "UNKNOWN" && lowerUp)),
    speed: 0,
    duplex: "Unknown",
    untagged_vlan: 0,
    tagged_vlans: [],
    routed: addresses.some((a) => a.ifname === link.ifname && a.scope === "global"),
    vrf: link.slaveKind === "vrf" ? link.master : "",
    macs: [...macs.values()],
    neighbors: [],
  };
}
