/**
 * The Junos configuration of a lab switch as its NETCONF face sees it: interfaces
 * (disable, description, the ethernet-switching mode, VLAN members and native VLAN),
 * VLANs by name with their vlan-id, and PoE ports switched off. It is made from the lab
 * model's configuration, changed by `set` / `delete` / `rename` statements (the ELS
 * hierarchy, or the older one with `port-mode` and the native VLAN under the unit), and
 * turned back into the model's configuration at a commit, with the commit-time checks
 * Junos makes (an access port has one VLAN, a VLAN in use cannot go, every VLAN has an id).
 *
 * Lab simplification: a VLAN named in `vlan members` is kept by its id once it is known,
 * so renaming a VLAN keeps its ports (the lab model numbers VLANs, not names).
 */
import {
  carryNewVlan,
  cloneConfig,
  configureSwitchport,
  setPortMode,
  switchportOf,
  type SwitchConfig,
} from "../config";
import type { VirtualSwitch } from "../model";

export type SwitchStyle = "els" | "legacy";

/** a VLAN member: a VLAN id, or a name not (yet) defined */
type Member = number | string;

export interface JunosPort {
  disable: boolean;
  description: string | null;
  /** the ethernet-switching mode; null: no family ethernet-switching (or not a switch port) */
  mode: "access" | "trunk" | null;
  members: Member[] | "all";
  native: number | null;
  poeDisable: boolean;
}

export interface JunosConfig {
  ports: Map<string, JunosPort>;
  /** VLAN name -> vlan-id (null: none given yet) */
  vlans: Map<string, number | null>;
}

/** A statement Junos would not take; `element` is the word it stopped at. */
export class StatementError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly element: string,
  ) {
    super(message);
  }
}

export function cloneJunos(c: JunosConfig): JunosConfig {
  const ports = new Map<string, JunosPort>();
  for (const [k, p] of c.ports) ports.set(k, { ...p, members: p.members === "all" ? "all" : [...p.members] });
  return { ports, vlans: new Map(c.vlans) };
}

/** The configuration as Junos would show it, from the model's configuration `cfg`. */
export function junosFromModel(model: VirtualSwitch, cfg: SwitchConfig): JunosConfig {
  const vlans = new Map<string, number | null>();
  for (const id of model.vlanIds(cfg)) vlans.set(cfg.vlans.get(id)!.name, id);
  const ports = new Map<string, JunosPort>();
  for (const i of model.interfaces) {
    if (i.name.includes(".")) continue; // logical units are configured through their interface
    const settings = cfg.ports.get(i.ifIndex);
    const port: JunosPort = {
      disable: !(settings?.adminUp ?? true),
      description: settings?.alias ? settings.alias : null,
      mode: null,
      members: [],
      native: null,
      poeDisable: i.poe ? !(settings?.poeEnabled ?? true) : false,
    };
    if (i.bridgePort !== null) {
      const bp = i.bridgePort;
      if (cfg.portModes.get(bp) === "trunk") {
        const s = switchportOf(cfg, bp);
        port.mode = "trunk";
        port.native = s.native;
        port.members = s.allowed === "all" ? "all" : [...new Set([...s.allowed, s.native])].sort((a, b) => a - b);
      } else {
        port.mode = "access";
        port.members = [cfg.pvid.get(bp) ?? 1];
      }
    }
    ports.set(i.name, port);
  }
  return { ports, vlans };
}

/** A `set` line's words: quoted strings are one word ("\"" and "\\" escaped inside), [ and ] words of their own. */
export function words(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === " " || c === "\t") {
      i++;
    } else if (c === '"') {
      let w = "";
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\" && i + 1 < line.length) i++;
        w += line[i++];
      }
      if (i >= line.length) throw new StatementError("syntax error, unterminated quoted string", "[edit]", line);
      i++;
      out.push(w);
    } else if (c === "[" || c === "]") {
      out.push(c);
      i++;
    } else {
      let w = "";
      while (i < line.length && !/[\s"[\]]/.test(line[i])) w += line[i++];
      out.push(w);
    }
  }
  return out;
}

const VLAN_NAME = /^[A-Za-z0-9][\w.-]{0,254}$/;

function vlanIdWord(word: string | undefined, path: string): number {
  if (!word || !/^\d{1,4}$/.test(word) || Number(word) < 1 || Number(word) > 4094)
    throw new StatementError(`Value ${word ?? "(none)"} is not within range (1..4094)`, path, word ?? "vlan-id");
  return Number(word);
}

/**
 * Applies one statement to `c` (changed in place). `style` decides which hierarchy the
 * ethernet-switching statements must use. Throws StatementError for what Junos refuses
 * at load time (syntax, unknown interface, values out of range).
 */
export function applyStatement(c: JunosConfig, line: string, style: SwitchStyle): void {
  const w = words(line.trim());
  if (w.length === 0) return;
  const [verb, top, ...rest] = w;
  const syntax = (at: string | undefined, path = `[edit ${top ?? ""}]`) =>
    new StatementError("syntax error", path, at ?? verb);
  if (verb !== "set" && verb !== "delete" && verb !== "rename") throw syntax(verb, "[edit]");
  const del = verb === "delete";

  if (top === "vlans") {
    const name = rest[0];
    if (!name || !VLAN_NAME.test(name)) throw syntax(name);
    const path = `[edit vlans ${name}]`;
    if (verb === "rename") {
      if (rest[1] !== "to" || !rest[2] || !VLAN_NAME.test(rest[2]) || rest.length !== 3) throw syntax(rest[1], path);
      if (!c.vlans.has(name)) throw new StatementError(`statement not found: vlans ${name}`, path, name);
      if (c.vlans.has(rest[2])) throw new StatementError(`vlans ${rest[2]} already exists`, path, rest[2]);
      const id = c.vlans.get(name)!;
      c.vlans.delete(name);
      c.vlans.set(rest[2], id);
      return;
    }
    if (del && rest.length === 1) {
      if (!c.vlans.has(name)) throw new StatementError(`statement not found: vlans ${name}`, path, name);
      c.vlans.delete(name);
      return;
    }
    if (rest[1] !== "vlan-id") throw syntax(rest[1], path);
    if (del) {
      c.vlans.set(name, null);
      return;
    }
    if (rest.length !== 3) throw syntax(rest[3], path);
    c.vlans.set(name, vlanIdWord(rest[2], path));
    return;
  }

  if (top === "poe") {
    if (rest[0] !== "interface" || rest[2] !== "disable" || rest.length !== 3 || verb === "rename")
      throw syntax(rest[0]);
    const port = c.ports.get(rest[1]);
    if (!port) throw new StatementError(`interface ${rest[1]} does not exist`, `[edit poe interface]`, rest[1]);
    port.poeDisable = !del;
    return;
  }

  if (top !== "interfaces" || verb === "rename") throw syntax(top, "[edit]");
  const ifname = rest[0];
  const port = ifname ? c.ports.get(ifname) : undefined;
  const path = `[edit interfaces ${ifname ?? ""}]`;
  if (!port)
    throw new StatementError(
      `interface ${ifname ?? "(none)"} does not exist`,
      "[edit interfaces]",
      ifname ?? "interfaces",
    );
  const [what, ...args] = rest.slice(1);
  if (what === "disable" && args.length === 0) {
    port.disable = !del;
    return;
  }
  if (what === "description") {
    if (del) {
      if (args.length !== 0) throw syntax(args[0], path);
      port.description = null;
      return;
    }
    if (args.length !== 1) throw syntax(args[1] ?? "description", path);
    if (/\p{Cc}/u.test(args[0])) throw new StatementError("invalid description", path, "description");
    port.description = args[0];
    return;
  }
  if (what === "native-vlan-id" && style === "els") {
    if (args.length !== (del ? 0 : 1) && !(del && args.length === 1)) throw syntax(args[1] ?? what, path);
    port.native = del ? null : vlanIdWord(args[0], path);
    return;
  }
  if (what !== "unit" || args[0] !== "0" || args[1] !== "family" || args[2] !== "ethernet-switching")
    throw syntax(what, path);
  const esPath = `[edit interfaces ${ifname} unit 0 family ethernet-switching]`;
  const [leaf, ...values] = args.slice(3);
  if (leaf === undefined) {
    if (del) {
      port.mode = null;
      port.members = [];
      if (style === "legacy") port.native = null;
    } else if (port.mode === null) port.mode = "access";
    return;
  }
  const modeWord = style === "els" ? "interface-mode" : "port-mode";
  if (leaf === modeWord) {
    if (del) {
      port.mode = port.mode === null ? null : "access";
      return;
    }
    if (values.length !== 1 || (values[0] !== "access" && values[0] !== "trunk"))
      throw syntax(values[0] ?? leaf, esPath);
    port.mode = values[0];
    return;
  }
  if (leaf === "native-vlan-id" && style === "legacy") {
    port.native = del ? null : vlanIdWord(values[0], esPath);
    return;
  }
  if (leaf === "vlan") {
    if (port.mode === null) port.mode = "access";
    if (values.length === 0 && del) {
      port.members = [];
      return;
    }
    if (values[0] !== "members") throw syntax(values[0] ?? leaf, esPath);
    let list = values.slice(1);
    if (list[0] === "[") {
      if (list[list.length - 1] !== "]") throw syntax(list[list.length - 1], esPath);
      list = list.slice(1, -1);
    }
    if (del && list.length === 0) {
      port.members = [];
      return;
    }
    if (list.length === 0) throw syntax("members", esPath);
    for (const m of list) {
      if (m === "all") {
        port.members = del ? [] : "all";
        continue;
      }
      if (!VLAN_NAME.test(m)) throw syntax(m, esPath);
      const member: Member = /^\d+$/.test(m) ? vlanIdWord(m, esPath) : (c.vlans.get(m) ?? m);
      if (port.members === "all") {
        if (del) throw new StatementError(`statement not found: vlan members ${m}`, esPath, m);
        continue;
      }
      const at = port.members.findIndex((x) => x === member);
      if (del) {
        if (at < 0) throw new StatementError(`statement not found: vlan members ${m}`, esPath, m);
        port.members.splice(at, 1);
      } else if (at < 0) port.members.push(member);
    }
    return;
  }
  throw syntax(leaf, esPath);
}

const portKey = (p: JunosPort | undefined) =>
  p
    ? JSON.stringify({
        mode: p.mode,
        members: p.members === "all" ? "all" : [...p.members].map(String).sort(),
        native: p.native,
      })
    : "";

/**
 * The model configuration `c` makes from `base` (the running configuration it was made
 * from), or the commit errors Junos would give. Only the switch ports whose switching
 * statements changed are reconfigured.
 */
export function junosToModel(
  model: VirtualSwitch,
  c: JunosConfig,
  base: SwitchConfig,
): { config: SwitchConfig; errors: string[] } {
  const errors: string[] = [];
  const next = cloneConfig(base);
  const before = junosFromModel(model, base);
  const ids = new Map<number, string>();
  for (const [name, id] of c.vlans) {
    if (id === null) errors.push(`vlans ${name}: vlan-id must be configured`);
    else if (ids.has(id)) errors.push(`vlans ${name}: vlan-id ${id} is already used by vlans ${ids.get(id)}`);
    else ids.set(id, name);
  }
  const resolve = (m: Member, where: string): number | null => {
    if (typeof m === "number") {
      if (ids.has(m)) return m;
      errors.push(`${where}: vlan ${m} is not defined`);
      return null;
    }
    const id = c.vlans.get(m);
    if (id === undefined || id === null) {
      errors.push(`${where}: vlan ${m} is not defined`);
      return null;
    }
    return id;
  };
  // VLANs made and renamed first: ports may name them
  const created: number[] = [];
  for (const [id, name] of ids) {
    const v = next.vlans.get(id);
    if (v) v.name = name;
    else {
      next.vlans.set(id, { name, active: true, egress: new Set(), untagged: new Set() });
      created.push(id);
    }
  }
  for (const i of model.interfaces) {
    const p = c.ports.get(i.name);
    if (!p) continue;
    const s = next.ports.get(i.ifIndex);
    if (s) {
      s.adminUp = !p.disable;
      s.alias = p.description ?? "";
      if (i.poe) s.poeEnabled = !p.poeDisable;
    }
    if (i.bridgePort === null) {
      if (p.mode !== null) errors.push(`interface ${i.name}: family ethernet-switching is not supported here`);
      continue;
    }
    const where = `interface ${i.name}.0`;
    if (p.mode === null) {
      errors.push(`${where}: a switch port of this lab needs family ethernet-switching`);
      continue;
    }
    if (portKey(p) === portKey(before.ports.get(i.name))) continue;
    const bp = i.bridgePort;
    if (p.mode === "access") {
      const list = p.members === "all" ? null : p.members.map((m) => resolve(m, where));
      if (!list || list.length !== 1) {
        errors.push(`${where}: an access interface must have exactly one vlan member`);
        continue;
      }
      if (list[0] === null) continue;
      setPortMode(next, bp, "access");
      configureSwitchport(next, bp, { access: list[0] });
    } else {
      const list = p.members === "all" ? "all" : p.members.map((m) => resolve(m, where));
      if (list !== "all" && list.some((x) => x === null)) continue;
      const native = p.native ?? switchportOf(base, bp).native;
      if (!ids.has(native)) {
        errors.push(`${where}: native-vlan-id ${native} is not a defined vlan`);
        continue;
      }
      setPortMode(next, bp, "trunk");
      configureSwitchport(next, bp, {
        native,
        allowed: list === "all" ? "all" : new Set(list as number[]),
      });
    }
  }
  for (const id of created) carryNewVlan(next, id);
  // VLANs deleted last: a VLAN a port still names cannot go
  for (const id of [...next.vlans.keys()]) {
    if (ids.has(id)) continue;
    const users = [...c.ports].filter(([, p]) => p.native === id || (p.members !== "all" && p.members.includes(id)));
    if (users.length > 0) {
      errors.push(`vlan ${id} is still used by interface ${users.map(([n]) => n).join(", ")}`);
      continue;
    }
    next.vlans.delete(id);
    for (const [bp, pvid] of next.pvid)
      if (pvid === id) errors.push(`vlan ${id} is still the native vlan of port ${bp}`);
  }
  return { config: next, errors };
}

/** the two configurations say the same */
export function sameJunos(a: JunosConfig, b: JunosConfig): boolean {
  if (a.vlans.size !== b.vlans.size || a.ports.size !== b.ports.size) return false;
  for (const [k, v] of a.vlans) if (b.vlans.get(k) !== v) return false;
  for (const [k, p] of a.ports) {
    const q = b.ports.get(k);
    if (!q || portKey(p) !== portKey(q)) return false;
    if (p.disable !== q.disable || p.description !== q.description || p.poeDisable !== q.poeDisable) return false;
  }
  return true;
}
